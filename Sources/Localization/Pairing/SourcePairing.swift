import StructuredText
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file of the tree holds a translation file's source
/// (Protocol/localization.md, "Source pairing"): the file of the source
/// locale beside it, the locale's place in the path replaced —
/// `ar.lproj/X.strings` → `en.lproj/X.strings` (then `Base.lproj`),
/// `values-ar/strings.xml` → `values/strings.xml`, `ar.json` → `en.json`,
/// `locales/ar/x.json` → `locales/en/x.json`, `ar.yml` → `en.yml`,
/// `messages.fa.yaml` → `messages.en.yaml`, `intl_ar.arb` → `intl_en.arb`,
/// `ar/x.ftl` → `en/x.ftl`, `_locales/ar/messages.json` →
/// `_locales/en/messages.json`, `Strings.he.resx` → `Strings.resx`,
/// `messages_fa.properties` → `messages.properties`. Formats whose files
/// hold their sources (`.po`, XLIFF, Qt `.ts`, `.xcstrings`) pair nothing.
/// The daemon and `check` both pair with `catalog(for:format:sourceLocale:)`.
package enum SourcePairing {
  /// The default source locale (`check --source-locale`).
  package static let defaultSourceLocale = "en"
  /// A source file larger than this is not read (the comparison is skipped).
  package static let maximumSourceBytes = 64 << 20

  /// The paths that may hold the source of the file at `path` (a file
  /// path), most likely first; empty when the format holds its sources,
  /// when the path names no locale, or when it is the source locale's.
  package static func sourcePaths(for path: String, format: LocalizationFormat, sourceLocale: String)
    -> [String]
  {
    switch format {
    case .po, .xliff, .qtLinguist, .xcstrings: return []
    default: break
    }
    guard let source = LocaleTag(sourceLocale) else { return [] }
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard let name = parts.popLast(), !name.isEmpty else { return [] }
    let spellings = Self.spellings(of: sourceLocale)
    var candidates: [String] = []
    func joined(_ folders: [String], _ file: String) -> String { (folders + [file]).joined(separator: "/") }
    if let (stem, locale, separator, ext) = fileNameLocale(name) {
      if isSource(locale, source) { return [] }
      if format == .resx || format == .properties { candidates.append(joined(parts, stem + ext)) }
      for spelling in spellings { candidates.append(joined(parts, stem + separator + spelling + ext)) }
    } else {
      for index in parts.indices.reversed() {
        let folder = parts[index]
        guard let locale = LocaleTag.fromFolder(folder) else { continue }
        if isSource(locale, source) { return [] }
        var replacements: [String]
        if folder.hasSuffix(".lproj") {
          replacements = spellings.map { $0 + ".lproj" } + ["Base.lproj"]
        } else if folder.hasPrefix("values-") {
          // Android: the default resources; any other qualifier kept.
          let qualifiers = folder.dropFirst(7).split(separator: "-")
          let rest = qualifiers.dropFirst(qualifiers.count > 1 && qualifiers[1].first == "r" ? 2 : 1)
          replacements = [(["values"] + rest.map(String.init)).joined(separator: "-")]
        } else {
          replacements = spellings
        }
        for replacement in replacements {
          var folders = parts
          folders[index] = replacement
          candidates.append(joined(folders, name))
        }
        break
      }
    }
    var seen: Set<String> = [path]
    return candidates.filter { seen.insert($0).inserted }
  }

  /// The catalog of the source of the file at `path` (a file path or a
  /// `file:` URI): the first of `sourcePaths` that `open` gives a catalog
  /// of (the daemon's open document) or that can be read from disk, read
  /// by `format`; nil when there is none.
  package static func catalog(
    for path: String, format: LocalizationFormat, sourceLocale: String,
    open: (String) -> SourceCatalog? = { _ in nil }
  ) -> (path: String, catalog: SourceCatalog)? {
    guard let filePath = filePath(path) else { return nil }
    for candidate in sourcePaths(for: filePath, format: format, sourceLocale: sourceLocale) {
      if let catalog = open(candidate) { return (candidate, catalog) }
      guard let bytes = readFile(candidate) else { continue }
      return (candidate, SourceCatalog(DecodedFile(bytes).text, format: format))
    }
    return nil
  }

  /// The file path of a path or `file:` URI (percent-decoded); nil for
  /// another scheme (an unsaved buffer).
  package static func filePath(_ path: String) -> String? {
    if path.hasPrefix("file://") { return PathComponents.filePath(ofURI: path) }
    if path.contains("://") || path.hasPrefix("untitled:") { return nil }
    return path
  }

  /// A regular file's bytes, or nil (missing, unreadable, larger than
  /// `maximumSourceBytes`).
  package static func readFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maximumSourceBytes
    else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count <= maximumSourceBytes {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 { return nil }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
    return nil
  }

  // MARK: Locales in paths

  /// Whether a path's locale is the source locale's (its language and, if
  /// the source locale names one, its region).
  private static func isSource(_ locale: LocaleTag, _ source: LocaleTag) -> Bool {
    locale.language == source.language && (source.region == nil || locale.region == source.region)
  }

  /// A tag as paths write it: as given, and with `-` and `_` swapped.
  private static func spellings(of tag: String) -> [String] {
    var result = [tag]
    if tag.contains("-") { result.append(tag.replacingAll("-", with: "_")) }
    if tag.contains("_") { result.append(tag.replacingAll("_", with: "-")) }
    return result
  }

  /// A file name's locale: the stem before the locale's separator (empty
  /// when the stem is the locale), the locale, the separator and the
  /// extension with its dot; nil when it names none (as
  /// `LocaleTag.fromFileName` reads it).
  private static func fileNameLocale(_ name: String) -> (String, LocaleTag, String, String)? {
    var stem = Substring(name)
    var ext = ""
    if let dot = stem.lastIndex(of: ".") {
      ext = String(stem[dot...])
      stem = stem[..<dot]
    }
    if let whole = LocaleTag(stem) { return ("", whole, "", ext) }
    let characters = Array(stem)
    for (index, character) in characters.enumerated() where character == "." || character == "_" || character == "-" {
      let suffix = String(characters[(index + 1)...])
      if suffix.count <= 11, let found = LocaleTag(suffix) {
        return (String(characters[..<index]), found, String(character), ext)
      }
    }
    return nil
  }
}
