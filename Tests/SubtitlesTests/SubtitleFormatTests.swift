import BidiTestSupport
import Foundation
import StructuredText
import UnicodeBidi
import XCTest

@testable import Subtitles

/// The subtitle formats on the one design of structured documents
/// (contract §8): which lines are entries, their rendered text and map, the
/// `bidi.cueDirection` rule and its fixes, the syntax error, the locale and
/// the incremental re-reading.
final class SubtitleFormatTests: XCTestCase {
  let srt = """
    1
    00:00:01,000 --> 00:00:02,000
    مرحبا!
    - هل أنت بخير؟

    2
    00:00:03,000 --> 00:00:04,000
    <i>مرحبا!</i>
    {\\an8}مرحبا بك

    3
    00:00:05,000 --> 00:00:06,000
    \u{200F}مرحبا!
    Hello world!
    iPhone متوفر الآن!

    """

  func findings(_ text: String, _ format: SubtitleFormat) -> [Finding] {
    let lines = TextLines(text)
    let read = WholeRead(lines, format: format)
    return FindingsEngine(format: format, spelling: read.spelling).findings(in: lines, read: read) { _ in nil }
  }

  /// Cue numbers, timing lines, the header, NOTE and STYLE blocks are no
  /// entries; each cue line is one, with its cue, its rendered text (tags and
  /// override codes left out, references decoded) and the whole line as range.
  func testEntriesAreTheCueLines() {
    let read = WholeRead(TextLines(srt), format: SubtitleFormat.subRip)
    XCTAssertNil(read.error)
    XCTAssertEqual(
      read.entries.map(\.text),
      ["مرحبا!", "- هل أنت بخير؟", "مرحبا!", "مرحبا بك", "\u{200F}مرحبا!", "Hello world!", "iPhone متوفر الآن!"])
    XCTAssertEqual(read.entries.map(\.cue), [1, 1, 2, 2, 3, 3, 3])
    XCTAssertEqual(read.entries.map(\.range.start.line), [2, 3, 7, 8, 12, 13, 14])
    XCTAssertEqual(read.entries[2].range, SourceRange(line: 7, 0..<"<i>مرحبا!</i>".utf8.count))
    XCTAssertEqual(read.entries.map(\.paragraphs.count), Array(repeating: 1, count: 7))

    let vtt = """
      WEBVTT
      Language: he

      NOTE a note: שלום!

      STYLE
      ::cue { color: red }

      intro
      00:01.000 --> 00:02.000 align:start
      <v Dana>שלום!</v> &amp; &lrm;x&rlm;
      <c.yellow>מה</c> <00:01.500>שלום?

      """
    let webVTT = WholeRead(TextLines(vtt), format: SubtitleFormat.webVTT)
    XCTAssertNil(webVTT.error)
    XCTAssertEqual(webVTT.entries.map(\.text), ["שלום! & \u{200E}x\u{200F}", "מה שלום?"])
    XCTAssertEqual(webVTT.entries.map(\.range.start.line), [10, 11])
    XCTAssertEqual(webVTT.contentLocale, "he")
  }

