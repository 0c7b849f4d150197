import ByteWords

/// Line breaks counted eight bytes at a time, for `check`'s one-pass read of
/// plain text: LF, CR LF and a lone CR each end a line, as the daemon splits
/// them. Callers pass ranges that no CR LF straddles.
enum LineBreaks {
  /// The number of line breaks in `base[from..<to]`.
  static func count(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    var lf = 0
    var cr = 0
    var pairs = 0
    // Whether the byte before `i` is a CR.
    var afterCR = false
    var i = from
    while i + 8 <= to {
      let word = ByteWord.load(base, i)
      let lfMask = ByteWord.equalBytes(word, 0x0A)
      let crMask = ByteWord.equalBytes(word, 0x0D)
      if lfMask | crMask != 0 {
        lf &+= ByteWord.countFlagged(lfMask)
        cr &+= ByteWord.countFlagged(crMask)
        // A CR followed by an LF in the next byte (little-endian: byte k+1
        // shifted onto byte k), and across the words' boundary.
        pairs &+= ByteWord.countFlagged(crMask & (lfMask >> 8))
        if afterCR && lfMask & 0x80 != 0 { pairs &+= 1 }
      }
      afterCR = crMask >> 63 != 0
      i &+= 8
    }
    while i < to {
      let byte = base[i]
      if byte == 0x0A {
        lf &+= 1
        if afterCR { pairs &+= 1 }
      } else if byte == 0x0D {
        cr &+= 1
      }
      afterCR = byte == 0x0D
      i &+= 1
    }
    return lf &+ cr &- pairs
  }

  /// The offset just past the last LF or CR in `base[from..<to]`, or nil.
  static func lastEnd(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
    var i = to
    while i - 8 >= from {
      let word = ByteWord.load(base, i - 8)
      if ByteWord.contains(word, 0x0A) || ByteWord.contains(word, 0x0D) { break }
      i &-= 8
    }
    while i > from {
      i &-= 1
      if base[i] == 0x0A || base[i] == 0x0D { return i &+ 1 }
    }
    return nil
  }
}
