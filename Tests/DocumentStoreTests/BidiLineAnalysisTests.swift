import BidiTestSupport
import DocumentStore
import UnicodeBidi
import XCTest

/// The cached per-line bidi analysis and its summaries equal a from-scratch
/// analysis of the current text, whatever edits came before.
final class BidiLineAnalysisTests: XCTestCase {
  typealias Text = Document.Text

  private func analysis(_ text: String) -> BidiLineAnalysis {
    Array(text.utf8).withUnsafeBufferPointer { BidiLineAnalysis(utf8: $0) }
  }

  // MARK: One line

  func testFactsOfOneLine() {
    let mixed = analysis("abc שלום")
    XCTAssertEqual(mixed.paragraphs.count, 1)
    XCTAssertEqual(mixed.first.firstStrong, .leftToRight)
    XCTAssertEqual(mixed.first.firstStrongOffset, 0)
    XCTAssertEqual([mixed.first.ltrWords, mixed.first.rtlWords], [1, 1])
    XCTAssertTrue(mixed.first.hasLTR && mixed.first.hasRTL)
    XCTAssertFalse(mixed.isBlank)

    // FSI abc PDI (3 bytes each for the controls): P2 skips the isolate.
    let isolated = analysis("\u{2068}abc\u{2069} שלום")
    XCTAssertEqual(isolated.first.firstStrong, .rightToLeft)
    XCTAssertEqual(isolated.first.firstStrongOffset, 10)
    XCTAssertEqual([isolated.first.ltrWords, isolated.first.rtlWords], [1, 1])

    // U+2029 (3 bytes) ends the first paragraph and belongs to it.
    let two = analysis("ab\u{2029}שלום")
    XCTAssertEqual(two.paragraphs.map(\.utf8Range), [0..<5, 5..<13])
    XCTAssertEqual(two.paragraphs.map(\.firstStrong), [.leftToRight, .rightToLeft])
    XCTAssertEqual(two.paragraphs.map(\.firstStrongOffset), [0, 5])
    XCTAssertEqual(two.summary.firstStrongLines, 1, "a line counts once")
    XCTAssertEqual(two.summary.rtlWords + two.summary.ltrWords, 2)

    XCTAssertEqual(
      analysis("abc\u{2029}").paragraphs.map(\.utf8Range), [0..<6], "no empty paragraph after a final separator")
    XCTAssertEqual(analysis("").paragraphs.map(\.utf8Range), [0..<0])
    XCTAssertTrue(analysis("").isBlank)
    XCTAssertTrue(analysis(" \t\u{3000}").isBlank)
    let digits = analysis("123 -- 456")
    XCTAssertFalse(digits.isBlank)
    XCTAssertNil(digits.first.firstStrong)
    XCTAssertEqual(
      [digits.first.ltrWords, digits.first.rtlWords], [0, 0], "words without strong characters do not count")
    XCTAssertEqual(analysis("\u{2067}abc").summary.firstStrongLines, 0)
    XCTAssertEqual(analysis("\u{2067}abc").summary.strongLines, 1)
  }

  // MARK: Random edits

  private static let pieces = [
    "a", "word", " ", "  ", "\t", "שלום", "مرحبا", "١٢", "123", "-", "😀", "𝒳", "\u{2067}", "\u{2068}", "\u{2069}",
    "\u{200F}", "\u{202B}", "\u{202C}", "\u{2029}", "\u{85}", "\u{1C}", "\u{3000}", "\n", "\n", "\r\n", "\r", "\n\n",
  ]

