import BidiHazards
import BidiTestSupport
import DocumentStore
import UnicodeBidi
import XCTest

/// Incremental scanning over a document's line tree gives the same result as
/// a full scan, and stops once the tokenizer state at a line start is
/// unchanged.
final class HazardLineCacheTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  func tree(_ marked: String) throws -> Tree { try Tree(MarkedText(marked).text) }

  func full(_ tree: Tree, _ scanner: HazardScanner) -> [HazardDiagnostic] {
    scanner.scanDocument(tree.utf8Bytes)
  }

  /// The lines a refresh scans (each line's bytes are read once per scan).
  func scannedLines(_ ranges: [Range<Int>]) -> [Int] { ranges.flatMap { Array($0) } }

  /// Replaces line `n`'s content.
  func replaceLine(_ tree: inout Tree, _ n: Int, with text: String) throws -> LineChange {
    let line = try tree.line(n)
    return try tree.replace(LSPRange(n, 0, n, line.utf8Count), with: MarkedText(text).text, in: .utf8)
  }

  func testFreshCacheMatchesAFullScan() throws {
    var text = try tree("a\n/* ⟦RLO⟧\nb */ ⟦PDF⟧\nc ⟦RLI⟧")
    let scanner = HazardScanner(language: .c)
    let cache = HazardLineCache(scanner: scanner)
    XCTAssertTrue(cache.needsRefresh(text))
    XCTAssertEqual(cache.refresh(&text), [0..<4])
    XCTAssertFalse(cache.needsRefresh(text))
    XCTAssertEqual(cache.diagnostics(text), full(text, scanner))
    XCTAssertEqual(cache.diagnostics(text).count, 4)  // inComment + override, unmatched, unpaired
  }

  func testEditInsideALineRescansOnlyThatLine() throws {
    var text = try tree("x1\nx2\n/* ⟦RLO⟧ */\nx4\nx5")
    let scanner = HazardScanner(language: .c)
    let cache = HazardLineCache(scanner: scanner)
    cache.refresh(&text)
    let change = try replaceLine(&text, 1, with: "x2 ⟦RLI⟧")
    XCTAssertEqual(change, LineChange(oldLines: 1..<2, newLineCount: 1))
    XCTAssertTrue(cache.needsRefresh(text))
    // Only the edited line: its end state did not change.
    XCTAssertEqual(cache.refresh(&text), [1..<2])
    XCTAssertEqual(cache.diagnostics(text), full(text, scanner))
  }

  func testOpeningABlockCommentRescansUntilTheStateSettles() throws {
    var text = try tree("a\nb ⟦RLI⟧\nc */ d ⟦RLI⟧\ne\nf")
    let scanner = HazardScanner(language: .c)
    let cache = HazardLineCache(scanner: scanner)
    cache.refresh(&text)
    XCTAssertEqual(cache.diagnostics(text).map(\.code), [.unpaired, .unpaired])
    _ = try replaceLine(&text, 0, with: "a /*")
    // Lines 1 and 2 start in the comment now; line 3 starts in code as
    // before, so the scan stops there.
    XCTAssertEqual(scannedLines(cache.refresh(&text)), [0, 1, 2])
    let starts = (0..<5).map { text.lineState(ofLine: $0, as: HazardLineState.self)?.state.startState.isInComment }
    XCTAssertEqual(starts, [false, true, true, false, false])
    XCTAssertEqual(cache.diagnostics(text), full(text, scanner))
    XCTAssertEqual(cache.diagnostics(text).map(\.code), [.inComment, .unpaired])
  }

  func testInsertingAndDeletingLinesKeepsLineNumbersRight() throws {
    var text = try tree("a ⟦RLO⟧\nb\nc ⟦PDI⟧\nd")
    let scanner = HazardScanner(language: nil)
    let cache = HazardLineCache(scanner: scanner)
    cache.refresh(&text)
    // Insert two lines before line 1.
    let insert = try text.replace(LSPRange(1, 0, 1, 0), with: MarkedText("new1\nnew2 ⟦LRE⟧\n").text, in: .utf8)
    XCTAssertEqual(insert, LineChange(oldLines: 1..<2, newLineCount: 3))
    cache.refresh(&text)
    XCTAssertEqual(text.lineCount, 6)
    XCTAssertEqual(cache.diagnostics(text), full(text, scanner))
    XCTAssertEqual(cache.diagnostics(text).map(\.line), [0, 0, 2, 4])  // unpaired + override on line 0
    // Delete lines 0...2.
    let delete = try text.replace(LSPRange(0, 0, 3, 0), with: "", in: .utf8)
    XCTAssertEqual(delete, LineChange(oldLines: 0..<4, newLineCount: 1))
    cache.refresh(&text)
    XCTAssertEqual(text.lineCount, 3)
    XCTAssertEqual(cache.diagnostics(text), full(text, scanner))
    XCTAssertEqual(cache.diagnostics(text).map(\.line), [1])
    // Delete everything.
    try text.replaceAll(with: "")
    cache.refresh(&text)
    XCTAssertEqual(text.lineCount, 1)
    XCTAssertEqual(cache.diagnostics(text), [])
  }

  func testARefreshCutShortResumesWhereItStopped() throws {
    let scanner = HazardScanner(language: .c)
    let cache = HazardLineCache(scanner: scanner)
    var text = try tree((0..<50).map { $0 == 10 ? "/* x" : $0 == 30 ? "*/ ⟦RLO⟧" : "y ⟦RLI⟧" }.joined(separator: "\n"))
    XCTAssertEqual(cache.refresh(&text, limit: 20), [0..<20])
    XCTAssertTrue(cache.needsRefresh(text))
    XCTAssertEqual(cache.firstUnscannedLine(text), 20)
    XCTAssertEqual(cache.refresh(&text, limit: 20), [20..<40])
    XCTAssertEqual(cache.refresh(&text), [40..<50])
    XCTAssertFalse(cache.needsRefresh(text))
    XCTAssertEqual(cache.diagnostics(text), full(text, scanner))
  }

  func testRandomEditsAgreeWithFullScans() throws {
    try randomEditsAgreeWithFullScans(
      seed: 42, languages: [.c, .rust, .python, .swift, .javascript],
      pieces: [
        "x", " ", "/*", "*/", "\"", "//", "\u{202E}", "\u{2067}", "\u{2069}", "\u{202C}", "a\u{200F}b", "\\", "\n",
        "\r", "\r\n",
      ])
  }

  func testRandomEditsOfNestedLiteralsAndHereDocumentsAgreeWithFullScans() throws {
    // Interpolations, `%` literals and here-documents carry more state from
    // line to line.
    try randomEditsAgreeWithFullScans(
      seed: 7, languages: [.swift, .javascript, .python, .ruby, .shell],
      pieces: [
        "x", " ", "\"", "\"\"\"", "`", "\\(", "${", "#{", "$(", "{", "}", "(", ")", "f\"", "%q(", "%w[", "]",
        "<<EOF", "<<~EOF", "EOF", ":", "#", "\u{202E}", "\u{2067}", "\u{2069}", "a\u{200F}b", "\n", "\n", "\r",
      ])
  }

  /// Random edits (line breaks included, so lines are inserted, deleted,
  /// split and joined, CR LF too), each followed by a refresh that is
  /// sometimes cut short, sometimes skipped; checked against a full scan.
  func randomEditsAgreeWithFullScans(seed: UInt64, languages: [SourceLanguage], pieces: [String]) throws {
    var generator = SeededGenerator(seed: seed)
    var compared = 0
    func randomText(_ count: Int) -> String { generator.text(pieces, lengths: 0...count - 1) }
    for (index, language) in languages.enumerated() {
      let scanner = HazardScanner(language: language)
      let cache = HazardLineCache(scanner: scanner)
      // Tiny leaves, so that edits cross leaves and the tree is deep.
      let tuning = index.isMultiple(of: 2) ? LineTreeTuning(maxLeafBytes: 16, maxChildren: 4) : .standard
      var text = try Tree((0..<20).map { _ in randomText(6) }.joined(separator: "\n"), tuning: tuning)
      cache.refresh(&text)
      for step in 0..<300 {
        let startLine = Int(generator.next() % UInt64(text.lineCount))
        let endLine = min(text.lineCount - 1, startLine + Int(generator.next() % 3))
        let range = LSPRange(
          startLine, Int(generator.next() % 8), endLine, Int(generator.next() % 8))
        guard range.start <= range.end else { continue }
        try text.replace(range, with: randomText(5), in: .utf8)
        switch generator.next() % 4 {
        case 0: continue  // several edits before a refresh
        case 1: cache.refresh(&text, limit: Int(generator.next() % 4) + 1)
        default: cache.refresh(&text)
        }
        if cache.needsRefresh(text) { continue }
        XCTAssertEqual(text.invariantViolations(), [])
        let expected = full(text, scanner)
        compared += 1
        guard cache.diagnostics(text) == expected else {
          XCTFail("\(language): step \(step), after replacing \(range)")
          XCTAssertEqual(cache.diagnostics(text), expected)
          return
        }
      }
    }
    XCTAssertGreaterThan(compared, 600)
  }

  /// `mayHaveHazards` is exactly "some chunk holds a control": each of the
  /// 12 controls, placed in the first, a middle or the last leaf of a tree of
  /// tiny leaves, is found; Arabic, Hebrew and astral text without one is
  /// clean, whatever the language would make of it.
  func testMayHaveHazardsFindsEveryControlInAnyLeaf() throws {
    let tuning = LineTreeTuning(maxLeafBytes: 16, maxChildren: 4)
    let lines = (0..<60).map { n in ["/* مرحبا", "שלום */", "x = \"𝒜\" // a", "فوائد 1,234.56"][n % 4] }
    XCTAssertFalse(HazardLineCache.mayHaveHazards(try Tree(lines.joined(separator: "\n"), tuning: tuning)))
    XCTAssertFalse(HazardLineCache.mayHaveHazards(try Tree("", tuning: tuning)))
    var found = 0
    for control in TestControls.all.map(\.scalar) {
      for line in [0, 31, 59] {
        var edited = lines
        edited[line] += String(control)
        let text = try Tree(edited.joined(separator: "\n"), tuning: tuning)
        XCTAssertTrue(HazardLineCache.mayHaveHazards(text), "U+\(String(control.value, radix: 16)) on line \(line)")
        found += 1
      }
    }
    XCTAssertEqual(found, TestControls.all.count * 3)
    XCTAssertEqual(TestControls.all.count, 12)
  }
}