  /// `bidi.cueDirection`: a line with right-to-left letters that looks
  /// different laid out left to right and right to left, unless a mark
  /// decides it; RLM after the markup that opens the line.
  func testCueDirectionAndItsFix() throws {
    let found = findings(srt, .subRip)
    XCTAssertEqual(found.map(\.code), Array(repeating: .cueDirection, count: 5))
    // Line 12, `RLM مرحبا!`: the mark at the start leaves `!` to the player's direction.
    XCTAssertEqual(found.map(\.range.start.line), [2, 3, 7, 12, 14])
    XCTAssertEqual(found.map(\.severity), Array(repeating: .warning, count: 5))
    let lines = TextLines(srt)
    let edits = found.map { $0.fixes.first(where: \.isPreferred)!.edits }
    // A mark at the end where punctuation follows the last letter (`؟` is a letter to UAX #9: class AL).
    XCTAssertEqual(edits.map(\.count), [2, 1, 2, 1, 2])
    XCTAssertEqual(found[3].message.hasSuffix("End it with RLM too"), true, found[3].message)
    // After `<i>`: the tag stays first, the mark decides the line; the end mark before `</i>`.
    XCTAssertEqual(edits[2][0].range, SourceRange(at: SourcePosition(line: 7, column: 3)))
    XCTAssertEqual(edits[2][1].range, SourceRange(at: SourcePosition(line: 7, column: 3 + "مرحبا!".utf8.count)))
    // `iPhone متوفر الآن!`: mostly right to left, RLM (not LRM).
    XCTAssertEqual(edits[4].map(\.newText), ["\u{200F}", "\u{200F}"])
    let fixed = lines.applying(edits.flatMap { $0 })
    let fixedLines = fixed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(fixedLines[7], "<i>\u{200F}مرحبا!\u{200F}</i>")
    // What the rule is for: each fixed line (iPhone's aside, whose Latin word no mark can place)
    // now shows the same laid out left to right and right to left (UAX #9, paragraph level 0 and 1).
    for line in [2, 3, 7, 12] {
      let cue = "1\n00:00:01,000 --> 00:00:02,000\n" + fixedLines[line] + "\n"
      let text = try XCTUnwrap(WholeRead(TextLines(cue), format: SubtitleFormat.subRip).entries.first?.text)
      XCTAssertEqual(
        BidiParagraph(utf8: Array(text.utf8), direction: .leftToRight).line().visualText(controls: .strip),
        BidiParagraph(utf8: Array(text.utf8), direction: .rightToLeft).line().visualText(controls: .strip),
        fixedLines[line])
    }
    // Asking again finds nothing: every mark decides its line.
    XCTAssertEqual(findings(fixed, .subRip), [])
    // The subtitle reader reads the same cues, the marks at the lines' starts.
    let before = SubtitleReader.read(srt, format: .subRip)
    let after = SubtitleReader.read(fixed, format: .subRip)
    XCTAssertEqual(after.cues.map(\.start), before.cues.map(\.start))
    XCTAssertEqual(after.cues.map(\.textLines), before.cues.map(\.textLines))
    XCTAssertEqual(
      after.lines.map { $0.text.replacingOccurrences(of: "\u{200F}", with: "") },
      before.lines.map { $0.text.replacingOccurrences(of: "\u{200F}", with: "") })
  }

  func testLinesThatNeedNoMark() {
    for line in [
      "مرحبا بك", "\u{200F}مرحبا!\u{200F}", "\u{200F}مرحبا 2012", "\u{200E}Hello مرحبا!", "Hello world!",
      "\u{2067}مرحبا!\u{2069}", "12:30",
      "(مرحبا)", "שלום",
    ] {
      XCTAssertEqual(findings("1\n00:00:01,000 --> 00:00:02,000\n\(line)\n", .subRip), [], line)
    }
    // A Latin line with an Arabic word and a trailing neutral: LRM.
    let found = findings("1\n00:00:01,000 --> 00:00:02,000\nThe word is مرحبا!\n", .subRip)
    XCTAssertEqual(found.map(\.code), [.cueDirection])
    XCTAssertEqual(found.first?.fixes.first?.edits.first?.newText, "\u{200E}")
  }

