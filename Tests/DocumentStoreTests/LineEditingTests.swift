import DocumentStore
import UnicodeBidi
import XCTest

final class LineEditingTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  func lines(_ tree: Tree) -> [String] {
    var result: [String] = []
    tree.forEachLine(in: 0..<tree.lineCount) { _, line in
      result.append(line.content + ["", "\\n", "\\r", "\\r\\n"][Int(line.terminator.rawValue)])
    }
    return result
  }

  func testReplacingACRLFByTextBetweenItsHalvesSplitsIt() throws {
    for tuning in [LineTreeTuning.standard, tinyTuning] {
      var tree = try Tree("ab\r\ncd", tuning: tuning)
      try tree.replace(LSPRange(0, 2, 1, 0), with: "\rX\n", in: .utf16)
      XCTAssertEqual(tree.text, "ab\rX\ncd")
      XCTAssertEqual(lines(tree), ["ab\\r", "X\\n", "cd"])
      XCTAssertEqual(tree.invariantViolations(), [])
    }
  }

  func testInsertingALineFeedAfterACarriageReturnJoinsThem() throws {
    for tuning in [LineTreeTuning.standard, tinyTuning] {
      var tree = try Tree("0123456789abcdef\r0123456789abcdef", tuning: tuning)
      XCTAssertEqual(tree.lineCount, 2)
      try tree.replace(LSPRange(1, 0, 1, 0), with: "\n", in: .utf16)
      XCTAssertEqual(lines(tree), ["0123456789abcdef\\r\\n", "0123456789abcdef"])
      XCTAssertEqual(tree.invariantViolations(), [])
    }
  }

  func testDeletingWhatSeparatesACarriageReturnFromALineFeedJoinsThem() throws {
    for tuning in [LineTreeTuning.standard, tinyTuning] {
      var tree = try Tree("a\rX\nb", tuning: tuning)
      XCTAssertEqual(tree.lineCount, 3)
      try tree.replace(LSPRange(1, 0, 1, 1), with: "", in: .utf8)
      XCTAssertEqual(tree.text, "a\r\nb")
      XCTAssertEqual(lines(tree), ["a\\r\\n", "b"])
      XCTAssertEqual(tree.invariantViolations(), [])
    }
  }

  func testInsertingACarriageReturnBeforeALineFeedMakesOneTerminator() throws {
    var tree = try Tree("a\nb")
    try tree.replace(LSPRange(0, 1, 0, 1), with: "\r", in: .utf32)
    XCTAssertEqual(lines(tree), ["a\\r\\n", "b"])
    try tree.replace(LSPRange(0, 1, 1, 0), with: "\r\r", in: .utf32)
    XCTAssertEqual(lines(tree), ["a\\r", "\\r", "b"])
  }

  func testMultiLineReplacementAcrossLeaves() throws {
    let original = (0..<200).map { "line \($0) שלום 😀" }.joined(separator: "\n")
    var tree = try Tree(original, tuning: tinyTuning)
    var shadow = ShadowText(original)
    let range = LSPRange(17, 3, 150, 9)
    try tree.replace(range, with: "new\r\nlines\rhere", in: .utf16)
    XCTAssertTrue(shadow.replace(range, with: "new\r\nlines\rhere", .utf16))
    XCTAssertEqual(tree.text, shadow.text)
    XCTAssertEqual(tree.lineCount, shadow.lines.count)
    XCTAssertEqual(tree.invariantViolations(), [])
  }

  func testInvalidRangesChangeNothing() throws {
    var tree = try Tree("one\ntwo\nthree")
    let before = tree.text
    XCTAssertThrowsError(try tree.replace(LSPRange(1, 0, 3, 0), with: "x", in: .utf16)) { error in
      XCTAssertEqual(error as? DocumentError, .lineOutOfRange(line: 3, lineCount: 3))
    }
    XCTAssertThrowsError(try tree.replace(LSPRange(2, 1, 1, 0), with: "x", in: .utf16)) { error in
      XCTAssertEqual(error as? DocumentError, .invertedRange(LSPRange(2, 1, 1, 0)))
      XCTAssertTrue("\(error)".contains("after its end"))
    }
    XCTAssertThrowsError(try tree.replace(LSPRange(0, -1, 0, 0), with: "x", in: .utf16))
    XCTAssertEqual(tree.text, before)
  }

  func testClampedRangeEndStopsBeforeTheTerminator() throws {
    var tree = try Tree("abc\r\ndef")
    try tree.replace(LSPRange(0, 1, 0, 99), with: "", in: .utf16)
    XCTAssertEqual(tree.text, "a\r\ndef")
  }

  func testSnapshotsAreUnaffectedByLaterEdits() throws {
    var tree = try Tree("alpha\nbeta\ngamma", tuning: tinyTuning)
    let snapshot = tree
    let line = try tree.line(1)
    try tree.replace(LSPRange(1, 0, 2, 2), with: "B", in: .utf16)
    XCTAssertEqual(tree.text, "alpha\nBmma")
    XCTAssertEqual(snapshot.text, "alpha\nbeta\ngamma")
    XCTAssertEqual(line.content, "beta")
    XCTAssertEqual(snapshot.invariantViolations(), [])
  }

  func testFullReplacement() throws {
    var tree = try Tree("old")
    try tree.replaceAll(with: "new\nלא\r\n")
    XCTAssertEqual(tree.lineCount, 3)
    XCTAssertEqual(tree.text, "new\nלא\r\n")
  }
}
