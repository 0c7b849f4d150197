import BidiTestSupport
import JSONRPC
import XCTest

/// Bad localization input served by the daemon in process: one
/// `bidi.localizationSyntax`, the values before it served, no edit after it,
/// no crash; and random edits answered as a fresh open of the same text.
final class LocalizationRobustnessTests: XCTestCase {
  /// Opens `text`, checks one syntax diagnostic (when `broken`) and that the
  /// values before it are served, and that no edit of any mode lies after it.
  private func check(
    _ session: TestSession, _ uri: String, _ text: String, broken: Bool, firstKey: String?,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let diagnostics = try session.openAndDiagnose(uri, languageId: "plaintext", text: text)
    let syntax = diagnostics.filter { $0.diagnosticCode == "bidi.localizationSyntax" }
    XCTAssertEqual(syntax.count, broken ? 1 : 0, "\(diagnostics)", file: file, line: line)
    let entries = try session.paragraphs("bidi/naturalDirection", [:], uri: uri, file: file, line: line)
    XCTAssertEqual(entries.first?["key"]?.stringValue, firstKey, file: file, line: line)
    let errorLine = syntax.first?.startLine ?? Int.max - 1
    for (name, options) in LocalizationCorpusServerTests.modes {
      for edit in try session.edits(options, uri: uri, file: file, line: line) {
        XCTAssertLessThan(
          edit["range"]?["end"]?["line"]?.intValue ?? Int.max, errorLine + 1, name, file: file, line: line)
        XCTAssertLessThanOrEqual(edit.startLine, errorLine, name, file: file, line: line)
      }
    }
  }

  func testMalformedFilesGiveOneSyntaxDiagnosticAndKeepTheValuesBefore() throws {
    let session = try TestSession(.bidiLSP)
    try check(
      session, "file:///ar.lproj/Unterminated.strings",
      "\"a\" = \"%@ مرحبا\";\n\"b\" = \"never closed\n\"c\" = \"x\";\n",
      broken: true, firstKey: "a")
    try check(
      session, "file:///res/values-ar/strings.xml",
      "<resources>\n<string name=\"a\">%s مرحبا</string>\n<string name=\"b\">x</strin>\n<string name=\"c\">y</string>\n</resources>\n",
      broken: true, firstKey: "a")
    try check(
      session, "file:///l10n/intl_ar.arb", "{\n  \"a\": \"{name} مرحبا\",\n  \"b\": ,\n  \"c\": \"y\"\n}\n",
      broken: true,
      firstKey: "a")
    try check(
      session, "file:///po/he.po",
      "msgid \"a\"\nmsgstr \"%s שלום\"\n\n\"orphan continuation\"\nmsgid \"b\"\nmsgstr \"x\"\n",
      broken: true, firstKey: "a")
    // Deeply nested JSON, never closed: read with explicit stacks.
    let deep = "{\"a\": \"مرحبا %s\",\n\"b\": " + String(repeating: "{\"x\": ", count: 100_000) + "\n"
    try check(session, "file:///locales/ar/deep.json", deep, broken: true, firstKey: "a")
    // Deeply nested and closed: one value with a 100,001-part key.
    let closed =
      "{" + String(repeating: "\"x\": {", count: 100_000) + "\"y\": \"مرحبا\"" + String(repeating: "}", count: 100_001)
    try check(
      session, "file:///locales/ar/closed.json", closed, broken: false,
      firstKey: String(repeating: "x.", count: 100_000) + "y")
  }

  func testAHundredThousandPlaceholdersInOneValue() throws {
    let session = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    let uri = "file:///ar.lproj/Many.strings"
    let value = "مرحبا " + String(repeating: "%@ ", count: 100_000)
    try session.open(uri, languageId: "strings", text: "\"many\" = \"\(value)\";\n\"after\" = \"x\";\n")
    let entries = try session.paragraphs("bidi/naturalDirection", [:], uri: uri)
    XCTAssertEqual(LocalizationChecks.brief(entries), ["many - rtl firstStrong", "after - ltr firstStrong"])
    // Marks planned over the 100,000 placeholders, inside the value only.
    // (The 200,000 edits of `placeholders` are not asked for: their answer
    // alone would take the test process's memory far up, and the
    // command-line tests measure their children's peak, which inherits it.)
    let direction = try session.edits(["mode": "direction", "direction": "ltr"], uri: uri)
    XCTAssertEqual(direction, [["range": lspRange(0, 10, 0, 10), "newText": "\u{200E}"]])
    XCTAssertEqual(try session.edits(["mode": "strip"], uri: uri), [])
    let visual = try session.paragraphs("bidi/visualOrder", ["range": lineRange(0)], uri: uri)
    XCTAssertEqual(visual.first?["text"]?.stringValue?.count, value.count)
  }

  /// Random edits of a `.strings` and a `.po` document, each answered as a
  /// fresh open of the same text answers (entries and diagnostics): the
  /// incremental index and the per-value findings agree with a full read.
  func testRandomEditsAnswerAsAFreshOpen() throws {
    var random = SeededGenerator(seed: 0x10CA1)
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let pieces = ["\"", "\\", "\n", ";", " = ", "%@", "مرحبا", "abc", "\\U202B", "\u{202B}", "msgid ", "msgstr ", "#"]
    var strings = ""
    for index in 0..<60 { strings += "\"k\(index)\" = \"%@ قيمة \(index)\";\n" }
    var po = "msgid \"\"\nmsgstr \"Language: ar\\n\"\n\n"
    for index in 0..<60 { po += "msgid \"k\(index)\"\nmsgstr \"%s قيمة \(index)\"\n\n" }
    var fresh = 0
    for (name, start) in [("Localizable.strings", strings), ("app.po", po)] {
      let uri = "file:///ar.lproj/\(name)"
      _ = try session.openAndDiagnose(uri, languageId: "plaintext", text: start)
      var model = TestText(start)
      for round in 0..<40 {
        var edits: [JSONValue] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let lineIndex = Int.random(in: 0..<model.lineCount, using: &random)
          let width = model.lineWidth(lineIndex, in: .utf16)
          let character = Int.random(in: 0...width, using: &random)
          let end = min(width, character + Int.random(in: 0...3, using: &random))
          let text = Int.random(in: 0..<3, using: &random) == 0 ? "" : pieces.randomElement(using: &random)!
          edits = [["range": lspRange(lineIndex, character, lineIndex, end), "newText": .string(text)]]
          model = try model.applying(edits, in: .utf16)
          try session.apply(uri, edits: edits)
        }
        let edited = try session.diagnostics(uri, version: session.version(uri))
        fresh += 1
        let reference = "file:///ar.lproj/fresh\(fresh)-\(name)"
        let referenceDiagnostics = try session.openAndDiagnose(reference, languageId: "plaintext", text: model.text)
        XCTAssertEqual(edited, referenceDiagnostics, "\(name) round \(round) diagnostics\n\(model.text)")
        for method in ["bidi/naturalDirection", "bidi/visualOrder"] {
          XCTAssertEqual(
            try session.paragraphs(method, [:], uri: uri), try session.paragraphs(method, [:], uri: reference),
            "\(name) round \(round) \(method)")
        }
        try session.close(reference)
      }
    }
  }
}