  /// A valid range: positions on character boundaries of existing lines.
  private func randomRange(_ shadow: ShadowText, _ encoding: PositionEncoding, _ rng: inout SeededGenerator)
    -> LSPRange
  {
    let lines = shadow.lines
    func position(_ line: Int) -> LSPPosition {
      let boundaries = ShadowText.boundaries(lines[line].string, encoding)
      return LSPPosition(line: line, character: boundaries[Int.random(in: 0..<boundaries.count, using: &rng)].units)
    }
    let startLine = Int.random(in: 0..<lines.count, using: &rng)
    let endLine = min(
      lines.count - 1, startLine + (Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 1...3, using: &rng) : 0))
    var range = LSPRange(start: position(startLine), end: position(endLine))
    if range.end < range.start { swap(&range.start, &range.end) }
    return range
  }

  private static let predicates: [(name: String, test: @Sendable (BidiLineAnalysis.Summary) -> Bool)] = [
    ("firstStrong", { $0.firstStrongLines > 0 }),
    ("strong", { $0.strongLines > 0 }),
    ("rtl", { $0.rtlLines > 0 }),
    ("blank", { $0.blankLines > 0 }),
  ]

  /// Queries that fill caches: line analyses, summaries, searches.
  private func query(_ text: inout Text, _ rng: inout SeededGenerator) throws {
    let count = text.lineCount
    for _ in 0..<Int.random(in: 0...3, using: &rng) {
      _ = try text.analysis(ofLine: Int.random(in: 0..<count, using: &rng))
    }
    let lower = Int.random(in: 0...count, using: &rng)
    _ = try text.summary(ofLines: lower..<Int.random(in: lower...count, using: &rng))
    let predicate = Self.predicates[Int.random(in: 0..<Self.predicates.count, using: &rng)].test
    _ = text.lastLine(before: Int.random(in: 0...count, using: &rng), where: predicate)
    _ = text.firstLine(from: Int.random(in: 0...count, using: &rng), where: predicate)
  }

  struct Counts {
    var edits = 0
    var editsByEncoding: [PositionEncoding: Int] = [:]
    var cachedAnalyses = 0
    var summaries = 0
    var searches = 0
  }

  /// Compares every cached analysis, and summaries and searches over random
  /// ranges, with a naive fold over fresh analyses of `shadow`'s lines.
  private func check(
    _ text: inout Text, _ shadow: ShadowText, _ counts: inout Counts, _ rng: inout SeededGenerator, _ context: String
  ) throws {
    let fresh = shadow.lines.map { line in line.content.withUnsafeBufferPointer { BidiLineAnalysis(utf8: $0) } }
    XCTAssertEqual(text.lineCount, fresh.count, context)
    guard text.lineCount == fresh.count else { return }
    for (index, expected) in fresh.enumerated() {
      if let cached = text.cachedAnalysis(ofLine: index) {
        XCTAssertEqual(cached, expected, "\(context): line \(index) \(shadow.lines[index].string.debugDescription)")
        counts.cachedAnalyses += 1
      }
    }
    func naive(_ lines: Range<Int>) -> BidiLineAnalysis.Summary {
      lines.reduce(BidiLineAnalysis.emptySummary) { BidiLineAnalysis.combine($0, fresh[$1].summary) }
    }
    var ranges = [0..<fresh.count]
    for _ in 0..<4 {
      let lower = Int.random(in: 0...fresh.count, using: &rng)
      ranges.append(lower..<Int.random(in: lower...fresh.count, using: &rng))
    }
    for range in ranges {
      XCTAssertEqual(try text.summary(ofLines: range), naive(range), "\(context): summary of \(range)")
      counts.summaries += 1
    }
    for (name, predicate) in Self.predicates {
      for _ in 0..<3 {
        let index = Int.random(in: 0...fresh.count, using: &rng)
        let before = (0..<index).last { predicate(fresh[$0].summary) }
        XCTAssertEqual(
          text.lastLine(before: index, where: predicate), before, "\(context): last \(name) before \(index)")
        let from = (index..<fresh.count).first { predicate(fresh[$0].summary) }
        XCTAssertEqual(text.firstLine(from: index, where: predicate), from, "\(context): first \(name) from \(index)")
        counts.searches += 2
      }
    }
    // Every cache is now full: check them all once more.
    for (index, expected) in fresh.enumerated() {
      if let cached = text.cachedAnalysis(ofLine: index), cached != expected {
        XCTFail("\(context): line \(index) after the queries")
      }
    }
  }

  func testCachedAnalysesAndSummariesEqualAFromScratchAnalysisAfterRandomEdits() throws {
    var rng = SeededGenerator(seed: 0xB1D1_A7A1_7515)
    var counts = Counts()
    let tunings = [tinyTuning, LineTreeTuning(maxLeafBytes: 64, maxChildren: 4), LineTreeTuning.standard]
    for document in 0..<24 {
      let initial = (0..<Int.random(in: 1...80, using: &rng)).map { _ in
        rng.text(Self.pieces, lengths: 0...5)
      }
      .joined(separator: "\n")
      var text = try Text(initial, tuning: tunings[document % tunings.count])
      var shadow = ShadowText(initial)
      for step in 0..<200 {
        let encoding = PositionEncoding.allCases[Int.random(in: 0..<3, using: &rng)]
        let range = randomRange(shadow, encoding, &rng)
        let replacement =
          Int.random(in: 0..<4, using: &rng) == 0 ? "" : rng.text(Self.pieces, lengths: 1...4)
        XCTAssertTrue(shadow.replace(range, with: replacement, encoding))
        try text.replace(range, with: replacement, in: encoding)
        counts.edits += 1
        counts.editsByEncoding[encoding, default: 0] += 1
        if Int.random(in: 0..<2, using: &rng) == 0 { try query(&text, &rng) }
        if step % 10 == 9 { try check(&text, shadow, &counts, &rng, "document \(document) step \(step)") }
      }
    }
    print(
      "BidiLineAnalysisTests: \(counts.edits) edits, \(counts.cachedAnalyses) cached analyses, "
        + "\(counts.summaries) summaries and \(counts.searches) searches checked")
    XCTAssertEqual(counts.edits, 24 * 200)
    for encoding in PositionEncoding.allCases { XCTAssertGreaterThan(counts.editsByEncoding[encoding] ?? 0, 1000) }
    XCTAssertGreaterThan(counts.cachedAnalyses, 10_000)
    XCTAssertGreaterThan(counts.summaries, 2000)
    XCTAssertGreaterThan(counts.searches, 10_000)
  }
}
