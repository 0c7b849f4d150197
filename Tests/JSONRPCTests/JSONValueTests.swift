import JSONRPC
import XCTest

private func decode(_ text: String) throws(JSONDecodeError) -> JSONValue {
  try JSONValue(decoding: text)
}

private func decodeError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
  -> JSONDecodeError?
{
  do {
    let value = try JSONValue(decoding: bytes)
    XCTFail("decoded \(value) instead of failing", file: file, line: line)
    return nil
  } catch {
    return error
  }
}

final class JSONValueTests: XCTestCase {
  // MARK: Round trips

  func testRoundTripOfEveryType() throws {
    let values: [JSONValue] = [
      .null, true, false, 0, -1, 42, .integer(.max), .integer(.min), 1.5, -0.25, 1e300,
      .double(.leastNonzeroMagnitude), .double(0.1),
      "", "text", [], [1, "two", [3.0], [:]], [:],
      ["a": 1, "b": [true, nil], "c": ["nested": ["deeper": "yes"]]],
    ]
    for value in values {
      let bytes = value.encoded()
      XCTAssertEqual(try JSONValue(decoding: bytes), value, value.description)
    }
  }

  func testEncodingIsCompactAndKeepsMemberOrder() {
    let value: JSONValue = ["z": 1, "a": [true, nil, 2.5], "m": "s"]
    XCTAssertEqual(value.encodedString(), #"{"z":1,"a":[true,null,2.5],"m":"s"}"#)
    XCTAssertEqual(JSONValue.integer(.min).encodedString(), "-9223372036854775808")
    XCTAssertEqual(JSONValue("x").encodedString(), #""x""#)
  }

  func testDecodingKeepsMemberOrder() throws {
    let value = try decode(#"{"z":1,"a":2,"m":3,"b":4}"#)
    XCTAssertEqual(value.objectValue?.keys, ["z", "a", "m", "b"])
    XCTAssertEqual(value.encodedString(), #"{"z":1,"a":2,"m":3,"b":4}"#)
  }

  func testNumbersKeepTheirKind() throws {
    XCTAssertEqual(try decode("1"), .integer(1))
    XCTAssertEqual(try decode("1.0"), .double(1))
    XCTAssertEqual(try decode("1e2"), .double(100))
    XCTAssertEqual(try decode("-0"), .integer(0))
  }

  func testNonFiniteDoublesEncodeAsNull() {
    XCTAssertEqual(JSONValue.double(.nan).encodedString(), "null")
    XCTAssertEqual(JSONValue([.double(.infinity)]).encodedString(), "[null]")
  }

  // MARK: Strings

  func testNonASCIIAndAstralStrings() throws {
    let text = "Hebrew שלום, Arabic مرحبا, emoji 😀👍🏽, math 𝔸, RLO \u{202E}x\u{202C}"
    let value = JSONValue.string(text)
    XCTAssertEqual(try JSONValue(decoding: value.encoded()), value)
    XCTAssertEqual(try decode(#""\ud83d\ude00 \u05e9""#), .string("😀 ש"))
    // Raw UTF-8 is emitted as is, not escaped.
    XCTAssertEqual(JSONValue("😀").encoded(), [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])
  }

  func testEmbeddedNULRoundTrips() throws {
    let value = try decode(#""a\u0000b""#)
    XCTAssertEqual(value.stringValue?.unicodeScalars.map(\.value), [0x61, 0, 0x62])
    XCTAssertEqual(value.encodedString(), #""a\u0000b""#)
    XCTAssertEqual(try JSONValue(decoding: JSONValue("x\u{0}y\u{0}").encoded()), "x\u{0}y\u{0}")
  }

  func testEscapesAreDecoded() throws {
    XCTAssertEqual(try decode(#""\"\\\/\b\f\n\r\t""#), .string("\"\\/\u{8}\u{c}\n\r\t"))
  }

  func testLoneSurrogateEscapeIsAnError() {
    for text in [#""\ud800""#, #""\udc00""#, #""\ud800x""#, #""\ud800\u0041""#] {
      XCTAssertEqual(decodeError(Array(text.utf8))?.kind, .invalidSyntax, text)
    }
  }

  func testInvalidUTF8IsAnError() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
    ] {
      XCTAssertEqual(decodeError(bytes)?.kind, .invalidUTF8, "\(bytes)")
    }
  }

  // MARK: Integers

  func testInt64LimitsDecode() throws {
    XCTAssertEqual(try decode("9223372036854775807"), .integer(.max))
    XCTAssertEqual(try decode("-9223372036854775808"), .integer(.min))
  }

  func testIntegersBeyond64BitsAreErrors() {
    for text in [
      "9223372036854775808", "18446744073709551616", "-9223372036854775809",
      "[1, 123456789012345678901234567890]",
    ] {
      let error = decodeError(Array(text.utf8))
      XCTAssertEqual(error?.kind, .numericOverflow, text)
      XCTAssertTrue(error?.message.contains("too big") ?? false, error?.message ?? "")
    }
  }

  func testHugeRealIsAnError() {
    XCTAssertEqual(decodeError(Array("1e400".utf8))?.kind, .numericOverflow)
  }

  // MARK: Nesting

  func testNestingWithinTheLimitDecodes() throws {
    let depth = 2000
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    var value = try decode(text)
    var levels = 1
    while let inner = value[0] {
      value = inner
      levels += 1
    }
    XCTAssertEqual(levels, depth)
  }

  func testNestingBeyondTheLimitIsAnErrorNotACrash() {
    for depth in [2049, 5000, 100_000] {
      let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      XCTAssertEqual(decodeError(Array(text.utf8))?.kind, .nestingTooDeep, "\(depth)")
      let objects =
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
      XCTAssertEqual(decodeError(Array(objects.utf8))?.kind, .nestingTooDeep, "\(depth)")
    }
  }

  // MARK: Errors

  func testSyntaxErrorsLocateTheProblem() {
    let error = decodeError(Array("{\"a\":\n  tru}".utf8))
    XCTAssertEqual(error?.kind, .invalidSyntax)
    XCTAssertEqual(error?.line, 2)
    XCTAssertGreaterThan(error?.column ?? 0, 0)
    XCTAssertFalse(error?.message.isEmpty ?? true)
  }

  func testOtherMalformedInputs() {
    XCTAssertEqual(decodeError([])?.kind, .prematureEndOfInput)
    XCTAssertEqual(decodeError(Array("[1,".utf8))?.kind, .prematureEndOfInput)
    XCTAssertEqual(decodeError(Array("{} {}".utf8))?.kind, .endOfInputExpected)
    XCTAssertEqual(decodeError(Array("[1,]".utf8))?.kind, .invalidSyntax)
    XCTAssertEqual(decodeError(Array("NaN".utf8))?.kind, .invalidSyntax)
    XCTAssertEqual(decodeError(Array(#"{"a\u0000":1}"#.utf8))?.kind, .nullCharacterInKey)
  }

  func testDuplicateKeysKeepTheLastValue() throws {
    XCTAssertEqual(try decode(#"{"a":1,"b":2,"a":3}"#), ["a": 3, "b": 2])
  }

  // MARK: Message bodies

  func testDecodingAChunkedBodyTakesItsBytes() throws {
    let text = String(repeating: "שלום😀", count: 10_000)
    let json = JSONValue(["text": .string(text), "n": 1])
    var framer = MessageFramer(chunkCapacity: 777)
    let events = framer.feed(MessageWriter.frame(json.encoded()))
    guard events.count == 1, case .message(let body) = events[0] else {
      return XCTFail("expected one message")
    }
    XCTAssertGreaterThan(body.count, 777 * 10)
    XCTAssertEqual(try JSONValue(decoding: body), json)
    XCTAssertTrue(body.isEmpty, "decoding takes the bytes")
  }

  func testDecodingABrokenChunkedBodyFails() {
    let body = MessageBody(Array(#"{"a":[1,2"#.utf8))
    XCTAssertThrowsError(try JSONValue(decoding: body))
  }

  func testLargeStringRoundTrip() throws {
    let text = String(repeating: "a\u{0}ب😀\n\"", count: 200_000)
    let bytes = JSONValue.string(text).encoded()
    XCTAssertEqual(try JSONValue(decoding: MessageBody(bytes)).stringValue, text)
  }

  // MARK: Accessors and objects

  func testAccessors() {
    let value: JSONValue = [
      "s": "x", "i": 7, "d": 2.5, "b": true, "n": nil, "a": [1, 2], "o": ["k": 1],
    ]
    XCTAssertEqual(value["s"]?.stringValue, "x")
    XCTAssertEqual(value["i"]?.intValue, 7)
    XCTAssertEqual(value["i"]?.int64Value, 7)
    XCTAssertEqual(value["i"]?.doubleValue, 7)
    XCTAssertNil(value["d"]?.intValue)
    XCTAssertEqual(value["d"]?.doubleValue, 2.5)
    XCTAssertEqual(value["b"]?.boolValue, true)
    XCTAssertEqual(value["n"]?.isNull, true)
    XCTAssertEqual(value["a"]?[1], 2)
    XCTAssertNil(value["a"]?[2])
    XCTAssertNil(value["a"]?[-1])
    XCTAssertEqual(value["o"]?["k"], 1)
    XCTAssertNil(value["missing"])
    XCTAssertNil(value[0])
    XCTAssertNil(JSONValue.string("x")["k"])
    XCTAssertEqual(value["a"]?.typeName, "array")
  }

  func testObjectMutationKeepsOrder() {
    var object: JSONObject = ["a": 1, "b": 2, "c": 3]
    object["b"] = 20
    object["d"] = 4
    object["a"] = nil
    XCTAssertEqual(object.keys, ["b", "c", "d"])
    XCTAssertEqual(object.map(\.value), [20, 3, 4])
    XCTAssertEqual(object.removeValue(forKey: "c"), 3)
    XCTAssertNil(object.removeValue(forKey: "zz"))
    XCTAssertEqual(object.count, 2)
  }

  func testLargeObjectsLookUpEveryKey() {
    var object = JSONObject()
    for index in 0..<1000 { object["k\(index)"] = JSONValue(index) }
    object["k10"] = "ten"
    object["k500"] = nil
    XCTAssertEqual(object.count, 999)
    XCTAssertEqual(object["k10"], "ten")
    XCTAssertNil(object["k500"])
    XCTAssertEqual(object["k999"], 999)
    XCTAssertEqual(object.keys.last, "k999")
    for index in 501..<1000 { XCTAssertEqual(object["k\(index)"], JSONValue(index)) }
  }

  func testObjectEqualityIgnoresOrder() {
    let one: JSONValue = ["a": 1, "b": [2]]
    let other: JSONValue = ["b": [2], "a": 1]
    XCTAssertEqual(one, other)
    XCTAssertEqual(one.hashValue, other.hashValue)
    XCTAssertNotEqual(one, ["a": 1, "b": [3]])
    XCTAssertNotEqual(one, ["a": 1])
    XCTAssertNotEqual(JSONValue.integer(1), JSONValue.double(1))
  }
}
