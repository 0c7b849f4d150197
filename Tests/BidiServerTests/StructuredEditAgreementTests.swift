import BidiTestSupport
import JSONRPC
import XCTest

/// Random edits that add and remove lines in structured documents
/// (Markdown, SubRip, `.strings`): the findings kept per anchor line move
/// with the edits a block at a time, and code actions look findings up by
/// line range (issue 27). After each batch of edits, what the edited
/// document publishes and the code actions it offers for random ranges are
/// those of a fresh open of the same text; and the quick fixes offered for
/// a range are exactly those of the whole document's whose diagnostic
/// touches the range (the overlap computed here, not by the server).
final class StructuredEditAgreementTests: XCTestCase {
  /// Pieces of a document, each one or more whole lines ending in "\n".
  struct Kind {
    var uri: String
    var languageId: String
    var pieces: [String]
    /// The rule whose quick fixes are checked against the whole document's.
    var rule: String
  }

  static let markdown = Kind(
    uri: "file:///docs/guide.ar.md", languageId: "markdown",
    pieces: [
      "Apple متاح الآن في المتجر\n\n",
      "مرحبا بالعالم والكتاب\n\n",
      "- [Apple Pay](https://example.com) متاح الآن\n- عنصر ثان\n\n",
      "> **iPhone** متوفر في جميع المتاجر\n\n",
      "npm يثبّت الحزمة\nفي السطر الثاني من الفقرة\n\n",
      "```sh\necho '\u{202E}abc'\n```\n\n",
      "مرحبا \u{202E}abc بالعالم\n\n",
      "# React مكتبة\n\n",
      "| Apple | متاح |\n| --- | --- |\n| كتاب | x |\n\n",
      "\n",
    ], rule: "bidi.blockDirection")

  static let subrip = Kind(
    uri: "file:///movies/film.ar.srt", languageId: "srt",
    pieces: [
      "1\n00:00:01,000 --> 00:00:02,000\nمرحبا!\n\n",
      "2\n00:00:03,000 --> 00:00:04,000\n- هل أنت بخير؟\n- نعم\n\n",
      "3\n00:00:05,000 --> 00:00:06,000\nApple متاح الآن\n\n",
      "4\n00:00:07,000 --> 00:00:08,000\n<i>مرحبا \u{202E}abc</i>\n\n",
    ], rule: "bidi.cueDirection")

  static let strings = Kind(
    uri: "file:///app/ar.lproj/Localizable.strings", languageId: "strings",
    pieces: [
      "\"pay\" = \"%@ مدفوعات بدون فوائد من %@\";\n",
      "\"hello\" = \"مرحبا\";\n",
      "/* \u{202E} comment */\n",
      "\"multi\" = \"سطر أول\nسطر ثان %@\";\n",
      "\n",
    ], rule: "bidi.placeholderDirection")

  func testMarkdownLineEditsAgreeWithAFreshOpen() throws {
    try agree(Self.markdown, seed: 27)
  }

  func testSubRipLineEditsAgreeWithAFreshOpen() throws {
    try agree(Self.subrip, seed: 28)
  }

  func testStringsLineEditsAgreeWithAFreshOpen() throws {
    try agree(Self.strings, seed: 29)
  }

  /// Over the publishing limit: the first 1,000 findings and the note
  /// counting the others (kept as a running count as edits replace groups)
  /// are a fresh open's.
  func testMarkdownOverTheLimitAgreesWithAFreshOpen() throws {
    try agree(Self.markdown, seed: 30, pieces: 4_000)
  }

