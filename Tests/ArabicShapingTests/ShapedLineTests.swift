import ArabicShaping
import UnicodeBidi
import XCTest

/// `ArabicShaper` on display lines of real paragraphs: the visual text
/// with Arabic joined, each expected line read from GNU FriBidi 1.0.8's
/// `fribidi --nopad --nobreak` (its U+FEFF after a lam-alef ligature
/// dropped), for the cases where levels decide.
final class ShapedLineTests: XCTestCase {
  func shaped(_ text: String, direction: DirectionChoice = .auto, controls: ControlDisplay = .keep)
    -> [UInt32]
  {
    let paragraph = BidiParagraph(scalars: text.unicodeScalars.map(\.value), direction: direction)
    var shaper = ArabicShaper()
    let line = paragraph.line(combiningMarks: .afterBase)
    return shaper.visualText(line, controls: controls).unicodeScalars.map(\.value)
  }

  func testLinesAsFriBidiShapesThem() {
    let cases: [(String, [UInt32])] = [
      // مرحبا بالعالم
      (
        "\u{645}\u{631}\u{62D}\u{628}\u{627} \u{628}\u{627}\u{644}\u{639}\u{627}\u{644}\u{645}",
        [0xFEE2, 0xFEDF, 0xFE8E, 0xFECC, 0xFEDF, 0xFE8E, 0xFE91, 0x20, 0xFE8E, 0xFE92, 0xFEA3, 0xFEAE, 0xFEE3]
      ),
      // Lam-alef after a beh, marks after the alef.
      ("\u{628}\u{644}\u{627}\u{628}", [0xFE8F, 0xFEFC, 0xFE91]),
      ("\u{644}\u{627}\u{64E}", [0xFEFB, 0x64E]),
      ("\u{644}\u{64E}\u{627}", [0xFE8E, 0xFEDF, 0x64E]),
      // An LRM has level 2 in right-to-left text: the join ends; an RLM
      // or ALM shares the letters' level and is transparent.
      ("\u{628}\u{200E}\u{628}", [0xFE8F, 0x200E, 0xFE8F]),
      ("\u{628}\u{200F}\u{628}", [0xFE90, 0x200F, 0xFE91]),
      ("\u{628}\u{61C}\u{628}", [0xFE90, 0x61C, 0xFE91]),
      // An embedding or an isolate is another level; ZWJ has none.
      ("\u{628}\u{202A}\u{628}\u{202C}\u{628}", [0xFE8F, 0xFE8F, 0xFE8F]),
      ("\u{628}\u{2066}\u{628}\u{2069}\u{628}", [0xFE8F, 0x2069, 0xFE8F, 0x2066, 0xFE8F]),
      ("\u{628}\u{200D}\u{202A}\u{628}\u{202C}", [0xFE90, 0xFE91]),
      // An override puts the letters left to right: the sides swap.
      ("\u{202D}\u{628}\u{628}\u{628}\u{202C}", [0xFE90, 0xFE92, 0xFE91]),
      ("\u{202D}\u{644}\u{627}\u{628}\u{202C}", [0xFEDD, 0xFE8E, 0xFE91]),
      // Left-to-right paragraph, Arabic word inside.
      ("abc \u{628}\u{628} def", [0x61, 0x62, 0x63, 0x20, 0xFE90, 0xFE91, 0x20, 0x64, 0x65, 0x66]),
      ("a \u{628}\u{64E}\u{628}", [0x61, 0x20, 0xFE90, 0xFE91, 0x64E]),
    ]
    for (text, expected) in cases {
      XCTAssertEqual(
        shaped(text).map { String($0, radix: 16) }, expected.map { String($0, radix: 16) },
        text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
    }
  }

  func testWithoutArabicTheLineIsUnchanged() {
    for text in ["plain", "\u{5E9}\u{5DC}\u{5D5}\u{5DD} abc", "a\u{301}b", ""] {
      let paragraph = BidiParagraph(scalars: text.unicodeScalars.map(\.value))
      var shaper = ArabicShaper()
      let line = paragraph.line(combiningMarks: .afterBase)
      XCTAssertEqual(shaper.visualText(line), line.visualText())
    }
  }

  func testEachDisplayLineJoinsByItself() throws {
    // بببب broken after two letters: each line's letters join only each other.
    let paragraph = BidiParagraph(scalars: [0x628, 0x628, 0x628, 0x628])
    let lines = try paragraph.lines(breaks: [2], in: .utf32, combiningMarks: .afterBase)
    var shaper = ArabicShaper()
    XCTAssertEqual(lines.map { shaper.visualText($0) }, ["\u{FE90}\u{FE91}", "\u{FE90}\u{FE91}"])
  }

  func testTheBoundHolds() {
    // Every Arabic letter of two bytes becomes three: within three times.
    let text = String(repeating: "\u{628}", count: 1000)
    let paragraph = BidiParagraph(scalars: text.unicodeScalars.map(\.value))
    var shaper = ArabicShaper()
    let line = paragraph.line(combiningMarks: .afterBase)
    XCTAssertEqual(shaper.visualText(line).utf8.count, 3000)
    XCTAssertLessThanOrEqual(3000, BidiLine.visualUTF8Bound(utf8Length: 2000))
  }
}
