import StructuredText
import UnicodeBidi

/// The localization formats of Protocol/localization.md.
package enum LocalizationFormat: String, CaseIterable, Sendable, Hashable {
  /// Apple `.strings`: `"key" = "value";`.
  case strings
  /// Apple `.stringsdict`: an XML property list of plural and device rules.
  case stringsdict
  /// Apple String Catalog `.xcstrings` (JSON).
  case xcstrings
  /// gettext `.po` / `.pot`.
  case po
  /// XLIFF 1.2 and 2.0 (`.xliff`, `.xlf`).
  case xliff
  /// Flutter Application Resource Bundle `.arb` (JSON).
  case arb
  /// i18next / ICU message JSON, in a folder or file named by a locale.
  case i18next
  /// Java `.properties`.
  case properties
  /// .NET `.resx` (XML).
  case resx
  /// Android `strings.xml` under `res/values*/`.
  case android
  /// Project Fluent `.ftl` (Firefox, Thunderbird).
  case fluent
  /// Qt Linguist `.ts` (XML; not TypeScript: told apart by its contents).
  case qtLinguist = "qt"
  /// WebExtension `_locales/LOCALE/messages.json`.
  case webExtension = "webextension"
  /// Rails and Symfony YAML (`config/locales/ar.yml`, `translations/messages.fa.yaml`).
  case yaml

  /// The format of a document from its LSP `languageId` or, failing that,
  /// its path (a file path or a `file:` URI), by the table of the
  /// coordination decisions: a localization languageId wins; any other
  /// languageId (`json`, `xml`, `plaintext`, empty, unknown) defers to the
  /// path's extension, and a `.json` file counts only when its name or one
  /// of its folders is a locale tag, an `.xml` file only under a folder
  /// `values` or `values-*`. Nil for a document that is not a localization file.
  package static func detect(languageId: String?, path: String) -> LocalizationFormat? {
    switch languageId?.lowercased() ?? "" {
    case "strings": return .strings
    case "stringsdict": return .stringsdict
    case "xcstrings": return .xcstrings
    case "po", "pot", "gettext": return .po
    case "xliff": return .xliff
    case "arb": return .arb
    case "properties", "jproperties", "java-properties": return .properties
    case "resx": return .resx
    case "fluent", "ftl": return .fluent
    case "qt-linguist", "linguist": return .qtLinguist
    default: break
    }
    let components = PathComponents(path)
    guard let name = components.fileName else { return nil }
    switch components.fileExtension {
    case "strings": return .strings
    case "stringsdict": return .stringsdict
    case "xcstrings": return .xcstrings
    case "po", "pot": return .po
    case "xliff", "xlf": return .xliff
    case "arb": return .arb
    case "properties": return .properties
    case "resx": return .resx
    case "ftl": return .fluent
    case "yml", "yaml":
      let named = LocaleTag.fromFileName(name) != nil
      let folders: Set<String> = ["locales", "locale", "translations", "i18n", "l10n", "lang"]
      return named || components.folders.contains(where: folders.contains) ? .yaml : nil
    case "json":
      if name == "messages.json", components.folders.dropLast().last == "_locales" { return .webExtension }
      let stem = String(name.dropLast(5))
      if LocaleTag(stem) != nil { return .i18next }
      return components.folders.contains { LocaleTag($0) != nil } ? .i18next : nil
    case "xml":
      guard let folder = components.folders.last else { return nil }
      return folder == "values" || folder.hasPrefix("values-") ? .android : nil
    default:
      return nil
    }
  }

  /// The format of a document from its languageId, its path and its first
  /// bytes (a kilobyte is enough): as `detect(languageId:path:)`, and a
  /// `.ts` file, which is TypeScript as often as Qt Linguist, is Qt Linguist
  /// when its contents begin as one (`<?xml …?>`, comments, then
  /// `<!DOCTYPE TS>` or `<TS`), whatever its languageId says.
  package static func detect(languageId: String?, path: String, contents: some Sequence<UInt8>)
    -> LocalizationFormat?
  {
    if let format = detect(languageId: languageId, path: path) { return format }
    guard needsContents(path: path), startsAsQtLinguist(Array(contents.prefix(4096))) else { return nil }
    return .qtLinguist
  }

  /// As `detect(languageId:path:contents:)` over a document's lines (the
  /// first ones read only for a `.ts` file): the daemon's didOpen.
  package static func detect(languageId: String?, path: String, lines: some DocumentLines)
    -> LocalizationFormat?
  {
    if let format = detect(languageId: languageId, path: path) { return format }
    guard needsContents(path: path) else { return nil }
    var bytes: [UInt8] = []
    var line = 0
    while line < lines.lineCount, bytes.count < 4096 {
      lines.withUTF8(ofLine: line) { bytes += $0 }
      bytes.append(0x0A)
      line += 1
    }
    return startsAsQtLinguist(bytes) ? .qtLinguist : nil
  }

  /// Whether telling the format of the file at `path` needs its contents
  /// (`detect(languageId:path:contents:)`): a `.ts` file.
  package static func needsContents(path: String) -> Bool {
    PathComponents(path).fileExtension == "ts"
  }

  /// Whether the bytes begin as a Qt Linguist file: a BOM, white space, an
  /// XML declaration and comments, then `<!DOCTYPE TS` or a `<TS` element.
  static func startsAsQtLinguist(_ bytes: [UInt8]) -> Bool {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    func matches(_ text: String, at offset: Int) -> Bool {
      bytes.count >= offset + text.utf8.count && bytes[offset..<offset + text.utf8.count].elementsEqual(text.utf8)
    }
    func skip(past end: String) -> Bool {
      while index < bytes.count {
        if matches(end, at: index) {
          index += end.utf8.count
          return true
        }
        index += 1
      }
      return false
    }
    func endsName(_ offset: Int) -> Bool {
      offset < bytes.count
        && [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "[")]
          .contains(bytes[offset])
    }
    while index < bytes.count {
      if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
        index += 1
      } else if matches("<?", at: index) {
        guard skip(past: "?>") else { return false }
      } else if matches("<!--", at: index) {
        guard skip(past: "-->") else { return false }
      } else if matches("<!DOCTYPE", at: index) {
        index += 9
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return matches("TS", at: index) && endsName(index + 2)
      } else {
        return matches("<TS", at: index) && endsName(index + 3)
      }
    }
    return false
  }

  /// Whether marks are always written as the characters themselves: gettext
  /// has no escape for them, a Fluent pattern's text none at all, and YAML
  /// reads escapes only in double-quoted scalars (a plain, single-quoted or
  /// block scalar would read `\u200F` as text).
  package var writesMarksAsCharacters: Bool {
    self == .po || self == .fluent || self == .yaml
  }
}

