import Foundation
import StructuredText
import XCTest

@testable import Subtitles

/// Bad input: each gives a diagnostic at its place and the reading goes on
/// as the lenient players read; nothing traps. Sizes that would show a
/// quadratic step (a 10 MB line, 100,000 cues) are read once each, without
/// a time limit (no thresholds in tests: Benchmarks/ measures).
final class BadInputTests: XCTestCase {
  func srt(_ text: String) -> SubtitleDocument { SubtitleReader.read(text, format: .subRip) }
  func vtt(_ text: String) -> SubtitleDocument { SubtitleReader.read(text, format: .webVTT) }

  func found(_ document: SubtitleDocument) -> [String] {
    document.diagnostics.map { "\($0.position.line):\($0.position.column) \($0.severity.rawValue)" }
  }

  func testBrokenTimingDropsTheCueAndReadingGoesOn() {
    let document = srt(
      "1\n00:00:01,000 --> 00:00:02,000\nأ\n\n2\n00:00:03,000 -> 00:00:04,000\nب\n\n3\n00:00:05,000 --> 00:00:06,000\nج\n"
    )
    XCTAssertEqual(document.lines.map(\.text), ["أ", "ج"])
    XCTAssertEqual(document.cues.map(\.index), [1, 2])
    XCTAssertEqual(found(document), ["5:13 error", "8:0 information"])
    XCTAssertTrue(document.diagnostics[0].message.contains("'-->'"), document.diagnostics[0].message)

    let webVTT = vtt(
      "WEBVTT\n\n00:00.000 --> 00:01.000\nأ\n\n00:02.00 --> 00:03.000\nب\n\n00:04.000 --> 00:05.000\nج\n")
    XCTAssertEqual(webVTT.lines.map(\.text), ["أ", "ج"])
    XCTAssertEqual(found(webVTT), ["5:8 error"])
    XCTAssertEqual(vtt("WEBVTT\n\n00:00.000 --> 00:61.000\nx\n").lines, [], "seconds past 59")
    XCTAssertEqual(srt("1\n00:00:01 --> 00:00:02\nx\n").lines, [], "no milliseconds")
  }

  func testMissingTimingIsTextOutsideACue() {
    let document = srt("1\nمرحبا\n\n2\n00:00:03,000 --> 00:00:04,000\nب\n")
    XCTAssertEqual(document.lines.map(\.text), ["ب"])
    XCTAssertEqual(found(document), ["0:0 warning", "3:0 information"])
    XCTAssertEqual(vtt("WEBVTT\n\nمرحبا\nبدون توقيت\n").diagnostics.map(\.severity), [.warning])
  }

  func testMissingEmptyLinesBetweenCues() {
    let document = srt(
      "1\n00:00:01,000 --> 00:00:02,000\nأ\n2\n00:00:03,000 --> 00:00:04,000\nب\n00:00:05,000 --> 00:00:06,000\nج\n")
    XCTAssertEqual(document.lines.map(\.text), ["أ", "ب", "ج"])
    XCTAssertEqual(document.lines.map(\.cue), [1, 2, 3])
    XCTAssertEqual(found(document), ["3:0 warning", "6:0 warning", "6:0 information"])
  }

  func testEmptyLineInsideACueKeepsTheTextInTheCue() {
    let document = srt("1\n00:00:01,000 --> 00:00:02,000\nأ\n\nب\n\n2\n00:00:03,000 --> 00:00:04,000\nج\n")
    XCTAssertEqual(document.lines.map(\.text), ["أ", "ب", "ج"])
    XCTAssertEqual(document.lines.map(\.cue), [1, 1, 2])
    XCTAssertEqual(found(document), ["4:0 warning"])
  }

  func testCueNumbersOutOfOrderOrMissing() {
    let document = srt(
      "1\n00:00:01,000 --> 00:00:02,000\nأ\n\n5\n00:00:03,000 --> 00:00:04,000\nب\n\n00:00:05,000 --> 00:00:06,000\nج\n"
    )
    XCTAssertEqual(document.lines.count, 3)
    XCTAssertEqual(found(document), ["4:0 information", "8:0 information"])
    XCTAssertEqual(document.diagnostics.map(\.message)[0], "cue number 5 where 2 was expected (players ignore numbers)")
  }

  func testEndBeforeStartAndEmptyCue() {
    let document = srt(
      "1\n00:00:05,000 --> 00:00:01,000\nأ\n\n2\n00:00:06,000 --> 00:00:07,000\n\n3\n00:00:08,000 --> 00:00:09,000\nب\n"
    )
    XCTAssertEqual(found(document), ["1:0 error", "5:0 warning"])
  }

