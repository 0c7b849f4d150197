import BidiTestSupport
import StructuredText
import XCTest

@testable import Localization

/// A lazily read index (`init(_:format:through:)`, `read(_:through:)`)
/// answers for the lines it has read exactly what a full read answers, and
/// read to its end equals a full read, whatever edits came in between,
/// before, across or after its frontier.
final class LazyIndexTests: XCTestCase {
  typealias Shapes = IncrementalIndexTests

  func testReadingOnDemandMatchesAFullRead() {
    for format in LocalizationFormat.allCases {
      var generator = SeededGenerator(seed: UInt64(format.rawValue.utf8.reduce(11) { $0 &* 31 &+ UInt64($1) }))
      let (head, tail) = Shapes.frame(format)
      var lines = head
      for k in 0..<150 { lines += Shapes.entryLines(format, k) }
      lines += tail
      var pool: [String] = []
      for k in 0..<40 { pool += Shapes.entryLines(format, 2000 + k) }
      var index = StructuredIndex(TextLines(lines.joined(separator: "\n")), format: format, through: 0)
      var partialSeen = format == .arb
      for step in 0..<300 {
        if index.isComplete, Int.random(in: 0..<4, using: &generator) == 0 {
          // Start again lazily, from a random line.
          let through = Int.random(in: 0..<lines.count, using: &generator)
          index = StructuredIndex(TextLines(lines.joined(separator: "\n")), format: format, through: through)
        }
        partialSeen = partialSeen || !index.isComplete
        let start = Int.random(in: 0...lines.count - 1, using: &generator)
        let length = Int.random(in: 0...min(3, lines.count - start), using: &generator)
        var replacement: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
          replacement.append(
            Int.random(in: 0..<25, using: &generator) == 0
              ? Shapes.breakers.randomElement(using: &generator)! : pool.randomElement(using: &generator)!)
        }
        if lines.count - length + replacement.count == 0 { replacement = [""] }
        lines.replaceSubrange(start..<start + length, with: replacement)
        let text = TextLines(lines.joined(separator: "\n"))
        index.edit(text, replacing: start..<start + length, newLineCount: replacement.count)
        let fresh = StructuredIndex(text, format: format)
        // A request on some lines reads through them and answers as a full read.
        let asked = Int.random(in: 0..<lines.count, using: &generator)
        index.read(text, through: asked)
        let window = max(0, asked - 4)..<asked + 1
        guard index.entries(touching: window) == fresh.entries(touching: window) else {
          XCTFail("\(format) step \(step): values touching \(window) differ after edit \(start)..<\(start + length)")
          return
        }
        if Int.random(in: 0..<6, using: &generator) == 0 {
          index.read(text, through: Int.max)
          XCTAssertTrue(index.isComplete, "\(format) step \(step)")
          guard index.allItems == fresh.allItems, index.error == fresh.error,
            index.allCheckpoints == fresh.allCheckpoints
          else {
            XCTFail(
              "\(format) step \(step): read through the end, items \(index.allItems.count) vs \(fresh.allItems.count), error \(String(describing: index.error)) vs \(String(describing: fresh.error))"
            )
            return
          }
          XCTAssertEqual(index.entries, fresh.entries, "\(format) step \(step)")
          XCTAssertEqual(index.spelling, fresh.spelling, "\(format) step \(step)")
          XCTAssertEqual(index.contentLocale, fresh.contentLocale, "\(format) step \(step)")
        }
      }
      XCTAssertTrue(partialSeen, "\(format): the test never saw a partly read index")
    }
  }

  func testAFirstRequestReadsOnlyUpToItsLines() {
    for format in [LocalizationFormat.strings, .po, .android, .xliff] {
      let (head, tail) = Shapes.frame(format)
      var lines = head
      for k in 0..<5000 { lines += Shapes.entryLines(format, k) }
      lines += tail
      let text = TextLines(lines.joined(separator: "\n"))
      var index = StructuredIndex(text, format: format, through: 40)
      XCTAssertFalse(index.isComplete, "\(format)")
      XCTAssertLessThan(index.allItems.count, 100, "\(format): read past the lines asked for")
      let full = StructuredIndex(text, format: format)
      XCTAssertEqual(index.entries(touching: 0..<41), full.entries(touching: 0..<41), "\(format)")
      // An edit past the frontier reads nothing; the rest is read from the frontier.
      index.edit(text, replacing: 3000..<3000, newLineCount: 0)
      XCTAssertEqual(index.lastReadItemCount, 0, "\(format)")
      index.read(text, through: Int.max)
      XCTAssertTrue(index.isComplete, "\(format)")
      XCTAssertEqual(index.allItems, full.allItems, "\(format)")
      XCTAssertEqual(index.allCheckpoints, full.allCheckpoints, "\(format)")
    }
  }
}
