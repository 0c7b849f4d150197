import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// `bidi.placeholderMismatch` through the built binary: `check` pairs the
/// files of a tree with `--source-locale` (default `en`) or not at all
/// (`--no-source`), and the daemon pairs an open document with the source
/// file on disk or open beside it, with the same findings.
final class SourcePairingCheckTests: XCTestCase {
  static let corpus = CheckLocalizationTests.corpus

  func check(_ arguments: [String], in directory: URL = corpus) throws -> HazardCommand.Result {
    try HazardCommand.run(["check"] + arguments, in: directory)
  }

  func mismatches(_ result: HazardCommand.Result) -> [String] {
    result.lines.filter { $0.hasSuffix("[bidi.placeholderMismatch]") }.map {
      String($0.split(separator: ":", maxSplits: 3)[0...2].joined(separator: ":"))
    }
  }

  /// The corpus's pairing cases: 22 (the manifest's, SourcePairingTests);
  /// none with `--no-source` but the ones the files hold their sources for
  /// (XLIFF, .po, Qt, String Catalog: 10).
  func testCheckPairsTheTreeAndNoSourceTurnsItOff() throws {
    let paired = try check(["pairing"])
    XCTAssertEqual(paired.status, 1)
    XCTAssertEqual(paired.errorOutput, "")
    XCTAssertEqual(mismatches(paired).count, 22)
    let alone = try check(["--no-source", "pairing"])
    XCTAssertEqual(alone.status, 1)
    XCTAssertEqual(
      Set(mismatches(alone).map { String($0.split(separator: ":")[0]) }),
      [
        "pairing/apple/Catalog.xcstrings", "pairing/gettext/ar.po", "pairing/qt/app_ar.ts", "pairing/xliff/ar.xliff",
      ])
    XCTAssertEqual(mismatches(alone).count, 10)
  }

  /// `--source-locale fr`: the Hebrew file pairs with the French one; with
  /// the default `en` it has no source and passes.
  func testSourceLocaleAndTheExitStatus() throws {
    let french = try check(["--source-locale", "fr", "pairing/french"])
    XCTAssertEqual(french.status, 1)
    XCTAssertEqual(mismatches(french), ["pairing/french/he.lproj/Localizable.strings:1:12"])
    let english = try check(["pairing/french"])
    XCTAssertEqual(english.status, 0, english.text)
    XCTAssertEqual(try check(["--source-locale=fr", "pairing/french"]).status, 1)
    let bad = try check(["--source-locale", "xx-not-a-tag", "pairing/french"])
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(bad.errorOutput.contains("unknown source locale"), bad.errorOutput)
  }

  /// A fixed translation passes: the exit status a CI step reads.
  func testAFixedTranslationPasses() throws {
    let scratch = try HazardScratch()
    try scratch.write("en.lproj/Localizable.strings", "\"sent\" = \"%@ sent %d files\";\n")
    try scratch.write("ar.lproj/Localizable.strings", "\"sent\" = \"أرسل %d ملفات %@\";\n")
    let failing = try check(["."], in: scratch.url)
    XCTAssertEqual(failing.status, 1)
    XCTAssertEqual(mismatches(failing), ["./ar.lproj/Localizable.strings:1:11"])
    try scratch.write("ar.lproj/Localizable.strings", "\"sent\" = \"أرسل %2$d ملفات %1$@\";\n")
    let passing = try check(["."], in: scratch.url)
    XCTAssertEqual(passing.status, 0, passing.text)
  }

  /// The daemon: a translation opened alone pairs with the source file on
  /// disk; a source open in the daemon is used as it is edited.
  func testTheDaemonPairsFromDiskAndFromOpenDocuments() throws {
    let scratch = try HazardScratch()
    let source = try scratch.write(
      "res/values/strings.xml", "<resources>\n<string name=\"a\">Hello %1$s</string>\n</resources>\n")
    let translation = "<resources>\n<string name=\"a\">مرحبا</string>\n</resources>\n"
    let target = try scratch.write("res/values-ar/strings.xml", translation)
    let session = try TestSession(.bidiLSP, encoding: .utf8, ignoring: ["$/progress"])
    let uri = target.absoluteURL.absoluteString
    func codes() throws -> [String] {
      try session.diagnostics(uri, version: session.version(uri)).map(\.diagnosticCode)
    }
    try session.open(uri, languageId: "xml", text: translation)
    XCTAssertEqual(try codes(), ["bidi.placeholderMismatch"], "paired with res/values on disk")
    // The source opened and edited to drop its placeholder: the open text wins.
    let sourceURI = source.absoluteURL.absoluteString
    try session.open(
      sourceURI, languageId: "xml", text: "<resources>\n<string name=\"a\">Hello %1$s</string>\n</resources>\n")
    try session.replaceText(sourceURI, with: "<resources>\n<string name=\"a\">Hello</string>\n</resources>\n")
    try session.replaceText(uri, with: translation)
    XCTAssertEqual(try codes(), [], "paired with the open source, as edited")
    // An unsaved document has no path: no pairing, no error.
    try session.open("untitled:Untitled-1", languageId: "xml", text: translation)
    try session.close("untitled:Untitled-1")
    _ = try session.shutdownAndExit()
  }

