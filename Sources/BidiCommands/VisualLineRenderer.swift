import UnicodeBidi

/// Writes lines in visual order for `bidi-lsp visual`: UAX #9 through the
/// `UnicodeBidi` API (P1–I2, L1–L2, L3 with `--combining-marks
/// after-base`, L4), the bidi controls as `--controls` asks, and ill-formed
/// UTF-8 as U+FFFD (one per byte, as the paragraph counts them).
///
/// A line with nothing to reorder is copied as it is: printable ASCII in a
/// paragraph that is not forced right to left, and any text whose classes
/// all resolve to level 0 (`BidiParagraph.uniformLevel`), once it is known
/// to be well-formed and to hold no mark that `--controls` changes. Other
/// lines are analysed paragraph by paragraph; their left-to-right runs are
/// copied span by span and only their right-to-left runs are written
/// character by character.
struct VisualLineRenderer {
  let options: VisualOptions
  /// The visual-to-logical map of the current paragraph, in characters,
  /// and the byte offset of each character (both reused).
  private var map: [Int] = []
  private var starts: [Int] = []

  init(options: VisualOptions) { self.options = options }

  /// The most bytes `render` writes for `count` bytes of input: a U+FFFD
  /// (3 bytes) for each ill-formed byte at worst, or a name (`[LRI]`,
  /// 5 bytes) for each 3-byte control.
  static func outputBound(_ count: Int) -> Int { 3 * count }

  /// Writes the visual order of `line` (its bytes without the terminator)
  /// to `output`, which has room for `outputBound(line.count)` bytes.
  /// Returns the level of the line's first paragraph (0 for an empty line).
  mutating func render(_ line: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer) -> UInt8 {
    guard let base = line.baseAddress, !line.isEmpty else { return options.direction == .rightToLeft ? 1 : 0 }
    if options.direction != .rightToLeft && ByteScan.isPrintableASCII(line) {
      output.append(base, count: line.count)
      return 0
    }
    guard ParagraphSeparators.contains(line) else { return renderParagraph(line, into: &output) }
    var first: UInt8?
    for range in BidiParagraph.paragraphRanges(utf8: line) {
      let level = renderParagraph(UnsafeBufferPointer(rebasing: line[range]), into: &output)
      if first == nil { first = level }
    }
    return first ?? 0
  }

  /// One paragraph (P1 already applied); returns its level.
  private mutating func renderParagraph(_ text: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer) -> UInt8 {
    if BidiParagraph.uniformLevel(utf8: text, direction: options.direction) == 0, isCopyable(text) {
      output.append(text.baseAddress!, count: text.count)
      return 0
    }
    let paragraph = BidiParagraph(utf8: text, direction: options.direction)
    let line = paragraph.line(combiningMarks: options.combiningMarks)
    if let level = line.uniformLevel, level & 1 == 0 {
      writeForward(text, 0..<text.count, into: &output)
      return paragraph.level
    }
    // Runs and map in characters (no unit tables), and the byte offset of
    // each character: a well-formed sequence is one character, each byte
    // of an ill-formed one another (as the paragraph counts them).
    let runs = line.runs(in: .utf32)
    if runs.contains(where: { $0.level & 1 == 1 }) { line.visualToLogical(in: .utf32, into: &map) }
    fillCharacterStarts(text, count: paragraph.characterCount)
    var position = 0
    for run in runs {
      let count = run.end - run.start
      if run.level & 1 == 0 {
        writeForward(text, starts[run.start]..<starts[run.end], into: &output)
      } else {
        writeReversed(text, position..<(position + count), into: &output)
      }
      position += count
    }
    return paragraph.level
  }

  /// Sets `starts[k]` to the byte offset of character `k` of `text`, and
  /// `starts[count]` to its length.
  private mutating func fillCharacterStarts(_ text: UnsafeBufferPointer<UInt8>, count: Int) {
    if starts.count < count + 1 { starts = [Int](repeating: 0, count: count + 1) }
    starts.withUnsafeMutableBufferPointer { starts in
      let base = text.baseAddress!
      var i = 0
      var k = 0
      while i < text.count {
        starts[k] = i
        k += 1
        let b = base[i]
        if b < 0x80 {
          i += 1
        } else if b >= 0xC2 && b <= 0xDF && i + 1 < text.count && base[i + 1] & 0xC0 == 0x80 {
          i += 2
        } else {
          let decoded = UTF8Decoder.decodeMultibyte(text, at: i)
          i += decoded.isValid ? decoded.length : 1
        }
      }
      starts[k] = i
    }
  }

