import BidiHazards
import BidiTestSupport
import XCTest

/// Incremental scanning gives the same result as a full scan, and stops
/// once the tokenizer state at a line start is unchanged.
final class HazardLineCacheTests: XCTestCase {
  func lines(_ marked: String) -> [[UInt8]] {
    Array(MarkedText(marked).text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  }

  func full(_ document: [[UInt8]], _ scanner: HazardScanner) -> [HazardDiagnostic] {
    scanner.scanDocument(Array(document.joined(separator: [0x0A])))
  }

  func testFreshCacheMatchesAFullScan() {
    let document = lines("a\n/* ⟦RLO⟧\nb */ ⟦PDF⟧\nc ⟦RLI⟧")
    let scanner = HazardScanner(language: .c)
    var cache = HazardLineCache(scanner: scanner, lineCount: document.count)
    XCTAssertTrue(cache.needsRefresh)
    XCTAssertEqual(cache.refresh { document[$0] }, [0..<4])
    XCTAssertFalse(cache.needsRefresh)
    XCTAssertEqual(cache.diagnostics, full(document, scanner))
    XCTAssertEqual(cache.diagnostics.count, 4)  // inComment + override, unmatched, unpaired
  }

  func testEditInsideALineRescansOnlyThatLine() {
    var document = lines("x1\nx2\n/* ⟦RLO⟧ */\nx4\nx5")
    let scanner = HazardScanner(language: .c)
    var cache = HazardLineCache(scanner: scanner, lineCount: document.count)
    cache.refresh { document[$0] }
    document[1] = Array(MarkedText("x2 ⟦RLI⟧").text.utf8)
    cache.replaceLines(1..<2, with: 1)
    var scanned: [Int] = []
    let ranges = cache.refresh {
      scanned.append($0); return document[$0]
    }
    // Only the edited line: its end state did not change.
    XCTAssertEqual(scanned, [1])
    XCTAssertEqual(ranges, [1..<2])
    XCTAssertEqual(cache.diagnostics, full(document, scanner))
  }

  func testOpeningABlockCommentRescansUntilTheStateSettles() {
    var document = lines("a\nb ⟦RLI⟧\nc */ d ⟦RLI⟧\ne\nf")
    let scanner = HazardScanner(language: .c)
    var cache = HazardLineCache(scanner: scanner, lineCount: document.count)
    cache.refresh { document[$0] }
    XCTAssertEqual(cache.diagnostics.map(\.code), [.unpaired, .unpaired])
    document[0] = Array("a /*".utf8)
    cache.replaceLines(0..<1, with: 1)
    var scanned: [Int] = []
    cache.refresh {
      scanned.append($0); return document[$0]
    }
    // Lines 1 and 2 start in the comment now; line 3 starts in code as
    // before, so the scan stops there.
    XCTAssertEqual(scanned, [0, 1, 2])
    XCTAssertEqual(cache.startStates.map(\.isInComment), [false, true, true, false, false])
    XCTAssertEqual(cache.diagnostics, full(document, scanner))
    XCTAssertEqual(cache.diagnostics.map(\.code), [.inComment, .unpaired])
  }

  func testInsertingAndDeletingLinesKeepsLineNumbersRight() {
    var document = lines("a ⟦RLO⟧\nb\nc ⟦PDI⟧\nd")
    let scanner = HazardScanner(language: nil)
    var cache = HazardLineCache(scanner: scanner, lineCount: document.count)
    cache.refresh { document[$0] }
    // Insert two lines before line 1.
    document.insert(contentsOf: [Array("new1".utf8), Array(MarkedText("new2 ⟦LRE⟧").text.utf8)], at: 1)
    cache.replaceLines(1..<1, with: 2)
    cache.refresh { document[$0] }
    XCTAssertEqual(cache.lineCount, 6)
    XCTAssertEqual(cache.diagnostics, full(document, scanner))
    XCTAssertEqual(cache.diagnostics.map(\.line), [0, 0, 2, 4])  // unpaired + override on line 0
    // Delete lines 0...2.
    document.removeSubrange(0..<3)
    cache.replaceLines(0..<3, with: 0)
    cache.refresh { document[$0] }
    XCTAssertEqual(cache.lineCount, 3)
    XCTAssertEqual(cache.diagnostics, full(document, scanner))
    XCTAssertEqual(cache.diagnostics.map(\.line), [1])
    // Delete everything.
    cache.replaceLines(0..<3, with: 0)
    cache.refresh { _ in [] }
    XCTAssertEqual(cache.lineCount, 1)
    XCTAssertEqual(cache.diagnostics, [])
  }

  func testRandomEditsAgreeWithFullScans() {
    randomEditsAgreeWithFullScans(
      seed: 42, languages: [.c, .rust, .python, .swift, .javascript],
      pieces: ["x", " ", "/*", "*/", "\"", "//", "\u{202E}", "\u{2067}", "\u{2069}", "\u{202C}", "a\u{200F}b", "\\"])
  }

  func testRandomEditsOfNestedLiteralsAndHereDocumentsAgreeWithFullScans() {
    // Interpolations, `%` literals and here-documents carry more state from
    // line to line.
    randomEditsAgreeWithFullScans(
      seed: 7, languages: [.swift, .javascript, .python, .ruby, .shell],
      pieces: [
        "x", " ", "\"", "\"\"\"", "`", "\\(", "${", "#{", "$(", "{", "}", "(", ")", "f\"", "%q(", "%w[", "]",
        "<<EOF", "<<~EOF", "EOF", ":", "#", "\u{202E}", "\u{2067}", "\u{2069}", "a\u{200F}b",
      ])
  }

  func randomEditsAgreeWithFullScans(seed: UInt64, languages: [SourceLanguage], pieces: [String]) {
    var generator = SeededGenerator(seed: seed)
    func randomLine() -> [UInt8] {
      var text = ""
      for _ in 0..<Int(generator.next() % 6) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
      return Array(text.utf8)
    }
    for language in languages {
      let scanner = HazardScanner(language: language)
      var document = (0..<20).map { _ in randomLine() }
      var cache = HazardLineCache(scanner: scanner, lineCount: document.count)
      cache.refresh { document[$0] }
      for _ in 0..<200 {
        let lower = Int(generator.next() % UInt64(document.count + 1))
        let upper = min(document.count, lower + Int(generator.next() % 3))
        let replacement = (0..<Int(generator.next() % 3)).map { _ in randomLine() }
        document.replaceSubrange(lower..<upper, with: replacement)
        if document.isEmpty { document = [[]] }
        cache.replaceLines(lower..<upper, with: replacement.count)
        cache.refresh { document[$0] }
        XCTAssertEqual(cache.lineCount, document.count)
        let expected = full(document, scanner)
        guard cache.diagnostics == expected else {
          XCTFail("\(language): after replacing \(lower)..<\(upper) by \(replacement.count) lines")
          XCTAssertEqual(cache.diagnostics, expected)
          return
        }
      }
    }
  }
}
