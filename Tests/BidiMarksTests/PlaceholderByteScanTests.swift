import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

/// `Placeholder.scan(utf8:)` walks bytes instead of decoded scalars; the
/// planner, which decodes the text and splits it into paragraphs by the
/// Unicode data, is the reference it must agree with.
final class PlaceholderByteScanTests: XCTestCase {
  /// Every character of Bidi_Class B, by the Unicode data, begins with a
  /// byte the scan decodes.
  func testSeparatorLeadBytesCoverBidiClassB() {
    var separators = 0
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), BidiProperties.bidiClass(value) == .B else { continue }
      separators += 1
      let lead = Array(String(Character(scalar)).utf8)[0]
      XCTAssertTrue(Placeholder.mayBeginSeparator(lead), "U+\(String(value, radix: 16))")
    }
    XCTAssertGreaterThan(separators, 0)
  }

  private func assertSame(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(
      Placeholder.scan(utf8: bytes), MarkPlanner(utf8: bytes).placeholders(), "\(bytes)", file: file, line: line)
  }

  func testAgreesWithThePlannerOnFixedTexts() {
    let texts = [
      "", "%", "%%d", "%d\n%s", "%\n d", "\u{2029}%@\u{2029}", "a\u{85}%1$@", "% d\u{2029}x", "{{\nname}}",
      "\\(a\n)", "\\(a)\u{2029}\\(b)", "عدد %d من %s", "{0:N2}\r\n{name}", "${name}\u{1C}%.2f", "%-08.3e%'d",
      "\u{2028}%d", "\u{2066}%d\u{2069}",
    ]
    for text in texts { assertSame(Array(text.utf8)) }
    assertSame([0x25, 0xC2, 0x64])  // `%`, a lead byte without its continuation, `d`
    assertSame([0x25, 0xE2, 0x80, 0x64, 0x0A, 0x25, 0x73])
    assertSame([0xC2, 0x85, 0x25, 0x40, 0xE2, 0x80, 0xA9, 0x25, 0x64, 0xFF, 0x25, 0x78])
  }

  func testAgreesWithThePlannerOnRandomTexts() {
    var generator = SeededGenerator(seed: 28)
    let extra: [[UInt8]] = [[0x0A], [0x0D], [0x1C], [0xC2, 0x85], [0xE2, 0x80, 0xA9], [0x80], [0xE2, 0x80], [0xFF]]
    for _ in 0..<3000 {
      var bytes = Array(randomLine(&generator, pieces: 16).utf8)
      for _ in 0..<Int.random(in: 0...2, using: &generator) {
        let insert = extra.randomElement(using: &generator) ?? [0x0A]
        bytes.insert(contentsOf: insert, at: Int.random(in: 0...bytes.count, using: &generator))
      }
      assertSame(bytes)
    }
  }
}
