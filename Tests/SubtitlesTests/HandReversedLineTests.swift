import BidiTestSupport
import Foundation
import StructuredText
import UnicodeBidi
import XCTest

@testable import Subtitles

/// Cue lines written for players that lay every line out left to right,
/// their punctuation moved by hand to the other end (a habit of real Arabic
/// and Hebrew subtitles: Corpus/real/SOURCES.txt): `bidi.cueDirection` says
/// so, and its fix moves the punctuation back and starts the line with RLM,
/// where RLM alone would move the punctuation to the start in every player.
final class HandReversedLineTests: XCTestCase {
  func findings(_ text: String, _ format: SubtitleFormat) -> [Finding] {
    let lines = TextLines(text)
    let read = WholeRead(lines, format: format)
    return FindingsEngine(format: format, spelling: read.spelling).findings(in: lines, read: read) { _ in nil }
  }

  func cue(_ lines: [String]) -> String {
    "1\n00:00:01,000 --> 00:00:02,000\n" + lines.joined(separator: "\n") + "\n"
  }

  /// Each run goes to the other end, reversed, brackets mirrored; RLM
  /// first (after the markup that opens the line) and last after moved
  /// punctuation (before the markup that closes it); asking again finds
  /// nothing; the reader reads the same cue and timing.
  func testTheFixMovesThePunctuationBack() throws {
    let written = [
      ".\"وصلنا إلى \"دمشق", ".נתראה מחר בבוקר", "<i>!انتبه</i>", "هل أنت هنا؟ -", ".(صديقي (سمير",
      "?איפה הכלב -", "شينهوا\" تمثل قاعدة\"",
    ]
    let expected = [
      "\u{200F}وصلنا إلى \"دمشق\".\u{200F}", "\u{200F}נתראה מחר בבוקר.\u{200F}", "<i>\u{200F}انتبه!\u{200F}</i>",
      "\u{200F}- هل أنت هنا؟", "\u{200F}صديقي (سمير).\u{200F}", "\u{200F}- איפה הכלב?\u{200F}",
      "\u{200F}\"شينهوا\" تمثل قاعدة",
    ]
    let text = cue(written)
    let found = findings(text, .subRip)
    XCTAssertEqual(found.map(\.code), Array(repeating: .cueDirection, count: written.count))
    for finding in found {
      XCTAssertTrue(finding.message.hasPrefix("Written for players that lay it out left to right"), finding.message)
      XCTAssertEqual(finding.fixes.count, 1)
      XCTAssertTrue(finding.fixes[0].title.hasPrefix("Move \u{201C}"), finding.fixes[0].title)
    }
    // The message shows the line as a player that takes the direction from the text shows it: `.` on the right.
    XCTAssertTrue(found[1].message.contains("\u{201C}רקובב רחמ הארתנ.\u{201D}"), found[1].message)
    XCTAssertEqual(
      found[2].fixes[0].title,
      "Move \u{201C}!\u{201D} to the end, and put RLM (U+200F RIGHT-TO-LEFT MARK) at both ends of the line")
    XCTAssertEqual(
      found[6].fixes[0].title,
      "Move \u{201C}\"\u{201D} to the start, and start the line with RLM (U+200F RIGHT-TO-LEFT MARK)")
    XCTAssertEqual(
      found[3].fixes[0].title,
      "Move \u{201C} -\u{201D} to the start, and start the line with RLM (U+200F RIGHT-TO-LEFT MARK)")
    let fixed = TextLines(text).applying(found.flatMap { $0.fixes[0].edits })
    XCTAssertEqual(Array(fixed.split(separator: "\n").dropFirst(2).map(String.init)), expected)
    // Fixed, each line shows the same laid out left to right and right to left (UAX #9 at level 0 and 1).
    for entry in WholeRead(TextLines(fixed), format: SubtitleFormat.subRip).entries {
      XCTAssertEqual(
        BidiParagraph(utf8: Array(entry.text.utf8), direction: .leftToRight).line().visualText(controls: .strip),
        BidiParagraph(utf8: Array(entry.text.utf8), direction: .rightToLeft).line().visualText(controls: .strip),
        entry.text)
    }
    XCTAssertEqual(findings(fixed, .subRip), [])
    let before = SubtitleReader.read(text, format: .subRip)
    let after = SubtitleReader.read(fixed, format: .subRip)
    XCTAssertEqual(after.cues.map(\.start), before.cues.map(\.start))
    XCTAssertEqual(after.cues.map(\.end), before.cues.map(\.end))
    XCTAssertEqual(after.cues.map(\.textLines), before.cues.map(\.textLines))
  }

  /// The markup that opens and closes the line stays where it is: the
  /// runs move inside it (SubRip override codes, a WebVTT voice).
  func testMarkupStaysOutside() {
    let srt = cue(["{\\an8}!مرحبا بك", "<b>.שלום לך</b>"])
    let fixedSubRip = TextLines(srt).applying(findings(srt, .subRip).flatMap { $0.fixes[0].edits })
    XCTAssertEqual(
      Array(fixedSubRip.split(separator: "\n").dropFirst(2).map(String.init)),
      ["{\\an8}\u{200F}مرحبا بك!\u{200F}", "<b>\u{200F}שלום לך.\u{200F}</b>"])
    let vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Dana>.שלום לך</v>\n"
    let found = findings(vtt, .webVTT)
    XCTAssertEqual(found.count, 1)
    let fixed = TextLines(vtt).applying(found.flatMap { $0.fixes[0].edits })
    XCTAssertEqual(fixed, "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Dana>\u{200F}שלום לך.\u{200F}</v>\n")
    XCTAssertEqual(findings(fixed, .webVTT), [])
  }

  /// Not moved by hand: the usual RLM fix, at both ends where punctuation
  /// follows the last letter. An Arabic question
  /// mark (class AL) stays at the end, so a leading ellipsis is a
  /// continuation; `--` cuts a word off; a question mark before the dash
  /// was not moved; a line ending a quotation it opened, or continuing one
  /// and opening another, keeps its quotes; a moved run written with a
  /// reference or holding `<` is not rewritten.
  func testLinesThatAreNotHandReversed() {
    let srt = cue([
      "...والبحر؟", "مرحبا!", "- مرحبا!", "انتظر--", "מה קרה? -", "قال لي \"مرحبا\"", "بالعالم\" ثم \"ذهب\"",
    ])
    let found = findings(srt, .subRip)
    XCTAssertEqual(found.count, 7)
    for finding in found {
      XCTAssertTrue(finding.message.hasPrefix("A player that lays this line out left to right"), finding.message)
    }
    let rlm = "\u{200F}"
    XCTAssertEqual(
      found.map { $0.fixes.first?.edits.map(\.newText) ?? [] },
      [[rlm], [rlm, rlm], [rlm, rlm], [rlm, rlm], [rlm, rlm], [rlm, rlm], [rlm, rlm]])
    let vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\n.&quot;שלום\n&lt;.שלום\n"
    let webVTT = findings(vtt, .webVTT)
    XCTAssertEqual(webVTT.count, 2)
    XCTAssertEqual(webVTT.map { $0.fixes.first?.edits.map(\.newText) ?? [] }, [["\u{200F}"], ["\u{200F}"]])
  }
}
