import StructuredText
import XCTest

@testable import Subtitles

/// The WebVTT reader on small files: blocks as the specification's parser
/// collects them, tags, character references and their map, the header's
/// `Language:`, how marks are spelled.
final class WebVTTReaderTests: XCTestCase {
  func read(_ text: String) -> SubtitleDocument { SubtitleReader.read(text, format: .webVTT) }

  func testHeaderNoteStyleRegionIdentifiersAndSettingsAreNotParagraphs() {
    let document = read(
      """
      WEBVTT - درس
      Language: ar-EG
      Kind: captions

      STYLE
      ::cue { color: white }

      REGION
      id:r1

      NOTE تعليق
      لا يظهر

      intro
      00:01.000 --> 00:02.000 align:start line:0
      <v المعلم>مرحبا

      01:00:02.500 --> 01:00:04.000
      سطر واحد
      سطر اثنان

      """)
    XCTAssertEqual(document.lines.map(\.text), ["مرحبا", "سطر واحد", "سطر اثنان"])
    XCTAssertEqual(document.lines.map(\.line), [15, 18, 19])
    XCTAssertEqual(document.cues.map(\.identifier), ["intro", nil])
    XCTAssertEqual(document.cues.map(\.settings), ["align:start line:0", ""])
    XCTAssertEqual(document.cues.map(\.start), [1000, 3_602_500])
    XCTAssertEqual(document.headerLanguage, "ar-EG")
    XCTAssertEqual(subtitleLocale(document, path: "x/he/a.vtt")?.description, "ar-EG", "the header before the path")
    XCTAssertEqual(document.diagnostics, [])
    XCTAssertEqual(document.checkpoints.map(\.line), [4, 7, 10, 13, 17])
  }

  func testTagsTimestampsAndReferences() {
    let source = "<v.loud أحمد><c.yellow>HTML &amp; CSS</c>&nbsp;<00:00:01.500><lang en>&lrm;ok</lang>&#x200F;!"
    let line = read("WEBVTT\n\n00:00.000 --> 00:01.000\n\(source)\n").lines[0]
    XCTAssertEqual(line.text, "HTML & CSS\u{A0}\u{200E}ok\u{200F}!")
    XCTAssertEqual(line.markup.map(\.kind), [.startTag, .startTag, .endTag, .timestamp, .startTag, .endTag])
    XCTAssertEqual(line.markup.map(\.name), ["v", "c", "c", "", "lang", "lang"])
    XCTAssertEqual(line.escapes.count, 4)
    let amp = Array(line.text.utf8).firstIndex(of: UInt8(ascii: "&"))!
    XCTAssertEqual(line.sourceColumn(ofDecoded: amp), line.escapes[0].lowerBound, "a reference maps to its start")
    XCTAssertEqual(line.sourceColumn(ofDecoded: amp + 1), line.escapes[0].upperBound, "the space after &amp;")
    XCTAssertEqual(line.textStartColumn, line.markup[1].columns.upperBound, "after <v …><c.yellow>")
  }

  func testEveryLessThanOpensATag() {
    let line = read("WEBVTT\n\n00:00.000 --> 00:01.000\na <b c.d> e < f\n").lines[0]
    XCTAssertEqual(line.text, "a  e ")
    XCTAssertEqual(line.markup.count, 2)
  }

  func testMarkSpellingFollowsTheFile() {
    func spelling(_ body: String) -> SubtitleMarkSpelling {
      read("WEBVTT\n\n00:00.000 --> 00:01.000\n\(body)\n").markSpelling
    }
    XCTAssertEqual(spelling("بلا علامات"), .character)
    XCTAssertEqual(spelling("&rlm;أ &lrm;b"), .namedReference)
    XCTAssertEqual(spelling("&#x200F;أ &#8207;ب"), .numericReference)
    XCTAssertEqual(spelling("\u{200F}أ \u{200F}ب &rlm;ج"), .character)
    XCTAssertEqual(SubtitleMark.rightToLeft.spelled(.namedReference, in: .webVTT), "&rlm;")
    XCTAssertEqual(SubtitleMark.leftToRight.spelled(.numericReference, in: .webVTT), "&#x200E;")
    XCTAssertEqual(SubtitleMark.rightToLeft.spelled(.namedReference, in: .subRip), "\u{200F}")
  }

  func testArrowLineEndsACueAndWhitespaceLineIsText() {
    let document = read("WEBVTT\n\n00:00.000 --> 00:01.000\nأ\n   \n2\n00:02.000 --> 00:03.000\nب\n")
    // "2" stays text of the first cue (the specification's parser), the arrow line starts the second.
    XCTAssertEqual(document.lines.map(\.text), ["أ", "   ", "2", "ب"])
    XCTAssertEqual(document.lines.map(\.cue), [1, 1, 1, 2])
    XCTAssertEqual(document.diagnostics.map(\.severity), [.warning])
    XCTAssertEqual(document.diagnostics.map(\.position.line), [6])
  }
}
