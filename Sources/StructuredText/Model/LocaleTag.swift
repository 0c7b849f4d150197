/// A locale tag as files and paths name it (`ar`, `he-IL`, `fa_IR`,
/// `zh-Hant`, `sr-Latn-RS`, Android's `b+ar+EG` and `ar-rEG`), cut into its
/// language, script and region subtags.
package struct LocaleTag: Hashable, Sendable, CustomStringConvertible {
  /// The language subtag, lowercased (`iw` read as `he`, `ji` as `yi`, `in` as `id`).
  package var language: String
  /// The script subtag in title case (`Arab`), when given.
  package var script: String?
  /// The region subtag, uppercased, when given.
  package var region: String?

  /// Parses a tag; nil when the text is not one. The language must be a
  /// known ISO 639 code of two or three letters (so `values`, `main`, `src`
  /// and `common` are not locales), subtags are separated by `-`, `_` or
  /// (Android) `+`, and Android's `r` before a region is accepted.
  package init?(_ text: some StringProtocol) {
    self.init(text, naming: .localization)
  }

  /// Parses a tag as `naming` reads them: with `readsISO6392`, the
  /// three-letter codes of ISO 639-2 (`heb`, `ara`, `per`) name the
  /// language of their ISO 639-1 code.
  package init?(_ text: some StringProtocol, naming: PathNaming) {
    var parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "+" }).map { String($0) }
    if parts.first == "b" { parts.removeFirst() }  // Android BCP 47 form: b+sr+Latn
    guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isASCIILetter) else {
      return nil
    }
    var language = first.lowercased()
    if naming.readsISO6392, let two = PathNaming.iso6392[language] { language = two }
    switch language {
    case "iw": language = "he"
    case "ji": language = "yi"
    case "in": language = "id"
    default: break
    }
    guard LocaleTag.knownLanguages.contains(language) else { return nil }
    self.language = language
    for part in parts.dropFirst() {
      if part.count == 4, part.allSatisfy(\.isASCIILetter), script == nil, region == nil {
        script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
      } else if part.count == 2, part.allSatisfy(\.isASCIILetter), region == nil {
        region = part.uppercased()
      } else if part.count == 3, part.first == "r", part.dropFirst().allSatisfy(\.isASCIILetter), region == nil {
        region = part.dropFirst().uppercased()
      } else if part.count == 3, part.allSatisfy(\.isASCIIDigit), region == nil {
        region = part
      } else if part.count >= 4, part.count <= 8, part.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }) {
        continue  // a variant subtag
      } else {
        return nil
      }
    }
  }

  /// Whether text in this locale is written right to left: by its script
  /// subtag when there is one (`az-Arab` is, `ku-Latn` is not), else by its
  /// language's usual script (the list of Protocol/localization.md).
  package var isRightToLeft: Bool {
    if let script { return LocaleTag.rightToLeftScripts.contains(script) }
    return LocaleTag.rightToLeftLanguages.contains(language)
  }

  package var description: String {
    [language, script, region].compactMap { $0 }.joined(separator: "-")
  }

  /// Scripts written right to left (ISO 15924).
  static let rightToLeftScripts: Set<String> = [
    "Arab", "Aran", "Hebr", "Syrc", "Syre", "Syrj", "Syrn", "Thaa", "Nkoo", "Adlm", "Rohg", "Mand", "Samr",
    "Mend", "Yezi", "Chrs", "Sogd", "Sogo", "Ougr", "Phnx", "Armi", "Avst", "Khar", "Lydi", "Mani", "Narb",
    "Nbat", "Orkh", "Palm", "Phli", "Phlp", "Prti", "Sarb", "Cprt", "Elym", "Hatr", "Hung", "Osge",
  ]

  /// Languages whose usual script is right to left: Arabic, Hebrew,
  /// Persian, Urdu, Pashto, Sindhi, Kurdish Sorani, Uyghur, Dhivehi,
  /// Yiddish, Syriac, N'Ko, Adlam (Fulah written in it is tagged by script),
  /// Rohingya, Balochi, Kashmiri, Punjabi Shahmukhi (`pnb`), Dari, Azerbaijani
  /// South (`azb`), Luri, Mazanderani, Gilaki, Hausa Ajami (by script),
  /// Samaritan Aramaic, Ladino.
  static let rightToLeftLanguages: Set<String> = [
    "ar", "arc", "arz", "ary", "arq", "afb", "apc", "acm", "ayl", "he", "fa", "prs", "pes", "ur", "ps", "pbt",
    "pbu", "sd", "ckb", "ug", "dv", "yi", "syr", "aii", "nqo", "rhg", "bal", "bqi", "ks", "pnb", "azb", "lrc",
    "luz", "mzn", "glk", "sdh", "lad", "skr", "khw", "bgn", "hac",
  ]

  /// Two- and three-letter language codes accepted as locales: ISO 639-1
  /// and the ISO 639-2/3 codes localization files commonly use.
  static let knownLanguages: Set<String> = {
    let twoLetter =
      "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu"
    let threeLetter =
      "ace ach afb aii ajp apc arc ary arz arq acm ast ayl azb bal bem bgn bho bqi brx ceb chr ckb cgg crh dsb fil fur gsw glk hac haw hsb ilo jbo kab kok lad lij lrc luz mai mni mzn nds nqo nso pap pbt pbu pes pnb prs rhg sah sat scn sco sdh shn skr syr szl tzm yue zgh khw"
    return Set((twoLetter + " " + threeLetter).split(separator: " ").map(String.init))
  }()
}

