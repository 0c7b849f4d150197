import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

/// The projection of a paragraph of text alone (no atom, markup or
/// character reference), filled in one pass, against the general
/// projection: an empty markup range at the paragraph's start covers no
/// byte but sends the same text through the general loop. Random texts of
/// every UTF-8 length, bidi controls, paragraph separators and U+FFFD.
final class ParagraphProjectionTextTests: XCTestCase {
  static let pieces = [
    "a", "Apple Pay", " ", "1", "مرحبا", "ש", "کتاب", "\u{200F}", "\u{202B}", "\u{2067}", "\u{2069}", "\u{061C}", "😀",
    "\u{FFFD}", "\u{10900}", "\n", "\r\n", "\u{2029}", "\u{85}", "\t", "é", "\u{0651}", "€",
  ]

  func testTextAloneEqualsTheGeneralProjection() {
    var random = SeededGenerator(seed: 2_027)
    var compared = 0
    for _ in 0..<3_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...20, using: &random) { text += Self.pieces.randomElement(using: &random)! }
      var plain = TextEntry(
        key: "", text: text, map: SourceMap(), content: SourceRange(at: SourcePosition(line: 0, column: 0)),
        firstLine: 0)
      let bytes = Array(text.utf8)
      let paragraphs = bytes.withUnsafeBufferPointer { BidiParagraph.paragraphRanges(utf8: $0) }
      plain.paragraphs = paragraphs.isEmpty ? [0..<0] : paragraphs
      for paragraph in plain.paragraphs.indices {
        var general = plain
        let start = plain.paragraphs[paragraph].lowerBound
        general.markup = [start..<start]
        for filled in [false, true] {
          let fast = ParagraphProjection(plain, paragraph: paragraph, filled: filled)
          let slow = ParagraphProjection(general, paragraph: paragraph, filled: filled)
          XCTAssertEqual(fast.scalars, slow.scalars, text.debugDescription)
          XCTAssertEqual(fast.ranges, slow.ranges, text.debugDescription)
          XCTAssertEqual(fast.offsets, slow.offsets, text.debugDescription)
          XCTAssertEqual(fast.content, slow.content, text.debugDescription)
          XCTAssertEqual(fast.atomScalars, slow.atomScalars, text.debugDescription)
          compared += 1
        }
      }
    }
    XCTAssertGreaterThan(compared, 6_000)
  }
}
