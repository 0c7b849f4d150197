import JSONRPC
import XCTest

/// Decoded strings of `LongString.minimumCount` bytes or more stay jansson's
/// bytes (`JSONValue.longString`) and behave exactly as the `.string` of the
/// same text: equality, hashing, encoding, accessors, errors.
final class LongStringTests: XCTestCase {
  /// Text of at least `minimumCount` bytes, every kind of UTF-8 sequence,
  /// escapes, U+0000 and every line terminator in it.
  private let text = String(
    repeating: "a\u{0}ب שלום\u{202E}😀𝒜\n\r\n\r\"\\\t", count: LongString.minimumCount / 16)

  private func decode(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(decoding: bytes) }

  func testALongStringDecodesWithoutAStringAndEqualsTheString() throws {
    XCTAssertGreaterThanOrEqual(text.utf8.count, LongString.minimumCount)
    let decoded = try decode(JSONValue.string(text).encoded())
    guard case .longString(let long) = decoded else {
      return XCTFail("expected a long string, got \(decoded.typeName)")
    }
    XCTAssertEqual(long.count, text.utf8.count)
    XCTAssertEqual(long.string, text)
    XCTAssertEqual(decoded.stringValue, text)
    XCTAssertEqual(decoded.stringUTF8Count, text.utf8.count)
    XCTAssertEqual(decoded.withStringUTF8 { Array($0) }, Array(text.utf8))
    XCTAssertEqual(decoded.typeName, "string")
    XCTAssertEqual(decoded, .string(text))
    XCTAssertEqual(JSONValue.string(text), decoded)
    XCTAssertEqual(decoded.hashValue, JSONValue.string(text).hashValue)
    XCTAssertEqual(Set([decoded, .string(text)]).count, 1)
    XCTAssertNotEqual(decoded, .string(text + "x"))
    XCTAssertNotEqual(decoded, .string(String(text.dropLast()) + "y"))
    XCTAssertNotEqual(decoded, .integer(1))
  }

  func testStringsAreEqualByCodePointsAsInJSON() throws {
    // Canonically equivalent, different code points: different JSON strings,
    // whatever the form (equal values must hash alike, so one rule for all).
    XCTAssertNotEqual(JSONValue.string("\u{E9}"), .string("e\u{301}"))
    let composed = String(repeating: "\u{E9}", count: LongString.minimumCount)
    let decomposed = String(repeating: "e\u{301}", count: LongString.minimumCount)
    XCTAssertNotEqual(try decode(JSONValue.string(composed).encoded()), .string(decomposed))
    XCTAssertEqual(JSONValue.string("\u{E9}x"), .string("\u{E9}x"))
  }

  func testShortStringsStayStrings() throws {
    let short = String(repeating: "x", count: LongString.minimumCount - 1)
    guard case .string(let value) = try decode(JSONValue.string(short).encoded()) else {
      return XCTFail("expected a string")
    }
    XCTAssertEqual(value, short)
  }

  func testALongStringEncodesAsTheString() throws {
    let value: JSONValue = ["text": .string(text), "n": 1]
    let decoded = try decode(value.encoded())
    guard case .longString = decoded["text"] else { return XCTFail("expected a long string member") }
    XCTAssertEqual(decoded.encoded(), value.encoded())
    var asciiFromLong = JSONWriter(asciiOnly: true)
    asciiFromLong.value(decoded)
    var asciiFromString = JSONWriter(asciiOnly: true)
    asciiFromString.value(value)
    XCTAssertEqual(asciiFromLong.text, asciiFromString.text)
    var fromLong = JSONWriter()
    fromLong.value(decoded)
    var fromString = JSONWriter()
    fromString.value(value)
    XCTAssertEqual(fromLong.text, fromString.text)
    XCTAssertEqual(try decode(fromLong.text), value)
  }

  func testALongStringOutlivesItsMessageBody() throws {
    let json: JSONValue = ["a": [.string(text), .string(text + "!")]]
    var framer = MessageFramer(chunkCapacity: 4096)
    let events = framer.feed(MessageWriter.frame(json.encoded()))
    guard events.count == 1, case .message(let body) = events[0] else { return XCTFail("expected one message") }
    let decoded = try JSONValue(decoding: body)
    XCTAssertTrue(body.isEmpty)
    let members = try XCTUnwrap(decoded["a"]?.arrayValue)
    XCTAssertEqual(members.map(\.stringValue), [text, text + "!"])
  }

  func testErrorsInsideALongStringAreTheStringErrors() {
    let filler = Array(repeating: UInt8(ascii: "a"), count: LongString.minimumCount)
    let quote = UInt8(ascii: "\"")
    for escape in [#"\ud800"#, #"\udc00"#, #"\ud800\u0041"#] {
      let bytes = [quote] + filler + Array(escape.utf8) + filler + [quote]
      XCTAssertThrowsError(try JSONValue(decoding: bytes), escape) { error in
        XCTAssertEqual((error as? JSONDecodeError)?.kind, .invalidSyntax, "\(error)")
      }
    }
    for invalid: [UInt8] in [[0xFF], [0xC3, 0x41], [0xED, 0xA0, 0x80]] {
      XCTAssertThrowsError(try JSONValue(decoding: [quote] + filler + invalid + filler + [quote])) { error in
        XCTAssertEqual((error as? JSONDecodeError)?.kind, .invalidUTF8, "\(invalid): \(error)")
      }
    }
  }

  func testALongMethodOrIDReadsAsAString() throws {
    let long = String(repeating: "m", count: LongString.minimumCount)
    let value = try decode(JSONValue(["jsonrpc": "2.0", "id": .string(long), "method": .string(long)]).encoded())
    guard case .request(let request) = try Message(classifying: value) else { return XCTFail("expected a request") }
    XCTAssertEqual(request.method, long)
    XCTAssertEqual(request.id, .string(long))
  }
}
