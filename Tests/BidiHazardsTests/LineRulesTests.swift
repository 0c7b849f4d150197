import BidiHazards
import UnicodeBidi
import XCTest

/// Whole-line rules (no language): GCC's `-Wbidi-chars=unpaired` pairing.
final class LineRulesTests: XCTestCase {
  func testCleanLinesGiveNothing() {
    assertFindings("plain ASCII text", nil)
    assertFindings("שלום עולם and مرحبا", nil)
    assertFindings("marks ⟦LRM⟧ ⟦RLM⟧ ⟦ALM⟧ open nothing", nil)
    assertFindings("", nil)
  }

  func testBalancedEmbeddingsAndIsolatesGiveNothing() {
    assertFindings("⟦RLE⟧a⟦PDF⟧ ⟦LRE⟧b⟦PDF⟧ ⟦RLI⟧c⟦PDI⟧ ⟦LRI⟧d⟦PDI⟧ ⟦FSI⟧e⟦PDI⟧", nil)
    assertFindings("⟦RLE⟧ ⟦LRE⟧ nested ⟦PDF⟧ ⟦PDF⟧", nil)
    assertFindings("⟦RLI⟧ ⟦LRI⟧ nested ⟦PDI⟧ ⟦PDI⟧", nil)
    assertFindings("⟦RLE⟧ ⟦LRI⟧ isolate in embedding ⟦PDI⟧ ⟦PDF⟧", nil)
  }

  func testOpenerLeftOpenIsUnpaired() {
    assertFindings("a ⟦RLE:unpaired⟧ b", nil)
    assertFindings("a ⟦LRI:unpaired⟧ b", nil)
    assertFindings("⟦RLI⟧ x ⟦PDI⟧ ⟦FSI:unpaired⟧", nil)
    assertFindings("⟦LRE:unpaired⟧ ⟦RLE⟧ x ⟦PDF⟧", nil)
  }

  func testCloserWithNothingToCloseIsUnmatched() {
    assertFindings("a ⟦PDF:unmatched⟧ b", nil)
    assertFindings("a ⟦PDI:unmatched⟧ b", nil)
    assertFindings("⟦RLE⟧ x ⟦PDI:unmatched⟧ ⟦PDF⟧", nil)
  }

  func testPDFDoesNotCloseAnEmbeddingWithAnIsolateOpenInside() {
    assertFindings("⟦RLE:unpaired⟧ a ⟦LRI:unpaired⟧ b ⟦PDF:unmatched⟧", nil)
  }

  func testPDIClosesItsIsolateAndEverythingOpenedAfterIt() {
    assertFindings("⟦RLI⟧ a ⟦LRE⟧ b ⟦RLE⟧ c ⟦PDI⟧", nil)
    assertFindings("⟦RLE:unpaired⟧ ⟦LRI⟧ ⟦LRE⟧ x ⟦PDI⟧", nil)
    assertFindings("⟦LRI⟧ ⟦RLI⟧ x ⟦PDI⟧ ⟦PDI⟧ ⟦PDI:unmatched⟧", nil)
  }

  func testOverrideIsReportedOnceEvenWhenBalanced() {
    assertFindings("⟦RLO:override⟧abc⟦PDF⟧", nil)
    assertFindings("⟦LRO:override⟧abc⟦PDF⟧", nil)
    assertFindings("⟦RLI⟧ ⟦RLO:override⟧ x ⟦PDI⟧", nil)
    // Unclosed: an unpaired error, and the override warning any override gets.
    assertFindings("⟦RLO:unpaired+override⟧abc", nil)
  }

  func testPairingIsPerLine() {
    assertFindings("⟦RLE:unpaired⟧ a\n⟦PDF:unmatched⟧ b", nil)
    assertFindings("⟦RLI:unpaired⟧ a\r\n⟦PDI:unmatched⟧\r⟦LRI:unpaired⟧", nil)
  }

  func testDiagnosticRangeMessageAndSeverity() throws {
    let text = MarkedText("x = ⟦RLO:unpaired+override⟧abc")
    let diagnostics = HazardScanner(language: nil).scanDocument(text.text)
    let diagnostic = try XCTUnwrap(diagnostics.first)
    XCTAssertEqual(diagnostics.map(\.code), [.unpaired, .override])
    XCTAssertEqual(diagnostic.range, 4..<7)
    XCTAssertEqual(diagnostic.control, .rlo)
    XCTAssertEqual(diagnostic.severity, .error)
    XCTAssertTrue(diagnostic.message.hasPrefix("U+202E RIGHT-TO-LEFT OVERRIDE"), diagnostic.message)
    XCTAssertTrue(diagnostic.message.contains("reverse order"), diagnostic.message)
    XCTAssertEqual(diagnostic.closing, ClosingInsertion(offset: 10, closers: [.pdf]))
  }

  func testRendererAddsTheVisualOrderToMessages() throws {
    let text = MarkedText("ab ⟦RLO:unpaired+override⟧cd")
    let scanner = HazardScanner(language: nil, renderer: { bytes in "VISUAL(\(bytes.count))" })
    let diagnostic = try XCTUnwrap(scanner.scanDocument(text.text).first)
    XCTAssertTrue(diagnostic.message.hasSuffix("The line displays as: \u{201C}VISUAL(8)\u{201D}"), diagnostic.message)
    let plain = try XCTUnwrap(HazardScanner(language: nil).scanDocument(text.text).first)
    XCTAssertFalse(plain.message.contains("displays as"))
  }