extension LocaleTag {
  /// The locale a path names, innermost first: a file name such as
  /// `fa_IR.po`, `intl_ar.arb`, `Strings.he.resx`, `messages_fa.properties`
  /// or `he.json`, then a folder such as `ar.lproj`, `values-ar`,
  /// `values-b+ar+EG`, `values-iw`, `locales/he/` or `fa/LC_MESSAGES`.
  /// Nil when the path names none.
  ///
  /// With `naming` `.subtitles` (`movie.heb.forced.srt`), the file name's
  /// flags are skipped and ISO 639-2 codes are languages; a flag that is
  /// also a language (`hi`, Hindi, or hearing impaired) is the locale only
  /// when the path names no other.
  package static func fromPath(_ path: String, naming: PathNaming = .localization) -> LocaleTag? {
    let components = PathComponents(path)
    var flagged: LocaleTag?
    if var name = components.fileName {
      if !naming.flags.isEmpty {
        // `movie.ar.hi.srt` → `movie.ar.srt`: trailing flags go.
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let suffix = parts.count > 1 ? parts.removeLast() : nil
        while parts.count > 1, let last = parts.last, naming.flags.contains(last.lowercased()) {
          flagged = flagged ?? LocaleTag(last, naming: naming)
          parts.removeLast()
        }
        name = (parts + (suffix.map { [$0] } ?? [])).joined(separator: ".")
      }
      if let found = fromFileName(name, naming: naming) { return found }
    }
    for folder in components.folders.reversed() {
      if let found = fromFolder(folder, naming: naming) { return found }
    }
    return flagged
  }

  package static func fromFileName(_ name: String, naming: PathNaming = .localization) -> LocaleTag? {
    var stem = Substring(name)
    if let dot = stem.lastIndex(of: ".") { stem = stem[..<dot] }
    if let whole = LocaleTag(stem, naming: naming) { return whole }
    // `Strings.he`, `intl_ar`, `messages_fa_IR`, `app-he-IL`: try each
    // suffix after a separator, longest first.
    let characters = Array(stem)
    for (index, character) in characters.enumerated() where character == "." || character == "_" || character == "-" {
      let suffix = String(characters[(index + 1)...])
      if let found = LocaleTag(suffix, naming: naming), suffix.count <= 11 { return found }
    }
    return nil
  }

  package static func fromFolder(_ folder: String, naming: PathNaming = .localization) -> LocaleTag? {
    if folder.hasSuffix(".lproj") { return LocaleTag(folder.dropLast(6)) }
    if folder.hasPrefix("values-") {
      // Android qualifiers: values-ar, values-ar-rEG, values-b+ar+EG,
      // values-iw-land: the language is the first qualifier that is one.
      let qualifiers = folder.dropFirst(7)
      if qualifiers.hasPrefix("b+") { return LocaleTag(qualifiers) }
      let parts = qualifiers.split(separator: "-")
      guard let first = parts.first else { return nil }
      if parts.count > 1, parts[1].count == 3, parts[1].first == "r" {
        return LocaleTag(first + "-" + parts[1])
      }
      return LocaleTag(first)
    }
    return LocaleTag(folder, naming: naming)
  }
}

extension Character {
  var isASCIILetter: Bool { isASCII && isLetter }
  var isASCIIDigit: Bool { isASCII && isNumber }
}

