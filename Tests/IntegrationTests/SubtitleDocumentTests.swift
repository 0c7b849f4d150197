import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// Subtitles (contract §8), point by point, against the built binary: the
/// subtitle corpus of Tests/SubtitlesTests with its manifest's findings;
/// `check` and the daemon agreeing; the `bidi.cueDirection` fix and its fix
/// for the whole file, and every `bidi/insertMarks` mode, re-read by PyPI's
/// `srt` and `webvtt-py` (scripts/subtitles-check); asking again gives no
/// edits; the paragraphs of document mode; broken files.
final class SubtitleDocumentTests: XCTestCase {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  static let corpus = tests.appendingPathComponent("SubtitlesTests/Corpus")
  static let checker = tests.deletingLastPathComponent().appendingPathComponent(
    "scripts/subtitles-check/subtitles_check.py")

  /// The manifest's files, each with its `CODE LINE:COLUMN` findings and the lines of its cues' text.
  static func manifest() throws -> [(path: String, findings: [String], textLines: Set<Int>)] {
    var result: [(path: String, findings: [String], textLines: Set<Int>)] = []
    let text = try String(contentsOf: corpus.appendingPathComponent("manifest.tsv"), encoding: .utf8)
    for row in text.split(separator: "\n") where !row.hasPrefix("#") {
      let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      switch fields[0] {
      case "file": result.append((fields[1], [], []))
      case "finding": result[result.count - 1].findings.append(fields[1] + " " + fields[2])
      default: break
      }
    }
    return result
  }

  static func languageId(_ path: String) -> String { path.hasSuffix(".srt") ? "srt" : "vtt" }