  /// English Markdown, which can raise no finding: the daemon publishes
  /// it without reading it (`StructuredDocument.isQuiet`). Edits now and
  /// then write right-to-left text, a bidi control or a reference to one;
  /// after each batch, the publish is a fresh open's.
  func testAQuietMarkdownDocumentAgreesWithAFreshOpenAsEditsAddBidiText() throws {
    let english = [
      "Install the package with `npm install`.\n\n", "- [Docs](https://example.com) are here\n- second item\n\n",
      "> **Note** this is a quote\n\n", "# Title\n\n", "| a | b |\n| --- | --- |\n| c | d |\n\n",
      "```sh\necho 'hi'\n```\n\n", "Text with &amp; and &copy; entities — “quoted”\n\n", "\n",
    ]
    let bidi = Self.markdown.pieces + ["Text &#x202E;abc here\n\n", "&#1488;&#1489; and more English words\n\n"]
    let quiet = Kind(uri: "file:///docs/guide.md", languageId: "markdown", pieces: english, rule: "")
    let mixed = Kind(
      uri: quiet.uri, languageId: "markdown", pieces: Array(repeating: english, count: 6).flatMap { $0 } + bidi,
      rule: "")
    var random = SeededGenerator(seed: 44)
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    var model = TestText(random.elements(of: english, count: 200).joined())
    XCTAssertEqual(try session.openAndDiagnose(quiet.uri, languageId: "markdown", text: model.text), [])
    var quietChecks = 0
    var noisyChecks = 0
    for round in 0..<40 {
      let change = Self.lineChange(model, round < 10 ? quiet : mixed, &random)
      model = try model.applying([["range": change["range"]!, "newText": change["text"]!]], in: .utf16)
      try session.change(quiet.uri, [change])
      guard round % 4 == 3 else { continue }
      let published = try session.diagnostics(quiet.uri, version: session.version(quiet.uri))
      let freshURI = "file:///fresh\(round)/docs/guide.md"
      let fresh = try session.openAndDiagnose(freshURI, languageId: "markdown", text: model.text)
      XCTAssertEqual(published, fresh, "round \(round)")
      if fresh.isEmpty { quietChecks += 1 } else { noisyChecks += 1 }
      try session.close(freshURI)
      _ = try session.publish(freshURI)
    }
    // Both states compared: quiet before the first bidi text, findings after.
    XCTAssertGreaterThanOrEqual(quietChecks, 2)
    XCTAssertGreaterThanOrEqual(noisyChecks, 3)
  }

