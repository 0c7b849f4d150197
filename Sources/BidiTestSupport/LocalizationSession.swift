import JSONRPC
import XCTest

/// The points of Protocol/localization.md (localization documents), one check each,
/// written once and run on either server: BidiServerTests in process,
/// IntegrationTests (`LocalizationProtocolTests`) against the built binary.
/// Positions are UTF-16 unless a check says otherwise.
package enum LocalizationChecks {
  /// Every point, by name: the one suite, run in process (BidiServerTests)
  /// and against the built binary (IntegrationTests).
  package static let all: [(name: String, check: @Sendable (TestServer) throws -> Void)] = [
    ("the seed case: its diagnostic, fixes and Apple Pay preview", { try seedCase($0) }),
    ("formats by languageId and path", { try formatsByLanguageIdAndPath($0) }),
    ("entries carry line, range, key, variant, locale", { try entryMembers($0) }),
    ("a range selects values; strongCharacter is the escape", { try rangeAndStrongCharacter($0) }),
    ("a range selects values by position (issue 28)", { try rangeSelectsByPosition($0) }),
    ("visualOrder carries the decoded text", { try visualOrderText($0) }),
    ("insertMarks edits only inside values", { try insertMarksInsideValues($0) }),
    ("the locale from the path, the contents and the setting", { try localeSetting($0) }),
    ("diagnostics per value and their settings", { try diagnosticsPerValue($0) }),
    ("a syntax error: values before it, plain lines after", { try syntaxError($0) }),
    ("incremental edits answer as a fresh open", { try incrementalEdits($0) }),
  ]

  /// Runs every point against `server`; a point that throws fails with its name.
  package static func runAll(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) {
    for (name, check) in all {
      do {
        try check(server)
      } catch {
        XCTFail("\(name): \(error)", file: file, line: line)
      }
    }
  }
  package static let seedURI = "file:///app/ar.lproj/Localizable.strings"
  /// The seed case of issue 9, line 1.
  package static let seedText = "/* Payment */\n\"payment\" = \"%@ مدفوعات بدون فوائد من %@\";\n"
  /// The value's source range on line 1 (UTF-16).
  static let seedValue = 13..<40

  /// `key`, `variant`, `direction`/`basis` of each entry, for messages.
  package static func brief(_ entries: [JSONValue]) -> [String] {
    entries.map {
      [
        $0["key"]?.stringValue ?? "-", $0["variant"]?.stringValue ?? "-", $0["direction"]?.stringValue ?? "?",
        $0["basis"]?.stringValue ?? "?",
      ].joined(separator: " ")
    }
  }

  /// The hover text at a position.
  static func hover(_ session: TestSession, _ uri: String, _ line: Int, _ character: Int) throws -> String {
    let reply = try session.result(
      "textDocument/hover", params: ["textDocument": documentID(uri), "position": position(line, character)])
    return reply["contents"]?["value"]?.stringValue ?? ""
  }

  /// The line of a hover text that starts with `prefix`.
  static func hoverLine(_ text: String, _ prefix: String) -> String {
    text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init) ?? ""
  }

  /// Applies the quick fix titled `title` (a prefix) of `diagnostic`;
  /// returns its edits.
  @discardableResult
  static func applyFix(
    _ session: TestSession, _ uri: String, _ diagnostic: JSONValue, _ title: String, file: StaticString,
    line: UInt
  ) throws -> [JSONValue] {
    let actions = try session.codeActions(
      uri, range: diagnostic["range"] ?? .null, only: ["quickfix"], diagnostics: [diagnostic])
    guard let action = actions.first(where: { $0["title"]?.stringValue?.hasPrefix(title) ?? false }) else {
      XCTFail("no quick fix \(title): \(actions)", file: file, line: line)
      return []
    }
    let edits = action["edit"]?["changes"]?[uri]?.arrayValue ?? []
    try session.apply(uri, edits: edits)
    return edits
  }

  // MARK: The seed case

  /// The seed case end to end: `bidi.placeholderDirection` on the value,
  /// the hover showing it left to right once filled with "Apple Pay"; each
  /// fix (RLM at the value's start; the placeholders isolated) edits only
  /// inside the value, removes the diagnostic, and leaves the value right
  /// to left with "Apple Pay" substituted.
  package static func seedCase(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) throws {
    let session = try TestSession(server, encoding: .utf16)
    for (name, fix, inserted) in [
      ("Localizable", "Start the value with RLM", ["\u{200F}"]),
      ("Second", "Isolate the placeholders", ["\u{2068}", "\u{2069}"]),
    ] {
      let uri = "file:///app/ar.lproj/\(name).strings"
      let diagnostics = try session.openAndDiagnose(uri, languageId: "strings", text: seedText)
      XCTAssertEqual(diagnostics.map(\.diagnosticCode), ["bidi.placeholderDirection"], file: file, line: line)
      guard let diagnostic = diagnostics.first else { continue }
      XCTAssertEqual(diagnostic["range"]?["start"], position(1, seedValue.lowerBound), file: file, line: line)
      XCTAssertEqual(diagnostic["severity"]?.intValue, 2, "Warning", file: file, line: line)
      let before = try hover(session, uri, 1, 20)
      XCTAssertTrue(hoverLine(before, "As written:").hasPrefix("As written: rtl"), before, file: file, line: line)
      XCTAssertTrue(hoverLine(before, "Filled").contains("): ltr"), before, file: file, line: line)
      XCTAssertTrue(before.contains("Apple Pay"), before, file: file, line: line)

      let actions = try session.codeActions(
        uri, range: diagnostic["range"] ?? .null, only: ["quickfix"], diagnostics: [diagnostic])
      XCTAssertEqual(actions.count, 2, "two fixes: \(actions)", file: file, line: line)
      let edits = try applyFix(session, uri, diagnostic, fix, file: file, line: line)
      XCTAssertFalse(edits.isEmpty, file: file, line: line)
      for edit in edits {
        XCTAssertEqual(edit.startLine, 1, "\(edit)", file: file, line: line)
        let start = edit["range"]?["start"]?["character"]?.intValue ?? -1
        let end = edit["range"]?["end"]?["character"]?.intValue ?? -1
        XCTAssertTrue(
          seedValue.contains(start) || start == seedValue.upperBound, "inside the value: \(edit)", file: file,
          line: line)
        XCTAssertTrue(seedValue.contains(end) || end == seedValue.upperBound, "\(edit)", file: file, line: line)
        XCTAssertTrue(inserted.contains(edit["newText"]?.stringValue ?? ""), "\(edit)", file: file, line: line)
      }
      let fixed = try session.text(uri)
      XCTAssertEqual(
        try session.diagnostics(uri, version: session.version(uri)).map(\.diagnosticCode), [], "fixed: \(fixed)",
        file: file, line: line)
      let after = try hover(session, uri, 1, 20)
      XCTAssertTrue(hoverLine(after, "Filled").contains("): rtl"), after, file: file, line: line)
      XCTAssertTrue(hoverLine(after, "Displays as").contains("Apple Pay"), after, file: file, line: line)
      let entries = try session.paragraphs("bidi/naturalDirection", ["range": lineRange(1)], uri: uri)
      XCTAssertEqual(brief(entries), ["payment - rtl firstStrong"], file: file, line: line)
      XCTAssertEqual(
        try session.edits(["mode": "direction", "direction": "rtl"], uri: uri), [], "asked again", file: file,
        line: line)
    }
  }

  // MARK: Formats

  /// The ten formats, recognised by languageId or by path; each value an entry with its key.
  package static func formatsByLanguageIdAndPath(
    _ server: TestServer, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let session = try TestSession(server, ignoring: TestSession.diagnosticsAndProgress)
    let cases: [(uri: String, languageId: String, text: String, key: String)] = [
      ("file:///a/Localizable.strings", "strings", "\"hello\" = \"مرحبا\";\n", "hello"),
      ("file:///a/ar.lproj/Localizable.strings", "plaintext", "\"hello\" = \"مرحبا\";\n", "hello"),
      (
        "file:///a/ar.lproj/Localizable.stringsdict", "xml",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>files</key>\n<dict>\n"
          + "<key>NSStringLocalizedFormatKey</key>\n<string>لديك %#@n@</string>\n<key>n</key>\n<dict>\n"
          + "<key>NSStringFormatSpecTypeKey</key>\n<string>NSStringPluralRuleType</string>\n"
          + "<key>NSStringFormatValueTypeKey</key>\n<string>d</string>\n<key>other</key>\n<string>%d ملفات</string>\n"
          + "</dict>\n</dict>\n</dict>\n</plist>\n", "files"
      ),
      (
        "file:///a/Localizable.xcstrings", "json",
        "{\"sourceLanguage\":\"en\",\"strings\":{\"Hello\":{\"localizations\":{\"ar\":{\"stringUnit\":"
          + "{\"state\":\"translated\",\"value\":\"مرحبا\"}}}}},\"version\":\"1.0\"}\n", "Hello"
      ),
      ("file:///a/ar.po", "po", "msgid \"Hello\"\nmsgstr \"مرحبا\"\n", "Hello"),
      (
        "file:///a/he.xlf", "xml",
        "<xliff version=\"1.2\"><file source-language=\"en\" target-language=\"he\" datatype=\"plaintext\" "
          + "original=\"x\"><body><trans-unit id=\"hello\"><source>Hello</source><target>שלום</target>"
          + "</trans-unit></body></file></xliff>\n", "hello"
      ),
      ("file:///a/intl_ar.arb", "json", "{\"@@locale\": \"ar\", \"hello\": \"مرحبا\"}\n", "hello"),
      ("file:///a/locales/ar/common.json", "json", "{\"home\": {\"title\": \"مرحبا\"}}\n", "home.title"),
      ("file:///a/messages_fa.properties", "jproperties", "hello=\\u0633\\u0644\\u0627\\u0645\n", "hello"),
      (
        "file:///a/Strings.he.resx", "xml",
        "<root><data name=\"Hello\" xml:space=\"preserve\"><value>שלום</value></data></root>\n", "Hello"
      ),
      (
        "file:///a/res/values-ar/strings.xml", "xml",
        "<resources><string name=\"hello\">مرحبا</string></resources>\n", "hello"
      ),
    ]
    for (uri, languageId, text, key) in cases {
      try session.open(uri, languageId: languageId, text: text)
      let entries = try session.paragraphs("bidi/naturalDirection", [:], uri: uri, file: file, line: line)
      XCTAssertEqual(brief(entries).first, "\(key) - rtl firstStrong", "\(uri): \(entries)", file: file, line: line)
      XCTAssertTrue(entries.allSatisfy { $0["range"] != nil && $0["key"] != nil }, "\(uri)", file: file, line: line)
    }
    // Not localization files: line entries, no keys.
    for (uri, languageId) in [("file:///a/notes.json", "json"), ("file:///a/layout/main.xml", "xml")] {
      try session.open(uri, languageId: languageId, text: "{\"hello\": \"مرحبا\"}\n")
      let entries = try session.paragraphs("bidi/naturalDirection", [:], uri: uri, file: file, line: line)
      XCTAssertEqual(entries.count, 2, "\(uri): one entry per line", file: file, line: line)
      XCTAssertTrue(entries.allSatisfy { $0["key"] == nil }, "\(uri)", file: file, line: line)
    }
  }

  // MARK: Entries

  /// Entries carry line, range, key, variant and locale; a value's escaped
  /// `\n` splits it into paragraphs; an empty value is an entry (fallback).
  package static func entryMembers(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) throws {
    let session = try TestSession(server, ignoring: TestSession.diagnosticsAndProgress)
    let uri = "file:///po/app.po"
    let text =
      "msgid \"\"\nmsgstr \"\"\n\"Language: ar\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n"
      + "msgid \"file\"\nmsgid_plural \"files\"\nmsgstr[0] \"ملف\"\nmsgstr[1] \"%d ملفات\"\n\n"
      + "msgid \"empty\"\nmsgstr \"\"\n\nmsgid \"multi\"\nmsgstr \"السطر الأول\\nLine two\"\n"
    try session.open(uri, languageId: "po", text: text)
    let entries = try session.paragraphs("bidi/naturalDirection", ["fallback": "ltr"], uri: uri, file: file, line: line)
    XCTAssertEqual(
      brief(entries),
      [
        "file plural:0 rtl firstStrong", "file plural:1 rtl firstStrong", "empty - ltr fallback",
        "multi - rtl firstStrong", "multi - ltr firstStrong",
      ], file: file, line: line)
    XCTAssertEqual(entries.first?["line"]?.intValue, 7, file: file, line: line)
    XCTAssertEqual(entries.first?["range"], lspRange(7, 11, 7, 14), file: file, line: line)
    XCTAssertEqual(entries.first?["start"]?.intValue, 11, file: file, line: line)
    XCTAssertEqual(entries.first?["end"]?.intValue, 14, file: file, line: line)
    XCTAssertTrue(entries.allSatisfy { $0["locale"] == "ar" }, "\(entries)", file: file, line: line)
    // The two paragraphs of "multi" share the line, each with its offsets.
    let multi = entries.suffix(2).map { [$0["line"]?.intValue ?? -1, $0["start"]?.intValue ?? -1] }
    XCTAssertEqual(multi.map { $0[0] }, [14, 14], file: file, line: line)
    XCTAssertEqual(multi.map { $0[1] }, [8, 21], file: file, line: line)
    // `line` and `block` still work: one entry per line, no keys.
    let lines = try session.paragraphs("bidi/naturalDirection", ["paragraphs": "line"], uri: uri)
    XCTAssertEqual(lines.count, 16, file: file, line: line)
    XCTAssertTrue(lines.allSatisfy { $0["key"] == nil }, file: file, line: line)
    let blocks = try session.paragraphs("bidi/alignment", ["paragraphs": "block"], uri: uri)
    XCTAssertEqual(blocks.count, 16, file: file, line: line)
  }

  /// A request's range selects the values it touches; `strongCharacter`
  /// is the position of the escape that wrote the deciding character.
  package static func rangeAndStrongCharacter(
    _ server: TestServer, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let session = try TestSession(server, ignoring: TestSession.diagnosticsAndProgress)
    let uri = "file:///he.lproj/Localizable.strings"
    let text = "\"a\" = \"שלום\";\n\"b\" = \"123 \\U05D0bc\";\n\"c\" = \"xyz\";\n"
    try session.open(uri, languageId: "strings", text: text)
    for range in [lineRange(1), lspRange(1, 3, 1, 5)] {
      let entries = try session.paragraphs("bidi/naturalDirection", ["range": range], uri: uri, file: file, line: line)
      XCTAssertEqual(brief(entries), ["b - rtl firstStrong"], file: file, line: line)
      XCTAssertEqual(entries.first?["strongCharacter"], position(1, 11), "the escape", file: file, line: line)
    }
    let all = try session.paragraphs("bidi/alignment", [:], uri: uri, file: file, line: line)
    XCTAssertEqual(all.map { $0["physical"]?.stringValue ?? "" }, ["right", "right", "left"], file: file, line: line)
    XCTAssertEqual(all.map { $0["key"]?.stringValue ?? "" }, ["a", "b", "c"], file: file, line: line)
  }

  /// A `range` selects the values whose source it touches by position, not
  /// whole lines (issue 28): a range inside one branch of an ICU `select`
  /// returns that branch and its message, not the other branches on the
  /// same line; in the four requests alike.
  package static func rangeSelectsByPosition(
    _ server: TestServer, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let session = try TestSession(server, ignoring: TestSession.diagnosticsAndProgress)
    let uri = "file:///l10n/intl_ar.arb"
    let message = "{gender, select, male {هو ذهب} female {هي ذهبت} other {ذهبوا}}"
    let text = "{\"@@locale\": \"ar\",\n\"g\": \"\(message)\"}\n"
    try session.open(uri, languageId: "arb", text: text)
    let lineText = "\"g\": \"\(message)\"}"
    let female = lineText.utf16.count - lineText.drop(while: { $0 != "ي" }).utf16.count
    let inside = lspRange(1, female, 1, female + 2)
    for method in ["bidi/naturalDirection", "bidi/alignment", "bidi/visualOrder"] {
      let entries = try session.paragraphs(method, ["range": inside], uri: uri, file: file, line: line)
      XCTAssertEqual(
        entries.map { "\($0["key"]?.stringValue ?? "-") \($0["variant"]?.stringValue ?? "-")" },
        ["g -", "g select:female"], method, file: file, line: line)
    }
    let edits = try session.edits(["mode": "direction", "direction": "ltr", "range": inside], uri: uri)
    XCTAssertEqual(edits.count, 2, "the message and its female branch", file: file, line: line)
    let whole = try session.paragraphs(
      "bidi/naturalDirection", ["range": lineRange(1)], uri: uri, file: file, line: line)
    XCTAssertEqual(whole.count, 4, "the whole line: the message and its three branches", file: file, line: line)
  }

  /// `bidi/visualOrder` entries carry `text`, the decoded paragraph, and
  /// count their offsets and arrays from its start.
  package static func visualOrderText(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) throws {
    let session = try TestSession(server, ignoring: TestSession.diagnosticsAndProgress)
    let uri = "file:///he.lproj/Localizable.strings"
    try session.open(uri, languageId: "strings", text: "\"k\" = \"abc \\U05D0\\U05D1\";\n")
    let entries = try session.paragraphs(
      "bidi/visualOrder", ["include": ["runs", "visualText", "levels"]], uri: uri, file: file, line: line)
    XCTAssertEqual(entries.count, 1, file: file, line: line)
    guard let entry = entries.first else { return }
    XCTAssertEqual(entry["text"], "abc \u{5D0}\u{5D1}", file: file, line: line)
    XCTAssertEqual(entry["range"], lspRange(0, 7, 0, 23), file: file, line: line)
    let display = entry["lines"]?[0]
    XCTAssertEqual(display?["start"]?.intValue, 0, file: file, line: line)
    XCTAssertEqual(display?["end"]?.intValue, 6, file: file, line: line)
    XCTAssertEqual(display?["visualText"], "abc \u{5D1}\u{5D0}", file: file, line: line)
    XCTAssertEqual(display?["levels"]?.arrayValue?.count, 6, file: file, line: line)
  }

  // MARK: insertMarks

  /// insertMarks in values mode: marks written as the file writes controls
  /// (here `\U200F`), inside the quotes, never in a key; asking again after
  /// applying gives no edits.
  package static func insertMarksInsideValues(
    _ server: TestServer, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let session = try TestSession(server, ignoring: TestSession.diagnosticsAndProgress)
    let uri = "file:///ar.lproj/Localizable.strings"
    let text = "\"a\" = \"\\U200Fمرحبا %@\";\n\"%@ b\" = \"%@ مرحبا بك\";\n"
    try session.open(uri, languageId: "strings", text: text)
    let direction = try session.edits(["mode": "direction", "direction": "rtl"], uri: uri, file: file, line: line)
    XCTAssertEqual(
      direction, [["range": lspRange(1, 10, 1, 10), "newText": "\\U200F"]], "escaped like the file", file: file,
      line: line)
    let placeholders = try session.edits(["mode": "placeholders"], uri: uri, file: file, line: line)
    XCTAssertEqual(placeholders.count, 4, "\(placeholders)", file: file, line: line)
    XCTAssertTrue(
      placeholders.allSatisfy { $0.startLine == 0 || ($0["range"]?["start"]?["character"]?.intValue ?? 0) >= 10 },
      "never in the key \"%@ b\": \(placeholders)", file: file, line: line)
    try session.apply(uri, edits: placeholders)
    XCTAssertEqual(try session.edits(["mode": "placeholders"], uri: uri), [], "asked again", file: file, line: line)
    let isolated = try session.text(uri)
    XCTAssertTrue(isolated.contains("\"%@ b\" = \"\\U2068%@\\U2069 مرحبا بك\";"), isolated, file: file, line: line)
    // A range outside any value's text cannot be isolated.
    let refused = try session.error("bidi/insertMarks", ["mode": "isolate", "range": lspRange(1, 1, 1, 3)], uri: uri)
    XCTAssertEqual(refused.code, -32602, file: file, line: line)
  }

  // MARK: Locale

  /// The locale from the path, from the contents, and from the `locale`
  /// setting (initialization and `didChangeConfiguration`); `valueDirection`
  /// only in a right-to-left locale.
  package static func localeSetting(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) throws {
    let uri = "file:///app/Base.lproj/Localizable.strings"
    let text = "\"available\" = \"iPhone متوفر الآن\";\n"
    let plain = try TestSession(server)
    XCTAssertEqual(try plain.openAndDiagnose(uri, languageId: "strings", text: text), [], file: file, line: line)
    XCTAssertEqual(
      try plain.paragraphs("bidi/naturalDirection", [:], uri: uri).first?["locale"], nil, file: file, line: line)
    try plain.notify("workspace/didChangeConfiguration", ["settings": ["bidi": ["locale": "ar-EG"]]])
    XCTAssertEqual(
      try plain.diagnostics(uri).map(\.diagnosticCode), ["bidi.valueDirection"], "after the setting", file: file,
      line: line)
    XCTAssertEqual(
      try plain.paragraphs("bidi/naturalDirection", [:], uri: uri).first?["locale"], "ar-EG", file: file, line: line)

    let configured = try TestSession(server, initializationOptions: ["bidi": ["locale": "he"]])
    XCTAssertEqual(
      try configured.openAndDiagnose(uri, languageId: "strings", text: text).map(\.diagnosticCode),
      ["bidi.valueDirection"], file: file, line: line)
    // The path wins over the setting; the .po header over the path.
    let ltrPath = "file:///app/en.lproj/Localizable.strings"
    XCTAssertEqual(
      try configured.openAndDiagnose(ltrPath, languageId: "strings", text: text), [], file: file, line: line)
    let po = "file:///po/en.po"
    try configured.open(
      po, languageId: "po", text: "msgid \"\"\nmsgstr \"Language: fa\\n\"\n\nmsgid \"a\"\nmsgstr \"سلام\"\n")
    XCTAssertEqual(
      try configured.paragraphs("bidi/naturalDirection", [:], uri: po).map { $0["locale"]?.stringValue ?? "-" },
      ["fa"], file: file, line: line)
  }

  // MARK: Diagnostics

  /// `placeholderDirection`, `valueDirection`, the hazards per value
  /// (`unpaired` at the value's end, a control in a key `inIdentifier`),
  /// each configurable by its code.
  package static func diagnosticsPerValue(
    _ server: TestServer, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let uri = "file:///app/ar.lproj/Localizable.strings"
    let text =
      "\"p\" = \"%@ مرحبا بك من %@\";\n\"v\" = \"iPhone متوفر\";\n\"u\" = \"مرحبا \\U202Bبك\";\n"
      + "\"k\\U200F\" = \"تأكيد\";\n"
    let session = try TestSession(server, encoding: .utf8)
    let found = try session.openAndDiagnose(uri, languageId: "strings", text: text)
    XCTAssertEqual(
      found.map { "\($0.diagnosticCode) \($0.startLine)" },
      ["bidi.placeholderDirection 0", "bidi.valueDirection 1", "bidi.unpaired 2", "bidi.inIdentifier 3"],
      "\(found)", file: file, line: line)
    // Fixes for all but the key (changing a key breaks its lookup).
    for diagnostic in found {
      let actions = try session.codeActions(
        uri, range: diagnostic["range"] ?? .null, only: ["quickfix"], diagnostics: [diagnostic])
      let own = actions.filter { $0["diagnostics"]?[0]?["code"] == diagnostic["code"] }
      XCTAssertEqual(
        own.isEmpty, diagnostic.diagnosticCode == "bidi.inIdentifier", "\(actions)", file: file, line: line)
    }
    let configured = try TestSession(
      server, encoding: .utf8,
      initializationOptions: ["bidi": ["diagnostics": ["placeholderDirection": false, "unpaired": "hint"]]])
    let quieter = try configured.openAndDiagnose(uri, languageId: "strings", text: text)
    XCTAssertEqual(
      quieter.map { "\($0.diagnosticCode) \($0["severity"]?.intValue ?? 0)" },
      ["bidi.valueDirection 2", "bidi.unpaired 4", "bidi.inIdentifier 1"], file: file, line: line)
  }

  /// A file that stops being its format: one `bidi.localizationSyntax` at
  /// the error, the values before it served, the lines after it answered as
  /// plain lines, and no edit after it.
  package static func syntaxError(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) throws {
    let uri = "file:///app/ar.lproj/Broken.strings"
    let text = "\"a\" = \"مرحبا abc\";\n\"b\" = \"never closed\nmore\n"
    let session = try TestSession(server)
    let found = try session.openAndDiagnose(uri, languageId: "strings", text: text)
    XCTAssertEqual(found.map(\.diagnosticCode), ["bidi.localizationSyntax"], file: file, line: line)
    XCTAssertEqual(found.first?["range"]?["start"], position(1, 6), file: file, line: line)
    let entries = try session.paragraphs("bidi/naturalDirection", [:], uri: uri, file: file, line: line)
    XCTAssertEqual(
      entries.map { "\($0["key"]?.stringValue ?? "-") \($0["line"]?.intValue ?? -1)" }, ["a 0", "- 1", "- 2", "- 3"],
      file: file, line: line)
    let edits = try session.edits(["mode": "direction", "direction": "ltr"], uri: uri, file: file, line: line)
    XCTAssertEqual(edits.map(\.startLine), [0], "only in the value before the error", file: file, line: line)
    for mode: JSONObject in [["mode": "placeholders"], ["mode": "strip"], ["mode": "runs"]] {
      XCTAssertTrue(
        try session.edits(mode, uri: uri).allSatisfy { $0.startLine == 0 }, "\(mode)", file: file, line: line)
    }
  }

  /// Edits re-read only what they touch, and every answer after them is
  /// what a fresh open of the same text gives.
  package static func incrementalEdits(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) throws
  {
    let session = try TestSession(server, ignoring: TestSession.diagnosticsAndProgress)
    let uri = "file:///app/ar.lproj/Localizable.strings"
    var text = ""
    for index in 0..<300 { text += "\"k\(index)\" = \"قيمة \(index) value\";\n" }
    try session.open(uri, languageId: "strings", text: text)
    // Unterminate a value, terminate it again, add lines, replace a key.
    try session.change(uri, [change(10, 22, 10, 24, "")])
    try session.change(uri, [change(10, 22, 10, 22, "\";"), change(200, 0, 200, 0, "\"new\" = \"%@ جديد\";\n\n")])
    try session.change(uri, [change(50, 1, 50, 4, "renamed")])
    let current = try session.text(uri)
    let fresh = "file:///app/ar.lproj/Fresh.strings"
    try session.open(fresh, languageId: "strings", text: current)
    for method in ["bidi/naturalDirection", "bidi/visualOrder"] {
      let edited = try session.paragraphs(method, [:], uri: uri, file: file, line: line)
      let reference = try session.paragraphs(method, [:], uri: fresh, file: file, line: line)
      XCTAssertEqual(edited.count, 301, method, file: file, line: line)
      XCTAssertEqual(edited, reference, method, file: file, line: line)
    }
  }
}
