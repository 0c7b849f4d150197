import BidiTestSupport
import Foundation
import StructuredText
import UnicodeBidi
import XCTest

@testable import Subtitles

/// The corpus read by readers that are not this library's
/// (`scripts/subtitles-check`: PyPI's `srt` and `webvtt-py`, Python's
/// `html.unescape`), in one Python process per test:
/// - each file gives the same cues (index, start, end) and the same decoded
///   lines as this library reads;
/// - each file with U+200F inserted at every cue line's
///   `textStartColumn`, spelled as the file spells marks: the same cues,
///   timings and voices, each line's text the old one after one U+200F
///   (the mark is the first character players lay out); and this library
///   reads the edited file the same way.
final class IndependentReaderTests: XCTestCase {
  func testCorpusAndMarkedCopiesThroughIndependentReaders() throws {
    let manifest = try SubtitleCorpus.manifest()
    let folder = try SubtitleCorpus.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    var jobs: [String] = []
    var ours: [String: (cues: [[String]], lines: [String])] = [:]
    var insertionCount = 0
    for (index, expected) in manifest.enumerated() {
      let original = SubtitleCorpus.root.appendingPathComponent(expected.path).path
      let format = SubtitleCorpus.format(expected.path)
      let kind = format == .subRip ? "srt" : "vtt"
      let text = TextLines(try SubtitleCorpus.bytes(expected.path))
      let document = SubtitleReader.read(text, format: format)
      ours[expected.path] = SubtitleCorpus.rows(document)
      jobs.append("read\t\(expected.path)\t\(kind)\t\(original)")

      let insertions = document.lines.map { document.insertion(of: .rightToLeft, atStartOf: $0) }
      insertionCount += insertions.count
      let edited = text.applying(insertions)
      let reread = SubtitleReader.read(TextLines(edited), format: format)
      XCTAssertEqual(reread.cues.count, document.cues.count, expected.path)
      XCTAssertEqual(reread.lines.map(\.text), document.lines.map { "\u{200F}" + $0.text }, expected.path)
      XCTAssertEqual(reread.lines.map(\.markup.count), document.lines.map(\.markup.count), expected.path)
      XCTAssertEqual(reread.markSpelling, document.markSpelling, "\(expected.path): the spelling stays")
      let editedFolder = folder.appendingPathComponent("\(index)")
      try FileManager.default.createDirectory(at: editedFolder, withIntermediateDirectories: true)
      let editedPath = editedFolder.appendingPathComponent((expected.path as NSString).lastPathComponent).path
      try Data(edited).write(to: URL(fileURLWithPath: editedPath))
      jobs.append("compare\t\(expected.path)#rlm\t\(kind)\t\(original)\t\(editedPath)")
    }

    var theirs: [String: (cues: [[String]], lines: [String])] = [:]
    var same: [String] = []
    for row in try SubtitleCorpus.runChecker(jobs) {
      switch row[0] {
      case "cue": theirs[row[1], default: ([], [])].cues.append(Array(row[2...4]))
      case "line": theirs[row[1], default: ([], [])].lines.append(row[2] + "\t" + row[3])
      case "same": same.append(row[1])
      case "differ": XCTFail("\(row[1]): \(row[2])")
      case "error": XCTFail("\(row[1]) rejected: \(row[2])")
      default: XCTFail("checker: \(row)")
      }
    }
    for expected in manifest {
      XCTAssertEqual(theirs[expected.path]?.cues, ours[expected.path]?.cues, "\(expected.path): cues")
      XCTAssertEqual(theirs[expected.path]?.lines, ours[expected.path]?.lines, "\(expected.path): lines")
    }
    XCTAssertEqual(same.count, manifest.count, "marked copies read the same")
    XCTAssertEqual(theirs.values.map(\.cues.count).reduce(0, +), 45, "cues the independent readers read")
    XCTAssertEqual(theirs.values.map(\.lines.count).reduce(0, +), 58, "lines the independent readers read")
    XCTAssertEqual(insertionCount, 58)
  }

