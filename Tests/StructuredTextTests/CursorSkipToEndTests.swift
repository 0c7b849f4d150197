import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

/// `Cursor.skipToEnd` against what it stands for, `skip(toColumn:
/// bytes.count)` until `isAtEnd`: the same line, column, bytes and first
/// byte that is not UTF-8, from any start, on texts with empty lines, CR
/// LF, and ill-formed bytes anywhere (the last line too).
final class CursorSkipToEndTests: XCTestCase {
  static let pieces: [[UInt8]] = [
    Array("a".utf8), Array("مرحبا".utf8), Array(" ".utf8), [0x0A], [0x0A], [0x0D, 0x0A], [0x0D], [0xFF], [0xC3],
    [0xE2, 0x80],
    [0xED, 0xA0, 0x80], Array("\u{202E}".utf8), Array("😀".utf8),
  ]

  func testSkipToEndEqualsSkippingLineByLine() {
    var random = SeededGenerator(seed: 31)
    var invalid = 0
    for _ in 0..<3_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...16, using: &random) {
        let piece = Self.pieces.randomElement(using: &random)!
        bytes += piece.first! >= 0x80 && piece.count < 3 && Int.random(in: 0..<3, using: &random) > 0 ? [0x62] : piece
      }
      let lines = TextLines(bytes)
      let line = Int.random(in: 0..<lines.lineCount, using: &random)
      var fast = Cursor(lines, line: line)
      fast.skip(toColumn: Int.random(in: 0...2, using: &random))
      var slow = fast
      fast.skipToEnd()
      while !slow.isAtEnd { slow.skip(toColumn: slow.bytes.count) }
      XCTAssertEqual(fast.line, slow.line, "\(bytes)")
      XCTAssertEqual(fast.column, slow.column, "\(bytes)")
      XCTAssertEqual(fast.bytes, slow.bytes, "\(bytes)")
      XCTAssertEqual(fast.invalidText, slow.invalidText, "\(bytes)")
      XCTAssertEqual(fast.invalidByte, slow.invalidByte, "\(bytes)")
      if slow.invalidText != nil { invalid += 1 }
    }
    XCTAssertGreaterThan(invalid, 300)
  }
}