  /// The daemon and `check` agree on the pairing cases (as on the whole
  /// corpus, DaemonCheckAgreementTests).
  func testTheDaemonAgreesWithCheckOnThePairingCases() throws {
    let result = try check(["pairing"])
    let session = try TestSession(.bidiLSP, encoding: .utf8, ignoring: ["$/progress"])
    var total = 0
    for path in try CheckLocalizationTests.manifest().keys.sorted() where path.hasPrefix("pairing/") {
      let url = Self.corpus.appendingPathComponent(path)
      let text = try String(contentsOf: url, encoding: .utf8)
      let uri = url.absoluteURL.absoluteString
      try session.open(uri, languageId: "", text: text)
      let daemon = try session.diagnostics(uri, version: session.version(uri)).filter {
        $0.diagnosticCode == "bidi.placeholderMismatch"
      }.map {
        "\(path):\(($0["range"]?["start"]?["line"]?.intValue ?? -1) + 1):\(($0["range"]?["start"]?["character"]?.intValue ?? -1) + 1)"
      }
      try session.close(uri)
      XCTAssertEqual(daemon, mismatches(result).filter { $0.hasPrefix(path + ":") }, path)
      total += daemon.count
    }
    XCTAssertEqual(total, 22)
    _ = try session.shutdownAndExit()
  }

  /// The mismatches of the next publish for `uri`, as `check` prints their
  /// place (`path:line:column`, `path` relative to the corpus or scratch).
  func publishedMismatches(_ session: TestSession, _ uri: String, as path: String) throws -> [String] {
    try session.publish(uri)["diagnostics"]?.arrayValue?.filter {
      $0.diagnosticCode == "bidi.placeholderMismatch"
    }.map {
      "\(path):\(($0["range"]?["start"]?["line"]?.intValue ?? -1) + 1):\(($0["range"]?["start"]?["character"]?.intValue ?? -1) + 1)"
    } ?? []
  }

  /// The `sourceLocale` setting: `"fr"` pairs the Hebrew file with the
  /// French one, as `check --source-locale fr` does (the same place);
  /// changing it pairs the open translations again and republishes them;
  /// `""` pairs none; a value that is no locale tag changes nothing.
  func testTheSourceLocaleSettingPairsAsCheckDoes() throws {
    let path = "pairing/french/he.lproj/Localizable.strings"
    let expected = mismatches(try check(["--source-locale", "fr", "pairing/french"]))
    XCTAssertEqual(expected, [path + ":1:12"])
    XCTAssertEqual(mismatches(try check(["pairing/french"])), [])
    let url = Self.corpus.appendingPathComponent(path)
    let uri = url.absoluteURL.absoluteString
    let text = try String(contentsOf: url, encoding: .utf8)
    let session = try TestSession(
      .bidiLSP, encoding: .utf8, initializationOptions: ["bidi": ["sourceLocale": "fr"]], ignoring: ["$/progress"])
    try session.open(uri, languageId: "", text: text)
    XCTAssertEqual(try publishedMismatches(session, uri, as: path), expected, "initializationOptions fr")
    func configure(_ value: JSONValue) throws {
      try session.notify("workspace/didChangeConfiguration", ["settings": ["bidi": ["sourceLocale": value]]])
    }
    try configure("en")
    XCTAssertEqual(try publishedMismatches(session, uri, as: path), [], "en: no he/fr pairing")
    try configure("fr")
    XCTAssertEqual(try publishedMismatches(session, uri, as: path), expected, "fr again")
    try configure("")
    XCTAssertEqual(try publishedMismatches(session, uri, as: path), [], "\"\": in-file sources only")
    try configure("fr-FR")
    XCTAssertEqual(try publishedMismatches(session, uri, as: path), [], "fr-FR: the file is fr, no region")
    try configure("fr")
    XCTAssertEqual(try publishedMismatches(session, uri, as: path), expected)
    // Not a locale tag: ignored with a warning, the pairing kept.
    try configure("not a tag!")
    let warning = try session.client.reader.next(timeout: TestSession.timeout, what: "a warning") {
      $0["method"] == "window/logMessage"
    }
    XCTAssertTrue(warning["params"]?["message"]?.stringValue?.contains("sourceLocale") == true, "\(warning)")
    XCTAssertFalse(try session.hasPendingPublish(uri))
    _ = try session.shutdownAndExit()
  }

