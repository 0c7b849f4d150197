import BidiHazards
import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

/// `TextLines`' scans across lines (`firstLineNotUTF8`,
/// `forEachLineWithHazard`: one scan of the text) against a scan of each
/// line alone (`Cursor.isUTF8`, `HazardBytes.firstHazard`), on texts of
/// letters, controls, CR, LF, CR LF and ill-formed bytes anywhere.
final class WholeTextScanTests: XCTestCase {
  static func text(_ random: inout SeededGenerator) -> TextLines {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 0...24, using: &random) {
      bytes += CursorSkipToEndTests.pieces.randomElement(using: &random)!
    }
    return TextLines(bytes)
  }

  func testFirstLineNotUTF8AgreesWithEachLine() {
    var random = SeededGenerator(seed: 135)
    var found = 0
    for _ in 0..<5_000 {
      let lines = Self.text(&random)
      let last = lines.lineCount - 1
      let from = Int.random(in: 0...last, using: &random)
      var line = from
      while line < last, lines.withUTF8(ofLine: line, { Cursor.isUTF8($0) }) { line += 1 }
      XCTAssertEqual(lines.firstLineNotUTF8(from: from, last: last), line, "\(lines.bytes) from \(from)")
      if line < last { found += 1 }
    }
    XCTAssertGreaterThan(found, 1_000)
  }

  func testLinesWithHazardsAgreeWithEachLine() {
    var random = SeededGenerator(seed: 136)
    var found = 0
    for _ in 0..<5_000 {
      let lines = Self.text(&random)
      let asked = (0..<lines.lineCount).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
      let expected = asked.filter { line in lines.withUTF8(ofLine: line) { HazardBytes.firstHazard(in: $0) != nil } }
      var got: [Int] = []
      lines.forEachLineWithHazard(among: asked) { got.append($0) }
      XCTAssertEqual(got, expected, "\(lines.bytes) asked \(asked)")
      found += expected.count
    }
    XCTAssertGreaterThan(found, 3_000)
  }

  func testLineContainingOffset() {
    let lines = TextLines(Array("ab\r\ncd\n\ne\rf".utf8))
    let expected = [0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 4]
    for (offset, line) in expected.enumerated() {
      XCTAssertEqual(lines.line(containingOffset: offset), line, "offset \(offset)")
    }
  }
}