/// The locale that applies to a value (Protocol/localization.md): a forced locale
/// (`check --locale`), else the value's own (an `.xcstrings` localization,
/// an XLIFF target language), else the file's contents (`.po` `Language:`,
/// XLIFF, ARB `@@locale`), else its path, else the `locale` setting.
/// `naming` is how the file's kind names locales (`StructuredFormat.pathNaming`).
package func resolveLocale(
  forced: String? = nil, value: String?, contents: String?, path: String?, setting: String?,
  naming: PathNaming = .localization
) -> LocaleTag? {
  for candidate in [forced, value, contents] {
    if let candidate, let tag = LocaleTag(candidate, naming: naming) { return tag }
  }
  if let path, let tag = LocaleTag.fromPath(path, naming: naming) { return tag }
  return setting.flatMap { LocaleTag($0) }
}

/// How a kind of file names its locale in its path: the one set of rules
/// (`LocaleTag.fromPath`) with what differs between kinds.
package struct PathNaming: Sendable, Hashable {
  /// Words between a file's name and its extension that are not its
  /// language (`movie.ar.forced.srt`), skipped.
  package var flags: Set<String> = []
  /// Whether ISO 639-2 codes (`heb`, `ara`, `per`, `eng`) name languages.
  package var readsISO6392 = false

  /// Localization files and Markdown: `ar.lproj`, `values-iw`, `README.fa.md`, `docs/he/`.
  package static let localization = PathNaming()
  /// Subtitles as media players name them: `movie.heb.srt`,
  /// `movie.ara.forced.srt`, `movie.he.sdh.srt`, `he/episode1.vtt`.
  package static let subtitles = PathNaming(
    flags: ["forced", "sdh", "cc", "hi", "default", "full", "foreign", "hearing"], readsISO6392: true)

  /// ISO 639-2 (bibliographic and terminology) codes of the languages
  /// subtitles are commonly made in, to their ISO 639-1 code.
  static let iso6392: [String: String] = {
    var result: [String: String] = [:]
    let pairs =
      "ara ar heb he per fa fas fa urd ur pus ps snd sd yid yi div dv uig ug kur ku "
      + "eng en fre fr fra fr ger de deu de spa es por pt ita it rus ru chi zh zho zh jpn ja kor ko tur tr dut nl "
      + "nld nl swe sv nor no dan da fin fi pol pl cze cs ces cs gre el ell el hun hu rum ro ron ro bul bg hrv hr "
      + "srp sr slv sl slo sk slk sk ukr uk hin hi ben bn tam ta tel te tha th vie vi ind id may ms msa ms "
      + "tgl tl cat ca baq eu eus eu glg gl ice is isl is est et lav lv lit lt mac mk mkd mk alb sq sqi sq arm hy "
      + "hye hy geo ka kat ka aze az kaz kk uzb uz mon mn swa sw amh am som so hau ha"
    let words = pairs.split(separator: " ").map(String.init)
    for index in stride(from: 0, to: words.count - 1, by: 2) { result[words[index]] = words[index + 1] }
    return result
  }()
}

/// A path or `file:` URI cut into folders and a file name (percent escapes
/// decoded, `/` and `\` both separators).
package struct PathComponents {
  package var folders: [String] = []
  package var fileName: String?

  package init(_ path: String) {
    var text = Substring(path)
    let bytes = Array(text.utf8)
    if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
      bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
      bytes[..<colon].allSatisfy(Self.isSchemeByte)
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

  /// The file path of a `file:` URI (`file:///a/b`, `file://localhost/a/b`),
  /// percent-decoded; nil for another URI.
  package static func filePath(ofURI uri: String) -> String? {
    guard uri.hasPrefix("file://") else { return nil }
    var rest = Substring(uri.dropFirst(7))
    if rest.hasPrefix("localhost/") { rest = rest.dropFirst(9) }
    guard rest.hasPrefix("/") else { return nil }
    return percentDecoded(rest)
  }

  /// The lowercased extension of the file name, without the dot.
  package var fileExtension: String? {
    guard let fileName, let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
    return fileName[fileName.index(after: dot)...].lowercased()
  }

  /// A byte of a URI scheme: a letter, a digit, `+`, `-`, `.` or `_`.
  private static func isSchemeByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  /// The file name without its last extension (`README.ar` of `README.ar.md`).
  package var stem: String? {
    guard let fileName else { return nil }
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
    return String(fileName[..<dot])
  }

  private static func percentDecoded(_ text: Substring) -> String {
    guard text.contains("%") else { return String(text) }
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
      if byte == UInt8(ascii: "%"), iterator.count >= 2,
        let high = hexDigit(iterator[iterator.startIndex]),
        let low = hexDigit(iterator[iterator.startIndex + 1])
      {
        bytes.append(UInt8(high << 4 | low))
        iterator = iterator.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The value of an ASCII hex digit, or nil.
  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
