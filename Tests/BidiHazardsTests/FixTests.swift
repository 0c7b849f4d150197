import BidiHazards
import BidiTestSupport
import DocumentStore
import Foundation
import UnicodeBidi
import XCTest

/// Quick fixes and fix-all: applied, they remove what they fix.
final class FixTests: XCTestCase {
  /// Splits at "\n" (the test texts use only that).
  func lines(_ text: [UInt8]) -> [[UInt8]] {
    text.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  }

  func apply(_ edits: [HazardTextEdit], to text: [UInt8]) -> [UInt8] {
    var result = lines(text)
    for (number, line) in result.enumerated() {
      result[number] = HazardTextEdit.apply(edits.filter { $0.line == number }, to: line)
    }
    return Array(result.joined(separator: [0x0A]))
  }

  /// Where byte `offset` of the original line is after `edits` (nil if an
  /// edit removed it).
  func mapped(_ offset: Int, through edits: [HazardTextEdit]) -> Int? {
    var shift = 0
    for edit in edits {
      if edit.range.isEmpty {
        if edit.range.lowerBound <= offset { shift += edit.newText.utf8.count }
      } else if edit.range.contains(offset) {
        return nil
      } else if edit.range.upperBound <= offset {
        shift += edit.newText.utf8.count - edit.range.count
      }
    }
    return offset + shift
  }

  func fixedText(_ marked: String, _ language: SourceLanguage?, kind: HazardFix.Kind) throws -> String {
    let text = MarkedText(marked).text
    let diagnostic = try XCTUnwrap(HazardScanner(language: language).scanDocument(text).first)
    let fix = try XCTUnwrap(diagnostic.fixes.first { $0.kind == kind })
    return String(decoding: apply(fix.edits, to: Array(text.utf8)), as: UTF8.self)
  }

