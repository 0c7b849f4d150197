import BidiTestSupport
import StructuredText
import XCTest

@testable import Subtitles

/// The cue text decoder reads text between markup as Swift's own decoder
/// does: each maximal subpart of an ill-formed sequence one U+FFFD, one
/// warning a line; each LRM or RLM written as a character counted.
final class CueTextDecodingTests: XCTestCase {
  func testTextDecodesAsSwiftDoes() {
    var generator = SeededGenerator(seed: 4_404)
    // Sequences of every kind, whole, cut short or ill-formed (no markup byte of either format).
    let pool: [[UInt8]] = [
      [0x41], [0x20], [0x21], [0xD8, 0xA7], [0xE2, 0x80, 0x8E], [0xE2, 0x80, 0x8F], [0xF0, 0x9F, 0x98, 0x80],
      [0xE2, 0x80], [0xF0, 0x90, 0x80], [0xED, 0xA0, 0x80], [0xE0, 0x80], [0xF4, 0x90], [0xC0], [0xFF], [0x80],
      [0xBF], [0xC2], [0xF5], [0xEF, 0xBF], [0xD9],
    ]
    var counts = (invalid: 0, marks: 0)
    for _ in 0..<3000 {
      let bytes = generator.elements(of: pool, lengths: 1...8).flatMap { $0 }
      let expected = String(decoding: bytes, as: UTF8.self)
      for format in [SubtitleFormat.subRip, .webVTT] {
        let decoded = bytes.withUnsafeBufferPointer {
          CueTextDecoder.line($0, base: 0, format: format, cue: 1, line: 0)
        }
        XCTAssertEqual(decoded.line.text, expected, "\(bytes)")
        let invalid = expected.unicodeScalars.contains("\u{FFFD}")
        XCTAssertEqual(decoded.problems.count, invalid ? 1 : 0, "\(bytes)")
        let marks = expected.unicodeScalars.filter { $0 == "\u{200E}" || $0 == "\u{200F}" }.count
        XCTAssertEqual(decoded.markSpellings.0, marks, "\(bytes)")
        if invalid { counts.invalid += 1 }
        if marks > 0 { counts.marks += 1 }
      }
    }
    XCTAssertGreaterThan(counts.invalid, 1000)
    XCTAssertGreaterThan(counts.marks, 20)
  }
}
