import BidiTestSupport
import JSONRPC
import XCTest

/// Empty and blank documents of every kind, in the built daemon and in
/// `check`: an editor opens a new file empty (Emacs's `find-file` of a
/// `.md` that does not exist yet), so each format must read "" and a few
/// blank lines without a crash, the daemon still answering: no finding
/// where an empty file is a valid one, and only the format's syntax
/// warning where it is not (a JSON or XML format, a WebVTT file without its
/// `WEBVTT` line), the same in the daemon and in `check`. An empty Markdown
/// document once made the reader retry its stretch forever (until the
/// length overflowed and the daemon trapped).
final class EmptyDocumentTests: XCTestCase {
  /// One file per document kind (contract §7, §8): a path whose extension
  /// tells the kind, and the languageId an editor sends for it.
  static let kinds: [(path: String, languageId: String)] = [
    ("README.ar.md", "markdown"), ("movie.ar.srt", "srt"), ("movie.he.vtt", "vtt"),
    ("ar.lproj/Localizable.strings", "strings"), ("ar.lproj/Localizable.stringsdict", "stringsdict"),
    ("Localizable.xcstrings", "xcstrings"), ("ar.po", "po"), ("ar.xliff", "xliff"), ("app_ar.arb", "arb"),
    ("messages_ar.properties", "properties"), ("Resources.ar.resx", "resx"), ("ar.ftl", "fluent"),
    ("locales/ar.yml", "yaml"), ("locales/ar.json", "json"), ("res/values-ar/strings.xml", "xml"),
    ("_locales/ar/messages.json", "json"), ("app_ar.ts", "typescript"), ("notes.txt", "plaintext"),
  ]

  static let texts = ["", "\n", "\n\n\n", "  \n", "\r\n"]

  /// The kinds whose empty file is malformed: JSON and XML formats, WebVTT.
  static let malformedWhenEmpty: Set = [
    "movie.he.vtt", "ar.lproj/Localizable.stringsdict", "Localizable.xcstrings", "ar.xliff", "app_ar.arb",
    "Resources.ar.resx", "locales/ar.json", "res/values-ar/strings.xml", "_locales/ar/messages.json",
  ]

  /// The rule codes an empty file of `path`'s kind gets.
  static func expectedCodes(_ path: String) -> [String] {
    guard malformedWhenEmpty.contains(path) else { return [] }
    return [path.hasSuffix(".vtt") ? "bidi.subtitleSyntax" : "bidi.localizationSyntax"]
  }

  func testTheDaemonOpensEmptyDocumentsOfEveryKindAndKeepsAnswering() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    for (path, languageId) in Self.kinds {
      for (index, text) in Self.texts.enumerated() {
        let uri = "file:///empty/\(index)/\(path)"
        let label = "\(path) \(text.debugDescription)"
        let diagnostics = try session.openAndDiagnose(uri, languageId: languageId, text: text)
        XCTAssertEqual(diagnostics.compactMap(\.diagnosticCode), Self.expectedCodes(path), label)
        // Answers validated against their schemas; no paragraph is flagged.
        _ = try session.paragraphs("bidi/naturalDirection", uri: uri)
        _ = try session.paragraphs("bidi/visualOrder", uri: uri)
        let start: JSONValue = ["line": 0, "character": 0]
        let edits = try session.edits(
          ["mode": "direction", "direction": "rtl", "range": ["start": start, "end": start]], uri: uri)
        // No block, cue or value to mark (a plain line of spaces is a
        // paragraph, and gets its RLM).
        if !["plaintext", "typescript"].contains(languageId) { XCTAssertEqual(edits, [], label) }
        XCTAssertEqual(try session.text(uri), text, label)
        try session.close(uri)
      }
    }
    XCTAssertEqual(try session.shutdownAndExit(), 0)
  }

  func testCheckReadsEmptyFilesOfEveryKindAsClean() throws {
    let scratch = try HazardScratch()
    for (path, _) in Self.kinds {
      for text in Self.texts {
        try scratch.write(path, text)
        let result = try HazardCommand.run(["check", path], in: scratch.url)
        let label = "\(path) \(text.debugDescription): \(result.errorOutput)"
        let codes = Self.expectedCodes(path)
        XCTAssertEqual(result.status, codes.isEmpty ? 0 : 1, label)
        XCTAssertEqual(result.lines.map { $0.split(separator: "[").last.map { String($0.dropLast()) } }, codes, label)
      }
    }
  }
}
