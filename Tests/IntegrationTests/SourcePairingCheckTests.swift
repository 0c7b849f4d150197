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
}
