import XCTest

@testable import Subtitles

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
      let locale = SubtitleLocale.fromPath(path)
      XCTAssertEqual(locale?.tag, tag, path)
      if tag != nil { XCTAssertEqual(locale?.isRightToLeft, rtl, path) }
    }
  }

  func testHeaderLanguage() {
    let document = SubtitleReader.read("WEBVTT\nlanguage:  he-IL \n\n00:01.000 --> 00:02.000\nשלום\n", format: .webVTT)
    XCTAssertEqual(document.headerLanguage, "he-IL")
    XCTAssertEqual(SubtitleLocale.of(document, path: "movie.en.vtt")?.tag, "he-IL")
    XCTAssertEqual(SubtitleLocale.of(document, path: nil)?.isRightToLeft, true)
    let cueText = SubtitleReader.read("WEBVTT\n\n00:01.000 --> 00:02.000\nLanguage: ar\n", format: .webVTT)
    XCTAssertNil(cueText.headerLanguage, "only the header's lines")
    XCTAssertEqual(SubtitleFormat(path: "a/b.VTT"), .webVTT)
    XCTAssertEqual(SubtitleFormat(languageId: "subrip"), .subRip)
    XCTAssertNil(SubtitleFormat(path: "a.srt.txt"))
  }
}
