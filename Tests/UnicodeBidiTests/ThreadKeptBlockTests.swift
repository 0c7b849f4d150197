import XCTest

@testable import UnicodeBidi

final class ThreadKeptBlockTests: XCTestCase {
  /// A block given back is taken again for a request it holds; a second
  /// request while it is out gets another.
  func testKeptBlockIsReused() {
    let blocks = ThreadKeptBlock(limit: 1 << 16)
    let first = blocks.take(4000)
    blocks.give(first)
    let (again, other) = (blocks.take(3000), blocks.take(3000))
    XCTAssertEqual([again == first, other == first], [true, false])
    for block in [other, again] { blocks.give(block) }
  }

  /// Paragraphs alive at the same time each hold memory of their own (the
  /// storage's kept block goes to one of them only), and one analysed
  /// after a longer or a shorter one has the levels it has alone.
  func testParagraphsAliveTogetherDoNotShareTheirStorage() {
    let texts = [
      "\u{5D0}\u{5D1} abc \u{2067}\u{5D2} 12 def\u{2069} (gh)",
      String(repeating: "\u{202B}xyz \u{661}\u{662}\u{202C} \u{627}\u{628} 3.5% [q] ", count: 40),
      "abc \u{5D3}\u{5D4}",
      String(repeating: "\u{2066}ij \u{2067}\u{5D3}\u{2069} kl\u{2069} \u{200F}-7 ", count: 9),
    ].map { Array($0.utf8) }
    let alone = texts.map { BidiParagraph(utf8: $0).levels(in: .utf8) }
    let together = texts.map { BidiParagraph(utf8: $0) }
    XCTAssertEqual(together.map { $0.levels(in: .utf8) }, alone)
    XCTAssertEqual(together.reversed().map { $0.levels(in: .utf8) }, alone.reversed())
    let visual = texts.map { BidiParagraph(utf8: $0).line().visualText(mirrored: true) }
    XCTAssertEqual(together.map { $0.line().visualText(mirrored: true) }, visual)
  }
}