  /// Marks are written as the file writes them: a WebVTT file with numeric
  /// references to bidi controls gets one; the override code `{\an8}` and a
  /// voice tag stay first.
  func testSpellingAndLeadingMarkup() {
    let vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\n&#x200F;שלום!&#x200F;\n<v Dana>שלום!\n"
    let found = findings(vtt, .webVTT)
    XCTAssertEqual(found.map(\.range.start.line), [4])
    let edit = found[0].fixes[0].edits[0]
    XCTAssertEqual(edit.newText, "&#x200F;")
    XCTAssertEqual(edit.range.start, SourcePosition(line: 4, column: "<v Dana>".utf8.count))
    // The end mark after `!`, before the end of the voice (the file's own spelling again).
    XCTAssertEqual(found[0].fixes[0].edits.map(\.newText), ["&#x200F;", "&#x200F;"])

    let srt = "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}- مرحبا!\n"
    let fix = findings(srt, .subRip)[0].fixes[0].edits[0]
    XCTAssertEqual(fix.range.start, SourcePosition(line: 2, column: 6))
    XCTAssertEqual(fix.newText, "\u{200F}")
  }

  /// A cue players cannot get past is the syntax error: reading stops there.
  func testBrokenTimingIsTheSyntaxError() {
    let text = "1\n00:00:01,000 --> 00:00:02,000\nمرحبا!\n\n2\n00:00:0x,000 --> 00:00:04,000\nمرحبا!\n"
    let read = WholeRead(TextLines(text), format: SubtitleFormat.subRip)
    XCTAssertEqual(read.entries.map(\.cue), [1])
    XCTAssertEqual(read.error?.position.line, 5)
    let found = findings(text, .subRip)
    XCTAssertEqual(found.map(\.code), [.cueDirection, .subtitleSyntax])
    XCTAssertTrue(found[1].message.contains("a SubRip file"), found[1].message)
  }

  /// An index fed edits holds what a whole read of the edited text holds.
  func testIncrementalEditsAgreeWithAWholeRead() {
    var generator = SeededGenerator(seed: 27)
    for format in SubtitleFormat.allCases {
      var lines: [String] = format == .webVTT ? ["WEBVTT", ""] : []
      for cue in 1...60 {
        let time = String(format: "%02d", cue % 60)
        lines +=
          format == .subRip ? ["\(cue)", "00:00:\(time),000 --> 00:01:00,000"] : ["00:\(time).000 --> 01:00.000"]
        lines += (0..<(cue % 3 + 1)).map { _ in
          ["مرحبا!", "<i>- هل أنت بخير؟</i>", "Hello", "שלום 12", "&rlm;שלום!"].randomElement(using: &generator)!
        }
        lines.append("")
      }
      let timing = format == .subRip ? "00:00:09,000 --> 00:00:10,000" : "00:09.000 --> 00:10.000"
      var text = lines
      var index = StructuredIndex(TextLines(text.joined(separator: "\n")), format: format)
      for _ in 0..<300 {
        let at = Int.random(in: 0..<text.count, using: &generator)
        let removed = Int.random(in: 0...min(3, text.count - at), using: &generator)
        let inserted = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
          ["", "7", timing, "مرحبا!", "{\\an8}שלום?", "NOTE x"].randomElement(using: &generator)!
        }
        text.replaceSubrange(at..<at + removed, with: inserted)
        let document = TextLines(text.joined(separator: "\n"))
        index.edit(document, replacing: at..<at + removed, newLineCount: inserted.count)
        index.read(document, through: Int.max)
        let whole = WholeRead(document, format: format)
        let got = index.entries.map(\.summary)
        let expected = whole.entries.map(\.summary)
        if got != expected {
          let first =
            (0..<min(got.count, expected.count)).first { got[$0] != expected[$0] } ?? min(got.count, expected.count)
          XCTFail(
            "\(format): after an edit at line \(at): entry \(first): \(got.dropFirst(first).first ?? "none")"
              + " != \(expected.dropFirst(first).first ?? "none"); \(got.count) entries, \(expected.count) read whole")
          break
        }
        XCTAssertTrue(index.entries == whole.entries, "\(format)")
        XCTAssertEqual(index.error, whole.error, "\(format)")
      }
    }
  }
}

extension TextEntry {
  /// A line for failure messages: cue, range, text.
  fileprivate var summary: String { "cue \(cue ?? 0) \(range) \(text)" }
}
