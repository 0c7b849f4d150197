import ByteWords

// A whole paragraph's display line written by copying its own UTF-8
// (`BidiParagraph.writeLineVisualUTF8(utf8:…)`, the visual order of
// `bidi-lsp check` and `bidi-lsp visual`): the bytes of each character are
// copied, not encoded again from its scalar value. A left-to-right run is
// copied forwards (printable ASCII a word at a time), a right-to-left run
// backwards from its last byte, each character's bytes in order (L2); the
// characters that are written otherwise (L4's mirrored glyphs, the
// characters X9 removes, the controls named or stripped) are left to
// `VisualUTF8Writer.character`, as are all those whose first byte some of
// them share. The runs' ends, character offsets, become byte offsets by
// counting the bytes that start a character (`UTF8Offsets`).

extension VisualUTF8Writer where Joiner == NoJoiner {
  /// Writes the `count` runs from `runs` on in visual order (L2), as
  /// `write` does without L3's clusters, copying the characters' bytes
  /// from `offsets.bytes` (the paragraph's UTF-8, well-formed). Returns the
  /// number of bytes written.
  @inline(__always)
  func writeCopying(
    _ runs: UnsafePointer<BidiRun>, _ count: Int, _ offsets: inout UTF8Offsets, to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var p = output
    let bytes = offsets.bytes
    for k in 0..<count {
      let run = runs[k]
      if run.level & 1 == 0 {
        let start = offsets.offset(of: run.start)
        let (written, end) = copyLeftToRight(run.start, run.end, bytes + start, p)
        p = written
        offsets.know(run.start, start, run.end, end - bytes)
      } else {
        let end = offsets.offset(of: run.end)
        let (written, start) = copyRightToLeft(run.start, run.end, bytes + end, p)
        p = written
        offsets.know(run.start, start - bytes, run.end, end)
      }
    }
    return p - output
  }

  /// Characters `first..<end`, whose bytes start at `from`, in logical
  /// order from `p` on; returns the end of what was written and of what
  /// was read.
  @inline(__always)
  func copyLeftToRight(
    _ first: Int, _ end: Int, _ from: UnsafePointer<UInt8>, _ p: UnsafeMutablePointer<UInt8>
  ) -> (UnsafeMutablePointer<UInt8>, UnsafePointer<UInt8>) {
    var p = p
    var q = from
    var i = first
    while i < end {
      // Eight characters of printable ASCII, when the run has eight more.
      if i &+ 8 <= end {
        let word = ByteWord.load(q, 0)
        if ByteWord.isPrintableASCII(word) {
          UnsafeMutableRawPointer(p).storeBytes(of: word.littleEndian, as: UInt64.self)
          p += 8
          q += 8
          i &+= 8
          continue
        }
      }
      let b = q[0]
      if b &- 0x20 < 0x5F {
        p[0] = b
        p += 1
        q += 1
      } else if Self.isCopiedLeadOfTwo(b, q) {
        p[0] = b
        p[1] = q[1]
        p += 2
        q += 2
      } else if Self.isCopiedLeadOfThreeLeftToRight(b) {
        p[0] = b
        p[1] = q[1]
        p[2] = q[2]
        p += 3
        q += 3
      } else {
        let (written, length) = notCopied(i, rightToLeft: false, p)
        p = written
        q += length
      }
      i &+= 1
    }
    return (p, q)
  }

  /// Characters `first..<end`, a right-to-left run whose bytes end at
  /// `to`, in reverse order from `p` on; returns the end of what was
  /// written and the start of what was read.
  @inline(__always)
  func copyRightToLeft(
    _ first: Int, _ end: Int, _ to: UnsafePointer<UInt8>, _ p: UnsafeMutablePointer<UInt8>
  ) -> (UnsafeMutablePointer<UInt8>, UnsafePointer<UInt8>) {
    var p = p
    var q = to
    var i = end
    while i > first {
      i &-= 1
      // The last byte of character `i`: ASCII, or the last continuation
      // byte of a sequence whose lead is one or two bytes before it.
      let last = q[-1]
      if last < 0x80 {
        if !Self.isChangedASCIIRightToLeft(last) {
          p[0] = last
          p += 1
          q -= 1
          continue
        }
      } else {
        let before = q[-2]
        if Self.isCopiedLeadOfTwo(before, q - 2) {
          p[0] = before
          p[1] = last
          p += 2
          q -= 2
          continue
        }
        if before < 0xC0 && Self.isCopiedLeadOfThreeRightToLeft(q[-3]) {
          p[0] = q[-3]
          p[1] = before
          p[2] = last
          p += 3
          q -= 3
          continue
        }
      }
      let (written, length) = notCopied(i, rightToLeft: true, p)
      p = written
      q -= length
    }
    return (p, q)
  }

