import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

@testable import Markdown
@testable import MarkdownFormat

/// The byte scans `check`'s Markdown read shares between blocks or takes
/// from elsewhere (branch mdcheck33), each against the scan it replaced:
/// the hazard cursor against a scan of each block's lines alone, the table rows'
/// validation against `CharacterClasses.sequenceLength`, and the findings
/// of `check`'s read against the read keeping every block on documents
/// with controls and ill-formed bytes.
final class CheckScanTests: XCTestCase {
  static let pieces: [[UInt8]] = [
    Array("abc ".utf8), Array("مرحبا ".utf8), Array("\u{200F}".utf8), Array("\u{061C}".utf8), Array("\u{2067}".utf8),
    Array("€".utf8), Array("😀".utf8), [0xD8], [0xE2, 0x80], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
    [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x0A], [0x0A], [0x0A], [0x00],
  ]

  static func bytes(_ random: inout SeededGenerator, count: ClosedRange<Int>) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: count, using: &random) {
      let piece = pieces.randomElement(using: &random)!
      // Ill-formed pieces less often than letters, so most lines have none.
      if piece.first! >= 0x80 && piece.count < 4 && Int.random(in: 0..<3, using: &random) > 0 {
        bytes += Array("x ".utf8)
      } else {
        bytes += piece
      }
    }
    return bytes
  }

  /// `HazardCursor.next(from:)` (over the source's `HazardLines`) says a block's lines hold a hazard
  /// exactly when `BidiControl.nextControlOrInvalid` over those lines alone
  /// finds one, for blocks asked in document order (as `emit` asks) and in
  /// any order.
  func testHazardCursorAgreesWithAScanOfEachBlock() {
    var random = SeededGenerator(seed: 3_303)
    var withHazard = 0
    var without = 0
    for round in 0..<3_000 {
      let source = MarkdownSource(Self.bytes(&random, count: 0...30))
      guard source.lineCount > 0 else { continue }
      var blocks: [ClosedRange<Int>] = []
      var line = 0
      while line < source.lineCount {
        let last = min(source.lineCount - 1, line + Int.random(in: 0...2, using: &random))
        blocks.append(line...last)
        line = last + 1 + Int.random(in: 0...1, using: &random)
      }
      if round % 3 == 0 { blocks.shuffle(using: &random) }
      var cursor = HazardCursor(HazardLines(source.bytes, lineStarts: source.lineStarts))
      for lines in blocks {
        let start = source.lineStarts[lines.lowerBound]
        let end = source.lineEnds[lines.upperBound]
        let expected = source.bytes.withUnsafeBufferPointer { bytes in
          let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
          return BidiControl.nextControlOrInvalid(slice, from: 0).offset < slice.count
        }
        if expected { withHazard += 1 } else { without += 1 }
        XCTAssertEqual((cursor.next(from: start) ?? .max) < end, expected, "\(source.bytes) \(lines)")
      }
    }
    XCTAssertGreaterThan(withHazard, 2_000)
    XCTAssertGreaterThan(without, 1_000)
  }

  /// `Tables.isWellFormed` (the hazard scan, past controls) against the
  /// loop of `CharacterClasses.sequenceLength` it replaced.
  func testTableRowValidationAgreesWithTheSequenceLoop() {
    var random = SeededGenerator(seed: 3_305)
    var illFormed = 0
    for _ in 0..<6_000 {
      let bytes = Self.bytes(&random, count: 0...12)
      let expected = bytes.withUnsafeBufferPointer { buffer -> Bool in
        var index = 0
        while index < buffer.count {
          guard let step = CharacterClasses.sequenceLength(buffer, at: index, end: buffer.count) else { return false }
          index += step
        }
        return true
      }
      if !expected { illFormed += 1 }
      XCTAssertEqual(
        bytes.withUnsafeBufferPointer { Tables.isWellFormed($0, 0..<$0.count) }, expected, "\(bytes)")
    }
    XCTAssertGreaterThan(illFormed, 1_000)
  }

  /// The findings of `check`'s read equal those of the read keeping every
  /// block on generated documents where a control or an ill-formed byte
  /// goes at a random place in one block in three (the hazard cursor then
  /// meets hazards before, inside and after the blocks it is asked about).
  func testLaneGivesTheFindingsWithHazardsAnywhere() {
    var random = SeededGenerator(seed: 3_306)
    let hazards: [[UInt8]] = [
      Array("\u{200F}".utf8), Array("\u{202E}".utf8), Array("\u{2066}".utf8), Array("\u{061C}".utf8), [0xFF],
      [0xD8, 0x20],
    ]
    var findings = 0
    for _ in 0..<1_500 {
      var bytes = Array(MarkdownFindingsLaneTests.document(&random).utf8)
      for _ in 0..<Int.random(in: 0...3, using: &random) where !bytes.isEmpty {
        var at = Int.random(in: 0..<bytes.count, using: &random)
        while at > 0 && bytes[at] & 0xC0 == 0x80 { at -= 1 }
        bytes.insert(contentsOf: hazards.randomElement(using: &random)!, at: at)
      }
      let lines = TextLines(bytes)
      let format = MarkdownFormat()
      let whole = WholeRead(lines, format: format)
      let short = WholeRead(lines, format: format, findingsOnly: true)
      let engine = FindingsEngine(format: format, spelling: whole.spelling)
      let expected = engine.findings(in: lines, read: whole) { _ in nil }
      findings += expected.count
      XCTAssertEqual(engine.findings(in: lines, read: short) { _ in nil }, expected, "\(bytes)")
    }
    XCTAssertGreaterThan(findings, 1_500)
  }
}