  func testLinesWithOnlyUnmatchedClosersAreNotQuoted() throws {
    // A closer with nothing to close changes no level (X6a, X7): its line
    // displays as it would without it, and the renderer is not called.
    let unquoted = HazardScanner(
      language: nil,
      renderer: { _ in
        XCTFail("no visual order for a line of unmatched closers")
        return "VISUAL"
      })
    let closers = unquoted.scanDocument("a \u{2069} b \u{202C} c")
    XCTAssertEqual(closers.map(\.code), [.unmatched, .unmatched])
    for diagnostic in closers {
      XCTAssertNil(diagnostic.visualOrder)
      XCTAssertFalse(diagnostic.message.contains("displays as"), diagnostic.message)
    }
    // One other finding on the line quotes it in every message.
    let scanner = HazardScanner(language: nil, renderer: { _ in "VISUAL" })
    let mixed = scanner.scanDocument("a \u{2069} b \u{2067}c")
    XCTAssertEqual(mixed.map(\.code), [.unmatched, .unpaired])
    for diagnostic in mixed {
      XCTAssertEqual(diagnostic.visualOrder, "VISUAL")
      XCTAssertTrue(diagnostic.message.hasSuffix("The line displays as: \u{201C}VISUAL\u{201D}"), diagnostic.message)
    }
  }

  func testLongLinesKeepTheVisualOrderOutOfDiagnostics() throws {
    // Every diagnostic of a line would carry it: on a long line with many
    // hazards that would grow with their product. The renderer is not even
    // called.
    let line = "x \u{202E}" + String(repeating: "y", count: 500)
    let scanner = HazardScanner(
      language: nil,
      renderer: { _ in
        XCTFail("no visual order for a line over the limit")
        return "VISUAL"
      })
    let diagnostic = try XCTUnwrap(scanner.scanDocument(line).first)
    XCTAssertNil(diagnostic.visualOrder)
    XCTAssertFalse(diagnostic.message.contains("VISUAL"))
    let short = try XCTUnwrap(
      HazardScanner(language: nil, renderer: { _ in "VISUAL" }).scanDocument("x \u{202E}y").first)
    XCTAssertEqual(short.visualOrder, "VISUAL")
  }

  func testLinesWithManyControlsPairCorrectly() {
    let count = 20_000
    let embeddings = String(repeating: "\u{202A}", count: count) + String(repeating: "\u{2069}", count: count)
    let first = HazardScanner(language: nil).scanDocument(embeddings)
    XCTAssertEqual(first.filter { $0.code == .unpaired }.count, count)
    XCTAssertEqual(first.filter { $0.code == .unmatched }.count, count)
    // The outermost opener needs every closer; the innermost only one.
    XCTAssertEqual(first.first?.closing?.closers.count, count)
    XCTAssertEqual(
      first.first { $0.code == .unpaired && $0.range.lowerBound == 3 * (count - 1) }?.closing?.closers.count, 1)
    let isolates = String(repeating: "\u{2067}\u{202B}", count: count) + String(repeating: "\u{2069}", count: count)
    XCTAssertEqual(HazardScanner(language: .c).scanDocument(isolates), [])
  }

  func testInvalidUTF8IsReportedAndTheRestStillChecked() {
    var bytes = Array("ok ".utf8)
    bytes += [0xFF, 0xFE]
    bytes += Array(" \u{202E}x ".utf8)
    bytes += [0xE2, 0x80]  // truncated sequence
    let diagnostics = HazardScanner(language: nil).scanLine(bytes, lineNumber: 0).diagnostics
    XCTAssertEqual(diagnostics.map(\.code), [.invalidUtf8, .unpaired, .override, .invalidUtf8])
    XCTAssertEqual(diagnostics.map(\.range), [3..<5, 6..<9, 6..<9, 11..<13])
    XCTAssertEqual(diagnostics[0].severity, .warning)
    XCTAssertTrue(diagnostics[0].message.contains("0xFF 0xFE"), diagnostics[0].message)
  }

  func testControlNamesAndEncodings() {
    XCTAssertEqual(BidiControl.rlo.displayName, "U+202E RIGHT-TO-LEFT OVERRIDE")
    XCTAssertEqual(BidiControl.alm.displayName, "U+061C ARABIC LETTER MARK")
    XCTAssertEqual(BidiControl.fsi.shortName, "FSI")
    for control in BidiControl.allCases {
      XCTAssertEqual(control.utf8, Array(String(Unicode.Scalar(control.rawValue)!).utf8))
      XCTAssertEqual(control.utf8.count, control.utf8Count)
      let decoded = control.utf8.withUnsafeBufferPointer { BidiControl.decode($0, at: 0) }
      XCTAssertEqual(decoded, control)
    }
    XCTAssertNil(Array("\u{2028}".utf8).withUnsafeBufferPointer { BidiControl.decode($0, at: 0) })
  }

  func testOccurrencesListEveryControl() {
    let line = Array(MarkedText("a⟦ALM⟧b ⟦RLO⟧c⟦PDF⟧ \u{2028}⟦FSI⟧").text.utf8)
    let found = BidiControl.occurrences(in: line)
    XCTAssertEqual(found.map(\.control), [.alm, .rlo, .pdf, .fsi])
    XCTAssertEqual(found.map(\.offset), [1, 5, 9, 16])
  }

  func testOffsetConversion() {
    let line = Array("a\u{05D0}\u{1F600}\u{202E}b".utf8)  // 1 + 2 + 4 + 3 + 1 bytes
    XCTAssertEqual(LineUnits(line, encoding: .utf16).character(atUTF8Offset: 7), 4)
    XCTAssertEqual(LineUnits(line, encoding: .utf32).character(atUTF8Offset: 7), 3)
    XCTAssertEqual(LineUnits(line, encoding: .utf16).character(atUTF8Offset: 10), 5)
    XCTAssertEqual(LineUnits(line, encoding: .utf16).character(atUTF8Offset: 99), 6)
  }
}
