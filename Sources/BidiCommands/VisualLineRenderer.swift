import ArabicShaping
import UnicodeBidi

/// Writes lines in visual order for `bidi-lsp visual`: UAX #9 through the
/// `UnicodeBidi` API (P1–I2, L1–L2, L3 with `--combining-marks
/// after-base`, L4), the bidi controls as `--controls` asks, Arabic joined
/// by `ArabicShaper` when `--shape` applies, and ill-formed UTF-8 as U+FFFD
/// (one per byte, as the paragraph counts them).
///
/// A line with nothing to reorder is copied as it is: printable ASCII in a
/// paragraph that is not forced right to left, and any text whose classes
/// all resolve to level 0 (`BidiParagraph.isUniformlyLeftToRight`), once it is known
/// to be well-formed and to hold no mark that `--controls` changes. Other
/// lines are analysed paragraph by paragraph, and each is written straight
/// from its runs (`BidiParagraph.writeLineVisualUTF8`: L1–L2 on the stack,
/// no `BidiLine` made), without maps.
struct VisualLineRenderer: ~Copyable {
  let options: VisualOptions
  /// Joins the Arabic letters of each line when `options.shapes`.
  var shaper = ArabicShaper()
  init(options: VisualOptions) { self.options = options }

  /// The longest line analysed before it is split into paragraphs.
  static let analysedWhole = 1 << 16

  /// The most bytes `render` writes for `count` bytes of input
  /// (`BidiLine.visualUTF8Bound`: a U+FFFD for each ill-formed byte at
  /// worst).
  static func outputBound(_ count: Int) -> Int { BidiLine.visualUTF8Bound(utf8Length: count) }

  /// Writes the visual order of `line` (its bytes without the terminator)
  /// to `output`, which has room for `outputBound(line.count)` bytes.
  /// Returns the level of the line's first paragraph (0 for an empty line).
  mutating func render(_ line: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer) -> UInt8 {
    guard let base = line.baseAddress, !line.isEmpty else { return options.direction == .rightToLeft ? 1 : 0 }
    if options.direction != .rightToLeft && ByteScan.isPrintableASCII(line) {
      output.append(base, count: line.count)
      return 0
    }
    // Most lines are one paragraph: analysed at once, and split (P1) only
    // when the analysis finds a separator. A long line is split first: an
    // analysis of a few MiB of paragraphs to throw away would cost tens of
    // MiB.
    if line.count <= Self.analysedWhole,
      let level = renderParagraph(line, unlessSeparated: true, into: &output)
    {
      return level
    }
    var first: UInt8?
    for range in BidiParagraph.paragraphRanges(utf8: line) {
      let level = renderParagraph(UnsafeBufferPointer(rebasing: line[range]), unlessSeparated: false, into: &output)
      if first == nil { first = level }
    }
    return first ?? 0
  }

  /// One paragraph (P1 already applied, or with `unlessSeparated` not
  /// needed: nil and nothing written when the text holds a separator);
  /// returns its level.
  private mutating func renderParagraph(
    _ text: UnsafeBufferPointer<UInt8>, unlessSeparated: Bool, into output: inout OutputBuffer
  ) -> UInt8? {
    // Text at level 0 everywhere is copied whole, separators and all (each
    // of its paragraphs would be).
    if BidiParagraph.isUniformlyLeftToRight(utf8: text, direction: options.direction), isCopyable(text) {
      output.append(text.baseAddress!, count: text.count)
      return 0
    }
    let paragraph = BidiParagraph(utf8: text, direction: options.direction)
    if unlessSeparated && paragraph.holdsParagraphSeparator { return nil }
    // The paragraph is one display line: written from its runs on the
    // stack, without making a `BidiLine`.
    let marks = options.combiningMarks
    let end = output.base + output.count
    output.count +=
      options.shapes
      ? shaper.writeLineVisualUTF8(
        paragraph, combiningMarks: marks, mirrored: true, controls: options.controls, to: end)
      : paragraph.writeLineVisualUTF8(combiningMarks: marks, mirrored: true, controls: options.controls, to: end)
    return paragraph.level
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
}
