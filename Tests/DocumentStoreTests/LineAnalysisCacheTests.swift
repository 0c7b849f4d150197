import DocumentStore
import UnicodeBidi
import XCTest

/// The per-line cache and node summaries, with the `LetterX` dummy analysis.
final class LineAnalysisCacheTests: XCTestCase {
  typealias Tree = LineTree<LetterX>

  /// 1,000 lines; line i holds an x when i is a multiple of 7.
  func makeTree(tuning: LineTreeTuning = .standard) throws -> Tree {
    let text = (0..<1000).map { $0 % 7 == 0 ? "line \($0) x" : "line \($0) ש" }.joined(separator: "\n")
    return try Tree(text, tuning: tuning)
  }

  override func setUp() { LetterX.computed = 0 }

  func testEachLineIsAnalysedOnceAndSummariesAreCached() throws {
    var tree = try makeTree()
    XCTAssertEqual(try tree.summary(ofLines: 0..<1000), LetterX.Summary(lines: 1000, linesWithX: 143, xCount: 143))
    XCTAssertEqual(LetterX.computed, 1000)
    XCTAssertEqual(try tree.summary(ofLines: 0..<1000).linesWithX, 143)
    XCTAssertEqual(try tree.summary(ofLines: 10..<22).linesWithX, 2)
    XCTAssertEqual(try tree.analysis(ofLine: 14).xCount, 1)
    XCTAssertEqual(LetterX.computed, 1000, "everything came from the caches")
  }

  func testAnEditInvalidatesOnlyTheLinesItTouches() throws {
    for tuning in [LineTreeTuning.standard, tinyTuning] {
      var tree = try makeTree(tuning: tuning)
      _ = try tree.summary(ofLines: 0..<1000)
      LetterX.computed = 0

      try tree.replace(LSPRange(500, 2, 500, 2), with: "xx", in: .utf16)
      XCTAssertNil(tree.cachedAnalysis(ofLine: 500))
      XCTAssertNotNil(tree.cachedAnalysis(ofLine: 499))
      XCTAssertNotNil(tree.cachedAnalysis(ofLine: 501))
      XCTAssertEqual(try tree.summary(ofLines: 0..<1000), LetterX.Summary(lines: 1000, linesWithX: 144, xCount: 145))
      XCTAssertEqual(LetterX.computed, 1, "only the edited line was analysed again")

      // Three lines become two.
      try tree.replace(LSPRange(10, 0, 12, 4), with: "x\ny", in: .utf8)
      XCTAssertEqual(try tree.summary(ofLines: 0..<999).lines, 999)
      XCTAssertEqual(LetterX.computed, 3)
      XCTAssertEqual(tree.invariantViolations(), [])
    }
  }

  func testSearchesFindTheNearestMatchingLine() throws {
    for tuning in [LineTreeTuning.standard, tinyTuning] {
      var tree = try makeTree(tuning: tuning)
      let hasX: (LetterX.Summary) -> Bool = { $0.linesWithX > 0 }
      XCTAssertEqual(tree.lastLine(before: 700, where: hasX), 693)
      XCTAssertLessThan(LetterX.computed, 20, "the search looked back only as far as it had to")
      XCTAssertEqual(tree.lastLine(before: 693, where: hasX), 686)
      XCTAssertEqual(tree.lastLine(before: 0, where: hasX), nil)
      XCTAssertEqual(tree.lastLine(before: 5000, where: hasX), 994)
      XCTAssertEqual(tree.firstLine(from: 1, where: hasX), 7)
      XCTAssertEqual(tree.firstLine(from: 995, where: hasX), nil)
      XCTAssertEqual(tree.lastLine(before: 1000) { $0.xCount > 5 }, nil)

      // Remove every x from lines 600..<700; the searches must see it.
      for line in stride(from: 602, to: 700, by: 7) {
        try tree.replace(LSPRange(line, 0, line, 99), with: "none", in: .utf32)
      }
      XCTAssertEqual(tree.lastLine(before: 700, where: hasX), 595)
      XCTAssertEqual(tree.firstLine(from: 596, where: hasX), 700)
      XCTAssertEqual(try tree.summary(ofLines: 0..<1000).linesWithX, 129)
      XCTAssertEqual(tree.invariantViolations(), [])
      LetterX.computed = 0
    }
  }

  func testCachesFilledInACopyLeaveTheOriginalUntouched() throws {
    let original = try makeTree(tuning: tinyTuning)
    var copy = original
    _ = try copy.summary(ofLines: 0..<1000)
    XCTAssertNotNil(copy.cachedAnalysis(ofLine: 3))
    XCTAssertNil(original.cachedAnalysis(ofLine: 3))
    XCTAssertEqual(original.invariantViolations(), [])
    XCTAssertEqual(copy.invariantViolations(), [])
  }

  func testOutOfRangeQueriesAreErrors() throws {
    var tree = try makeTree()
    XCTAssertThrowsError(try tree.analysis(ofLine: 1000))
    XCTAssertThrowsError(try tree.summary(ofLines: 990..<1001))
    XCTAssertEqual(try tree.summary(ofLines: 1000..<1000), LetterX.emptySummary)
    XCTAssertNil(tree.cachedAnalysis(ofLine: -1))
  }
}