  /// Runs the independent readers on `jobs`; their answer lines.
  static func independent(_ jobs: [String]) throws -> [String] {
    let jobsFile = FileManager.default.temporaryDirectory.appendingPathComponent("subtitle-jobs-\(getpid()).tsv")
    try (jobs.joined(separator: "\n") + "\n").write(to: jobsFile, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: jobsFile) }
    let python = PythonTools.python.map { ($0, [String]()) } ?? ("/usr/bin/env", ["python3"])
    let run = try TestClient.run(python.0, arguments: python.1 + [checker.path, jobsFile.path], timeout: 300)
    XCTAssertEqual(run.status, 0, run.standardError)
    return run.standardOutput.split(separator: "\n").map(String.init)
  }

  /// `check`'s findings of the corpus, as `path CODE LINE:COLUMN`.
  func checkFindings() throws -> [String] {
    let files = try Self.manifest().map(\.path)
    let result = try HazardCommand.run(["check"] + files, in: Self.corpus)
    XCTAssertEqual(result.status, 1, result.errorOutput)
    return result.lines.map { line in
      let parts = line.split(separator: ":", maxSplits: 3).map(String.init)
      let code = line[line.range(of: "[", options: .backwards)!.upperBound...].dropLast()
      return "\(parts[0]) \(code) \(parts[1]):\(parts[2])"
    }
  }

  /// §8, `check` on .srt/.vtt: the manifest's findings, both ways.
  func testCheckReportsTheManifestFindings() throws {
    let manifest = try Self.manifest()
    let expected = manifest.flatMap { file in file.findings.map { "\(file.path) \($0)" } }
    let found = try checkFindings()
    XCTAssertEqual(expected.count, 50)
    XCTAssertEqual(manifest.count, 8)
    XCTAssertEqual(Set(found).subtracting(expected).sorted(), [], "found, not in the manifest")
    XCTAssertEqual(Set(expected).subtracting(found).sorted(), [], "in the manifest, not found")
    XCTAssertEqual(found.count, expected.count)
  }

  /// §8: the daemon publishes what `check` reports, on every corpus file.
  func testDaemonPublishesWhatCheckReports() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    var published: [String] = []
    for file in try Self.manifest() {
      let text = try String(contentsOf: Self.corpus.appendingPathComponent(file.path), encoding: .utf8)
      let uri = "file:///corpus/\(file.path)"
      for diagnostic in try session.openAndDiagnose(uri, languageId: Self.languageId(file.path), text: text) {
        let start = diagnostic["range"]?["start"]
        published.append(
          "\(file.path) \(diagnostic["code"]?.stringValue ?? "") "
            + "\((start?["line"]?.intValue ?? -1) + 1):\((start?["character"]?.intValue ?? -1) + 1)")
      }
    }
    XCTAssertEqual(published.sorted(), try checkFindings().sorted())
  }

  /// §8, the quick fix and "fix all": RLM (LRM) at the start of each line
  /// that needs one, after its leading markup, and at its end where
  /// punctuation follows its last letter; the independent readers read
  /// the same cues apart from the marks; asking again finds nothing to fix.
  func testFixAllIsReadTheSameByTheIndependentReaders() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subtitle-fix-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var jobs: [String] = []
    var expectedMarks: [String: Int] = [:]
    for (number, file) in try Self.manifest().enumerated() {
      let original = Self.corpus.appendingPathComponent(file.path)
      let uri = "file:///corpus/\(file.path)"
      let diagnostics = try session.openAndDiagnose(
        uri, languageId: Self.languageId(file.path), text: try String(contentsOf: original, encoding: .utf8))
      XCTAssertEqual(diagnostics.count, file.findings.count, file.path)
      guard let first = diagnostics.first else { continue }
      let actions = try session.codeActions(uri, range: first["range"]!, diagnostics: [first])
      let titles = actions.compactMap { $0["title"]?.stringValue }
      // "Fix all" where the file has more than one; else the line's own fix.
      let fixAll = try XCTUnwrap(
        actions.first {
          $0["title"]?.stringValue.map { title in
            diagnostics.count > 1 ? title.hasPrefix("Fix all bidi.cueDirection") : Self.isLineFix(title)
          } == true
        }, "\(titles)")
      XCTAssertTrue(titles.contains(where: Self.isLineFix), "\(titles)")
      let edits = fixAll["edit"]?["changes"]?[uri]?.arrayValue ?? []
      // One mark at a line's start, its end, or both.
      XCTAssertGreaterThanOrEqual(edits.count, diagnostics.count, file.path)
      XCTAssertLessThanOrEqual(edits.count, 2 * diagnostics.count, file.path)
      // Every edit inserts one mark at a line's text, none on a timing line or cue number.
      for edit in edits {
        XCTAssertEqual(edit["range"]?["start"], edit["range"]?["end"])
        // The character, or a numeric reference where the file writes marks so (news.ur.vtt).
        let marks = ["\u{200F}", "\u{200E}", "&#8207;", "&#8206;", "&#x200F;", "&#x200E;"]
        XCTAssertTrue(marks.contains(edit["newText"]?.stringValue ?? ""), "\(edit)")
      }
      try session.apply(uri, edits: edits)
      let fixed = try session.text(uri)
      let edited = directory.appendingPathComponent("\(number)-" + original.lastPathComponent)
      try fixed.write(to: edited, atomically: true, encoding: .utf8)
      let kind = file.path.hasSuffix(".srt") ? "srt" : "vtt"
      jobs.append("controls\t\(file.path)\t\(kind)\t\(original.path)\t\(edited.path)")
      expectedMarks[file.path] = diagnostics.count  // lines that differ
      // Asking again: no diagnostic, no quick fix.
      XCTAssertEqual(try session.diagnostics(uri, version: session.version(uri)), [], file.path)
      let lastLine = fixed.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      let all =
        ["start": ["line": 0, "character": 0], "end": ["line": JSONValue(lastLine), "character": 0]] as JSONValue
      let again = try session.codeActions(uri, range: all).filter { $0["kind"]?.stringValue == "quickfix" }
      XCTAssertEqual(again, [], file.path)
    }
    let answers = try Self.independent(jobs)
    XCTAssertEqual(answers.sorted(), expectedMarks.map { "same\t\($0.key)\t\($0.value)" }.sorted())
  }

  /// The title of a line's own `bidi.cueDirection` fix.
  static func isLineFix(_ title: String) -> Bool {
    ["Start the line with", "Start and end the line with", "End the line with"].contains { title.hasPrefix($0) }
  }

  /// §8, `bidi/insertMarks` in subtitles edits only the cue lines' text:
  /// each mode over the whole document, re-read by the independent readers
  /// as the same cues apart from the controls; asking again gives no edits.
  func testInsertMarksEditsOnlyCueText() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subtitle-marks-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var jobs: [String] = []
    var edited = 0
    let modes: [(String, JSONObject)] = [
      ("direction", ["direction": "rtl"]), ("runs", [:]), ("placeholders", [:]),
    ]
    for (number, file) in try Self.manifest().enumerated() {
      let original = Self.corpus.appendingPathComponent(file.path)
      let text = try String(contentsOf: original, encoding: .utf8)
      for (mode, options) in modes {
        let uri = "file:///marks/\(mode)/\(file.path)"
        try session.open(uri, languageId: Self.languageId(file.path), text: text)
        var params = options
        params["mode"] = .string(mode)
        let edits = try session.result("bidi/insertMarks", params, uri: uri)["edits"]?.arrayValue ?? []
        edited += edits.count
        try session.apply(uri, edits: edits)
        let again = try session.result("bidi/insertMarks", params, uri: uri)["edits"]?.arrayValue ?? []
        XCTAssertEqual(again, [], "\(mode) \(file.path): asking again")
        let path = directory.appendingPathComponent("\(number)-\(mode)-" + original.lastPathComponent)
        try session.text(uri).write(to: path, atomically: true, encoding: .utf8)
        let kind = file.path.hasSuffix(".srt") ? "srt" : "vtt"
        jobs.append("controls\t\(mode) \(file.path)\t\(kind)\t\(original.path)\t\(path.path)")
        try session.close(uri)
      }
    }
    XCTAssertGreaterThan(edited, 49)
    for answer in try Self.independent(jobs) {
      XCTAssertTrue(answer.hasPrefix("same\t"), answer)
    }
  }

  /// §8, document mode: the paragraphs are the cue lines, each with its cue;
  /// cue numbers, timing lines, the header and NOTE blocks are none.
  func testParagraphsAreTheCueLines() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    let text =
      "WEBVTT\n\nNOTE שלום\n\nintro\n00:01.000 --> 00:02.000\n<v Dana>שלום!\n- מה?\n\n00:03.000 --> 00:04.000\nHello\n"
    try session.open("file:///ep.he.vtt", languageId: "vtt", text: text)
    let entries = try session.result("bidi/naturalDirection", [:], uri: "file:///ep.he.vtt")
    let paragraphs = entries["paragraphs"]?.arrayValue ?? entries.arrayValue ?? []
    XCTAssertEqual(paragraphs.compactMap { $0["line"]?.intValue }, [6, 7, 10], "\(entries)")
    XCTAssertEqual(paragraphs.compactMap { $0["cue"]?.intValue }, [1, 1, 2])
    XCTAssertEqual(paragraphs.compactMap { $0["direction"]?.stringValue }, ["rtl", "rtl", "ltr"])
    let srt = "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>مرحبا!</i>\n"
    try session.open("file:///m.srt", languageId: "srt", text: srt)
    let diagnostics = try session.diagnostics("file:///m.srt", version: 1)
    XCTAssertEqual(diagnostics.compactMap { $0["code"]?.stringValue }, ["bidi.cueDirection"])
    let fix = try session.codeActions("file:///m.srt", range: diagnostics[0]["range"]!, diagnostics: diagnostics)
    let edit = fix.first?["edit"]?["changes"]?["file:///m.srt"]?[0]
    XCTAssertEqual(edit?["range"]?["start"], ["line": 2, "character": 9])
  }

  /// §8: the languageIds `subrip` and `webvtt` (beside `srt` and `vtt`,
  /// whatever the path); entries carry `range` (the line's text, tags
  /// included) and `cue`; hover on a cue line shows its direction and its
  /// visual order (UAX #9 at level 1: the `!` to the left).
  func testLanguageIdsRangeAndHover() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let cases = [
      ("file:///s/one", "subrip", "1\n00:00:01,000 --> 00:00:02,000\n<i>مرحبا!</i>\n", 2),
      ("file:///s/two", "webvtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n<i>مرحبا!</i>\n", 3),
    ]
    for (uri, languageId, text, line) in cases {
      try session.open(uri, languageId: languageId, text: text)
      let entries = try session.paragraphs("bidi/naturalDirection", uri: uri)
      XCTAssertEqual(entries.count, 1, languageId)
      XCTAssertEqual(entries.first?["cue"]?.intValue, 1, languageId)
      XCTAssertEqual(
        entries.first?["range"],
        ["start": ["line": JSONValue(line), "character": 0], "end": ["line": JSONValue(line), "character": 13]]
          as JSONValue, languageId)
      let hover = try session.result(
        "textDocument/hover",
        params: ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(line), "character": 5]])
      let value = hover["contents"]?["value"]?.stringValue ?? ""
      XCTAssertTrue(value.hasPrefix("Cue line (cue 1)"), value)
      XCTAssertTrue(value.contains("As written: rtl"), value)
      XCTAssertTrue(value.hasSuffix("Displays as (left to right): !ابحرم"), value)
    }
  }

  /// Bad input: broken timings, a BOM with CRLF, UTF-16: a clear finding or
  /// the file read as it is, never a crash.
  func testBrokenAndEncodedFiles() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subtitle-bad-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let broken = "1\n00:00:01,000 --> 00:00:02,000\nمرحبا!\n\n2\n00:00:0x,000 --> 00:00:04,000\nمرحبا!\n"
    try broken.write(to: directory.appendingPathComponent("broken.srt"), atomically: true, encoding: .utf8)
    let crlf = "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,000\r\nمرحبا!\r\n"
    try crlf.write(to: directory.appendingPathComponent("crlf.srt"), atomically: true, encoding: .utf8)
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in "WEBVTT\n\n00:01.000 --> 00:02.000\nשלום!\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    try Data(utf16).write(to: directory.appendingPathComponent("utf16.vtt"))
    let result = try HazardCommand.run(["check", "broken.srt", "crlf.srt", "utf16.vtt"], in: directory)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.lines.map {
        $0.split(separator: ":").prefix(3).joined(separator: ":") + " " + ($0.split(separator: "[").last ?? "")
      },
      [
        "broken.srt:3:1 bidi.cueDirection]", "broken.srt:6:8 bidi.subtitleSyntax]",
        "crlf.srt:3:1 bidi.cueDirection]", "utf16.vtt:4:1 bidi.cueDirection]",
      ])
    XCTAssertTrue(result.lines[1].contains("broken timing line"), result.lines[1])
  }

  /// §8, `visual --document`: a subtitle file's rendered lines, markup left
  /// out, each in its own direction (or the one forced).
  func testVisualDocumentPrintsTheRenderedCueLines() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subtitle-visual-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let srt = "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>مرحبا!</i>\nHello <b>world</b>\n"
    try srt.write(to: directory.appendingPathComponent("m.ar.srt"), atomically: true, encoding: .utf8)
    let auto = try HazardCommand.run(["visual", "--document", "m.ar.srt"], in: directory)
    XCTAssertEqual(auto.status, 0, auto.errorOutput)
    XCTAssertEqual(auto.lines, ["!ابحرم", "Hello world"])
    let ltr = try HazardCommand.run(["visual", "--document", "--direction", "ltr", "m.ar.srt"], in: directory)
    XCTAssertEqual(ltr.lines, ["ابحرم!", "Hello world"])
    let plain = try HazardCommand.run(["visual", "--document", "notes.txt"], in: directory)
    XCTAssertEqual(plain.status, 2)
  }
}
