import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// The daemon and `bidi-lsp check` give the same findings — code, severity,
/// line and UTF-8 column — on every file of the localization corpus and on
/// samples with controls in every place a structured document has (values,
/// keys, comments, metadata, the lines after a syntax error): both run the
/// one findings engine (Documentation/Architecture.md, "Structured
/// documents"; Protocol/localization.md, "Outside values").
final class DaemonCheckAgreementTests: XCTestCase {
  /// A finding as both sides give it.
  struct Found: Hashable, Comparable, CustomStringConvertible {
    var line: Int
    var column: Int
    var code: String
    var severity: String
    var description: String { "\(line):\(column) \(code) \(severity)" }
    static func < (a: Found, b: Found) -> Bool { a.description < b.description }
  }

  static let severities = ["", "error", "warning", "information", "hint"]

  /// `check`'s findings of `paths` (relative to `directory`), by path.
  func checkFindings(_ paths: [String], in directory: URL) throws -> [String: [Found]] {
    let result = try HazardCommand.run(["check"] + paths, in: directory)
    XCTAssertTrue(result.errorOutput.isEmpty, result.errorOutput)
    var found: [String: [Found]] = [:]
    for line in result.lines {
      // path:line:column: severity: message [code]
      let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
      guard parts.count == 5, let number = Int(parts[1]), let column = Int(parts[2]),
        let codeStart = line.range(of: " [", options: .backwards)
      else { continue }
      let code = String(line[codeStart.upperBound...].dropLast())
      let severity = parts[3].trimmingCharacters(in: .whitespaces)
      found[String(parts[0]), default: []].append(
        Found(line: number, column: column, code: code, severity: severity))
    }
    return found
  }

  /// The daemon's published findings of `text` opened as `uri`.
  func daemonFindings(_ session: TestSession, uri: String, text: String) throws -> [Found] {
    try session.open(uri, languageId: "", text: text)
    let diagnostics = try session.diagnostics(uri, version: session.version(uri))
    try session.close(uri)
    return diagnostics.map { diagnostic in
      Found(
        line: (diagnostic["range"]?["start"]?["line"]?.intValue ?? -1) + 1,
        column: (diagnostic["range"]?["start"]?["character"]?.intValue ?? -1) + 1,
        code: diagnostic.diagnosticCode, severity: Self.severities[diagnostic["severity"]?.intValue ?? 0])
    }
  }

