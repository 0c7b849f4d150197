import DocumentStore
import UnicodeBidi
import XCTest

final class PositionConversionTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  // Line 0 "a😀b" (CRLF): a=byte 0, 😀=bytes 1..<5 (2 UTF-16 units), b=byte 5.
  // Line 1 "שלום" (CR): four 2-byte letters. Line 2 "x" (LF). Line 3 "" (none).
  let sample = "a😀b\r\nשלום\rx\n"

  func point(_ tree: Tree, _ line: Int, _ character: Int, _ encoding: PositionEncoding) throws -> Int {
    try tree.resolve(LSPPosition(line: line, character: character), in: encoding).column
  }

  func testLinesAreSplitAtCRLFAndCRAndLF() throws {
    let tree = try Tree(sample)
    XCTAssertEqual(tree.lineCount, 4)
    XCTAssertEqual(try tree.line(0).content, "a😀b")
    XCTAssertEqual(try tree.line(0).terminator, .crlf)
    XCTAssertEqual(try tree.line(1).content, "שלום")
    XCTAssertEqual(try tree.line(1).terminator, .cr)
    XCTAssertEqual(try tree.line(2).content, "x")
    XCTAssertEqual(try tree.line(2).terminator, .lf)
    XCTAssertEqual(try tree.line(3).content, "")
    XCTAssertEqual(try tree.line(3).terminator, .none)
    XCTAssertEqual(tree.text, sample)
    XCTAssertEqual(try tree.line(0).withUTF8IncludingTerminator { Array($0) }, Array("a😀b\r\n".utf8))
    XCTAssertEqual(tree.utf8Count, sample.utf8.count)
    XCTAssertEqual(tree.metrics.contentUTF16, 4 + 4 + 1)
    XCTAssertEqual(tree.metrics.contentUTF32, 3 + 4 + 1)
    XCTAssertEqual(tree.metrics.terminatorUnits, 4)
  }

  func testUTF16CountsSurrogatePairsAsTwoAndSnapsInsideThem() throws {
    let tree = try Tree(sample)
    XCTAssertEqual(try point(tree, 0, 0, .utf16), 0)
    XCTAssertEqual(try point(tree, 0, 1, .utf16), 1)
    XCTAssertEqual(try point(tree, 0, 2, .utf16), 1, "inside the surrogate pair: the emoji's start")
    XCTAssertEqual(try point(tree, 0, 3, .utf16), 5)
    XCTAssertEqual(try point(tree, 0, 4, .utf16), 6)
    XCTAssertEqual(try point(tree, 0, 5, .utf16), 6, "past the end, before the CRLF")
    XCTAssertEqual(try tree.line(0).count(in: .utf16), 4)
    XCTAssertEqual(try tree.position(of: SourcePosition(line: 0, column: 5), in: .utf16).character, 3)
    XCTAssertEqual(try tree.position(of: SourcePosition(line: 0, column: 3), in: .utf16).character, 1)
  }

  func testUTF8AndUTF32Offsets() throws {
    let tree = try Tree(sample)
    XCTAssertEqual(try point(tree, 0, 2, .utf32), 5)
    XCTAssertEqual(try point(tree, 0, 3, .utf32), 6)
    XCTAssertEqual(try point(tree, 0, 3, .utf8), 1, "inside the emoji's bytes: its start")
    XCTAssertEqual(try point(tree, 0, 5, .utf8), 5)
    XCTAssertEqual(try point(tree, 1, 3, .utf8), 2, "inside a Hebrew letter")
    XCTAssertEqual(try point(tree, 1, 3, .utf32), 6)
    XCTAssertEqual(try point(tree, 1, 3, .utf16), 6)
    XCTAssertEqual(try point(tree, 1, 100, .utf16), 8)
    XCTAssertEqual(try tree.position(of: SourcePosition(line: 0, column: 5), in: .utf32).character, 2)
    XCTAssertEqual(try tree.position(of: SourcePosition(line: 0, column: 5), in: .utf8).character, 5)
    XCTAssertEqual(try tree.position(of: SourcePosition(line: 1, column: 99), in: .utf32).character, 4)
    XCTAssertEqual(try tree.line(1).count(in: .utf8), 8)
  }

  func testEmptyDocumentHasOneEmptyLine() throws {
    for tree in [Tree(), try Tree("")] {
      XCTAssertEqual(tree.lineCount, 1)
      XCTAssertEqual(tree.utf8Count, 0)
      XCTAssertEqual(try tree.line(0).content, "")
      for encoding in PositionEncoding.allCases {
        XCTAssertEqual(try point(tree, 0, 7, encoding), 0)
      }
      XCTAssertThrowsError(try point(tree, 1, 0, .utf16)) { error in
        XCTAssertEqual(error as? DocumentError, .lineOutOfRange(line: 1, lineCount: 1))
      }
      XCTAssertTrue(tree.invariantViolations().isEmpty)
    }
  }

  func testEmptyLinesAndTrailingTerminators() throws {
    let tree = try Tree("\n\r\n\r")
    XCTAssertEqual(tree.lineCount, 4)
    XCTAssertEqual((0..<4).map { try? tree.line($0).terminator }, [.lf, .crlf, .cr, LineTerminator.none])
    for line in 0..<4 { XCTAssertEqual(try point(tree, line, 3, .utf16), 0) }
    let noTerminator = try Tree("one\ntwo")
    XCTAssertEqual(noTerminator.lineCount, 2)
    XCTAssertEqual(try noTerminator.line(1).content, "two")
    XCTAssertEqual(try point(noTerminator, 1, 9, .utf8), 3)
  }

  func testOutOfRangeAndNegativePositionsAreErrors() throws {
    let tree = try Tree(sample)
    XCTAssertThrowsError(try point(tree, 4, 0, .utf16)) { error in
      XCTAssertEqual(error as? DocumentError, .lineOutOfRange(line: 4, lineCount: 4))
      XCTAssertEqual("\(error)", "line 4 is past the end of the document, which has 4 lines (0...3)")
    }
    XCTAssertThrowsError(try point(tree, -1, 0, .utf16)) { error in
      XCTAssertEqual(error as? DocumentError, .negativePosition(LSPPosition(line: -1, character: 0)))
    }
    XCTAssertThrowsError(try point(tree, 0, -2, .utf8))
    XCTAssertThrowsError(try tree.line(9))
  }

  func testMetricsUpToALineGiveItsStartOffset() throws {
    let tree = try Tree(sample, tuning: tinyTuning)
    let shadow = ShadowText(sample)
    for (index, line) in shadow.lines.enumerated() {
      XCTAssertEqual(try tree.metrics(upTo: index).utf8Count, line.start)
    }
    XCTAssertEqual(try tree.metrics(upTo: 4), tree.metrics)
    XCTAssertEqual(try tree.metrics(upTo: 1).contentUTF16, 4)
    XCTAssertThrowsError(try tree.metrics(upTo: 5))
  }

  func testInvalidUTF8IsRefused() throws {
    let bytes: [UInt8] = [0x61, 0x0A, 0xED, 0xA0, 0x80]  // an encoded surrogate
    XCTAssertThrowsError(try bytes.withUnsafeBufferPointer { try Tree(utf8: $0) }) { error in
      XCTAssertEqual(error as? DocumentError, .invalidUTF8)
    }
    var tree = try Tree("ab")
    let truncated: [UInt8] = [0xF0, 0x9F]
    XCTAssertThrowsError(
      try truncated.withUnsafeBufferPointer { try tree.replace(LSPRange(0, 1, 0, 1), withUTF8: $0, in: .utf8) })
    XCTAssertEqual(tree.text, "ab")
  }

  func testLongNonASCIILineConvertsBothWays() throws {
    let line = String(repeating: "ש😀a", count: 20_000)
    let tree = try Tree(line + "\nend")
    XCTAssertEqual(try tree.line(0).utf16Count, 80_000)
    XCTAssertEqual(try tree.line(0).utf8Count, 140_000)
    XCTAssertEqual(try point(tree, 0, 79_999, .utf16), 139_999)
    XCTAssertEqual(try point(tree, 0, 79_998, .utf16), 139_995, "inside the last emoji")
    XCTAssertEqual(try tree.position(of: SourcePosition(line: 0, column: 139_999), in: .utf32).character, 59_999)
  }
}
