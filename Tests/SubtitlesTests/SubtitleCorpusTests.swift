import StructuredText
import XCTest

@testable import Subtitles

/// The corpus read by this library against its manifest, both ways: every
/// manifest cue and line is read, every read cue and line is in the
/// manifest (in order, with its decoded text); with each file's locale and
/// mark spelling. Counts asserted.
final class SubtitleCorpusTests: XCTestCase {
  func testCorpusMatchesManifestBothWays() throws {
    let manifest = try SubtitleCorpus.manifest()
    var cueCount = 0
    var lineCount = 0
    for expected in manifest {
      let document = try SubtitleCorpus.read(expected.path)
      let rows = SubtitleCorpus.rows(document)
      let missing = expected.lines.filter { !rows.lines.contains($0) }
      let extra = rows.lines.filter { !expected.lines.contains($0) }
      XCTAssertEqual(missing, [], "\(expected.path): manifest lines the reader does not give")
      XCTAssertEqual(extra, [], "\(expected.path): read lines not in the manifest")
      XCTAssertEqual(rows.lines, expected.lines, "\(expected.path): lines in order")
      XCTAssertEqual(rows.cues, expected.cues, "\(expected.path): cues")
      let locale = subtitleLocale(document, path: expected.path)
      XCTAssertEqual(locale?.description, expected.locale, expected.path)
      XCTAssertEqual(locale?.isRightToLeft, expected.rightToLeft, expected.path)
      XCTAssertEqual(document.markSpelling.rawValue, expected.spelling, expected.path)
      XCTAssertEqual(
        document.diagnostics.filter { $0.severity != .information }, [], "\(expected.path): a well-formed file")
      cueCount += document.cues.count
      lineCount += document.lines.count
    }
    XCTAssertEqual(manifest.count, 8, "corpus files")
    XCTAssertEqual(cueCount, 45, "corpus cues")
    XCTAssertEqual(lineCount, 58, "corpus cue lines")
  }

  /// Every cue line's map: decoded offsets to columns, in order, each
  /// decoded character's column outside markup and at the start of a
  /// verbatim byte or a reference; markup and references inside the line.
  func testCorpusMapsAndMarkup() throws {
    for expected in try SubtitleCorpus.manifest() {
      let bytes = try SubtitleCorpus.bytes(expected.path)
      let text = TextLines(bytes)
      let document = SubtitleReader.read(text, format: SubtitleCorpus.format(expected.path))
      for line in document.lines {
        let source = Array(bytes[text.byteRange(ofLine: line.line)])
        assertConsistent(line, source: source, "\(expected.path):\(line.line + 1)")
      }
    }
  }

  func assertConsistent(_ line: SubtitleLine, source: [UInt8], _ label: String) {
    XCTAssertEqual(line.columns.upperBound, source.count, label)
    var previous = line.columns.lowerBound
    let utf8 = Array(line.text.utf8)
    for offset in 0...utf8.count {
      let column = line.sourceColumn(ofDecoded: offset)
      XCTAssertGreaterThanOrEqual(column, previous, "\(label): map not monotonic at \(offset)")
      XCTAssertLessThanOrEqual(column, line.columns.upperBound, label)
      previous = column
      guard offset < utf8.count else { break }
      XCTAssertFalse(
        line.markup.contains { $0.columns.contains(column) }, "\(label): offset \(offset) maps into markup")
      if let escape = line.escapes.first(where: { $0.contains(column) }) {
        XCTAssertEqual(escape.lowerBound, column, "\(label): offset \(offset) maps inside a reference")
      } else {
        XCTAssertEqual(source[column], utf8[offset], "\(label): offset \(offset) is not its source byte")
      }
    }
    for item in line.markup {
      XCTAssertTrue(
        line.columns.contains(item.columns.lowerBound) && item.columns.upperBound <= line.columns.upperBound)
    }
  }
}
