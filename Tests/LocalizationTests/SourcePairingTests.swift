import Foundation
import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

/// `bidi.placeholderMismatch` (Protocol/localization.md, "Source pairing"):
/// the corpus's source-pairing cases (`Corpus/pairing/`) against a manifest
/// written by hand from the files — which value, and what differs —, the
/// comparison's rules one by one, and where a file's source is found.
final class SourcePairingTests: XCTestCase {
  enum Kind: String, Comparable {
    case missing, extra, reordered, markup
    static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
  }

  /// What a finding's message says differs.
  static func kinds(_ message: String) -> [Kind] {
    var kinds: [Kind] = []
    if message.contains("lacks the source's placeholder") { kinds.append(.missing) }
    if message.contains("which the source does not have") { kinds.append(.extra) }
    if message.contains("in another order than the source's") { kinds.append(.reordered) }
    if message.contains("markup does not balance") { kinds.append(.markup) }
    return kinds.sorted()
  }

  /// Per file of `Corpus/pairing/`, the 1-based line of each mismatching
  /// value and what differs, read off the files by hand. Files not listed
  /// (the sources, the French pair under the default `en`) have none.
  static let expected: [String: [Int: [Kind]]] = [
    // greeting: %@ %d swapped; save: <b> without </b>; count: %d dropped;
    // welcome: %@ added. bought (%2$d before %1$@) and only_here (no source) are fine.
    "pairing/apple/ar.lproj/Localizable.strings": [2: [.reordered], 4: [.markup], 5: [.missing], 6: [.extra]],
    // bold: <i></i> added; days/other: %s for %d (plural: its dropped %d not reported).
    // greeting (%2$d before %1$s), files, days/one (a form for one number) are fine.
    "pairing/android/res/values-ar/strings.xml": [5: [.markup], 9: [.extra]],
    // greeting_key's source is its en value, written after the ar one.
    "pairing/apple/Catalog.xcstrings": [19: [.missing]],
    // welcome lacks { $user }; files moves named variables; the term is the translation's.
    "pairing/fluent/ar/app.ftl": [1: [.missing]],
    // hello: {user} for {name}; pay moves named arguments; inbox's branches match.
    "pairing/flutter/intl_ar.arb": [3: [.extra, .missing]],
    // "%s of %s" → one %s; "%s sent %d" swapped; msgstr[5] %s for %d; %(user)s for %(name)s.
    // The fuzzy entry, the untranslated one and the numbered one are not reported.
    "pairing/gettext/ar.po": [13: [.missing], 29: [.reordered], 39: [.extra], 43: [.extra, .missing]],
    // greeting lacks {{count}}; <1></1> kept; list moves named ones.
    "pairing/i18next/he.json": [2: [.missing]],
    // "Open %1" lacks %1; <b> without </b>; "%1 of %2" moves numbered ones.
    "pairing/qt/app_ar.ts": [12: [.missing], 16: [.markup]],
    // greeting lacks %{name}; notice's <strong> unclosed; items moves named ones.
    "pairing/rails/config/locales/ar.yml": [2: [.missing], 5: [.markup]],
    // count lacks $2; $user$ is $USER$.
    "pairing/webextension/_locales/ar/messages.json": [6: [.missing]],
    // delete lacks %@; bold drops <g id="b">; sent swaps %@ %d; pay moves <x id=…/>; the empty target is skipped.
    "pairing/xliff/ar.xliff": [11: [.missing], 15: [.markup], 19: [.reordered]],
  ]

  func testCorpusPairingCasesEqualTheHandWrittenManifest() throws {
    let paths = try Corpus.paths().filter { $0.hasPrefix("pairing/") }
    XCTAssertEqual(paths.count, 20)
    var found: [String: [Int: [Kind]]] = [:]
    var total = 0
    for path in paths {
      let file = try Corpus.File(path)
      for finding in file.findings where finding.code == .placeholderMismatch {
        XCTAssertEqual(finding.severity, .warning)
        XCTAssertEqual(finding.fixes, [])
        found[path, default: [:]][finding.range.start.line + 1] = Self.kinds(finding.message)
        total += 1
      }
    }
    XCTAssertEqual(found, Self.expected)
    XCTAssertEqual(total, 22)
    XCTAssertEqual(Self.expected.values.map(\.count).reduce(0, +), 22)
  }

