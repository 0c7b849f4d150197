import BidiTestSupport
import UnicodeBidi
import XCTest

/// `BidiParagraph(utf8:direction:until:)`: the same resolution as the plain
/// initializer while `stop` answers false, nil as soon as it answers true,
/// and `stop` asked as the resolution goes (once after decoding, then
/// before each isolating run sequence), not once at the end.
final class InterruptibleParagraphTests: XCTestCase {
  static let pieces = [
    "a", "word ", " ", "שלום", "مرحبا ", "123", "(", ")", "[x]", "\u{2067}", "\u{2068}", "\u{2069}", "\u{202B}",
    "\u{202A}", "\u{202C}", "\u{202E}", "\u{200F}", "\u{AD}", "\u{301}", "😀", "-", "$",
  ]

  private func randomText(_ rng: inout SeededGenerator) -> [UInt8] {
    Array(rng.text(Self.pieces, lengths: 0...40).utf8)
  }

  /// The resolution as observed through a line: levels, runs, visual order.
  private func resolved(_ paragraph: BidiParagraph) -> [String] {
    let line = paragraph.line()
    return [
      "\(paragraph.level)", "\(paragraph.levels(in: .utf16))", "\(line.runs(in: .utf16))",
      "\(line.visualOrder(in: .utf16))",
    ]
  }

  func testANeverStoppedResolutionIsThePlainOneAndAStopAtAnyCheckGivesUp() throws {
    var rng = SeededGenerator(seed: 0x5709)
    var checksSeen = 0
    for _ in 0..<400 {
      let bytes = randomText(&rng)
      for direction in [DirectionChoice.auto, .leftToRight, .rightToLeft] {
        let plain = BidiParagraph(utf8: bytes, direction: direction)
        var checks = 0
        let unstopped = try XCTUnwrap(
          bytes.withUnsafeBufferPointer { utf8 in
            BidiParagraph(utf8: utf8, direction: direction) {
              checks += 1
              return false
            }
          })
        XCTAssertEqual(resolved(unstopped), resolved(plain), "\(String(decoding: bytes, as: UTF8.self))")
        XCTAssertGreaterThanOrEqual(checks, 1, "asked at least once, after decoding")
        checksSeen += checks
        // Stopping at the k-th check, for every check there was.
        for k in 1...checks {
          var asked = 0
          let stopped = bytes.withUnsafeBufferPointer { utf8 in
            BidiParagraph(utf8: utf8, direction: direction) {
              asked += 1
              return asked == k
            }
          }
          XCTAssertNil(stopped, "stopped at check \(k) of \(checks)")
          XCTAssertEqual(asked, k, "nothing is asked after the stop")
        }
      }
    }
    XCTAssertGreaterThan(checksSeen, 1200, "random paragraphs with isolates ask more than once")
  }

  /// A paragraph of 10,000 isolates is asked at least once per isolate's
  /// sequence; stopping half-way leaves the other half unresolved.
  func testALongParagraphIsAskedAsItGoes() throws {
    let bytes = Array(String(repeating: "abc \u{2067}שלום (1)\u{2069} ", count: 10_000).utf8)
    var checks = 0
    _ = bytes.withUnsafeBufferPointer { utf8 in
      BidiParagraph(utf8: utf8, direction: .auto) {
        checks += 1
        return false
      }
    }
    XCTAssertGreaterThanOrEqual(checks, 10_000)
    var asked = 0
    let stopped = bytes.withUnsafeBufferPointer { utf8 in
      BidiParagraph(utf8: utf8, direction: .auto) {
        asked += 1
        return asked == checks / 2
      }
    }
    XCTAssertNil(stopped)
    XCTAssertEqual(asked, checks / 2)
  }
}
