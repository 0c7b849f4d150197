import BidiHazards
import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

/// `TextLines`' hazard lines (`hazards`, `firstLineNotUTF8`: one scan of
/// the text) against a scan of each
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

  /// `TextLines.hazards`: each line holding a hazard byte, its first one's
  /// offset and whether the line is all UTF-8, as a scan of the line alone
  /// finds them.
  func testHazardLinesAgreeWithEachLine() {
    var random = SeededGenerator(seed: 136)
    var withHazard = 0
    var notUTF8 = 0
    for _ in 0..<5_000 {
      let lines = Self.text(&random)
      var expected: [[Int]] = []
      for line in 0..<lines.lineCount {
        let start = lines.byteRange(ofLine: line).lowerBound
        lines.withUTF8(ofLine: line) { bytes in
          guard let first = HazardBytes.firstHazard(in: bytes) else { return }
          expected.append([line, start + first, Cursor.isUTF8(bytes) ? 1 : 0])
        }
      }
      let found = lines.hazards.lines.map { [$0.line, $0.firstHazard, $0.isUTF8 ? 1 : 0] }
      XCTAssertEqual(found, expected, "\(lines.bytes)")
      withHazard += expected.count
      notUTF8 += expected.filter { $0[2] == 0 }.count
    }
    XCTAssertGreaterThan(withHazard, 3_000)
    XCTAssertGreaterThan(notUTF8, 1_000)
  }

  /// `HazardLines.lastLine(in:)` against a scan of each line of the range
  /// from its end.
  func testLastHazardLineOfARangeAgreesWithEachLine() {
    var random = SeededGenerator(seed: 137)
    var found = 0
    for _ in 0..<5_000 {
      let lines = Self.text(&random)
      let start = Int.random(in: 0...lines.lineCount, using: &random)
      let range = start..<Int.random(in: start...lines.lineCount, using: &random)
      let expected = range.reversed().first { line in
        lines.withUTF8(ofLine: line) { HazardBytes.firstHazard(in: $0) != nil }
      }
      XCTAssertEqual(lines.hazards.lastLine(in: range), expected, "\(lines.bytes) \(range)")
      if expected != nil { found += 1 }
    }
    XCTAssertGreaterThan(found, 1_500)
  }

  /// A plain region's findings in a whole text (its hazard lines known)
  /// are those of the same lines seen one at a time, for regions anywhere,
  /// reaching past the text's end, in code and in prose.
  func testRegionFindingsOfAWholeTextAgreeWithItsLines() {
    struct SeenAsLines: DocumentLines {
      let text: TextLines
      var lineCount: Int { text.lineCount }
      func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try text.withUTF8(ofLine: line, body)
      }
    }
    var random = SeededGenerator(seed: 138)
    let engine = FindingsEngine(format: ToyFormat(), spelling: .literal)
    let quotes: [[UInt8]] = [Array("\"".utf8), Array("// ".utf8), Array("/*".utf8), Array("*/".utf8)]
    var findings = 0
    for _ in 0..<4_000 {
      var bytes = Self.text(&random).bytes
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        bytes += quotes.randomElement(using: &random)! + CursorSkipToEndTests.pieces.randomElement(using: &random)!
      }
      let lines = TextLines(bytes)
      let start = Int.random(in: 0...lines.lineCount, using: &random)
      let region = PlainRegion(
        lines: start..<start + Int.random(in: 0...lines.lineCount + 1, using: &random),
        language: ["c", "python", nil].randomElement(using: &random)!)
      let expected = engine.regionFindings(region, in: SeenAsLines(text: lines))
      XCTAssertEqual(engine.regionFindings(region, in: lines), expected, "\(bytes) \(region)")
      findings += expected.count
    }
    XCTAssertGreaterThan(findings, 2_000)
  }

  func testLineContainingOffset() {
    let lines = TextLines(Array("ab\r\ncd\n\ne\rf".utf8))
    let expected = [0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 4]
    for (offset, line) in expected.enumerated() {
      XCTAssertEqual(lines.line(containingOffset: offset), line, "offset \(offset)")
    }
  }
}