  func testCloseInsertsTheRightClosersAtTheEndOfTheContext() throws {
    XCTAssertEqual(try fixedText("x ⟦RLE⟧abc", nil, kind: .close), MarkedText("x ⟦RLE⟧abc⟦PDF⟧").text)
    XCTAssertEqual(
      try fixedText("⟦RLE⟧ a ⟦LRI⟧ b", nil, kind: .close), MarkedText("⟦RLE⟧ a ⟦LRI⟧ b⟦PDI⟧⟦PDF⟧").text)
    XCTAssertEqual(try fixedText("/* ⟦RLI⟧ */ x", .c, kind: .close), MarkedText("/* ⟦RLI⟧ ⟦PDI⟧*/ x").text)
    XCTAssertEqual(try fixedText(#"s = "⟦FSI⟧a" + b"#, .java, kind: .close), MarkedText(#"s = "⟦FSI⟧a⟦PDI⟧" + b"#).text)
    // In code, closers are kept apart from identifiers, and go before a
    // trailing comment.
    XCTAssertEqual(try fixedText("x = ⟦RLE⟧ foo", .c, kind: .close), MarkedText("x = ⟦RLE⟧ foo ⟦PDF⟧").text)
    XCTAssertEqual(
      try fixedText("x = ⟦RLE⟧ foo; // c", .c, kind: .close), MarkedText("x = ⟦RLE⟧ foo; ⟦PDF⟧// c").text)
    XCTAssertEqual(try fixedText(#"x = ⟦RLE⟧ "a""#, .c, kind: .close), MarkedText(#"x = ⟦RLE⟧ "a"⟦PDF⟧"#).text)
    XCTAssertEqual(
      try fixedText("x = ⟦RLE⟧ \"a\\\nb\"", .c, kind: .close), MarkedText("x = ⟦RLE⟧ ⟦PDF⟧\"a\\\nb\"").text)
    // A literal continued by a backslash: close before the backslash.
    XCTAssertEqual(
      try fixedText("s = \"⟦RLI⟧a\\\nb\";", .c, kind: .close), MarkedText("s = \"⟦RLI⟧a⟦PDI⟧\\\nb\";").text)
  }

  func testRemoveAndReplaceOverride() throws {
    XCTAssertEqual(try fixedText("a ⟦RLO⟧bc⟦PDF⟧ d", nil, kind: .remove), "a bc d")
    XCTAssertEqual(
      try fixedText("a ⟦RLO⟧bc⟦PDF⟧ d", nil, kind: .replaceOverrideWithEmbedding), MarkedText("a ⟦RLE⟧bc⟦PDF⟧ d").text)
    XCTAssertEqual(try fixedText("a ⟦PDI⟧ d", nil, kind: .remove), "a  d")
    XCTAssertEqual(try fixedText("ab⟦RLM⟧c = 1", .python, kind: .remove), "abc = 1")
  }

  func testEveryQuickFixRemovesItsDiagnostic() throws {
    var applied = 0
    for path in try CorpusTests.corpusFiles("hazards") {
      let text = Array(try Data(contentsOf: corpusURL.appendingPathComponent(path)))
      let scanner = HazardScanner(language: SourceLanguage(path: path))
      let before = scanner.scanDocument(text)
      for diagnostic in before {
        for fix in diagnostic.fixes {
          applied += 1
          XCTAssertTrue(fix.edits.allSatisfy { $0.line == diagnostic.line })
          let after = scanner.scanDocument(apply(fix.edits, to: text))
          let context =
            "\(path):\(diagnostic.line + 1):\(diagnostic.range.lowerBound + 1) \(diagnostic.code.rawValue): \(fix.title)"
          XCTAssertLessThanOrEqual(after.count, before.count, context)
          // Diagnostics on other lines are untouched.
          XCTAssertEqual(
            after.filter { $0.line != diagnostic.line }, before.filter { $0.line != diagnostic.line }, context)
          // On the line, every diagnostic left is on an original control,
          // never on inserted text, and the fixed one is gone. (A removal
          // can expose a control that was fine: one that splits `#{`.)
          var original: [Int: Int] = [:]
          for (offset, _) in BidiControl.occurrences(in: lines(text)[diagnostic.line]) {
            if let moved = mapped(offset, through: fix.edits) { original[moved] = offset }
          }
          for other in after where other.line == diagnostic.line {
            let source = original[other.range.lowerBound]
            XCTAssertNotNil(source, "diagnostic on inserted text after \(context)")
            if source == diagnostic.range.lowerBound {
              XCTAssertNotEqual(other.code, diagnostic.code, context)
            }
          }
        }
      }
    }
    // 92 removals, 50 closings (19 inComment + 25 inString + 6 unpaired),
    // 27 override replacements (every override outside an identifier).
    XCTAssertEqual(applied, 169)
  }

  func testPreferredFixIsUnique() throws {
    for path in try CorpusTests.corpusFiles("hazards") {
      let text = Array(try Data(contentsOf: corpusURL.appendingPathComponent(path)))
      for diagnostic in HazardScanner(language: SourceLanguage(path: path)).scanDocument(text) {
        XCTAssertEqual(diagnostic.fixes.filter(\.isPreferred).count, 1, path)
      }
    }
  }

  func testFixAllLeavesNoHazard() throws {
    for strategy in [FixAllStrategy.remove, .close] {
      var files = 0
      for path in try CorpusTests.corpusFiles("hazards") {
        let text = Array(try Data(contentsOf: corpusURL.appendingPathComponent(path)))
        let scanner = HazardScanner(language: SourceLanguage(path: path))
        let fixed = apply(scanner.fixAllEdits(document: text, strategy: strategy), to: text)
        XCTAssertEqual(scanner.scanDocument(fixed), [], "\(path) after fix-all \(strategy)")
        files += 1
      }
      XCTAssertEqual(files, 14)
    }
  }

  /// Fix-all through a line cache, as the server does it.
  func cacheFixAll(_ text: [UInt8], _ scanner: HazardScanner, _ strategy: FixAllStrategy) -> [HazardTextEdit] {
    var tree = (try? text.withUnsafeBufferPointer { try LineTree<NoLineAnalysis>(utf8: $0) }) ?? LineTree()
    let cache = HazardLineCache(scanner: scanner)
    cache.refresh(&tree)
    return cache.fixAllEdits(tree, strategy: strategy)
  }

  /// Whether the edits of each line are disjoint.
  func disjoint(_ edits: [HazardTextEdit]) -> Bool {
    let ordered = edits.sorted { ($0.line, $0.range.lowerBound) < ($1.line, $1.range.lowerBound) }
    return zip(ordered, ordered.dropFirst()).allSatisfy {
      $0.line != $1.line || $0.range.upperBound <= $1.range.lowerBound
    }
  }

  func testFixAllRescansWhatARemovalExposes() throws {
    // A control that splits a delimiter keeps the comment or literal open;
    // removing it closes it, and the mark after it is then in an identifier.
    let cases: [(text: String, language: SourceLanguage, removed: String)] = [
      ("int a; /* note *\u{202E}/ int b\u{200F}c; /* end */", .c, "int a; /* note */ int bc; /* end */"),
      ("x = \"\"\"a\"\"\u{202E}\" ; y\u{200F}z = 1\n\"\"\"", .python, "x = \"\"\"a\"\"\" ; yz = 1\n\"\"\""),
      // Over lines: the comment no longer swallows the next line.
      ("/* a *\u{202E}/ x\n int b\u{200E}c; /* d */", .c, "/* a */ x\n int bc; /* d */"),
    ]
    for (text, language, removed) in cases {
      let scanner = HazardScanner(language: language)
      let bytes = Array(text.utf8)
      // One pass is not enough here (which is the point of the case).
      let onePass = apply(fixAllEdits(for: scanner.scanDocument(bytes), strategy: .remove), to: bytes)
      XCTAssertNotEqual(scanner.scanDocument(onePass), [], text)
      for strategy in [FixAllStrategy.remove, .close] {
        let edits = scanner.fixAllEdits(document: bytes, strategy: strategy)
        XCTAssertTrue(disjoint(edits), "\(text) \(strategy)")
        let fixed = apply(edits, to: bytes)
        XCTAssertEqual(scanner.scanDocument(fixed), [], "\(text) after fix-all \(strategy)")
        XCTAssertEqual(cacheFixAll(bytes, scanner, strategy), edits, "\(text) \(strategy)")
        if strategy == .remove {
          XCTAssertEqual(String(decoding: fixed, as: UTF8.self), removed)
          // Removals only: offsets were mapped back, not rewritten.
          XCTAssertTrue(edits.allSatisfy { $0.newText.isEmpty && $0.range.count == 3 }, text)
        }
      }
    }
  }

  func testFixAllAfterInsertionsRewritesTheChangedPart() throws {
    // Closing the RLI inserts a PDI before the comment's end; removing the
    // unmatched PDF then ends the comment early, which leaves the RLI
    // unclosed, the inserted PDI unmatched and the mark in an identifier.
    let text = MarkedText("/* ⟦RLI⟧ *⟦PDF⟧/ x⟦RLM⟧y */ z;").text
    let scanner = HazardScanner(language: .c)
    let bytes = Array(text.utf8)
    let edits = scanner.fixAllEdits(document: bytes, strategy: .close)
    XCTAssertTrue(disjoint(edits))
    let fixed = apply(edits, to: bytes)
    XCTAssertEqual(scanner.scanDocument(fixed), [], String(decoding: fixed, as: UTF8.self))
    XCTAssertEqual(cacheFixAll(bytes, scanner, .close), edits)
    // The RLI is kept, closed in its comment.
    XCTAssertEqual(String(decoding: fixed, as: UTF8.self), MarkedText("/* ⟦RLI⟧ ⟦PDI⟧*/ xy */ z;").text)
  }

  func testRewrittenPartStartsAtACharacterBoundary() throws {
    // The RLO becomes an RLE (E2 80 AE → E2 80 AB: the same first two
    // bytes), and a second pass rewrites the line from there: the rewritten
    // part must start before the character, not inside it.
    let text = MarkedText("⟦RLO⟧ x /* ⟦RLI⟧ *⟦PDF⟧/ y⟦RLM⟧z */").text
    let scanner = HazardScanner(language: .c)
    let bytes = Array(text.utf8)
    let edits = scanner.fixAllEdits(document: bytes, strategy: .close)
    let fixed = apply(edits, to: bytes)
    XCTAssertEqual(String(decoding: fixed, as: UTF8.self), MarkedText("⟦RLE⟧ x /* ⟦RLI⟧ ⟦PDI⟧*/ yz */⟦PDF⟧").text)
    XCTAssertEqual(scanner.scanDocument(fixed), [])
    XCTAssertEqual(edits.map(\.range.lowerBound), [0])
  }

  func testFixAllOfRandomDocumentsLeavesNoHazard() {
    var generator = SeededGenerator(seed: 2021_42574)
    let pieces = [
      "x", " ", "/*", "*/", "*", "/", "\"", "\"\"\"", "'", "`", "#", "//", "${", "}", "\\(", ")", "f\"", "{",
      "\u{202E}", "\u{202C}", "\u{2067}", "\u{2069}", "\u{200F}", "a\u{200E}b",
    ]
    for language in [SourceLanguage.c, .python, .swift, .javascript, .ruby, .shell, .rust] {
      let scanner = HazardScanner(language: language)
      for _ in 0..<60 {
        var text = ""
        for _ in 0..<(1 + Int(generator.next() % 5)) {
          for _ in 0..<Int(generator.next() % 9) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
          text += "\n"
        }
        let bytes = Array(text.utf8)
        for strategy in [FixAllStrategy.remove, .close] {
          let edits = scanner.fixAllEdits(document: bytes, strategy: strategy)
          XCTAssertTrue(disjoint(edits), "\(language) \(strategy): \(text.debugDescription)")
          let fixed = apply(edits, to: bytes)
          XCTAssertEqual(scanner.scanDocument(fixed), [], "\(language) \(strategy): \(text.debugDescription)")
        }
      }
    }
  }

  func testFixAllCloseKeepsTheControlsAndRemoveDropsThem() throws {
    let text = MarkedText("/* ⟦RLO⟧ } ⟦LRI⟧if (a)⟦PDI⟧ ⟦LRI⟧ x */ y ⟦PDF⟧").text
    let diagnostics = HazardScanner(language: .c).scanDocument(text)
    XCTAssertEqual(diagnostics.map(\.code), [.inComment, .override, .inComment, .unmatched])
    let closed = apply(fixAllEdits(for: diagnostics, strategy: .close), to: Array(text.utf8))
    XCTAssertEqual(
      String(decoding: closed, as: UTF8.self), MarkedText("/* ⟦RLE⟧ } ⟦LRI⟧if (a)⟦PDI⟧ ⟦LRI⟧ x ⟦PDI⟧⟦PDF⟧*/ y ").text)
    let removed = apply(fixAllEdits(for: diagnostics, strategy: .remove), to: Array(text.utf8))
    XCTAssertEqual(String(decoding: removed, as: UTF8.self), MarkedText("/*  } ⟦LRI⟧if (a)⟦PDI⟧  x */ y ").text)
  }

  func testInvalidUTF8FixReplacesTheBytes() throws {
    let line: [UInt8] = [0x61, 0xFF, 0x62]
    let diagnostic = try XCTUnwrap(HazardScanner(language: nil).scanLine(line, lineNumber: 0).diagnostics.first)
    let fixed = HazardTextEdit.apply(diagnostic.fixes[0].edits, to: line)
    XCTAssertEqual(String(decoding: fixed, as: UTF8.self), "a\u{FFFD}b")
  }
}
