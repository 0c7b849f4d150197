import BidiTestSupport
import JSONRPC
import XCTest

/// The per-document publishing limit for structured documents
/// (specification, “Limits”): at most 1,000 findings of a Markdown or
/// localization document are published, in line order, then one
/// `bidi.truncated` note on the line of the first left out that counts the
/// others; fix-all still fixes every finding.
final class StructuredLimitsTests: XCTestCase {
  private func truncations(_ diagnostics: [JSONValue]) -> [JSONValue] {
    diagnostics.filter { $0.diagnosticCode == "bidi.truncated" }
  }

  /// 1,500 paragraphs, each starting with a Latin word but mostly Arabic
  /// (contract §8: displayed left to right, read right to left), one
  /// paragraph every second line.
  static let flipped = (0..<1_500).map { "Apple \($0) متاح الآن في المتجر" }.joined(separator: "\n\n") + "\n"

  func testMarkdownPublishesAThousandFindingsAndFixAllFixesEveryOne() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///docs/many.ar.md"
    let diagnostics = try session.openAndDiagnose(uri, languageId: "markdown", text: Self.flipped)
    XCTAssertEqual(diagnostics.count, 1_001)
    let shown = diagnostics.filter { $0.diagnosticCode != "bidi.truncated" }
    XCTAssertEqual(shown.count, 1_000)
    XCTAssertTrue(shown.allSatisfy { $0.diagnosticCode == "bidi.blockDirection" })
    // The first 1,000 in line order: paragraphs 0–999, on lines 0–1998.
    XCTAssertEqual(
      Set(shown.compactMap { $0["range"]?["start"]?["line"]?.intValue }), Set((0..<1_000).map { $0 * 2 }))
    let notes = truncations(diagnostics)
    XCTAssertEqual(notes.count, 1)
    let note = try XCTUnwrap(notes.first)
    XCTAssertEqual(
      note["message"]?.stringValue?.hasPrefix("500 more bidi findings not shown in this document"), true, "\(note)")
    XCTAssertEqual(note["severity"], 3)
    // On the whole line of paragraph 1,000, the first left out.
    XCTAssertEqual(note["range"]?["start"], ["line": 2_000, "character": 0])
    XCTAssertEqual(note["range"]?["end"]?["line"], 2_000)

    // Fix-all from the first finding fixes all 1,500, shown or not.
    let actions = try session.codeActions(uri, range: shown[0]["range"]!, diagnostics: [shown[0]])
    let fixAll = try XCTUnwrap(
      actions.first { $0["title"]?.stringValue?.hasPrefix("Fix all bidi.blockDirection in the file") == true },
      "\(actions.compactMap { $0["title"]?.stringValue })")
    let edits = fixAll["edit"]?["changes"]?[uri]?.arrayValue ?? []
    XCTAssertEqual(edits.count, 1_500)
    try session.apply(uri, edits: edits)
    XCTAssertEqual(try session.diagnostics(uri, version: session.version(uri)), [])
  }

  func testMarkdownUnderTheLimitHasNoNote() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let text = (0..<999).map { "Apple \($0) متاح الآن في المتجر" }.joined(separator: "\n\n") + "\n"
    let diagnostics = try session.openAndDiagnose("file:///docs/some.ar.md", languageId: "markdown", text: text)
    XCTAssertEqual(diagnostics.count, 999)
    XCTAssertEqual(truncations(diagnostics), [])
  }

  /// A `.strings` file: the findings of 600 entries, all published, then
  /// the same entries twice over (1,200 entries, twice the findings): the
  /// first 1,000 and a note counting the rest, on the line of the entry of
  /// the first left out.
  func testLocalizationPublishesAThousandFindings() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    func document(_ count: Int) -> String {
      (0..<count).map { "\"k\($0)\" = \"%@ مدفوعات بدون فوائد من %@\";\n" }.joined()
    }
    let some = try session.openAndDiagnose("file:///ar.lproj/Some.strings", languageId: "strings", text: document(600))
    XCTAssertEqual(truncations(some), [])
    XCTAssertFalse(some.isEmpty)
    XCTAssertEqual(some.count % 600, 0, "the same findings for every entry")
    let perEntry = some.count / 600
    let total = perEntry * 1_200
    XCTAssertGreaterThan(total, 1_000)
    let many = try session.openAndDiagnose(
      "file:///ar.lproj/Many.strings", languageId: "strings", text: document(1_200))
    XCTAssertEqual(many.count, 1_001)
    let note = try XCTUnwrap(truncations(many).first)
    XCTAssertEqual(
      note["message"]?.stringValue?.hasPrefix("\(total - 1_000) more bidi findings not shown in this document"),
      true, "\(note)")
    XCTAssertEqual(note["range"]?["start"]?["line"]?.intValue, 1_000 / perEntry)
  }
}