  /// Whether a paragraph at level 0 everywhere is written exactly as it
  /// is: well-formed, and without LRM when the controls are changed.
  private func isCopyable(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    do throws(InvalidUTF8) {
      try UTF8Decoder.validate(text)
    } catch {
      return false
    }
    return options.controls == .keep || !ByteScan.containsLRM(text)
  }

  /// Characters `range` of `text` left to right: printable ASCII spans
  /// copied at once, the other characters one by one.
  private func writeForward(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into output: inout OutputBuffer) {
    let base = text.baseAddress!
    var i = range.lowerBound
    let end = range.upperBound
    while i < end {
      let plainEnd = ByteScan.printableASCIIPrefix(text, from: i, to: end)
      if plainEnd > i {
        output.append(base + i, count: plainEnd - i)
        i = plainEnd
        if i == end { break }
      }
      i += writeCharacter(text, at: i, mirrored: false, into: &output)
    }
  }

  /// The characters at visual positions `positions` of the map, a
  /// right-to-left run: each written mirrored (L4).
  private func writeReversed(
    _ text: UnsafeBufferPointer<UInt8>, _ positions: Range<Int>, into output: inout OutputBuffer
  ) {
    map.withUnsafeBufferPointer { map in
      starts.withUnsafeBufferPointer { starts in
        for k in positions { _ = writeCharacter(text, at: starts[map[k]], mirrored: true, into: &output) }
      }
    }
  }

  /// The ASCII characters with a Bidi_Mirroring_Glyph: ( ) < > [ ] { }.
  @inline(__always)
  static func isASCIIBracket(_ b: UInt8) -> Bool {
    switch b {
    case 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x7B, 0x7D: true
    default: false
    }
  }

  /// Writes the character at byte `i` and returns its length in bytes (1
  /// for each byte of an ill-formed sequence).
  @inline(__always)
  private func writeCharacter(
    _ text: UnsafeBufferPointer<UInt8>, at i: Int, mirrored: Bool, into output: inout OutputBuffer
  ) -> Int {
    let base = text.baseAddress!
    let b0 = base[i]
    // Fast paths: printable ASCII other than the mirrored brackets, and the
    // two-byte letters (Arabic, Hebrew, Greek, Cyrillic…): none of them is
    // BN, a control or mirrored (those below U+0800 are U+0080...U+009F,
    // U+00AB, U+00AD, U+00BB, all C2 xx, and ALM, D8 9C).
    if b0 >= 0x20 && b0 < 0x7F {
      if !mirrored || !Self.isASCIIBracket(b0) {
        output.append(b0)
        return 1
      }
    } else if b0 >= 0xC3 && b0 <= 0xDF && i + 1 < text.count && base[i + 1] & 0xC0 == 0x80
      && !(b0 == 0xD8 && base[i + 1] == 0x9C)
    {
      output.append(base + i, count: 2)
      return 2
    }
    let decoded = UTF8Decoder.decode(text, at: i)
    guard decoded.isValid else {
      output.append(scalar: 0xFFFD)
      return 1
    }
    var scalar = decoded.value
    if let control = BidiControl(scalar: scalar) {
      switch options.controls {
      case .keep:
        // X9 removes embeddings, overrides and PDF; isolates and marks stay.
        if !(control.isEmbeddingOrOverride || control == .pdf) {
          output.append(text.baseAddress! + i, count: decoded.length)
        }
      case .strip:
        break
      case .names:
        output.append(0x5B)  // [
        for byte in control.shortName.utf8 { output.append(byte) }
        output.append(0x5D)  // ]
      }
      return decoded.length
    }
    if BidiProperties.bidiClass(scalar) == .BN { return decoded.length }  // X9
    if mirrored, let glyph = BidiProperties.mirroringGlyph(scalar) { scalar = glyph }
    output.append(scalar: scalar)
    return decoded.length
  }
}