  private func agree(_ kind: Kind, seed: UInt64, pieces: Int = 120) throws {
    let overLimit = pieces > 1_000
    var random = SeededGenerator(seed: seed)
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    var model = TestText(random.elements(of: kind.pieces, count: pieces).joined())
    let first = try session.openAndDiagnose(kind.uri, languageId: kind.languageId, text: model.text)
    XCTAssertTrue(first.contains { $0.diagnosticCode == kind.rule }, "the document has findings of \(kind.rule)")
    var checks = 0
    var movedFindings = 0
    for round in 0..<48 {
      // One didChange of one to three changes, each numbered after the ones before.
      var changes: [JSONValue] = []
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let change = Self.lineChange(model, kind, &random)
        model = try model.applying([["range": change["range"]!, "newText": change["text"]!]], in: .utf16)
        changes.append(change)
      }
      try session.change(kind.uri, changes)
      guard round % 6 == 5 else { continue }
      let published = try session.diagnostics(kind.uri, version: session.version(kind.uri))
      // A fresh open under a path that names the same locale and format.
      let freshURI = "file:///fresh\(round)/" + kind.uri.dropFirst("file:///".count)
      let fresh = try session.openAndDiagnose(freshURI, languageId: kind.languageId, text: model.text)
      XCTAssertEqual(published, fresh, "round \(round)")
      if overLimit {
        let note = published.last { $0.diagnosticCode == "bidi.truncated" }
        XCTAssertNotNil(note, "over the limit: a note counts the findings not shown")
        XCTAssertEqual(published.count, 1_001)
      } else {
        XCTAssertLessThan(published.count, 1_000, "under the publishing limit: every finding is compared")
        try compareCodeActions(session, kind, freshURI, model, published, &random)
      }
      movedFindings += published.count
      try session.close(freshURI)
      _ = try session.publish(freshURI)
      checks += 1
    }
    XCTAssertEqual(checks, 8)
    XCTAssertGreaterThan(movedFindings, 8 * 10)
  }

  /// A change of whole lines at line starts: lines inserted, removed or
  /// replaced by others (the line count changes), or a line split.
  static func lineChange(_ model: TestText, _ kind: Kind, _ random: inout SeededGenerator) -> JSONValue {
    let lineCount = model.text.split(separator: "\n", omittingEmptySubsequences: false).count
    let line = Int.random(in: 0..<lineCount, using: &random)
    let removed = min(Int.random(in: 0...4, using: &random), lineCount - 1 - line)
    let inserted = random.elements(of: kind.pieces, count: Int.random(in: 0...2, using: &random)).joined()
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return ["range": lspRange(line, 0, line, 0), "text": .string(inserted)]
    case 1: return ["range": lspRange(line, 0, line + removed, 0), "text": ""]
    case 2: return ["range": lspRange(line, 0, line + removed, 0), "text": .string(inserted)]
    default: return ["range": lspRange(line, 0, line, 0), "text": "\n"]
    }
  }

  /// The code actions for random ranges: those of a fresh open of the same
  /// text, and their quick fixes of `kind.rule` those of the whole
  /// document's whose diagnostic touches the range.
  private func compareCodeActions(
    _ session: TestSession, _ kind: Kind, _ fresh: String, _ model: TestText, _ published: [JSONValue],
    _ random: inout SeededGenerator
  ) throws {
    let lineCount = model.text.split(separator: "\n", omittingEmptySubsequences: false).count
    let whole = try session.codeActions(kind.uri, range: lspRange(0, 0, lineCount, 0))
    let wholeFixes = Self.quickFixes(whole, rule: kind.rule)
    var fixed: [JSONValue] = []
    for fix in wholeFixes where fix.diagnostic != fixed.last { fixed.append(fix.diagnostic) }
    XCTAssertEqual(
      fixed, published.filter { $0.diagnosticCode == kind.rule }, "quick fixes for every finding of \(kind.rule)")
    for _ in 0..<6 {
      let start = Int.random(in: 0..<lineCount, using: &random)
      let end = min(start + Int.random(in: 0...3, using: &random), lineCount - 1)
      let range = lspRange(start, 0, end, 0)
      let actions = try session.codeActions(kind.uri, range: range)
      let freshActions = try session.codeActions(fresh, range: range)
      XCTAssertEqual(
        actions.map { Self.withoutURI($0, kind.uri) }, freshActions.map { Self.withoutURI($0, fresh) },
        "lines \(start)-\(end)")
      let expected = wholeFixes.filter { Self.touches($0.diagnostic, start, end) }
      XCTAssertEqual(
        Self.quickFixes(actions, rule: kind.rule).map(\.title), expected.map(\.title), "lines \(start)-\(end)")
      XCTAssertEqual(
        Self.quickFixes(actions, rule: kind.rule).map(\.diagnostic), expected.map(\.diagnostic),
        "lines \(start)-\(end)")
    }
  }

  /// The quick fixes of one diagnostic of `rule` (not the fix-all).
  static func quickFixes(_ actions: [JSONValue], rule: String) -> [(title: String, diagnostic: JSONValue)] {
    actions.compactMap { action in
      guard let diagnostics = action["diagnostics"]?.arrayValue, diagnostics.count == 1,
        diagnostics[0].diagnosticCode == rule
      else { return nil }
      return (action["title"]?.stringValue ?? "", diagnostics[0])
    }
  }

  /// Whether a diagnostic's range touches lines `start`...`end` as asked
  /// (the asked range ends at character 0 of `end`).
  static func touches(_ diagnostic: JSONValue, _ start: Int, _ end: Int) -> Bool {
    guard let from = diagnostic["range"]?["start"], let to = diagnostic["range"]?["end"],
      let fromLine = from["line"]?.intValue, let toLine = to["line"]?.intValue
    else { return false }
    // end >= (start, 0) and start <= (end, 0).
    let startsBy = fromLine < end || (fromLine == end && from["character"]?.intValue == 0)
    return toLine >= start && startsBy
  }

  /// An action with its workspace edit's URI key left out.
  static func withoutURI(_ action: JSONValue, _ uri: String) -> JSONValue {
    guard case .object(var object) = action, let edits = action["edit"]?["changes"]?[uri] else { return action }
    object["edit"] = ["changes": ["document": edits]]
    return .object(object)
  }
}