  /// Character `i` as `character` writes it, and the number of its bytes
  /// in the paragraph's UTF-8: a character X9 removes, written as nothing
  /// unless the controls are named, at once, the others by
  /// `writtenOtherwise`.
  @inline(__always)
  func notCopied(_ i: Int, rightToLeft: Bool, _ p: UnsafeMutablePointer<UInt8>) -> (UnsafeMutablePointer<UInt8>, Int) {
    if levels[i] & ParagraphStorage.removedBit != 0 && controls != .names {
      return (p, UTF8Encoder.width(scalars[i]))
    }
    return writtenOtherwise(i, rightToLeft: rightToLeft, p)
  }

  /// Character `i` as `character` writes it, and the number of its bytes
  /// in the paragraph's UTF-8: the characters the copying loops leave.
  /// Out of line, so that the loops stay small.
  @inline(never)
  func writtenOtherwise(
    _ i: Int, rightToLeft: Bool, _ p: UnsafeMutablePointer<UInt8>
  ) -> (UnsafeMutablePointer<UInt8>, Int) {
    (character(i, rightToLeft: rightToLeft, p), UTF8Encoder.width(scalars[i]))
  }

  /// Whether `lead`, at `at`, starts a character of two bytes that is
  /// written as it is in either direction: a lead of U+00C0...U+07FF
  /// (0xC3...0xDF) but ALM's (0xD8 0x9C), a control that X9 keeps.
  /// Under 0xC2 lie the C1 controls and the soft hyphen (removed by X9)
  /// and the two mirrored quotation marks (L4), which are not copied.
  @inline(__always)
  static func isCopiedLeadOfTwo(_ lead: UInt8, _ at: UnsafePointer<UInt8>) -> Bool {
    lead &- 0xC3 < 0x1D && (lead != 0xD8 || at[1] != 0x9C)
  }

  /// Whether a character of three bytes led by `lead` is written as it is
  /// in a left-to-right run: 0xE0 (U+0800...U+0FFF) and 0xE3...0xEE
  /// (U+3000...U+EFFF) hold no character that X9 removes nor a control
  /// (0xE1, 0xE2 and 0xEF hold some); mirrored glyphs do not matter there.
  @inline(__always)
  static func isCopiedLeadOfThreeLeftToRight(_ lead: UInt8) -> Bool {
    lead == 0xE0 || lead &- 0xE3 < 0x0C
  }

  /// Whether a character of three bytes led by `lead` is written as it is
  /// in a right-to-left run: 0xE4...0xEE (U+4000...U+EFFF), where, besides
  /// what `isCopiedLeadOfThreeLeftToRight` excludes, no character has a
  /// mirrored glyph (0xE0 and 0xE3 hold some).
  @inline(__always)
  static func isCopiedLeadOfThreeRightToLeft(_ lead: UInt8) -> Bool {
    lead &- 0xE4 < 0x0B
  }

  /// Whether the ASCII byte `b` is not copied in a right-to-left run: a
  /// control (U+0000...U+001F and U+007F, some removed by X9) or a
  /// character with a mirrored glyph (L4: `(`, `)`, `<`, `>`, `[`, `]`,
  /// `{`, `}`), by a mask of 128 bits.
  @inline(__always)
  static func isChangedASCIIRightToLeft(_ b: UInt8) -> Bool {
    let low: UInt64 = 0xFFFF_FFFF | 1 << 0x28 | 1 << 0x29 | 1 << 0x3C | 1 << 0x3E
    let high: UInt64 = 1 << (0x5B - 64) | 1 << (0x5D - 64) | 1 << (0x7B - 64) | 1 << (0x7D - 64) | 1 << (0x7F - 64)
    return (b < 64 ? low : high) &>> UInt64(b & 63) & 1 != 0
  }
}

/// The byte offsets of characters in a paragraph's well-formed UTF-8,
/// found by counting the bytes that start a character
/// (`ByteWord.sequenceStarts`, a word at a time) from the nearest offset
/// known: the paragraph's start and end, and the ends of the run written
/// last (in visual order the next run is mostly its logical neighbour).
struct UTF8Offsets {
  let bytes: UnsafePointer<UInt8>
  let length: Int
  /// The number of characters.
  let count: Int
  /// The characters whose offsets are known besides 0 and `count`.
  private var first = (character: 0, byte: 0)
  private var second = (character: 0, byte: 0)

  init(_ bytes: UnsafePointer<UInt8>, length: Int, count: Int) {
    self.bytes = bytes
    self.length = length
    self.count = count
  }

  /// Records the offsets of characters `a` and `b`.
  @inline(__always)
  mutating func know(_ a: Int, _ aByte: Int, _ b: Int, _ bByte: Int) {
    first = (a, aByte)
    second = (b, bByte)
  }

