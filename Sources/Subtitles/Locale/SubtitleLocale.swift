/// The language a subtitle file is in, as its path or its WebVTT
/// `Language:` header names it. Deliberately small: the shared document
/// foundation will own locale handling (`Localization`'s `LocaleTag` today);
/// this knows subtitle naming (`movie.ar.srt`, `movie.heb.forced.srt`,
/// `he/episode1.vtt`, `subs/fa/…`) and which languages are written right to
/// left.
package struct SubtitleLocale: Hashable, Sendable, CustomStringConvertible {
  /// The tag: an ISO 639-1 language where there is one (`heb` becomes `he`),
  /// lowercased, with its script and region subtags as written (`ar-EG`,
  /// `az-Arab`); `_` becomes `-`.
  package var tag: String
  /// Whether the language (or its script subtag) is written right to left.
  package var isRightToLeft: Bool

  /// Reads a tag (`ar`, `he-IL`, `fa_IR`, `ara`, `per`, `ku-Arab`); nil when
  /// its language is not an ISO 639 code this knows.
  package init?(_ text: some StringProtocol) {
    let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { String($0) }
    guard let first = parts.first?.lowercased(), first.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else {
      return nil
    }
    let language: String
    if first.count == 2, SubtitleLocale.twoLetter.contains(first) {
      language = first == "iw" ? "he" : first
    } else if first.count == 3, let two = SubtitleLocale.threeLetter[first] {
      language = two
    } else {
      return nil
    }
    var subtags: [String] = []
    var script: String?
    for part in parts.dropFirst() {
      guard (2...8).contains(part.count), part.utf8.allSatisfy(SubtitleLocale.isASCIIAlphanumeric) else { return nil }
      if part.count == 4, script == nil { script = part.prefix(1).uppercased() + part.dropFirst().lowercased() }
      subtags.append(part.count == 4 ? script! : part.count == 2 ? part.uppercased() : part)
    }
    tag = ([language] + subtags).joined(separator: "-")
    isRightToLeft =
      script.map { SubtitleLocale.rightToLeftScripts.contains($0) }
      ?? SubtitleLocale.rightToLeftLanguages.contains(language)
  }

  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
  }

  package var description: String { tag }

  /// The locale a path names: the file name's dotted parts before the
  /// extension, right to left (`movie.ar.srt`, `movie.heb.forced.srt`:
  /// `forced`, `sdh`, `cc`, `hi`, `default` are flags, not languages), then
  /// each folder, innermost first (`he/episode1.vtt`, `subs/fa-IR/x.srt`).
  /// Nil when it names none.
  package static func fromPath(_ path: String) -> SubtitleLocale? {
    var components = path.split(separator: "/")
    guard let name = components.popLast() else { return nil }
    var parts = name.split(separator: ".")
    if parts.count > 1 { parts.removeLast() }  // the extension
    var sawHearingImpaired = false
    for part in parts.dropFirst(parts.count == 1 ? 0 : 1).reversed() {
      let lowered = part.lowercased()
      if flags.contains(lowered) {
        sawHearingImpaired = sawHearingImpaired || lowered == "hi"
        continue
      }
      if let locale = SubtitleLocale(part) { return locale }
    }
    if sawHearingImpaired { return SubtitleLocale("hi") }
    for folder in components.reversed() {
      if let locale = SubtitleLocale(folder) { return locale }
    }
    return nil
  }

  /// The locale of a read document: its `Language:` header, else its path.
  package static func of(_ document: SubtitleDocument, path: String?) -> SubtitleLocale? {
    document.headerLanguage.flatMap { SubtitleLocale($0) } ?? path.flatMap(fromPath)
  }

  /// Words media players put between a subtitle file's name and extension that are not languages.
  static let flags: Set<String> = ["forced", "sdh", "cc", "hi", "default", "full", "foreign", "hearing"]

  /// ISO 639-1.
  static let twoLetter: Set<String> = Set(
    ("aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el "
      + "en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it "
      + "iu iw ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms "
      + "mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk "
      + "sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi "
      + "yo za zh zu").split(separator: " ").map(String.init))

  /// ISO 639-2 (bibliographic and terminology codes) of the languages
  /// subtitles are commonly made in, to their ISO 639-1 code; and ISO 639-3
  /// codes of right-to-left languages without one (kept as they are).
  static let threeLetter: [String: String] = {
    var result: [String: String] = [:]
    let pairs =
      "ara ar heb he per fa fas fa urd ur pus ps snd sd yid yi div dv uig ug kur ku syr syr ckb ckb pes fa prs prs "
      + "eng en fre fr fra fr ger de deu de spa es por pt ita it rus ru chi zh zho zh jpn ja kor ko tur tr dut nl "
      + "nld nl swe sv nor no dan da fin fi pol pl cze cs ces cs gre el ell el hun hu rum ro ron ro bul bg hrv hr "
      + "srp sr slv sl slo sk slk sk ukr uk hin hi ben bn tam ta tel te tha th vie vi ind id may ms msa ms fil fil "
      + "tgl tl cat ca baq eu eus eu glg gl ice is isl is est et lav lv lit lt mac mk mkd mk alb sq sqi sq arm hy "
      + "hye hy geo ka kat ka aze az kaz kk uzb uz mon mn swa sw amh am som so hau ha"
    let words = pairs.split(separator: " ").map(String.init)
    for index in stride(from: 0, to: words.count - 1, by: 2) { result[words[index]] = words[index + 1] }
    return result
  }()

  /// Languages usually written right to left.
  static let rightToLeftLanguages: Set<String> = [
    "ar", "he", "fa", "ur", "ps", "sd", "yi", "dv", "ug", "ckb", "syr", "prs", "ks",
  ]

  /// Scripts written right to left (ISO 15924) that subtitles use.
  static let rightToLeftScripts: Set<String> = ["Arab", "Hebr", "Syrc", "Thaa", "Nkoo", "Adlm", "Rohg"]
}
