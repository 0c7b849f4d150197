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
  package static func detect(languageId: String?, path: String, lines: some LocalizationLines)
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

  /// Whether the format is read as XML.
  var isXML: Bool {
    switch self {
    case .stringsdict, .xliff, .resx, .android, .qtLinguist: true
    default: false
    }
  }
}

/// A path or `file:` URI cut into folders and a file name (percent escapes
/// decoded, `/` and `\` both separators).
struct PathComponents {
  var folders: [String] = []
  var fileName: String?

  init(_ path: String) {
    var text = Substring(path)
    let bytes = Array(text.utf8)
    if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
      bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
      bytes[..<colon].allSatisfy({ isNameByte($0) || $0 == UInt8(ascii: "+") })
    {
      text = Substring(String(decoding: bytes[(colon + 3)...], as: UTF8.self))
    }
    let decoded = Self.percentDecoded(text)
    var parts = decoded.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map(String.init)
    // The query or fragment of a URI is not part of the path.
    if let last = parts.last, let cut = last.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      parts[parts.count - 1] = String(last[..<cut])
    }
    fileName = parts.popLast()
    folders = parts
  }

  /// The lowercased extension of the file name, without the dot.
  var fileExtension: String? {
    guard let fileName, let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
    return fileName[fileName.index(after: dot)...].lowercased()
  }

  private static func percentDecoded(_ text: Substring) -> String {
    guard text.contains("%") else { return String(text) }
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
      if byte == UInt8(ascii: "%"), iterator.count >= 2,
        let high = hexValue(iterator[iterator.startIndex]),
        let low = hexValue(iterator[iterator.startIndex + 1])
      {
        bytes.append(UInt8(high << 4 | low))
        iterator = iterator.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
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