  /// The byte offset of character `target` (0...`count`).
  @inline(__always)
  func offset(of target: Int) -> Int {
    if length == count { return target }
    if target == first.character { return first.byte }
    if target == second.character { return second.byte }
    var from = target <= count &- target ? (character: 0, byte: 0) : (character: count, byte: length)
    var distance = min(target, count &- target)
    if abs(first.character &- target) < distance {
      from = first
      distance = abs(first.character &- target)
    }
    if abs(second.character &- target) < distance { from = second }
    return from.character <= target
      ? Self.forward(bytes, length, from.byte, skipping: target &- from.character)
      : Self.backward(bytes, from.byte, skipping: from.character &- target)
  }

  /// The offset of the character `n` characters after the one at offset
  /// `start` in `bytes[0..<length]` (`length` for the end).
  @inline(never)
  static func forward(_ bytes: UnsafePointer<UInt8>, _ length: Int, _ start: Int, skipping n: Int) -> Int {
    // Mostly ASCII: the `n` characters are the next `n` bytes.
    if start &+ n <= length && isASCII(bytes, start, start &+ n) { return start &+ n }
    var at = start
    var remaining = n
    while at &+ 8 <= length {
      let starts = ByteWord.sequenceStarts(ByteWord.load(bytes, at))
      let k = ByteWord.countFlagged(starts)
      if k > remaining {
        // The character is the one of the flag after `remaining` others.
        var flags = starts
        for _ in 0..<remaining { flags &= flags &- 1 }
        return at &+ ByteWord.firstFlagged(flags)
      }
      remaining &-= k
      at &+= 8
    }
    while at < length {
      if bytes[at] & 0xC0 != 0x80 {
        if remaining == 0 { return at }
        remaining &-= 1
      }
      at &+= 1
    }
    return length
  }

  /// The offset of the character `n` (at least 1) characters before the
  /// one at offset `end` in `bytes` (or the end).
  @inline(never)
  static func backward(_ bytes: UnsafePointer<UInt8>, _ end: Int, skipping n: Int) -> Int {
    if n <= end && isASCII(bytes, end &- n, end) { return end &- n }
    var at = end
    var remaining = n
    while at >= 8 {
      let starts = ByteWord.sequenceStarts(ByteWord.load(bytes, at &- 8))
      let k = ByteWord.countFlagged(starts)
      if k >= remaining {
        // The `remaining`-th flag from the last one.
        var flags = starts
        for _ in 0..<(k &- remaining) { flags &= flags &- 1 }
        return at &- 8 &+ ByteWord.firstFlagged(flags)
      }
      remaining &-= k
      at &-= 8
    }
    while at > 0 {
      at &-= 1
      if bytes[at] & 0xC0 != 0x80 {
        remaining &-= 1
        if remaining == 0 { return at }
      }
    }
    return 0
  }
}

extension UTF8Offsets {
  /// Whether `bytes[start..<end]` (`end` > `start`) are all ASCII, looked at a word at a
  /// time (the last word ending at `end`, its bytes before `start` shifted
  /// out).
  @inline(__always)
  static func isASCII(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    guard end >= 8 else {
      for k in start..<end where bytes[k] >= 0x80 { return false }
      return true
    }
    var any: UInt64 = 0
    var at = start
    while at &+ 8 <= end {
      any |= ByteWord.load(bytes, at)
      at &+= 8
    }
    if at < end { any |= ByteWord.load(bytes, end &- 8) &>> UInt64(truncatingIfNeeded: 8 &* (8 &- (end &- at))) }
    return !ByteWord.hasNonASCII(any)
  }
}

extension BidiParagraph {
  /// True when the paragraph holds a character of ill-formed UTF-8 (whose
  /// mark, past U+10FFFF, is of class ON): the scalar values are looked at
  /// two at a time, the bit 31 of each half set by a sum for a mark.
  var holdsIllFormedUTF8: Bool {
    guard storage.present.contains(.ON) else { return false }
    let scalars = storage.scalars
    let count = storage.count
    let past: UInt64 = 0x7FEF_0000_7FEF_0000
    var sums: UInt64 = 0
    var i = 0
    while i &+ 2 <= count {
      sums |= UnsafeRawPointer(scalars + i).loadUnaligned(as: UInt64.self) &+ past
      i &+= 2
    }
    if i < count { sums |= UInt64(scalars[i]) &+ past }
    return sums & 0x8000_0000_8000_0000 != 0
  }

  /// The whole paragraph's runs (L1–L2, on the stack) written by `writer`
  /// copying `utf8`, the paragraph's well-formed UTF-8.
  @inline(__always)
  func writeLineCopying(
    _ writer: VisualUTF8Writer<NoJoiner>, _ utf8: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    guard let base = utf8.baseAddress, storage.count > 0 else { return 0 }
    var offsets = UTF8Offsets(base, length: utf8.count, count: storage.count)
    return LineLayout.withWholeLineRuns(storage) { runs, count in
      writer.writeCopying(runs, count, &offsets, to: output)
    }
  }
}