  /// The source files of the pairs are never compared (they are the
  /// source locale's); a translation paired with them is.
  func testWhereTheSourceIsFound() {
    func paths(_ path: String, _ format: LocalizationFormat, _ locale: String = "en") -> [String] {
      SourcePairing.sourcePaths(for: path, format: format, sourceLocale: locale)
    }
    XCTAssertEqual(paths("a/ar.lproj/X.strings", .strings), ["a/en.lproj/X.strings", "a/Base.lproj/X.strings"])
    XCTAssertEqual(paths("a/en.lproj/X.strings", .strings), [])
    XCTAssertEqual(paths("res/values-ar/strings.xml", .android), ["res/values/strings.xml"])
    XCTAssertEqual(paths("res/values-ar-rEG-land/strings.xml", .android), ["res/values-land/strings.xml"])
    XCTAssertEqual(paths("res/values/strings.xml", .android), [])
    XCTAssertEqual(paths("i18n/ar.json", .i18next), ["i18n/en.json"])
    XCTAssertEqual(paths("locales/he/common.json", .i18next), ["locales/en/common.json"])
    XCTAssertEqual(paths("config/locales/ar.yml", .yaml), ["config/locales/en.yml"])
    XCTAssertEqual(paths("translations/messages.fa.yaml", .yaml), ["translations/messages.en.yaml"])
    XCTAssertEqual(paths("lib/l10n/intl_ar.arb", .arb), ["lib/l10n/intl_en.arb"])
    XCTAssertEqual(paths("locales/ar/browser.ftl", .fluent), ["locales/en/browser.ftl"])
    XCTAssertEqual(paths("_locales/ar/messages.json", .webExtension), ["_locales/en/messages.json"])
    XCTAssertEqual(paths("Strings.he.resx", .resx), ["Strings.resx", "Strings.en.resx"])
    XCTAssertEqual(paths("messages_fa.properties", .properties), ["messages.properties", "messages_en.properties"])
    XCTAssertEqual(paths("fr.lproj/X.strings", .strings, "fr"), [])
    XCTAssertEqual(paths("he.lproj/X.strings", .strings, "fr"), ["fr.lproj/X.strings", "Base.lproj/X.strings"])
    XCTAssertEqual(
      paths("_locales/ar/messages.json", .webExtension, "en-US"),
      [
        "_locales/en-US/messages.json", "_locales/en_US/messages.json",
      ])
    // The formats that hold their sources pair with no other file.
    for format in [LocalizationFormat.po, .xliff, .qtLinguist, .xcstrings] {
      XCTAssertEqual(paths("ar/x.any", format), [], "\(format)")
    }
    // No locale in the path: nothing.
    XCTAssertEqual(paths("strings/messages.json", .i18next), [])
  }

  /// `--source-locale fr`: the French pair of the corpus.
  func testAnotherSourceLocale() throws {
    let path = Corpus.root.appendingPathComponent("pairing/french/he.lproj/Localizable.strings").path
    XCTAssertNil(SourcePairing.catalog(for: path, format: .strings, sourceLocale: "en"))
    let paired = try XCTUnwrap(SourcePairing.catalog(for: path, format: .strings, sourceLocale: "fr"))
    XCTAssertTrue(paired.path.hasSuffix("pairing/french/fr.lproj/Localizable.strings"))
    let file = try Corpus.File("pairing/french/he.lproj/Localizable.strings")
    let findings = documentFindings(file.text, format: .strings, sources: paired.catalog, locale: file.locale(of:))
    XCTAssertEqual(findings.map(\.code), [.placeholderMismatch])
    XCTAssertEqual(findings.map { Self.kinds($0.message) }, [[.missing]])
    XCTAssertEqual(findings.map(\.key), ["hello"])
  }

  // MARK: The comparison

  /// Tokens of a `.strings` value (printf) and of an i18next one.
  func tokens(_ text: String, _ format: LocalizationFormat = .strings) -> SourceTokens {
    SourceNormalization.tokens(ofSource: text, rules: .of(format))
  }

  func compare(_ translation: String, _ source: String, _ format: LocalizationFormat = .strings, plural: Bool = false)
    -> [Kind]
  {
    SourceComparison.mismatch(
      translation: tokens(translation, format), source: tokens(source, format), isPluralBranch: plural
    )
    .map(Self.kinds) ?? []
  }

  func testNumberedAndNamedPlaceholdersMoveFreely() {
    XCTAssertEqual(compare("%2$d ب %1$@", "%1$@ bought %2$d"), [])
    XCTAssertEqual(compare("%2$d ب %1$@", "%@ bought %d"), [], "unnumbered in the source: %@ is %1$@")
    XCTAssertEqual(compare("%@ ب %d", "%1$@ bought %2$d"), [], "unnumbered in the translation, in order")
    XCTAssertEqual(compare("{count} ب {name}", "{name} bought {count}", .arb), [])
    XCTAssertEqual(compare("{1} ب {0}", "{0} bought {1}", .arb), [])
    XCTAssertEqual(compare("{{b}} و {{a}}", "{{a}} and {{b}}", .i18next), [])
    XCTAssertEqual(compare("{name} و {name}", "{name}", .arb), [], "a named one may be repeated")
  }

