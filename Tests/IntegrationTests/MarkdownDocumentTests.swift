import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// Markdown (contract §8), point by point, against the built binary: document
/// mode and its synonym, the entries' fields, hover on a block, the locale
/// from the path, `bidi.blockDirection` with its fix and its fix-all, a
/// control in a link destination, fenced code answered as lines with its
/// language's rules, bare autolinks that no mark may touch, an edit
/// re-read incrementally. Every edited file is re-read by Debian's
/// `cmark-gfm`: the same blocks and text apart from the inserted controls.
final class MarkdownDocumentTests: XCTestCase {
  /// A README that renders three list items left to right.
  static let flipped = """
    # دليل

    - [Apple Pay](https://apple.com) متاح الآن في المتجر
    - `npm install` يثبّت الحزمة على جهازك
    - **iPhone** متوفر الآن في كل مكان

    نص عربي فقط.

    """

  /// `cmark-gfm --sourcepos -t xml` with GFM's extensions, positions and
  /// bidi controls left out (a control next to markup is a text node of
  /// its own: dropped once empty). Nil when cmark-gfm is not installed.
  static func cmarkBlocks(_ text: String) throws -> String? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cmark-gfm") else { return nil }
    let run = try TestClient.run(
      "/usr/bin/cmark-gfm",
      arguments: [
        "--sourcepos", "-e", "table", "-e", "strikethrough", "-e", "tasklist", "-e", "autolink", "-t", "xml",
      ], input: Array(text.utf8))
    var xml = run.standardOutput.replacingOccurrences(
      of: " sourcepos=\"[^\"]*\"", with: "", options: .regularExpression)
    xml = xml.replacingOccurrences(
      of: "[\u{200E}\u{200F}\u{061C}\u{2066}-\u{2069}\u{202A}-\u{202E}]", with: "", options: .regularExpression)
    return xml.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces) != "<text xml:space=\"preserve\"></text>"
    }
    .joined(separator: "\n")
  }

  /// Asserts that cmark-gfm reads `edited` as `original` apart from the controls.
  func assertSameBlocks(_ original: String, _ edited: String, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    guard let before = try Self.cmarkBlocks(original) else {
      throw XCTSkip("cmark-gfm is not installed (scripts/install-deps.sh installs it)")
    }
    XCTAssertNotEqual(original, edited, "nothing was edited", file: file, line: line)
    XCTAssertEqual(try Self.cmarkBlocks(edited), before, file: file, line: line)
  }

  static func wholeRange(_ text: String) -> JSONValue {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    return ["start": ["line": 0, "character": 0], "end": ["line": JSONValue(lines), "character": 0]]
  }

  /// §8, `bidi.blockDirection`'s "fix all": offered where the file has more
  /// than one, with the preferred fix of each (RLM at the start of each
  /// block's rendered text, after the list marker, before `[`, a backtick,
  /// `**`); cmark-gfm reads the same blocks; afterwards nothing to fix.
  func testFixAllBlockDirection() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///docs/README.ar.md"
    let diagnostics = try session.openAndDiagnose(uri, languageId: "markdown", text: Self.flipped)
    XCTAssertEqual(diagnostics.map(\.diagnosticCode), Array(repeating: "bidi.blockDirection", count: 3))
    // Each starts at its block's rendered text: after "- ", on lines 3, 4, 5.
    XCTAssertEqual(
      diagnostics.map { $0["range"]?["start"] },
      [2, 3, 4].map { ["line": JSONValue($0), "character": 2] as JSONValue })
    let actions = try session.codeActions(uri, range: diagnostics[1]["range"]!, diagnostics: [diagnostics[1]])
    let titles = actions.compactMap { $0["title"]?.stringValue }
    XCTAssertTrue(titles.contains("Start the block with RLM (U+200F RIGHT-TO-LEFT MARK)"), "\(titles)")
    let fixAll = try XCTUnwrap(
      actions.first { $0["title"]?.stringValue == "Fix all bidi.blockDirection in the file (3 blocks)" }, "\(titles)")
    XCTAssertEqual(fixAll["kind"]?.stringValue, "quickfix")
    let edits = fixAll["edit"]?["changes"]?[uri]?.arrayValue ?? []
    XCTAssertEqual(edits.map { $0["newText"]?.stringValue }, Array(repeating: "\u{200F}", count: 3))
    XCTAssertEqual(
      edits.map { $0["range"] },
      [2, 3, 4].map { line -> JSONValue in
        let at: JSONValue = ["line": JSONValue(line), "character": 2]
        return ["start": at, "end": at]
      })
    try session.apply(uri, edits: edits)
    let fixed = try session.text(uri)
    try assertSameBlocks(Self.flipped, fixed)
    XCTAssertEqual(try session.diagnostics(uri, version: session.version(uri)), [])
    let again = try session.codeActions(uri, range: Self.wholeRange(fixed)).filter {
      $0["kind"]?.stringValue == "quickfix"
    }
    XCTAssertEqual(again, [])
    // One finding: its own fix, no fix-all.
    let one = "file:///docs/one.ar.md"
    let single = try session.openAndDiagnose(
      one, languageId: "markdown", text: "- [Apple Pay](https://a.b) متاح الآن\n")
    XCTAssertEqual(single.map(\.diagnosticCode), ["bidi.blockDirection"])
    let oneActions = try session.codeActions(one, range: single[0]["range"]!, diagnostics: single)
      .compactMap { $0["title"]?.stringValue }
    XCTAssertFalse(oneActions.contains { $0.hasPrefix("Fix all") }, "\(oneActions)")
  }

  /// §8: the mirror case (mostly left to right, first strong character
  /// Hebrew) gets LRM, inside a block quote and a list item too.
  func testMirrorCaseGetsLRM() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///notes.md"
    let text = "> - שלום and welcome to the project docs\n"
    let diagnostics = try session.openAndDiagnose(uri, languageId: "markdown", text: text)
    XCTAssertEqual(diagnostics.map(\.diagnosticCode), ["bidi.blockDirection"])
    XCTAssertEqual(diagnostics.first?["range"]?["start"], ["line": 0, "character": 4])
    let fix = try session.codeActions(uri, range: diagnostics[0]["range"]!, diagnostics: diagnostics)
    let edit = try XCTUnwrap(fix.first?["edit"]?["changes"]?[uri]?[0])
    XCTAssertEqual(edit["newText"]?.stringValue, "\u{200E}")
    try session.apply(uri, edits: [edit])
    try assertSameBlocks(text, try session.text(uri))
  }

  /// §8, hazards: a bidi control in a link destination is
  /// `bidi.inIdentifier`, whose message speaks of a link destination (not
  /// of a key, as in localization files); `check` says the same.
  func testControlInALinkDestinationIsInIdentifier() throws {
    let text = "[المتجر](https://ex\u{202E}ample.com) نص عربي هنا\n"
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let diagnostics = try session.openAndDiagnose("file:///links.md", languageId: "markdown", text: text)
    let identifier = try XCTUnwrap(diagnostics.first { $0.diagnosticCode == "bidi.inIdentifier" }, "\(diagnostics)")
    let message = identifier["message"]?.stringValue ?? ""
    XCTAssertTrue(message.contains("in a link destination"), message)
    XCTAssertFalse(message.contains("key"), message)
    // The RLO's own position: `[المتجر](https://ex` is 19 UTF-16 units.
    XCTAssertEqual(identifier["range"]?["start"], ["line": 0, "character": 19])
    let check = try HazardCommand.run(["check", "--language", "markdown", "-"], input: Data(text.utf8), in: nil)
    XCTAssertTrue(
      check.lines.contains { $0.contains("in a link destination") && $0.hasSuffix("[bidi.inIdentifier]") }, check.text)
  }

  /// §8, `paragraphs`: `"document"` is the default in Markdown and
  /// subtitles, `"values"` its synonym; entries carry `line`, `range`,
  /// `block` (Markdown) or `cue` (subtitles), and in `bidi/visualOrder`
  /// `text`, the rendered text; front matter and code lines are answered as
  /// plain lines, without those fields.
  func testDocumentModeAndEntryFields() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///site/docs/fa/guide.md"
    let text =
      "---\ntitle: راهنما\n---\n## راهنما *سریع*\n\n> - **iPhone** در دسترس است\n\n| ستون | B |\n|---|---|\n| `x` یک | دو |\n\n```\ncode\n```\n"
    try session.open(uri, languageId: "markdown", text: text)
    let byDefault = try session.paragraphs("bidi/naturalDirection", uri: uri)
    XCTAssertEqual(try session.paragraphs("bidi/naturalDirection", ["paragraphs": "document"], uri: uri), byDefault)
    XCTAssertEqual(try session.paragraphs("bidi/naturalDirection", ["paragraphs": "values"], uri: uri), byDefault)
    let entries = byDefault.filter { $0["block"] != nil }
    // The heading, the paragraph in the quote's list item, four table cells.
    XCTAssertEqual(entries.compactMap { $0["line"]?.intValue }, [3, 5, 7, 7, 9, 9])
    XCTAssertEqual(
      entries.compactMap { $0["block"]?.stringValue },
      ["heading", "paragraph", "tableCell", "tableCell", "tableCell", "tableCell"])
    XCTAssertEqual(Set(entries.compactMap { $0["locale"]?.stringValue }), ["fa"], "from docs/fa/")
    // Ranges from the first character of the inline content to the end of
    // the last, markers excluded: `## ` (3), `> - ` (4), `| ` (2).
    XCTAssertEqual(
      entries.map { $0["range"] },
      [(3, 3, 16), (5, 4, 27), (7, 2, 6), (7, 9, 10), (9, 2, 8), (9, 11, 13)].map { line, start, end -> JSONValue in
        [
          "start": ["line": JSONValue(line), "character": JSONValue(start)],
          "end": ["line": JSONValue(line), "character": JSONValue(end)],
        ]
      })
    // Plain lines: the front matter (0–2) and the code block (11–13).
    XCTAssertEqual(
      byDefault.filter { $0["block"] == nil }.compactMap { $0["line"]?.intValue }, [0, 1, 2, 11, 12, 13])
    let visual = try session.paragraphs("bidi/visualOrder", ["include": ["visualText"]], uri: uri)
    XCTAssertEqual(
      visual.compactMap { $0["text"]?.stringValue },
      ["راهنما سریع", "iPhone در دسترس است", "ستون", "B", "x یک", "دو"])
    // Subtitles: the same default and synonym; `cue` on each entry.
    let vtt = "file:///subs/he/ep1.vtt"
    try session.open(
      vtt, languageId: "vtt", text: "WEBVTT\n\n00:01.000 --> 00:02.000\nשלום!\n\n00:03.000 --> 00:04.000\n- מה?\n")
    let cues = try session.paragraphs("bidi/naturalDirection", uri: vtt)
    XCTAssertEqual(try session.paragraphs("bidi/naturalDirection", ["paragraphs": "values"], uri: vtt), cues)
    XCTAssertEqual(cues.compactMap { $0["cue"]?.intValue }, [1, 2])
    XCTAssertEqual(cues.compactMap { $0["locale"]?.stringValue }, ["he", "he"], "from he/")
  }

  /// §8: a soft line break inside a block splits nothing (one entry over
  /// both lines, rendered as a space, as a browser shows cmark-gfm's line
  /// break); an HTML block and an indented code block are answered as plain
  /// lines.
  func testSoftBreakHTMLBlockAndIndentedCode() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///notes.md"
    try session.open(
      uri, languageId: "markdown",
      text: "نص عربي\nيكمل هنا **بالخط**\n\n<div>\nHTML שלום\n</div>\n\n    indented code\n")
    let paragraphs = try session.paragraphs("bidi/visualOrder", ["include": ["visualText"]], uri: uri)
    let entries = paragraphs.filter { $0["block"] != nil }
    XCTAssertEqual(entries.count, 1)
    XCTAssertEqual(
      entries.first?["range"],
      ["start": ["line": 0, "character": 0], "end": ["line": 1, "character": 18]] as JSONValue)
    XCTAssertEqual(entries.first?["text"]?.stringValue, "نص عربي يكمل هنا بالخط")
    XCTAssertEqual(paragraphs.filter { $0["block"] == nil }.compactMap { $0["line"]?.intValue }, [3, 4, 5, 7])
  }

  /// §8, the locale: from the path (`README.ar.md`, `docs/fa/`,
  /// `movie.heb.srt`, `movie.ara.forced.srt`, `he/episode1.vtt`), from a
  /// WebVTT `Language:` header (before the path), else the `locale` setting.
  func testLocaleFromThePathAndTheHeader() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let cue = "1\n00:00:01,000 --> 00:00:02,000\nمرحبا\n"
    let cases: [(String, String, String, String?)] = [
      ("file:///r/README.ar.md", "markdown", "# مرحبا\n", "ar"),
      ("file:///r/docs/fa/intro.md", "markdown", "# سلام\n", "fa"),
      ("file:///r/docs/intro.md", "markdown", "# سلام\n", nil),
      ("file:///m/movie.heb.srt", "srt", cue, "he"),
      ("file:///m/Movie.2024.ara.forced.srt", "srt", cue, "ar"),
      ("file:///m/movie.he.sdh.srt", "srt", cue, "he"),
      ("file:///m/he/episode1.vtt", "vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nשלום\n", "he"),
      ("file:///m/he/header.vtt", "vtt", "WEBVTT\nLanguage: ar-EG\n\n00:01.000 --> 00:02.000\nمرحبا\n", "ar-EG"),
    ]
    for (uri, languageId, text, locale) in cases {
      try session.open(uri, languageId: languageId, text: text)
      let entries = try session.paragraphs("bidi/naturalDirection", uri: uri).filter {
        $0["block"] != nil || $0["cue"] != nil
      }
      XCTAssertEqual(entries.count, 1, uri)
      XCTAssertEqual(entries.first?["locale"]?.stringValue, locale, uri)
    }
    // The `locale` setting: for a file whose path and contents name none.
    try session.notify("workspace/didChangeConfiguration", ["settings": ["bidi": ["locale": "fa"]]])
    let unnamed = try session.paragraphs("bidi/naturalDirection", uri: "file:///r/docs/intro.md")
    XCTAssertEqual(unnamed.compactMap { $0["locale"]?.stringValue }, ["fa"])
    let named = try session.paragraphs("bidi/naturalDirection", uri: "file:///r/README.ar.md")
    XCTAssertEqual(named.compactMap { $0["locale"]?.stringValue }, ["ar"], "the path before the setting")
  }

  /// §8, hover on a block: the rendered text's direction and visual order
  /// (the block's noun and kind, its locale); off the block, the line's.
  func testHoverOnABlock() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///docs/README.ar.md"
    try session.open(uri, languageId: "markdown", text: Self.flipped)
    let hover = try session.result(
      "textDocument/hover",
      params: ["textDocument": ["uri": .string(uri)], "position": ["line": 2, "character": 40]])
    let value = hover["contents"]?["value"]?.stringValue ?? ""
    XCTAssertTrue(value.hasPrefix("Block (paragraph), locale ar (right to left)"), value)
    XCTAssertTrue(value.contains("As written: ltr"), value)
    // UAX #9 at level 0: "Apple Pay", then the Arabic words reversed.
    XCTAssertTrue(value.contains("Displays as (left to right): Apple Pay رجتملا يف نآلا حاتم"), value)
    XCTAssertEqual(
      hover["range"], ["start": ["line": 2, "character": 2], "end": ["line": 2, "character": 52]] as JSONValue)
  }

  /// §8, fenced code: its lines answered as plain lines and checked with
  /// the rules of its info string's language (an RLO in a Swift comment is
  /// `bidi.inComment`); the same RLO in a block's text is not.
  func testFencedCodeIsCheckedWithItsLanguage() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let text = "```swift\nlet a = 1 // \u{202E} x\n```\n\nنص \u{202E} عربي\u{202C}\n"
    let diagnostics = try session.openAndDiagnose("file:///code.md", languageId: "markdown", text: text)
    let found = diagnostics.map { "\($0["range"]?["start"]?["line"]?.intValue ?? -1) \($0.diagnosticCode)" }
    XCTAssertTrue(found.contains("1 bidi.inComment"), "\(found)")
    XCTAssertFalse(found.contains("4 bidi.inComment"), "\(found)")
    XCTAssertTrue(found.contains("4 bidi.override"), "\(found)")
  }

  /// §8, `bidi/insertMarks`: GFM's bare autolinks are never edited at an
  /// edge cmark-gfm reads (`www.…` after white space, a URL up to the next
  /// white space): `runs` and `direction` leave them whole, cmark-gfm reads
  /// the same links, and asking again gives no edits.
  func testBareAutolinksAreNotTouched() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let text = """
      للتواصل www.example.com أو https://example.com/مسار اليوم

      www.example.com هو الموقع الرسمي للمشروع

      راسلنا team@example.com اليوم

      """
    // The block that starts with `www.` renders left to right: its finding
    // stays, without a fix (no mark may go before the link).
    let diagnostics = try session.openAndDiagnose("file:///links.ar.md", languageId: "markdown", text: text)
    XCTAssertEqual(diagnostics.map(\.diagnosticCode), ["bidi.blockDirection"])
    XCTAssertEqual(diagnostics.first?["range"]?["start"]?["line"], 2)
    let fixes = try session.codeActions(
      "file:///links.ar.md", range: diagnostics[0]["range"]!, diagnostics: diagnostics)
    XCTAssertEqual(fixes.filter { $0["kind"]?.stringValue == "quickfix" }, [])
    // Mode isolate: not with an edge at the `www.` link (an isolate there
    // would unmake it), but on the Arabic words after it.
    let link = lspRange(2, 0, 2, 15)
    let refused = try session.error("bidi/insertMarks", ["mode": "isolate", "range": link], uri: "file:///links.ar.md")
    XCTAssertEqual(refused.code, -32602, refused.message)
    XCTAssertTrue(refused.message.contains("bare link"), refused.message)
    let words = try session.edits(["mode": "isolate", "range": lspRange(2, 16, 2, 25)], uri: "file:///links.ar.md")
    XCTAssertEqual(words.count, 2)
    let modes: [JSONObject] = [["mode": "runs"], ["mode": "direction", "direction": "rtl"], ["mode": "placeholders"]]
    for (number, mode) in modes.enumerated() {
      let uri = "file:///links\(number).ar.md"
      try session.open(uri, languageId: "markdown", text: text)
      let edits = try session.edits(mode, uri: uri)
      try session.apply(uri, edits: edits)
      let edited = try session.text(uri)
      if let before = try Self.cmarkBlocks(text) {
        XCTAssertEqual(try Self.cmarkBlocks(edited), before, "\(mode)")
      }
      XCTAssertEqual(try session.edits(mode, uri: uri), [], "\(mode): asking again")
      let lines = edited.split(separator: "\n", omittingEmptySubsequences: false)
      // The first line's two links are left as they are (the runs are at
      // their edges); the second starts with its link, unmarked.
      XCTAssertEqual(lines[0], text.split(separator: "\n")[0], "\(mode)")
      XCTAssertTrue(lines[2].hasPrefix("www."), "\(mode)")
      if mode["mode"] == "runs" {
        // An email address's edges are free: it is isolated whole.
        XCTAssertTrue(lines[4].contains("\u{2066}team@example.com\u{2069}"), edited)
      }
    }
  }

  /// §8, large files stay incremental: after edits inside and between
  /// blocks (a list item typed, a fence opened), the published findings
  /// are those of a fresh open of the same text.
  func testIncrementalEditsGiveTheFreshFindings() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///docs/README.ar.md"
    try session.open(uri, languageId: "markdown", text: Self.flipped)
    let changes: [(Int, Int, Int, Int, String)] = [
      (6, 0, 6, 0, "- [Docs](https://d.e) هنا أيضا\n"), (0, 2, 0, 2, "**"), (3, 0, 3, 0, "```\n"),
      (3, 0, 4, 0, ""), (7, 0, 7, 0, "\n> نص \u{202E} هنا\n"),
    ]
    for (startLine, startCharacter, endLine, endCharacter, newText) in changes {
      let range: JSONValue = [
        "start": ["line": JSONValue(startLine), "character": JSONValue(startCharacter)],
        "end": ["line": JSONValue(endLine), "character": JSONValue(endCharacter)],
      ]
      let version = try session.change(uri, [["range": range, "text": .string(newText)]])
      let published = try session.diagnostics(uri, version: version)
      let fresh = try session.freshDiagnostics(of: try session.text(uri), languageId: "markdown", like: uri)
      XCTAssertEqual(published, fresh, "after \(newText.debugDescription)")
    }
  }

  /// §8, `visual --document` on Markdown: each rendered block's visual
  /// line, markup left out, in its own direction; code lines are not
  /// rendered text.
  func testVisualDocumentPrintsTheRenderedBlocks() throws {
    let scratch = try HazardScratch()
    try scratch.write("README.ar.md", "# دليل\n\n- [Apple Pay](https://a.b) متاح\n\n```\ncode\n```\n")
    let result = try HazardCommand.run(["visual", "--document", "README.ar.md"], in: scratch.url)
    XCTAssertEqual(result.status, 0, result.errorOutput)
    XCTAssertEqual(result.lines, ["ليلد", "Apple Pay حاتم"])
  }
}
