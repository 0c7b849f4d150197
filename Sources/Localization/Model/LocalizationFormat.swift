/// The ten localization formats of Protocol/localization.md.
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
    case "json":
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
