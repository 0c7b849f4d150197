import BidiTestSupport
import Foundation
import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

/// The corpus against its manifest: every file listed, every value and
/// every finding of each file, in order, nothing missing and nothing extra.
final class LocalizationCorpusTests: XCTestCase {
  func testManifestListsEveryFileValueAndFinding() throws {
    let paths = try Corpus.paths()
    let manifest = try Corpus.manifest()
    XCTAssertEqual(manifest.map(\.path), paths, "the manifest lists the corpus files, in order")
    var actualLines: [String] = []
    for entry in manifest where paths.contains(entry.path) {
      let file = try Corpus.File(entry.path)
      let actual = file.manifestLines
      actualLines += actual
      XCTAssertEqual(
        actual.filter { $0.hasPrefix("value\t") }.count, entry.lines.filter { $0.hasPrefix("value\t") }.count,
        "\(entry.path): value count")
      XCTAssertEqual(
        actual.filter { $0.hasPrefix("finding\t") }.count, entry.lines.filter { $0.hasPrefix("finding\t") }.count,
        "\(entry.path): finding count")
      for (index, line) in entry.lines.enumerated() where index < actual.count && actual[index] != line {
        XCTFail("\(entry.path): expected\n  \(line)\nfound\n  \(actual[index])")
      }
      for line in entry.lines.dropFirst(actual.count) { XCTFail("\(entry.path): missing \(line)") }
      for line in actual.dropFirst(entry.lines.count) { XCTFail("\(entry.path): not in the manifest: \(line)") }
    }
    if let dump = ProcessInfo.processInfo.environment["BIDI_L10N_MANIFEST_OUT"] {
      try (actualLines.joined(separator: "\n") + "\n").write(toFile: dump, atomically: true, encoding: .utf8)
    }
  }

  /// The totals, per format: files, values, findings (the report quotes them).
  func testCorpusCountsPerFormat() throws {
    var files: [LocalizationFormat: Int] = [:]
    var values: [LocalizationFormat: Int] = [:]
    var findings: [LocalizationFormat: Int] = [:]
    var codes: Set<RuleCode> = []
    for path in try Corpus.paths() {
      let file = try Corpus.File(path)
      files[file.format, default: 0] += 1
      values[file.format, default: 0] += file.read.values.count
      findings[file.format, default: 0] += file.findings.count
      codes.formUnion(file.findings.map(\.code))
    }
    XCTAssertEqual(Set(files.keys), Set(LocalizationFormat.allCases), "every format has corpus files")
    // Every code a localization document reports (contract §7) appears.
    XCTAssertEqual(
      codes,
      [
        .placeholderDirection, .valueDirection, .placeholderMismatch, .localizationSyntax, .unpaired, .unmatched,
        .override, .inIdentifier,
      ])
    let table = LocalizationFormat.allCases.map {
      "\($0.rawValue): \(files[$0] ?? 0) files, \(values[$0] ?? 0) values, \(findings[$0] ?? 0) findings"
    }
    print("corpus:\n  " + table.joined(separator: "\n  "))
    XCTAssertEqual(files.values.reduce(0, +), try Corpus.manifest().count)
  }

  /// Marks are written as each file writes its bidi controls (Protocol/localization.md, "Writing marks").
  func testMarksAreWrittenInEachFilesStyle() throws {
    let expected: [String: String] = [
      "apple/ar.lproj/Localizable.strings": "\\U200F",
      "apple/he.lproj/Localizable.strings": "\\U200F",
      "apple/fa.lproj/Localizable.strings": "\\u200f",
      "apple/ar.lproj/Localizable.stringsdict": "&#x200F;",
      "apple/Localizable.xcstrings": "\\u200f",
      "gettext/fa.po": "\u{200F}",
      "gettext/ar/LC_MESSAGES/app.po": "\u{200F}",
      "xliff/ar.xliff": "&#x200F;",
      "xliff/he.xlf": "&#x200F;",
      "flutter/intl_ar.arb": "\\u200F",
      "i18next/locales/he/translation.json": "\\u200f",
      "i18next/locales/ur/common.json": "\u{200F}",
      "java/messages_fa.properties": "\\u200F",
      "dotnet/Strings.he.resx": "&#x200F;",
      "android/res/values-ar/strings.xml": "\\u200F",
      "android/res/values-iw/strings.xml": "&#x200F;",
      "android/res/values-fa/strings.xml": "\u{200F}",
      "fluent/ar/browser/browser.ftl": "\u{200F}",
      "qt/translations/notes_ar.ts": "\u{200F}",
      "rails/config/locales/ar.yml": "\u{200F}",
      "webextension/_locales/fa/messages.json": "\u{200F}",
    ]
    for (path, rlm) in expected {
      let file = try Corpus.File(path)
      let fix = file.findings.first { $0.code == .placeholderDirection || $0.code == .valueDirection }?.fixes.first
      XCTAssertEqual(fix?.edits.map(\.newText), [rlm], path)
    }
    // Inside CDATA no entity is read: the character itself.
    let xliff = try Corpus.File("xliff/ar.xliff")
    let cdata = try XCTUnwrap(xliff.read.values.first { $0.key == "cdata" })
    let edits = EntryPlanner(cdata, spelling: xliff.spelling).placeholderEdits(style: .isolate)
    XCTAssertEqual(edits.map(\.newText), ["\u{2068}", "&#x2069;"])
  }
}
