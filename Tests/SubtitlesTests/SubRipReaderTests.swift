import StructuredText
import UnicodeBidi
import XCTest

@testable import Subtitles

/// The SubRip reader on small files: what is a paragraph, the decoded text
/// and its map, markup as ffmpeg reads it, the insertion point.
final class SubRipReaderTests: XCTestCase {
  func read(_ text: String) -> SubtitleDocument { SubtitleReader.read(text, format: .subRip) }

  func testCueNumbersAndTimingLinesAreNotParagraphs() {
    let document = read(
      "1\n00:00:01,000 --> 00:00:02,500\nمرحبا!\n- هل أنت بخير؟\n\n2\n00:00:03,000 --> 00:00:04,000\nشكراً\n")
    XCTAssertEqual(document.lines.map(\.text), ["مرحبا!", "- هل أنت بخير؟", "شكراً"])
    XCTAssertEqual(document.lines.map(\.cue), [1, 1, 2])
    XCTAssertEqual(document.lines.map(\.line), [2, 3, 7])
    XCTAssertEqual(document.cues.map(\.number), [1, 2])
    XCTAssertEqual(document.cues.map(\.timingLine), [1, 6])
    XCTAssertEqual(document.cues.map(\.start), [1000, 3000])
    XCTAssertEqual(document.cues.map(\.end), [2500, 4000])
    XCTAssertEqual(document.diagnostics, [])
  }

  func testTagsAndOverrideCodesAreMarkup() {
    let line = "{\\an8}<i>سلام</i> <font color=\"#ff0\">Ali</font>{\\i1}!"
    let document = read("1\n00:00:01,000 --> 00:00:02,000\n\(line)\n")
    let cueLine = document.lines[0]
    XCTAssertEqual(cueLine.text, "سلام Ali!")
    XCTAssertEqual(cueLine.markup.map(\.kind), [.override, .startTag, .endTag, .startTag, .endTag, .override])
    XCTAssertEqual(cueLine.markup.map(\.name), ["", "i", "i", "font", "font", ""])
    XCTAssertEqual(cueLine.markup.map(\.columns.lowerBound), [0, 6, 17, 22, 44, 51])
    XCTAssertEqual(cueLine.markup.map(\.offset), [0, 0, 8, 9, 12, 12])
    // The start of the text: after {\an8}<i>, before س.
    XCTAssertEqual(cueLine.textStartColumn, 9)
    XCTAssertEqual(cueLine.sourceColumn(ofDecoded: 0), 9)
    XCTAssertEqual(cueLine.sourceColumn(ofDecoded: 8), 21, "the space after </i>")
    XCTAssertEqual(cueLine.sourceColumn(ofDecoded: 9), 41, "A of Ali, after the font tag")
    XCTAssertEqual(cueLine.sourceColumn(ofDecoded: 12), 56, "! after {\\i1}")
    XCTAssertEqual(cueLine.sourceColumn(ofDecoded: 13), 57, "the end")
    XCTAssertEqual(cueLine.insertionColumn(atDecoded: 0), 9)
  }

  func testWhatFfmpegKeepsAsText() {
    let cases: [(String, String)] = [
      ("<<Hello>>", "<<Hello>>"),
      ("1 < 2", "1 < 2"),
      ("a < b > c", "a  c"),  // ffmpeg reads "< b >" as <b>
      ("<c.yellow>x</c>", "<c.yellow>x"),  // a dot: not a tag name; </c> is one
      ("<v Bob>hi", "hi"),  // an unknown tag with a likely name: hidden
      ("< i>x", "x"),  // a known name after spaces
      ("{an8}x", "{an8}x"),
      ("{\\an8 x", "{\\an8 x"),
      ("&amp; &lrm;", "&amp; &lrm;"),  // no references in SubRip
      ("<br>x", "x"),
    ]
    for (source, shown) in cases {
      XCTAssertEqual(read("00:00:01,000 --> 00:00:02,000\n\(source)\n").lines.first?.text, shown, source)
    }
  }

  func testLenientTimingLines() {
    for timing in [
      "00:00:01,000 --> 00:00:02,000", "0:0:1.5-->0:0:2.25",
      "  00:00:01,000   -->   00:00:02,000  X1:10 X2:20 Y1:1 Y2:2",
      "100:00:01,000 --> 100:00:02,000",
    ] {
      let document = read("1\n\(timing)\nنص\n")
      XCTAssertEqual(document.cues.count, 1, timing)
      XCTAssertEqual(document.lines.map(\.text), ["نص"], timing)
      XCTAssertEqual(document.diagnostics.filter { $0.severity == .error }, [], timing)
    }
    XCTAssertEqual(read("1\n0:0:1.5-->0:0:2.25\nx\n").cues.first?.start, 1005)
    XCTAssertEqual(read("1\n00:00:01,000 --> 00:00:02,000 X1:10\nx\n").cues.first?.settings, "X1:10")
  }

  func testTimesAndArrowsInTextStayText() {
    let document = read("1\n00:00:01,000 --> 00:00:02,000\n10:30 صباحاً\nأ --> ب\n- 5:00?\n")
    XCTAssertEqual(document.lines.map(\.text), ["10:30 صباحاً", "أ --> ب", "- 5:00?"])
    XCTAssertEqual(document.diagnostics, [])
  }

  func testNumberLineIsTextUnlessATimingLineFollows() {
    let document = read("1\n00:00:01,000 --> 00:00:02,000\nالعدد\n2024\n\n2\n\n00:00:03,000 --> 00:00:04,000\nب\n")
    XCTAssertEqual(document.lines.map(\.text), ["العدد", "2024", "ب"])
    XCTAssertEqual(document.cues.map(\.number), [1, 2])
    XCTAssertEqual(document.cues.map(\.headerLine), [0, 5])
  }

  func testMarkInsertionAtStartOfLine() throws {
    let source = "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>مرحبا!</i>\n- هل أنت بخير؟\n"
    let text = TextLines(source)
    let document = SubtitleReader.read(text, format: .subRip)
    let insertions = document.lines.map { document.insertion(of: .rightToLeft, atStartOf: $0) }
    XCTAssertEqual(
      insertions.map(\.position), [SourcePosition(line: 2, column: 9), SourcePosition(line: 3, column: 0)])
    XCTAssertEqual(insertions.map(\.text), ["\u{200F}", "\u{200F}"])
    let edited = String(decoding: text.applying(insertions), as: UTF8.self)
    XCTAssertEqual(edited, "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>\u{200F}مرحبا!</i>\n\u{200F}- هل أنت بخير؟\n")
  }
}