  /// Compares the two sides on each file of `directory` named in `paths`.
  /// Returns how many files were compared and how many findings they hold.
  func assertAgreement(_ paths: [String], in directory: URL, file: StaticString = #filePath, line: UInt = #line)
    throws -> (files: Int, findings: Int)
  {
    let checked = try checkFindings(paths, in: directory)
    var findings = 0
    let session = try TestSession(.bidiLSP, encoding: .utf8, ignoring: ["$/progress"])
    var compared = 0
    for path in paths {
      let data = try Data(contentsOf: directory.appendingPathComponent(path))
      // The daemon's documents are UTF-8 text (UTF-16 files are `check`'s alone).
      guard data.first != 0xFF && data.first != 0xFE, let text = String(data: data, encoding: .utf8) else { continue }
      // Its real file URI: the daemon pairs a translation with the source
      // file beside it on disk, as `check` does (SourcePairing).
      let uri = directory.appendingPathComponent(path).absoluteURL.absoluteString
      let daemon = try daemonFindings(session, uri: uri, text: text).sorted()
      XCTAssertEqual(daemon, (checked[path] ?? []).sorted(), "\(path)", file: file, line: line)
      compared += 1
      findings += daemon.count
    }
    _ = try session.shutdownAndExit()
    return (compared, findings)
  }

  func testEveryCorpusFile() throws {
    let paths = try CheckLocalizationTests.manifest().keys.sorted()
    let utf16 = try paths.filter {
      let data = try Data(contentsOf: CheckLocalizationTests.corpus.appendingPathComponent($0))
      return data.first == 0xFF || data.first == 0xFE
    }
    XCTAssertFalse(utf16.isEmpty, "the corpus has a UTF-16 file")
    let (compared, findings) = try assertAgreement(paths, in: CheckLocalizationTests.corpus)
    // Every UTF-8 file of the corpus (the UTF-16 ones are check's alone).
    XCTAssertEqual(compared, paths.count - utf16.count)
    XCTAssertGreaterThan(findings, 20)
  }

  /// The Markdown corpus (Tests/MarkdownTests/Corpus, its `check/` folder
  /// too) and the subtitle corpus: the same findings both ways.
  func testEveryMarkdownAndSubtitleCorpusFile() throws {
    let markdown = CheckMarkdownTests.corpus
    let paths = try FileManager.default.subpathsOfDirectory(atPath: markdown.path).filter { $0.hasSuffix(".md") }
      .sorted()
    XCTAssertEqual(paths.count, 7)
    let (compared, findings) = try assertAgreement(paths, in: markdown)
    XCTAssertEqual(compared, 7)
    XCTAssertEqual(findings, 12, "the manifest's findings (check-manifest.tsv)")
    let subtitles = try SubtitleDocumentTests.manifest().map(\.path)
    let (comparedSubtitles, subtitleFindings) = try assertAgreement(subtitles, in: SubtitleDocumentTests.corpus)
    XCTAssertEqual(comparedSubtitles, 8)
    XCTAssertEqual(subtitleFindings, 50)
  }

  /// Real files from public projects (Tests/MarkdownTests/Corpus/real/README.md
  /// says which, and why they are not in the repository): with
  /// `BIDI_REAL_CORPUS` set to a folder of them, every `.md`, `.srt` and
  /// `.vtt` file under it gives the same findings both ways, every subtitle
  /// file fixed and marked through the daemon is re-read by `srt`/`webvtt-py`
  /// with the same cues (`RealSubtitleRoundTrip`), and every
  /// Markdown file edited through the daemon (`bidi/insertMarks` direction
  /// rtl and ltr, placeholders, runs) is re-read by cmark-gfm with the same
  /// blocks, asking again giving no edits (roundtrip.py).
  func testRealFilesWhenGiven() throws {
    guard let folder = ProcessInfo.processInfo.environment["BIDI_REAL_CORPUS"] else {
      throw XCTSkip("set BIDI_REAL_CORPUS to a folder of real Markdown and subtitle files")
    }
    let root = URL(fileURLWithPath: folder)
    let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
      $0.hasSuffix(".md") || $0.hasSuffix(".srt") || $0.hasSuffix(".vtt")
    }.sorted()
    XCTAssertFalse(paths.isEmpty, folder)
    let (compared, findings) = try assertAgreement(paths, in: root)
    print("real files: \(compared) compared, \(findings) findings")
    let subtitles = paths.filter { $0.hasSuffix(".srt") || $0.hasSuffix(".vtt") }
    if !subtitles.isEmpty {
      let figures = try RealSubtitleRoundTrip.run(subtitles, in: root)
      XCTAssertGreaterThan(figures.files, 0)
    }
    let markdown = paths.filter { $0.hasSuffix(".md") }.map { root.appendingPathComponent($0).path }
    guard !markdown.isEmpty else { return }
    let repository = CheckMarkdownTests.corpus.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let run = try TestClient.run(
      "/usr/bin/env",
      arguments: [
        "python3", repository.appendingPathComponent("Tests/MarkdownTests/Roundtrip/roundtrip.py").path,
        repository.appendingPathComponent("editors/python").path, try builtDaemonPath(),
      ] + markdown, timeout: 300)
    XCTAssertEqual(run.status, 0, run.standardOutput)
    XCTAssertTrue(run.standardOutput.contains("\(markdown.count) files x 4 modes"), run.standardOutput)
    XCTAssertTrue(run.standardOutput.hasSuffix(" 0 failures\n"), run.standardOutput)
  }