  /// Why the mark goes after the markup that opens a line: the same mark
  /// put before it (at column 0) makes webvtt-py lose the speaker of every
  /// cue whose first line opens with `<v …>` (the checker reports "differ"),
  /// where the corpus test above keeps them.
  func testMarkBeforeLeadingVoiceTagLosesTheVoice() throws {
    let path = "vtt/lecture.ar.vtt"
    let text = TextLines(try SubtitleCorpus.bytes(path))
    let document = SubtitleReader.read(text, format: .webVTT)
    let atLineStart = document.lines.map {
      SubtitleInsertion(position: SourcePosition(line: $0.line, column: $0.columns.lowerBound), text: "&rlm;")
    }
    let folder = try SubtitleCorpus.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let edited = folder.appendingPathComponent("lecture.ar.vtt")
    try Data(text.applying(atLineStart)).write(to: edited)
    let original = SubtitleCorpus.root.appendingPathComponent(path).path
    let rows = try SubtitleCorpus.runChecker(["compare\tbefore-tags\tvtt\t\(original)\t\(edited.path)"])
    XCTAssertEqual(rows.first?.first, "differ", "\(rows)")
    XCTAssertTrue(rows.first?.last?.contains("'-'") == true, "the voice is gone: \(rows)")
  }

  /// The named references table against Python's `html.entities.html5`
  /// (the WHATWG table): every name, its code points, whether it is legacy.
  func testCharacterReferenceTableMatchesPython() throws {
    var count = 0
    for row in try SubtitleCorpus.runChecker(["entities\tall"]) where row[0] == "entity" {
      count += 1
      let expected = row[3].split(separator: "+").map { UInt32($0, radix: 16)! }
      let ours = HTMLCharacterReferences.scalars(named: row[2])
      XCTAssertEqual(ours?.scalars, expected, row[2])
      XCTAssertEqual(ours?.legacy, row[4] == "1", row[2])
    }
    XCTAssertEqual(count, 2125)
    XCTAssertEqual(HTMLCharacterReferences.nameCount, 2125)
  }

  /// The generated table is what its generator writes today.
  func testCharacterReferenceTableIsFresh() throws {
    let generator = SubtitleCorpus.checker.deletingLastPathComponent()
      .appendingPathComponent("../generate-html-entities.py").standardized
    let run = try TestClient.run(
      SubtitleCorpus.python.0, arguments: SubtitleCorpus.python.1 + [generator.path, "--check"], timeout: 60)
    XCTAssertEqual(
      run.status, 0,
      "Sources/CHTMLEntities is out of date: run scripts/generate-html-entities.py")
  }

  /// Character references decoded by this library and by `html.unescape`
  /// (HTML's algorithm) on generated lines: named ones with and without
  /// semicolons, prefixes of legacy names, numeric ones in range and out.
  /// Python drops C0/C1 controls and noncharacters that HTML keeps, so
  /// those values are not generated.
  func testCharacterReferencesMatchHTMLUnescape() throws {
    var generator = SystemRandomNumberGenerator()
    let pieces = [
      "&amp;", "&amp", "&ampx", "&lt;", "&gt", "&lrm;", "&rlm;", "&nbsp;", "&nbsp", "&notin;", "&notit;", "&not",
      "&AMP;", "&Amp;", "&hellip;", "&frac12", "&frac12;", "&#x200F;", "&#8207;", "&#8207", "&#X200e;", "&#0;",
      "&#x110000;", "&#xD800;", "&#128;", "&#x9F;", "&#65;", "&#;", "&#x;", "&", "&;", "& ", "&zzzz;", "&copy",
      "&copyx;", "&NotNestedGreaterGreater;", "&ThickSpace;", "a", "ب", " ", ";", "#", "x", "&&lt;", "&#x41",
      "&#00000000000000000000065;", "&#x0000000000000000041;", "&#99999999999999999999;",
    ]
    var lines: [String] = []
    for _ in 0..<2000 {
      lines.append(
        (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
    }
    let folder = try SubtitleCorpus.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("references.txt").path
    try (lines.map(SubtitleCorpus.escape).joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let theirs = try SubtitleCorpus.runChecker(["unescape\tall\t\(path)"]).filter { $0[0] == "unescaped" }.map { $0[2] }
    XCTAssertEqual(theirs.count, lines.count)
    for (line, expected) in zip(lines, theirs) {
      let document = SubtitleReader.read("WEBVTT\n\n00:00.000 --> 00:01.000\n" + line + "\n", format: .webVTT)
      XCTAssertEqual(SubtitleCorpus.escape(document.lines.first?.text ?? ""), expected, line)
    }
  }
}
