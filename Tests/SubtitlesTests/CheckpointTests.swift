import BidiTestSupport
import StructuredText
import XCTest

@testable import Subtitles

/// Reading from a checkpoint gives what a full read gives from its line
/// on: cues, lines, diagnostics and later checkpoints. On the corpus, and
/// on generated files mixing cues with the bad input of `BadInputTests`.
final class CheckpointTests: XCTestCase {
  func assertCheckpointsRereadEqual(
    _ text: TextLines, _ format: SubtitleFormat, _ label: String, file: StaticString = #filePath, line: UInt = #line
  ) -> Int {
    let full = SubtitleReader.read(text, format: format)
    for checkpoint in full.checkpoints {
      let partial = SubtitleReader.read(text, format: format, from: checkpoint)
      let from = checkpoint.line
      XCTAssertEqual(
        partial.cues, full.cues.filter { $0.firstLine >= from }, "\(label) from \(from)", file: file, line: line)
      XCTAssertEqual(
        partial.lines, full.lines.filter { $0.line >= from }, "\(label) from \(from)", file: file, line: line)
      XCTAssertEqual(
        partial.diagnostics, full.diagnostics.filter { $0.position.line >= from }, "\(label) from \(from)", file: file,
        line: line)
      XCTAssertEqual(
        partial.checkpoints, full.checkpoints.filter { $0.line >= from }, "\(label) from \(from)", file: file,
        line: line)
    }
    return full.checkpoints.count
  }

  func testCorpusCheckpoints() throws {
    var count = 0
    for expected in try SubtitleCorpus.manifest() {
      count += assertCheckpointsRereadEqual(
        TextLines(try SubtitleCorpus.bytes(expected.path)), SubtitleCorpus.format(expected.path), expected.path)
    }
    // SubRip: every cue but each file's first (4 + 5 + 8 + 5); WebVTT: every
    // block after the header (5; 7 cues + STYLE, REGION, two NOTEs; 3 + a NOTE; 4).
    XCTAssertEqual(count, 22 + 5 + 11 + 4 + 4)
  }

  func testGeneratedFilesCheckpoints() {
    var generator = SeededGenerator(seed: 27)
    let srtPieces = [
      "1", "2", "17", "00:00:01,000 --> 00:00:02,000", "00:00:03,000 --> 00:00:01,000", "00:00:01,000 -> 00:00:02,000",
      "00:00:01", "", "", "", "- هل أنت بخير؟", "<i>مرحبا!</i>", "{\\an8}שלום", "2024", "text --> more",
    ]
    let vttPieces = [
      "WEBVTT", "NOTE x", "STYLE", "REGION", "id", "00:01.000 --> 00:02.000", "00:00:01.000 --> 00:00:02.000 line:0",
      "00:01.00 --> 00:02.000", "", "", "", "<v أحمد>مرحبا &amp; أهلا", "&rlm;- نعم", "a --> b", "Language: fa", "   ",
    ]
    var checkpoints = 0
    for round in 0..<400 {
      let format: SubtitleFormat = round % 2 == 0 ? .subRip : .webVTT
      let pieces = format == .subRip ? srtPieces : vttPieces
      var lines = format == .webVTT && round % 4 == 1 ? ["WEBVTT", ""] : []
      for _ in 0..<Int.random(in: 1...40, using: &generator) { lines.append(pieces.randomElement(using: &generator)!) }
      let text = TextLines(lines.joined(separator: "\n"))
      checkpoints += assertCheckpointsRereadEqual(text, format, "round \(round): \(lines)")
    }
    XCTAssertGreaterThan(checkpoints, 500, "the generated files have checkpoints to test")
  }

  /// A checkpoint depends only on the text above it: when an edit below it
  /// makes its block no cue (the timing line gone), reading from it gives
  /// what a whole read gives — the block's text joins the cue still open
  /// before it, as ffmpeg and the `srt` library read it.
  func testCheckpointBeforeABlockThatStopsBeingACue() {
    let before = "1\n00:00:01,000 --> 00:00:02,000\nمرحبا\n\n2\n00:00:03,000 --> 00:00:04,000\nشكراً\n"
    let after = "1\n00:00:01,000 --> 00:00:02,000\nمرحبا\n\n2\nشكراً\n"
    let checkpoint = SubtitleReader.read(before, format: .subRip).checkpoints.first { $0.line == 4 }
    XCTAssertEqual(checkpoint?.openCue, true)
    let whole = SubtitleReader.read(after, format: .subRip)
    XCTAssertEqual(whole.lines.map(\.text), ["مرحبا", "2", "شكراً"])
    XCTAssertEqual(whole.lines.map(\.cue), [1, 1, 1])
    let resumed = SubtitleReader.read(TextLines(after), format: .subRip, from: checkpoint)
    XCTAssertEqual(resumed.lines, Array(whole.lines.dropFirst()))
  }

  /// A read told to stop at a checkpoint reads no further: what it holds
  /// is the full read's up to that checkpoint, whose line it ends on — an
  /// index's re-read after an edit costs the cues it touches, not the file.
  func testAReadStopsWhereItIsTold() {
    for format in SubtitleFormat.allCases {
      var lines: [String] = format == .webVTT ? ["WEBVTT", ""] : []
      for cue in 1...2000 {
        if format == .subRip { lines.append("\(cue)") }
        lines += [format == .subRip ? "00:00:01,000 --> 00:00:02,000" : "00:01.000 --> 00:02.000", "مرحبا!", ""]
      }
      let text = TextLines(lines.joined(separator: "\n"))
      let full = SubtitleReader.read(text, format: format)
      let from = full.checkpoints[10]
      var asked = 0
      let partial = SubtitleReader.read(text, format: format, from: from) { checkpoint in
        asked += 1
        return checkpoint.line >= from.line + 40
      }
      let stop = full.checkpoints.first { $0.line >= from.line + 40 }!
      XCTAssertEqual(partial.checkpoints.last, stop, "\(format)")
      XCTAssertEqual(partial.lines, full.lines.filter { $0.line >= from.line && $0.line < stop.line }, "\(format)")
      XCTAssertLessThan(asked, 20, "\(format): asked at the checkpoints up to the stop only")
    }
  }
}