  /// Controls where each rule applies, in every format: in values, keys,
  /// comments, metadata, plural branches, and after a syntax error.
  func testControlsEverywhereInEveryFormat() throws {
    let (rli, pdi, rlo, lrm) = ("\u{2067}", "\u{2069}", "\u{202E}", "\u{200E}")
    let samples: [(String, String)] = [
      (
        "he.lproj/Localizable.strings",
        "\"a\" = \"\(rli)שלום\(pdi)\"; /* \(pdi) */\n\"b\(rlo)\" = \"שלום\";\n/* \(rlo) */ \"c\" = \"שלום \(rlo)עולם\";\n"
      ),
      ("ar.lproj/Broken.strings", "\"a\" = \"%@ مرحبا\";\n\"b\" = \"x\n/* \(rlo) */\n\(rli) after\n"),
      (
        "po/fa.po",
        "msgid \"\"\nmsgstr \"Language: fa\\n\"\n\n# \(rlo) translator comment\nmsgid \"k\(lrm)\"\nmsgstr \"%s سلام\"\n"
      ),
      (
        "res/values-ar/strings.xml",
        "<resources>\n<!-- \(rlo) -->\n<string name=\"a\">%1$s رسالة</string>\n<string name=\"b\(rli)\">نص \(rlo)</string>\n</resources>\n"
      ),
      (
        "l10n/intl_ar.arb",
        "{\n\"@@locale\": \"ar\",\n\"a\": \"{count, plural, one {\(rli)واحد} other {{count} رسائل}}\",\n\"@a\": {\"description\": \"\(rlo)\"}\n}\n"
      ),
      ("locales/he/common.json", "{\"x\": {\"y\": \"{{name}} שלח\", \"z\(rlo)\": \"טוב\"}, \"w\": 1 \(rlo)}\n"),
      (
        "he.xliff",
        "<xliff version=\"1.2\"><file target-language=\"he\"><body>\n<!-- \(rlo) -->\n<trans-unit id=\"1\"><target><x id=\"1\"/> שלום \(rli)</target></trans-unit>\n</body></file></xliff>\n"
      ),
      ("messages_fa.properties", "# \(rlo)\na = {0} سلام\nb\(lrm) = خوب \\\n  ادامه\n"),
      (
        "Strings.he.resx",
        "<root>\n<data name=\"a\"><value>\(rlo)שלום</value><comment>\(rlo)</comment></data>\n</root>\n"
      ),
    ]
    let scratch = try HazardScratch()
    for (path, text) in samples { try scratch.write(path, text) }
    let (compared, findings) = try assertAgreement(samples.map(\.0), in: scratch.url)
    XCTAssertEqual(compared, samples.count)
    XCTAssertGreaterThanOrEqual(findings, 2 * samples.count)
  }

  /// After incremental edits (an RLO typed at the start of each line in
  /// turn, then the line joined to the next), the daemon's findings are
  /// still `check`'s on the edited text: the engine's findings outside
  /// entries are kept per line and updated where the index read again.
  func testAfterIncrementalEdits() throws {
    let rlo = "\u{202E}"
    let text = "/* a */\n\"k\" = \"שלום %@\";\n// b\n\"j\" = \"x\";\n\"m\" = \"مرحبا\"; /* c */\n"
    let path = "ar.lproj/Edited.strings"
    let uri = "file:///agreement/" + path
    let scratch = try HazardScratch()
    let session = try TestSession(.bidiLSP, encoding: .utf8, ignoring: ["$/progress"])
    try session.open(uri, languageId: "", text: text)
    _ = try session.diagnostics(uri, version: session.version(uri))
    var current = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var line = 0
    while line + 2 < current.count {
      defer { line += 1 }
      for join in [false, true] {
        if join {
          let length = current[line].utf8.count
          try session.change(uri, [["range": lspRange(line, length, line + 1, 0), "text": " "]])
          current[line] += " " + current[line + 1]
          current.remove(at: line + 1)
        } else {
          try session.change(uri, [["range": lspRange(line, 0, line, 0), "text": .string(rlo)]])
          current[line] = rlo + current[line]
        }
        let diagnostics = try session.diagnostics(uri, version: session.version(uri))
        let daemon = diagnostics.map { diagnostic in
          Found(
            line: (diagnostic["range"]?["start"]?["line"]?.intValue ?? -1) + 1,
            column: (diagnostic["range"]?["start"]?["character"]?.intValue ?? -1) + 1,
            code: diagnostic.diagnosticCode, severity: Self.severities[diagnostic["severity"]?.intValue ?? 0])
        }
        try scratch.write(path, current.joined(separator: "\n"))
        let checked = try checkFindings([path], in: scratch.url)[path] ?? []
        XCTAssertEqual(
          daemon.sorted(), checked.sorted(), "line \(line) join \(join):\n\(current.joined(separator: "\n"))")
      }
    }
    _ = try session.shutdownAndExit()
  }
}
