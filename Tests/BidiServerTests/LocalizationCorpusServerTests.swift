import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// The localization corpus (Tests/LocalizationTests/Corpus) served by the
/// daemon in process: its values-mode entries and published diagnostics
/// equal the manifest (both ways), every insertMarks mode and every quick
/// fix, applied through didChange, leaves a file the independent parsers
/// (`scripts/l10n-check`) read with the same keys and values apart from the
/// controls, and asking again gives no edits.
final class LocalizationCorpusServerTests: XCTestCase {
  static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let corpus = here.deletingLastPathComponent().appendingPathComponent("LocalizationTests/Corpus")
  static let checker = here.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/l10n-check/l10n_check.py")

  struct CorpusFile {
    var path: String
    var values: [String] = []
    var findings: [String] = []
    var text: String
    /// Its real file URI: the daemon pairs a translation with the source
    /// file beside it on disk (`bidi.placeholderMismatch`), as the manifest does.
    var uri: String { LocalizationCorpusServerTests.corpus.appendingPathComponent(path).absoluteURL.absoluteString }
    var hasSyntaxError: Bool { findings.contains { $0.hasPrefix("bidi.localizationSyntax") } }
  }

  /// The manifest's files that are UTF-8 text (the UTF-16 ones are `check`'s).
  static func files() throws -> [CorpusFile] {
    let manifest = try String(contentsOf: corpus.appendingPathComponent("manifest.tsv"), encoding: .utf8)
    var files: [CorpusFile] = []
    for line in manifest.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      switch fields[0] {
      case "file":
        let data = try Data(contentsOf: corpus.appendingPathComponent(fields[1]))
        let text = String(data: data, encoding: .utf8) ?? ""
        files.append(CorpusFile(path: fields[1], text: data.first == 0xFF || data.first == 0xFE ? "" : text))
      case "value":
        // key variant locale written filled text: one entry per paragraph.
        for direction in fields[4].split(separator: ",") {
          files[files.count - 1].values.append(
            [fields[1], fields[2], fields[3], String(direction)].joined(separator: " "))
        }
      case "finding":
        files[files.count - 1].findings.append("\(fields[1]) \(fields[2])")
      default: break
      }
    }
    return files.filter { !$0.text.isEmpty }
  }

  /// The manifest's spelling of keys.
  static func escape(_ text: String) -> String { ManifestText.escape(text) }

  /// The format name l10n-check takes, from the path (as the daemon detects it).
  static func format(_ path: String) -> String {
    switch (path as NSString).pathExtension {
    case "xlf", "xliff": "xliff"
    case "pot": "po"
    // Source-pairing cases whose placeholders differ from their msgids on
    // purpose, which msgfmt --check rejects: read by gettext's parser alone.
    case "po" where path.hasPrefix("pairing/"): "po-lenient"
    case "ftl": "fluent"
    case "ts": "qt"
    case "yml", "yaml": "yaml"
    case "json": path.contains("_locales/") ? "webextension" : "i18next"
    case "xml": "android"
    case let other: other
    }
  }

  func testCorpusEntriesAndDiagnosticsEqualTheManifest() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    var valueCount = 0
    var findingCount = 0
    for file in try Self.files() {
      let diagnostics = try session.openAndDiagnose(file.uri, languageId: "plaintext", text: file.text)
      let entries = try session.paragraphs("bidi/naturalDirection", ["fallback": "ltr"], uri: file.uri)
      let served = entries.filter { $0["key"] != nil }.map {
        [
          Self.escape($0["key"]?.stringValue ?? ""), $0["variant"]?.stringValue ?? "-",
          $0["locale"]?.stringValue ?? "-",
          $0["basis"] == "fallback" ? "none" : $0["direction"]?.stringValue ?? "?",
        ].joined(separator: " ")
      }
      XCTAssertEqual(served, file.values, file.path)
      let lastValueLine = entries.filter { $0["key"] != nil }.map { $0["range"]?["end"]?["line"]?.intValue ?? 0 }.max()
      for plain in entries where plain["key"] == nil {
        XCTAssertTrue(file.hasSyntaxError, "\(file.path): a plain line without a syntax error: \(plain)")
        XCTAssertGreaterThanOrEqual(plain["line"]?.intValue ?? -1, lastValueLine ?? 0, file.path)
      }
      let published = diagnostics.map {
        "\($0.diagnosticCode) \($0.startLine + 1):\(($0["range"]?["start"]?["character"]?.intValue ?? -1) + 1)"
      }
      XCTAssertEqual(published, file.findings, file.path)
      valueCount += served.count
      findingCount += published.count
    }
    XCTAssertGreaterThan(valueCount, 150)
    XCTAssertGreaterThan(findingCount, 50)
    print("corpus through the daemon: \(valueCount) value paragraphs, \(findingCount) diagnostics")
  }

  static let modes: [(name: String, options: JSONObject)] = [
    ("directionLTR", ["mode": "direction", "direction": "ltr"]),
    ("directionRTL", ["mode": "direction", "direction": "rtl"]),
    ("placeholdersIsolate", ["mode": "placeholders"]),
    ("placeholdersMarks", ["mode": "placeholders", "style": "marks"]),
    ("runs", ["mode": "runs"]), ("stripAll", ["mode": "strip"]),
    ("stripUnpaired", ["mode": "strip", "only": "unpaired"]),
  ]

  func testEveryModeAndQuickFixReadByTheIndependentParsers() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-l10n-server-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var jobs: [String] = []
    var opened = 0
    func edited(_ file: CorpusFile, _ name: String, _ edits: [JSONValue], again: (String) throws -> Void) throws {
      opened += 1
      let uri = "file:///edited\(opened)/" + file.path
      try session.open(uri, languageId: "plaintext", text: file.text)
      try session.apply(uri, edits: edits)
      try again(uri)
      let text = try session.text(uri)
      let path = folder.appendingPathComponent("\(opened)-" + (file.path as NSString).lastPathComponent).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let original = Self.corpus.appendingPathComponent(file.path).path
      jobs.append("compare\t\(file.path)#\(name)\t\(Self.format(file.path))\t\(original)\t\(path)")
      try session.close(uri)
    }
    var editCount = 0
    for file in try Self.files() where !file.hasSyntaxError {
      let diagnostics = try session.openAndDiagnose(file.uri, languageId: "plaintext", text: file.text)
      for (name, options) in Self.modes {
        let edits = try session.edits(options, uri: file.uri)
        guard !edits.isEmpty else { continue }
        editCount += edits.count
        try edited(file, name, edits) { uri in
          XCTAssertEqual(try session.edits(options, uri: uri), [], "\(file.path) \(name): asked again")
        }
      }
      for (index, diagnostic) in diagnostics.enumerated() {
        let actions = try session.codeActions(
          file.uri, range: diagnostic["range"] ?? .null, only: ["quickfix"], diagnostics: [diagnostic])
        for (fixIndex, action) in actions.enumerated() where action["diagnostics"]?[0] == diagnostic {
          let edits = action["edit"]?["changes"]?[file.uri]?.arrayValue ?? []
          editCount += edits.count
          let code = diagnostic.diagnosticCode
          let before = diagnostics.filter { $0.diagnosticCode == code }.count
          try edited(file, "fix\(index).\(fixIndex)-\(code)", edits) { uri in
            let after = try session.diagnostics(uri, version: session.version(uri)).filter { $0.diagnosticCode == code }
            XCTAssertLessThan(after.count, before, "\(file.path) \(action["title"] ?? ""): the finding stays")
          }
        }
      }
      try session.close(file.uri)
    }
    let jobsPath = folder.appendingPathComponent("jobs.tsv").path
    try (jobs.joined(separator: "\n") + "\n").write(toFile: jobsPath, atomically: true, encoding: .utf8)
    let (python, prefix) = PythonTools.python.map { ($0, [String]()) } ?? ("/usr/bin/env", ["python3"])
    let run = try TestClient.run(python, arguments: prefix + [Self.checker.path, jobsPath], timeout: 600)
    XCTAssertEqual(run.status, 0, run.standardError)
    var same = 0
    for line in run.standardOutput.split(separator: "\n") {
      if line.hasPrefix("same\t") { same += 1 }
      if line.hasPrefix("differ\t") || line.hasPrefix("error\t") { XCTFail(String(line)) }
    }
    XCTAssertEqual(same, jobs.count, "every edited file compared equal")
    XCTAssertGreaterThan(jobs.count, 100)
    print("independent parsers: \(jobs.count) files edited through the daemon (\(editCount) edits), all equal")
  }
}
