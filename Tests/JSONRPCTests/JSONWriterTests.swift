import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// `JSONWriter` against jansson: what it writes is read back by jansson's
/// decoder as the value written, and integer arrays are byte for byte what
/// jansson's own encoder writes.
final class JSONWriterTests: XCTestCase {
  /// Every kind of byte a string's UTF-8 holds: the escaped ones (quote,
  /// backslash, each control character class), ASCII runs longer than a
  /// word, and multi-byte sequences whose bytes the escape test must pass.
  static let pieces = [
    "a", "abcdefghijklmnop", "\"", "\\", "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\n", "\r", "\t", " ",
    "/", "\u{7F}", "\u{80}", "ب", "שלום", "😀", "\u{202E}", "\u{2028}", "\u{FEFF}", "\"\\\"", "x\u{0}y",
  ]

  static let integerSamples: [Int] = [
    0, 1, -1, 9, 10, -10, 99, 100, 101, 999, 1000, 65_535, -65_536, 1 << 31, -(1 << 31), 1 << 53,
    999_999_999_999_999_999, 1_000_000_000_000_000_000, -999_999_999_999_999_999, -1_000_000_000_000_000_000,
    Int.max, Int.min, Int.max - 1, Int.min + 1,
  ]

  private func written(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
    var writer = JSONWriter()
    body(&writer)
    return writer.text
  }

  func testStringsAndKeysReadBackAsWritten() throws {
    var generator = SeededGenerator(seed: 0x4A53_4F4E)
    var checked = 0
    for round in 0..<3_000 {
      let count = Int(generator.next() % 40)
      let text = (0..<count).map { _ in Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))] }.joined()
      // jansson refuses U+0000 in a key (not in a value).
      let key = text.replacingOccurrences(of: "\u{0}", with: "0")
      let bytes = written { writer in
        writer.beginObject()
        writer.member(key, text)
        writer.member("n", round)
        writer.endObject()
      }
      XCTAssertEqual(try JSONValue(decoding: bytes), .object([key: .string(text), "n": JSONValue(round)]), "\(text)")
      checked += 1
    }
    XCTAssertEqual(checked, 3_000)
  }

  /// `asciiOnly` (check's `--format json` and SARIF): only ASCII bytes, read
  /// back by jansson as the value written, each character past U+007F one
  /// `\u` escape per UTF-16 unit in capitals, as jansson's `JSON_ENSURE_ASCII`
  /// spells them; the other escapes as without the mode.
  func testASCIIOnlyTextEscapesEveryCharacterPastASCII() throws {
    var generator = SeededGenerator(seed: 0x4153_4349)
    // Past it, a decoded string stays jansson's bytes (`.longString`).
    let padding = String(repeating: "ـa", count: LongString.minimumCount / 2)
    var escapes = 0
    var longs = 0
    for _ in 0..<3_000 {
      let count = Int(generator.next() % 40)
      let text = (0..<count).map { _ in Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))] }.joined()
      let short = JSONValue.string(text)
      let long = try JSONValue(decoding: JSONValue.string(text + padding).encoded())
      for value in generator.next() % 100 == 0 ? [short, long] : [short] {
        var writer = JSONWriter(asciiOnly: true)
        writer.value(value)
        var plain = JSONWriter()
        plain.value(value)
        let bytes = writer.text
        if case .longString = value { longs += 1 }
        XCTAssertTrue(bytes.allSatisfy { $0 < 0x80 }, "\(text)")
        XCTAssertEqual(try JSONValue(decoding: bytes), value, "\(text)")
        var expected = ""
        for unit in String(decoding: plain.text, as: UTF8.self).utf16 {
          expected += unit < 0x80 ? String(UnicodeScalar(UInt8(unit))) : String(format: "\\u%04X", unit)
          escapes += unit < 0x80 ? 0 : 1
        }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected, "\(text)")
      }
    }
    var scalars = JSONWriter(asciiOnly: true)
    scalars.string(scalars: [0x62, 0x628, 0x1F600, 0xD800])
    XCTAssertEqual(String(decoding: scalars.text, as: UTF8.self), #""b\u0628\uD83D\uDE00\uFFFD""#)
    XCTAssertGreaterThan(escapes, 10_000)
    XCTAssertGreaterThan(longs, 10)
  }

  func testALongStringReadsBackAsWritten() throws {
    let text = String(repeating: Self.pieces.joined(), count: LongString.minimumCount / 40)
    let decoded = try JSONValue(decoding: JSONValue.string(text).encoded())
    guard case .longString = decoded else { return XCTFail("expected jansson's long string") }
    XCTAssertEqual(try JSONValue(decoding: written { $0.value(decoded) }), .string(text))
    XCTAssertEqual(try JSONValue(decoding: written { $0.string(text) }), .string(text))
  }

  func testIntegersAreJanssonsBytes() throws {
    for value in Self.integerSamples {
      XCTAssertEqual(written { $0.integer(value) }, JSONValue(value).encoded(), "\(value)")
    }
    // Long arrays cross the stage (4 KiB) and chunk (256 KiB) boundaries and
    // the interruption interval; a comma goes before an array after a key.
    var generator = SeededGenerator(seed: 7)
    for count in [0, 1, 2, 300, 70_000, 200_000] {
      let values = (0..<count).map { k -> Int in
        switch generator.next() % 4 {
        case 0: return Self.integerSamples[k % Self.integerSamples.count]
        case 1: return Int(truncatingIfNeeded: generator.next())
        default: return Int(generator.next() % 100_000)
        }
      }
      let expected = JSONValue.array([.integer(1), .array(values.map { JSONValue($0) }), .integer(2)]).encoded()
      let bytes = written { writer in
        writer.beginArray()
        writer.integer(1)
        writer.integers(values)
        writer.integer(2)
        writer.endArray()
      }
      XCTAssertEqual(bytes.count, expected.count, "\(count) integers")
      XCTAssertTrue(bytes == expected, "\(count) integers: the bytes differ from jansson's")
    }
  }
}
