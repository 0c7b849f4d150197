import StructuredText
import XCTest

@testable import Subtitles

/// The locale of a read subtitle document as the daemon and `check` resolve
/// it: its `Language:` header, else its path, by the one set of path rules
/// (`LocaleTag.fromPath`) with the subtitle naming (flags, ISO 639-2 codes).
func subtitleLocale(_ document: SubtitleDocument, path: String?) -> LocaleTag? {
  resolveLocale(value: nil, contents: document.headerLanguage, path: path, setting: nil, naming: .subtitles)
}

/// The locale from a subtitle file's path and from its WebVTT `Language:` header.
final class SubtitleLocaleTests: XCTestCase {
  func testPaths() {
    let cases: [(String, String?, Bool)] = [
      ("movie.ar.srt", "ar", true),
      ("Movie.Name.2024.heb.srt", "he", true),
      ("movie.per.srt", "fa", true),
      ("movie.fas.srt", "fa", true),
      ("movie.urd.srt", "ur", true),
      ("movie.ara.forced.srt", "ar", true),
      ("movie.he.sdh.srt", "he", true),
      ("movie.fa-IR.srt", "fa-IR", true),
      ("movie.ar_EG.srt", "ar-EG", true),
      ("movie.en.srt", "en", false),
      ("movie.eng.srt", "en", false),
      ("movie.ku-Arab.srt", "ku-Arab", true),
      ("movie.hi.srt", "hi", false),
      ("movie.ar.hi.srt", "ar", true),
      ("he/episode1.vtt", "he", true),
      ("subs/fa/episode1.srt", "fa", true),
      ("/home/u/subs/ur-PK/s01e01.vtt", "ur-PK", true),
      ("ar.srt", "ar", true),
      ("movie.srt", nil, false),
      ("movie.final.srt", nil, false),
      ("videos/2024/movie.srt", nil, false),
      ("movie.iw.srt", "he", true),
    ]
    for (path, tag, rtl) in cases {
      let locale = LocaleTag.fromPath(path, naming: .subtitles)
      XCTAssertEqual(locale?.description, tag, path)
      if tag != nil { XCTAssertEqual(locale?.isRightToLeft, rtl, path) }
    }
  }

  /// The subtitle naming is the subtitles' only: a localization file named
  /// `hi.json` is Hindi, `sdh.po` Southern Kurdish, a `cat/` folder no locale.
  func testLocalizationNamingIsUnchanged() {
    XCTAssertEqual(LocaleTag.fromPath("locales/hi.json")?.description, "hi")
    XCTAssertEqual(LocaleTag.fromPath("po/sdh.po")?.description, "sdh")
    XCTAssertNil(LocaleTag.fromPath("docs/cat/README.md"))
    XCTAssertNil(LocaleTag.fromPath("movie.heb.srt"))
    XCTAssertEqual(LocaleTag.fromPath("docs/cat/movie.srt", naming: .subtitles)?.description, "ca")
  }

  func testHeaderLanguage() {
    let document = SubtitleReader.read("WEBVTT\nlanguage:  he-IL \n\n00:01.000 --> 00:02.000\nשלום\n", format: .webVTT)
    XCTAssertEqual(document.headerLanguage, "he-IL")
    XCTAssertEqual(subtitleLocale(document, path: "movie.en.vtt")?.description, "he-IL")
    XCTAssertEqual(subtitleLocale(document, path: nil)?.isRightToLeft, true)
    let threeLetter = SubtitleReader.read("WEBVTT\nLanguage: ara\n\n00:01.000 --> 00:02.000\nمرحبا\n", format: .webVTT)
    XCTAssertEqual(subtitleLocale(threeLetter, path: nil)?.description, "ar")
    let cueText = SubtitleReader.read("WEBVTT\n\n00:01.000 --> 00:02.000\nLanguage: ar\n", format: .webVTT)
    XCTAssertNil(cueText.headerLanguage, "only the header's lines")
    XCTAssertEqual(SubtitleFormat(path: "a/b.VTT"), .webVTT)
    XCTAssertEqual(SubtitleFormat(languageId: "subrip"), .subRip)
    XCTAssertNil(SubtitleFormat(path: "a.srt.txt"))
  }
}