  func testByteOrderMarkAndLineEndings() {
    for terminator in ["\n", "\r\n", "\r"] {
      let lines = ["1", "00:00:01,000 --> 00:00:02,000", "<i>مرحبا</i>", "", "2", "00:00:03,000 --> 00:00:04,000", "ب"]
      let bytes = [0xEF, 0xBB, 0xBF] + Array(lines.joined(separator: terminator).utf8)
      let document = SubtitleReader.read(TextLines(bytes), format: .subRip)
      XCTAssertEqual(document.lines.map(\.text), ["مرحبا", "ب"], terminator.debugDescription)
      XCTAssertEqual(document.diagnostics, [], terminator.debugDescription)
      XCTAssertEqual(document.lines[0].textStartColumn, 3)
    }
    let bom = SubtitleReader.read(
      TextLines([0xEF, 0xBB, 0xBF] + Array("WEBVTT\r\n\r\n00:00.000 --> 00:01.000\r\nأ".utf8)), format: .webVTT)
    XCTAssertEqual(bom.lines.map(\.text), ["أ"])
    XCTAssertEqual(bom.diagnostics, [])
    XCTAssertEqual(
      SubtitleReader.read(TextLines([0xEF, 0xBB, 0xBF, 0x31]), format: .subRip).diagnostics.first?.position.column, 3
    )
  }

  /// UTF-16 files are decoded by the caller, by `Localization`'s
  /// `DecodedLocalizationFile` (the shared foundation will own it); the
  /// readers take UTF-8.
  func testUTF16FilesDecodedByTheCaller() {
    let text = "1\n00:00:01,000 --> 00:00:02,000\n- هل أنت بخير؟\n"
    for bigEndian in [false, true] {
      var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
      for unit in text.utf16 {
        bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      }
      let decoded = DecodedFile(bytes)
      let document = SubtitleReader.read(TextLines(decoded.utf8), format: .subRip)
      XCTAssertEqual(document.lines.map(\.text), ["- هل أنت بخير؟"])
    }
  }

  func testInvalidUTF8NulAndUnclosedTags() {
    let srtDocument = SubtitleReader.read(
      TextLines(Array("1\n00:00:01,000 --> 00:00:02,000\na".utf8) + [0xFF, 0xD8, 0x00] + Array("b".utf8)),
      format: .subRip)
    XCTAssertEqual(srtDocument.lines.map(\.text), ["a\u{FFFD}\u{FFFD}\u{0}b"])
    XCTAssertEqual(srtDocument.lines[0].escapes, [1..<2, 2..<3])
    XCTAssertEqual(found(srtDocument), ["2:1 warning"])
    let webVTT = SubtitleReader.read(
      TextLines(Array("WEBVTT\n\n00:00.000 --> 00:01.000\na\u{0}b <i".utf8)), format: .webVTT)
    XCTAssertEqual(webVTT.lines.map(\.text), ["a\u{FFFD}b "])
    XCTAssertEqual(found(webVTT), ["3:4 warning"])
  }

  func testNotAWebVTTFile() {
    XCTAssertEqual(found(vtt("1\n00:00:01.000 --> 00:00:02.000\nأ\n")), ["0:0 error"])
    XCTAssertEqual(vtt("1\n00:00:01.000 --> 00:00:02.000\nأ\n").lines.map(\.text), ["أ"], "read on for the editor")
    XCTAssertEqual(found(vtt("WEBVTTX\n\n00:01.000 --> 00:02.000\nأ\n")), ["0:0 error"])
    XCTAssertEqual(found(vtt("WEBVTT\n00:01.000 --> 00:02.000\nأ\n")), ["1:0 warning"])
    XCTAssertEqual(vtt("").lines, [])
    XCTAssertEqual(srt("").lines, [])
  }

  func testTenMegabyteLines() {
    let long = String(repeating: "مرحبا <i>x</i> &amp; ", count: 500_000)
    XCTAssertGreaterThan(long.utf8.count, 10_000_000)
    let document = srt("1\n00:00:01,000 --> 00:00:02,000\n\(long)\n")
    XCTAssertEqual(document.lines.count, 1)
    XCTAssertEqual(document.lines[0].markup.count, 1_000_000)
    let webVTT = vtt("WEBVTT\n\n00:01.000 --> 00:02.000\n\(long)\n")
    XCTAssertEqual(webVTT.lines[0].escapes.count, 500_000)
    // One tag, one reference and one timing line that never end.
    for line in ["<" + String(repeating: "a", count: 10_000_000), "&" + String(repeating: "b", count: 10_000_000)] {
      XCTAssertEqual(vtt("WEBVTT\n\n00:01.000 --> 00:02.000\n\(line)\n").lines.count, 1)
      XCTAssertEqual(srt("1\n00:00:01,000 --> 00:00:02,000\n\(line)\n").lines.count, 1)
    }
    XCTAssertEqual(
      srt("1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "{\\", count: 5_000_000)).lines.count, 1)
    XCTAssertEqual(
      srt(String(repeating: "1", count: 10_000_000) + ":2:3,4 --> " + String(repeating: "-", count: 100)).cues.count, 0)
  }

  func testHundredThousandCues() {
    var text = ""
    for index in 1...100_000 {
      text += "\(index)\n00:00:01,000 --> 00:00:02,000\n- هل أنت بخير؟ \(index)\n\n"
    }
    let document = srt(text)
    XCTAssertEqual(document.cues.count, 100_000)
    XCTAssertEqual(document.lines.count, 100_000)
    XCTAssertEqual(document.checkpoints.count, 99_999)
    XCTAssertEqual(document.diagnostics, [])
  }
}
