import BidiTestSupport
import UnicodeBidi
import XCTest

@testable import StructuredText

/// `TextLines`' split (memchr for LF, a CR searched for ahead) against a
/// byte-by-byte split at `\n`, `\r\n` and `\r`, and the findings engine's
/// test for findings already in order against its sort.
final class TextLinesSplitTests: XCTestCase {
  /// Each line's range, split one byte at a time.
  static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x0A || byte == 0x0D else {
        index += 1
        continue
      }
      ranges.append(start..<index)
      index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
      start = index
    }
    ranges.append(start..<bytes.count)
    return ranges
  }

  func testSplitAgreesWithByteByByte() {
    var random = SeededGenerator(seed: 391)
    var terminators = 0
    for _ in 0..<5_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...30, using: &random) {
        bytes += CursorSkipToEndTests.pieces.randomElement(using: &random)!
      }
      let lines = TextLines(bytes)
      let expected = Self.lineRanges(bytes)
      XCTAssertEqual(lines.lineCount, expected.count, "\(bytes)")
      XCTAssertEqual((0..<lines.lineCount).map { lines.byteRange(ofLine: $0) }, expected, "\(bytes)")
      terminators += expected.count - 1
    }
    XCTAssertGreaterThan(terminators, 20_000)
  }

  func testFindingsInOrderAreThoseTheSortLeaves() {
    var random = SeededGenerator(seed: 392)
    var inOrder = 0
    for _ in 0..<2_000 {
      let found = (0..<Int.random(in: 0...6, using: &random)).map { _ in
        let start = SourcePosition(
          line: Int.random(in: 0...2, using: &random), column: Int.random(in: 0...1, using: &random))
        return Finding(
          code: .blockDirection, severity: .warning, range: SourceRange(at: start),
          message: "\(Int.random(in: 0...9, using: &random))")
      }
      let sorted = found.enumerated().sorted { a, b in
        a.element.range.start != b.element.range.start
          ? a.element.range.start < b.element.range.start : a.offset < b.offset
      }.map(\.element)
      XCTAssertEqual(FindingsEngine.startsInOrder(found), sorted == found, "\(found.map(\.range.start))")
      if sorted == found { inOrder += 1 }
    }
    XCTAssertGreaterThan(inOrder, 200)
  }
}