/// The value of an ASCII hex digit, or nil.
@inline(__always)
func hexValue(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
  default: nil
  }
}

extension LocalizationFormat: StructuredFormat {
  package var name: String { rawValue }

  /// The format's name in messages.
  package var displayName: String {
    switch self {
    case .strings: "an Apple .strings file"
    case .stringsdict: "an Apple .stringsdict property list"
    case .xcstrings: "an Apple String Catalog"
    case .po: "a gettext PO file"
    case .xliff: "XLIFF"
    case .arb: "a Flutter ARB file"
    case .i18next: "i18next JSON"
    case .properties: "a Java .properties file"
    case .resx: "a .NET .resx file"
    case .android: "Android string resources"
    case .fluent: "a Fluent .ftl file"
    case .qtLinguist: "a Qt Linguist .ts file"
    case .webExtension: "a WebExtension messages.json"
    case .yaml: "YAML"
    }
  }

  package var entryNoun: String { "value" }
  package var entriesHaveKeys: Bool { true }
  package var syntaxCode: RuleCode { .localizationSyntax }
  package var unpairedLeak: String? { "into the text the application puts after it" }
  /// An `.arb` file is read whole: the metadata that types a value's
  /// placeholders comes after the value.
  package var readsWhole: Bool { self == .arb }
  package var paragraphRules: [ParagraphRule] { LocalizationRules.all }