  func testUnnumberedPlaceholdersKeepTheirOrder() {
    XCTAssertEqual(compare("%d ب %@", "%@ bought %d"), [.reordered])
    XCTAssertEqual(compare("%@ ب %d", "%@ bought %d"), [])
    XCTAssertEqual(compare("%s و %s", "%s and %s"), [], "the same conversion twice: no order to keep")
  }

  func testMissingAndExtraPlaceholders() {
    XCTAssertEqual(compare("حذف", "Delete %@?"), [.missing])
    XCTAssertEqual(compare("مرحبا %@", "Welcome"), [.extra])
    XCTAssertEqual(compare("%d ملف", "%@ file"), [.extra, .missing])
    XCTAssertEqual(compare("{user}", "{name}", .arb), [.extra, .missing])
    XCTAssertEqual(compare("ملف واحد", "%d files", plural: true), [], "a plural form may spell its number out")
    XCTAssertEqual(compare("%s ملف", "%d files", plural: true), [.extra])
  }

  func testSpellingsAreNormalized() {
    XCTAssertEqual(compare("%1$5.2f", "%1$f"), [])
    XCTAssertEqual(compare("%i", "%d"), [])
    XCTAssertEqual(compare("%-8s", "%s"), [])
    XCTAssertNotEqual(compare("%ld", "%d"), [], "a length modifier is the argument's type")
    XCTAssertEqual(compare("{ name , number }", "{name}", .arb), [])
    XCTAssertEqual(compare("{{- name}}", "{{name}}", .i18next), [])
    XCTAssertEqual(compare("$USER$", "$user$", .webExtension), [])
    XCTAssertEqual(compare("%<count>d", "%{count}", .yaml), [])
  }

  func testMarkupMustBalance() {
    XCTAssertEqual(compare("<b>مهم</b>", "<b>Important</b>"), [])
    XCTAssertEqual(compare("<b>مهم", "<b>Important</b>"), [.markup])
    XCTAssertEqual(compare("<b>مهم</b> <i>x</i>", "<b>Important</b> x"), [.markup])
    XCTAssertEqual(
      compare("<a href=\"/ar\">رابط</a>", "<a href=\"/en\">link</a>"), [], "attributes are the translation's")
    XCTAssertEqual(compare("سطر<br/>آخر", "one line"), [], "a line break may be added")
    XCTAssertEqual(compare("**مهم** الآن", "**Important** now"), [])
    XCTAssertEqual(compare("**مهم الآن", "**Important** now"), [.markup], "a lone ** is text: the bold is lost")
    XCTAssertEqual(compare("مهم الآن", "**Important** now"), [.markup])
    XCTAssertEqual(compare("&lt;b&gt;مهم&lt;/b&gt;", "&lt;b&gt;Important&lt;/b&gt;"), [])
  }

  func testXLIFFInlineCodesCompareByID() {
    let xliff = """
      <xliff version="1.2"><file target-language="ar"><body>
      <trans-unit id="a"><source>Pay <x id="1"/> to <x id="2"/></source><target>ادفع <x id="2"/> إلى <x id="1" ctype="x-name"/></target></trans-unit>
      <trans-unit id="b"><source>Pay <x id="1"/></source><target>ادفع <x id="3"/></target></trans-unit>
      </body></file></xliff>

      """
    let read = LocalizationReader.read(xliff, format: .xliff)
    XCTAssertNil(read.error)
    let found = read.values.flatMap { valueFindings($0, format: .xliff) }.filter { $0.code == .placeholderMismatch }
    XCTAssertEqual(found.map(\.key), ["b"])
    XCTAssertEqual(found.first.map { Self.kinds($0.message) }, [.extra, .missing])
    XCTAssertTrue(found.first?.message.contains("x#1") ?? false, found.first?.message ?? "")
  }

  /// The rule is configured like the others: off, or another severity.
  func testTheRuleIsConfigurable() throws {
    let value = try XCTUnwrap(
      LocalizationReader.read("msgid \"Delete %s?\"\nmsgstr \"حذف؟\"\n", format: .po).values.first)
    let on = FindingsEngine(format: LocalizationFormat.po, spelling: .literal).findings(in: value, locale: nil)
    XCTAssertEqual(on.map(\.code), [.placeholderMismatch])
    var rules = RuleSettings()
    rules[.placeholderMismatch] = .off
    XCTAssertEqual(
      FindingsEngine(format: LocalizationFormat.po, spelling: .literal, rules: rules).findings(in: value, locale: nil),
      [])
    rules[.placeholderMismatch] = .severity(.error)
    XCTAssertEqual(
      FindingsEngine(format: LocalizationFormat.po, spelling: .literal, rules: rules).findings(in: value, locale: nil)
        .map(\.severity), [.error])
    XCTAssertEqual(RuleCode(settingsKey: "placeholderMismatch"), .placeholderMismatch)
  }
}
