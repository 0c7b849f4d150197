import UnicodeBidi
import XCTest

final class ResolverScratchTests: XCTestCase {
  /// Paragraphs long enough for scratch memory off the stack (explicit
  /// controls, over a thousand bytes of it) resolve to the same levels
  /// whatever the kept block held before: the resolver reads none of it
  /// before writing it.
  func testLevelsDoNotDependOnWhatTheScratchHeld() {
    let pieces = [
      "\u{5D0}\u{5D1} abc \u{2067}\u{5D2} 12 def\u{2069} (gh) ",
      "\u{202B}xyz \u{661}\u{662}\u{202C} \u{2068}\u{627}\u{628}\u{2069} 3.5% ",
      "\u{2066}ij \u{2067}\u{5D3}\u{2069} kl\u{2069} \u{200F}-7 ",
    ]
    var paragraphs: [[UInt8]] = []
    for n in [3, 7, 20, 60] {
      var text = ""
      for k in 0..<n { text += pieces[k % pieces.count] }
      paragraphs.append(Array(text.utf8))
    }
    func resolveAll(scratchFill: UInt8) -> [[BidiLevel]] {
      let blocks = ResolverScratch.blocks
      let block = blocks.take(blocks.limit / 2)
      block.initializeMemory(as: UInt8.self, repeating: scratchFill, count: blocks.limit / 2)
      blocks.give(block)
      return paragraphs.map { BidiParagraph(utf8: $0).levels(in: .utf32) }
    }
    // Bytes that read as the classes L, R and ON (and as small positions
    // and levels), so that a read before a write changes the levels rather
    // than crashing.
    let zeros = resolveAll(scratchFill: 0)
    XCTAssertEqual(zeros, resolveAll(scratchFill: 1))
    XCTAssertEqual(zeros, resolveAll(scratchFill: 13))
  }
}