  /// An Arabic translation pairs with the French file under `sourceLocale`
  /// `"fr"` (and with the English one under the default), in each layout.
  func testTheDaemonPairsArabicWithFrenchFiles() throws {
    let scratch = try HazardScratch()
    try scratch.write("en.lproj/Localizable.strings", "\"a\" = \"Hello\";\n")
    try scratch.write("fr.lproj/Localizable.strings", "\"a\" = \"Bonjour %@\";\n")
    let strings = try scratch.write("ar.lproj/Localizable.strings", "\"a\" = \"مرحبا\";\n")
    try scratch.write("locales/en.json", "{\"a\": \"Hello\"}\n")
    try scratch.write("locales/fr.json", "{\"a\": \"Bonjour {{name}}\"}\n")
    let json = try scratch.write("locales/ar.json", "{\"a\": \"مرحبا\"}\n")
    // The English files are translations of the French ones too (and the
    // French ones of the English ones under `en`): only the Arabic ones count.
    func arabic(_ result: HazardCommand.Result) -> [String] { mismatches(result).filter { $0.contains("/ar.") } }
    let french = try check(["--source-locale", "fr", "."], in: scratch.url)
    XCTAssertEqual(arabic(french), ["./ar.lproj/Localizable.strings:1:8", "./locales/ar.json:1:8"], french.text)
    XCTAssertEqual(arabic(try check(["."], in: scratch.url)), [])
    for (settings, want) in [(["sourceLocale": "fr"] as JSONValue, arabic(french)), ([:], [])] {
      let session = try TestSession(
        .bidiLSP, encoding: .utf8, initializationOptions: ["bidi": settings], ignoring: ["$/progress"])
      var found: [String] = []
      for (url, name) in [(strings, "./ar.lproj/Localizable.strings"), (json, "./locales/ar.json")] {
        let uri = url.absoluteURL.absoluteString
        try session.open(uri, languageId: "", text: try String(contentsOf: url, encoding: .utf8))
        found += try publishedMismatches(session, uri, as: name)
      }
      XCTAssertEqual(found.sorted(), want, "\(settings)")
      _ = try session.shutdownAndExit()
    }
  }

  /// Only the source changes: the open translation is published again,
  /// its mismatch appearing and disappearing with the source's placeholder.
  func testAnEditOfTheSourceRepublishesTheTranslation() throws {
    let scratch = try HazardScratch()
    let plain = "\"sent\" = \"Sent\";\n"
    let withPlaceholder = "\"sent\" = \"Sent %d files\";\n"
    let source = try scratch.write("en.lproj/Localizable.strings", plain)
    let translationText = "\"sent\" = \"أرسل\";\n"
    let translation = try scratch.write("ar.lproj/Localizable.strings", translationText)
    let session = try TestSession(.bidiLSP, encoding: .utf8, ignoring: ["$/progress"])
    let uri = translation.absoluteURL.absoluteString
    let sourceURI = source.absoluteURL.absoluteString
    let name = "ar.lproj/Localizable.strings"
    try session.open(uri, languageId: "", text: translationText)
    XCTAssertEqual(try publishedMismatches(session, uri, as: name), [])
    try session.open(sourceURI, languageId: "", text: plain)
    XCTAssertEqual(try publishedMismatches(session, uri, as: name), [], "the source opened")
    try session.replaceText(sourceURI, with: withPlaceholder)
    XCTAssertEqual(try publishedMismatches(session, uri, as: name), [name + ":1:11"], "a placeholder added")
    try session.replaceText(sourceURI, with: plain)
    XCTAssertEqual(try publishedMismatches(session, uri, as: name), [], "the placeholder removed")
    // An edit inside the source's line, not the whole text.
    try session.change(
      sourceURI,
      [["range": ["start": ["line": 0, "character": 14], "end": ["line": 0, "character": 14]], "text": " %@"]])
    XCTAssertEqual(try publishedMismatches(session, uri, as: name), [name + ":1:11"], "an incremental edit")
    // The translation's own version did not move.
    XCTAssertEqual(session.version(uri), 1)
    _ = try session.shutdownAndExit()
  }
}
