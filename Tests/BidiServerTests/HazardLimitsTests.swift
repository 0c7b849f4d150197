import BidiTestSupport
import JSONRPC
import XCTest

/// The publishing limits of `textDocument/publishDiagnostics` (specification,
/// “Limits”): at most 100 hazards per line and 1,000 per document are
/// published, each cut followed by one `bidi.truncated` diagnostic that
/// counts the hazards left out; fix-all still fixes every hazard.
final class HazardLimitsTests: XCTestCase {
  static let rlo = "\u{202E}"
  static let lre = "\u{202A}"

  private func codes(_ diagnostics: [JSONValue]) -> [String: Int] {
    diagnostics.reduce(into: [:]) { $0[$1.diagnosticCode, default: 0] += 1 }
  }

  private func truncations(_ diagnostics: [JSONValue]) -> [JSONValue] {
    diagnostics.filter { $0.diagnosticCode == "bidi.truncated" }
  }

  func testALineWithManyHazardsPublishesAHundredAndCountsTheRest() throws {
    let session = try TestSession(.bidiLSP)
    // 150 unclosed RLO: 300 hazards (each bidi.override and bidi.unpaired).
    let line = "abc " + String(repeating: Self.rlo + "x", count: 150)
    let diagnostics = try session.openAndDiagnose("file:///line.txt", languageId: "plaintext", text: "ok\n" + line)
    XCTAssertEqual(diagnostics.count, 101)
    let notes = truncations(diagnostics)
    XCTAssertEqual(notes.count, 1)
    XCTAssertEqual(notes.first?["message"]?.stringValue?.hasPrefix("200 more bidi hazards on this line"), true)
    XCTAssertEqual(notes.first?["severity"], 3)
    XCTAssertEqual(
      notes.first?["range"], ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": 304]])
    let shown = diagnostics.filter { $0.diagnosticCode != "bidi.truncated" }
    XCTAssertTrue(shown.allSatisfy { $0["range"]?["start"]?["line"] == 1 })
    XCTAssertEqual(codes(shown).values.reduce(0, +), 100)
  }

  func testADocumentPublishesAThousandAndCountsTheRest() throws {
    let session = try TestSession(.bidiLSP)
    // 30 lines of 50 unclosed LRE: 1,500 hazards, none over the line limit.
    let text = (0..<30).map { _ in String(repeating: Self.lre + "a", count: 50) }.joined(separator: "\n")
    let diagnostics = try session.openAndDiagnose("file:///document.txt", languageId: "plaintext", text: text)
    XCTAssertEqual(diagnostics.count, 1_001)
    XCTAssertEqual(codes(diagnostics), ["bidi.unpaired": 1_000, "bidi.truncated": 1])
    let note = try XCTUnwrap(truncations(diagnostics).first)
    XCTAssertEqual(
      note["message"]?.stringValue?.hasPrefix("500 more bidi hazards not shown in this document"), true, "\(note)")
    // On the first line with a hazard left out: lines 0–19 hold the 1,000.
    XCTAssertEqual(note["range"]?["start"]?["line"], 20)
  }

  func testBothLimitsTogether() throws {
    let session = try TestSession(.bidiLSP)
    // 12 lines of 150 unclosed RLO: 300 hazards a line. Lines 0–9 show 100
    // each with a note for the 200 others; line 10 has no room left, so its
    // 300 and line 11's 300 are counted in the document's note.
    let text = (0..<12).map { _ in String(repeating: Self.rlo + "x", count: 150) }.joined(separator: "\n")
    let diagnostics = try session.openAndDiagnose("file:///both.txt", languageId: "plaintext", text: text)
    let notes = truncations(diagnostics)
    XCTAssertEqual(diagnostics.count, 1_000 + 11)
    XCTAssertEqual(notes.count, 11)
    XCTAssertEqual(notes.last?["range"]?["start"]?["line"], 10)
    XCTAssertEqual(notes.last?["message"]?.stringValue?.hasPrefix("600 more bidi hazards not shown"), true)
    XCTAssertTrue(notes.dropLast().allSatisfy { $0["message"]?.stringValue?.hasPrefix("200 more") == true })
  }

  func testFixAllFixesTheHazardsThatWereNotShown() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///fix.txt"
    let text = "abc " + String(repeating: Self.rlo + "x", count: 150) + "\nnext"
    XCTAssertEqual(try session.openAndDiagnose(uri, languageId: "plaintext", text: text).count, 101)
    let actions = try session.codeActions(uri, range: lspRange(0, 0, 0, 0), only: ["source.fixAll.bidi"])
    XCTAssertFalse(actions.isEmpty)
    for action in actions {
      let edits = action["edit"]?["changes"]?[uri]?.arrayValue ?? []
      XCTAssertFalse(edits.isEmpty, "\(action["title"] ?? .null)")
      try session.apply(uri, edits: edits)
      XCTAssertEqual(try session.diagnostics(uri, version: session.version(uri)), [], "\(action["title"] ?? .null)")
      _ = try session.replaceText(uri, with: text)
      XCTAssertEqual(try session.diagnostics(uri, version: session.version(uri)).count, 101)
    }
  }
}
