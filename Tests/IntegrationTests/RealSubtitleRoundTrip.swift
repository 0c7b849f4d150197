import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// Real subtitle files (`BIDI_REAL_CORPUS`, Tests/SubtitlesTests/Corpus/real/SOURCES.txt)
/// through the daemon as a user would: open, the published diagnostics,
/// the "fix all" (or the one fix) applied, `bidi/insertMarks` direction rtl
/// and runs applied; each result re-read by PyPI's `srt` / `webvtt-py`
/// (scripts/subtitles-check) as the same cues, timings and voices, the text
/// equal apart from the inserted controls (and, for the fix of a line whose
/// punctuation was moved by hand for left-to-right players, that
/// punctuation moved back); asking again gives no edits.
enum RealSubtitleRoundTrip {
  struct Figures {
    var files = 0
    var findings = 0
    var fixEdits = 0
    var movedLines = 0
    var markEdits = 0
  }

  static func run(_ paths: [String], in root: URL) throws -> Figures {
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("real-subtitles-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var figures = Figures()
    var jobs: [String] = []
    var perFile: [String: (findings: Int, fixEdits: Int, markEdits: Int)] = [:]
    for (number, path) in paths.enumerated() {
      let original = root.appendingPathComponent(path)
      guard let text = try? String(contentsOf: original, encoding: .utf8) else { continue }
      figures.files += 1
      let languageId = SubtitleDocumentTests.languageId(path)
      let kind = languageId
      jobs.append("read\t\(path)\t\(kind)\t\(original.path)")
      let uri = "file:///real/\(number)/" + original.lastPathComponent
      let diagnostics = try session.openAndDiagnose(uri, languageId: languageId, text: text)
      figures.findings += diagnostics.count
      perFile[path, default: (0, 0, 0)].findings = diagnostics.count
      if let first = diagnostics.first {
        let actions = try session.codeActions(uri, range: first["range"]!, diagnostics: [first])
        let titles = actions.compactMap { $0["title"]?.stringValue }
        let prefix = diagnostics.count > 1 ? "Fix all bidi.cueDirection" : (titles.first ?? "")
        let fix = try XCTUnwrap(actions.first { $0["title"]?.stringValue?.hasPrefix(prefix) == true }, "\(titles)")
        let edits = fix["edit"]?["changes"]?[uri]?.arrayValue ?? []
        XCTAssertGreaterThanOrEqual(edits.count, diagnostics.count, path)
        figures.fixEdits += edits.count
        perFile[path, default: (0, 0, 0)].fixEdits = edits.count
        try session.apply(uri, edits: edits)
        XCTAssertEqual(try session.diagnostics(uri, version: session.version(uri)), [], "\(path): asking again")
        let fixed = directory.appendingPathComponent("\(number)-fixed-" + original.lastPathComponent)
        try session.text(uri).write(to: fixed, atomically: true, encoding: .utf8)
        jobs.append("moved\tfix \(path)\t\(kind)\t\(original.path)\t\(fixed.path)")
      }
      try session.close(uri)
      for (mode, options) in [("direction", ["direction": "rtl"] as JSONObject), ("runs", [:])] {
        let marked = "file:///real/\(number)/\(mode)/" + original.lastPathComponent
        try session.open(marked, languageId: languageId, text: text)
        var params = options
        params["mode"] = .string(mode)
        let edits = try session.result("bidi/insertMarks", params, uri: marked)["edits"]?.arrayValue ?? []
        figures.markEdits += edits.count
        perFile[path, default: (0, 0, 0)].markEdits += edits.count
        try session.apply(marked, edits: edits)
        let again = try session.result("bidi/insertMarks", params, uri: marked)["edits"]?.arrayValue ?? []
        XCTAssertEqual(again, [], "\(mode) \(path): asking again")
        let out = directory.appendingPathComponent("\(number)-\(mode)-" + original.lastPathComponent)
        try session.text(marked).write(to: out, atomically: true, encoding: .utf8)
        jobs.append("controls\t\(mode) \(path)\t\(kind)\t\(original.path)\t\(out.path)")
        try session.close(marked)
      }
    }
    var cues: [String: Int] = [:]
    var moved: [String: Int] = [:]
    for answer in try SubtitleDocumentTests.independent(jobs) {
      let fields = answer.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      switch fields[0] {
      case "cue": cues[fields[1], default: 0] += 1
      case "line": break
      case "same":
        if fields.count == 4 {
          figures.movedLines += Int(fields[3]) ?? 0
          moved[String(fields[1].dropFirst(4)), default: 0] += Int(fields[3]) ?? 0
        }
      default: XCTFail(answer)
      }
    }
    for path in paths {
      let file = perFile[path] ?? (0, 0, 0)
      print(
        "real subtitle \(path): \(cues[path] ?? 0) cues (srt/webvtt-py), \(file.findings) findings published,"
          + " fix \(file.fixEdits) edits (\(moved[path] ?? 0) lines moved back), insertMarks \(file.markEdits) edits: same"
      )
    }
    print(
      "real subtitles: \(figures.files) files, \(figures.findings) findings, fix edits \(figures.fixEdits)"
        + " (\(figures.movedLines) lines with punctuation moved back), insertMarks edits \(figures.markEdits)")
    return figures
  }
}