  package func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    reader.read(&cursor, &state, &sink)
  }

  /// ARB metadata types make placeholders numeric; a String Catalog's
  /// source-language values are its translations' sources.
  package func applyFacts(_ facts: [DocumentFact], to entries: inout [TextEntry]) {
    if self == .xcstrings { SourceFacts.apply(facts, to: &entries) }
    let types = ArgumentTypes(facts)
    guard !types.isEmpty else { return }
    for index in entries.indices { entries[index] = types.apply(to: entries[index]) }
  }

  /// The character itself in a UTF-8 file; the file's own escape where it
  /// already writes bidi controls as escapes; a `.properties` file with no
  /// character beyond ASCII written as itself gets `\u200F` escapes (Java
  /// before 9 reads the file as Latin-1); `.po`, Fluent and YAML always the
  /// character (`writesMarksAsCharacters`).
  package func spelling(_ votes: SpellingVotes) -> MarkSpelling {
    if writesMarksAsCharacters { return .literal }
    if let best = votes.mostFrequentEscape { return best }
    if self == .properties && votes.nonASCIILiterals == 0 { return .backslashLowerU(uppercaseHex: true) }
    return .literal
  }

  /// Placeholders by normalized spelling, markup by tag
  /// (`SourceNormalization`).
  package func sourceTokens(of entry: TextEntry) -> SourceTokens { SourceNormalization.tokens(of: entry) }

  var reader: any FormatReader.Type {
    switch self {
    case .strings: StringsReader.self
    case .po: POReader.self
    case .properties: PropertiesReader.self
    case .arb: ARBReader.self
    case .i18next: I18nextReader.self
    case .xcstrings: XCStringsReader.self
    case .stringsdict: StringsDictReader.self
    case .xliff: XLIFFReader.self
    case .resx: ResXReader.self
    case .android: AndroidReader.self
    case .fluent: FluentReader.self
    case .qtLinguist: QtLinguistReader.self
    case .webExtension: WebExtensionReader.self
    case .yaml: YAMLReader.self
    }
  }
}

extension AtomKind {
  /// `%@`, `%1$d`, `%.2f`, `%lld`, `%#@name@` (a String Catalog or
  /// `.stringsdict` substitution), `%arg`.
  static let printf = AtomKind("printf")
  /// Python `%(name)s`.
  static let pythonPercent = AtomKind("pythonPercent")
  /// `{name}`, `{0}`, `{0, number}`: an ICU MessageFormat simple argument;
  /// also Python `{name}` and .NET `{0:N2}`.
  static let braces = AtomKind("braces")
  /// An ICU `{n, plural|select|selectordinal, …}` as a whole; its branches
  /// are entries of their own.
  static let icuComplex = AtomKind("icuComplex")
  /// `#` in a plural branch.
  static let pound = AtomKind("pound")
  /// i18next `{{name}}`, `{{- name}}`, `{{name, number}}`.
  static let doubleBraces = AtomKind("doubleBraces")
  /// i18next nesting `$t(key)`.
  static let nesting = AtomKind("nesting")
  /// An XLIFF inline code (`<x/>`, `<ph>…</ph>`, `<bpt>`…) written as XML.
  static let inlineElement = AtomKind("inlineElement")
  /// A Fluent placeable `{ $name }`, `{ -brand }`, `{ NUMBER($n) }`, a
  /// select expression as a whole.
  static let fluent = AtomKind("fluent")
  /// Qt's `%1`, `%L1`, `%n`.
  static let qt = AtomKind("qt")
  /// WebExtension `$NAME$` and `$1`.
  static let webExtension = AtomKind("webExtension")
  /// Rails `%{name}`, `%<name>d`.
  static let ruby = AtomKind("ruby")
  /// Symfony `%name%`.
  static let symfony = AtomKind("symfony")
}
