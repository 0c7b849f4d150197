import BidiHazards
import StructuredText
import XCTest

/// The defects of a UTF-16 file are named from its UTF-8 conversion
/// (`DecodedFile`), where they are ill-formed bytes.
final class UTF16ConversionTests: XCTestCase {
  /// The conversion of UTF-16LE `units` (after a BOM), and `tail` bytes.
  func converted(_ units: [UInt16], tail: [UInt8] = []) -> DecodedFile {
    DecodedFile([0xFF, 0xFE] + units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] } + tail)
  }

  func testEachDefectIsNamedFromItsBytes() {
    // Every unpaired surrogate, high and low, by its unit.
    for unit in [UInt16(0xD800), 0xDBFF, 0xDC00, 0xDFFF, 0xD83D] {
      let file = converted([0x61, unit, 0x62])
      XCTAssertEqual(file.utf8.count, 5)
      XCTAssertEqual(
        UTF16Conversion.describe(file.utf8[1..<4]),
        "an unpaired UTF-16 surrogate (0x\(String(unit, radix: 16, uppercase: true)))")
    }
    // A high surrogate before a pair stays one; the pair is a character.
    let pairAfter = converted([0xD800, 0xD83D, 0xDE00])
    XCTAssertEqual(pairAfter.utf8.count, 3 + 4)
    XCTAssertEqual(UTF16Conversion.describe(pairAfter.utf8[0..<3]), "an unpaired UTF-16 surrogate (0xD800)")
    XCTAssertEqual(Array(pairAfter.utf8[3...]), Array("😀".utf8))
    let odd = converted([0x61], tail: [0x42])
    XCTAssertEqual(odd.utf8, [0x61, UTF16Conversion.oddByteMark])
    XCTAssertEqual(
      UTF16Conversion.describe(odd.utf8[1...]), "an odd last byte (UTF-16 is read two bytes at a time)")
    let both = converted([0xDC00, 0xDC00], tail: [0x42])
    XCTAssertEqual(
      UTF16Conversion.describe(both.utf8),
      "unpaired UTF-16 surrogates (0xDC00 0xDC00) and an odd last byte (UTF-16 is read two bytes at a time)")
    // Bytes a conversion never writes are named as bytes.
    XCTAssertEqual(UTF16Conversion.describe([0xC3, 0x0A]), "bytes that are not text (0xC3 0x0A)")
  }

  func testOnlyAConversionsLinesSayTheyAreOne() {
    XCTAssertTrue(converted([0x61]).text.isUTF16Conversion)
    XCTAssertTrue(DecodedFile([0xFE, 0xFF, 0x00, 0x61]).text.isUTF16Conversion)
    XCTAssertFalse(DecodedFile(Array("a".utf8)).text.isUTF16Conversion)
    XCTAssertFalse(DecodedFile([0xEF, 0xBB, 0xBF, 0x61]).text.isUTF16Conversion)
  }
}
