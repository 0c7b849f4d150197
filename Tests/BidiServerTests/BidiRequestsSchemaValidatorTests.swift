import BidiTestSupport
import JSONRPC
import XCTest

/// The schema validator the request tests rely on: it must reject what the
/// schemas forbid, or those tests would pass anything.
final class BidiRequestsSchemaValidatorTests: XCTestCase {
  /// A small schema set exercising every keyword the validator supports.
  private func validator() throws -> JSONSchemaValidator {
    let common = try JSONValue(
      decoding: """
        {"$id": "common.schema.json", "$defs": {
          "uint": {"type": "integer", "minimum": 0},
          "Direction": {"enum": ["ltr", "rtl"]},
          "Entry": {"type": "object", "required": ["line"], "properties": {"line": {"$ref": "#/$defs/uint"}}}
        }}
        """)
    let method = try JSONValue(
      decoding: """
        {"$defs": {
          "result": {
            "type": "object", "required": ["items"], "additionalProperties": false,
            "properties": {"items": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/item"}}}
          },
          "item": {
            "allOf": [{"$ref": "common.schema.json#/$defs/Entry"}],
            "type": "object", "additionalProperties": false,
            "properties": {
              "line": {}, "direction": {"$ref": "common.schema.json#/$defs/Direction"},
              "level": {"type": ["integer", "null"], "minimum": 0, "maximum": 126},
              "ratio": {"type": "number", "minimum": 0, "maximum": 1}
            }
          },
          "onlyInAllOf": {
            "allOf": [{"$ref": "common.schema.json#/$defs/Entry"}],
            "additionalProperties": false, "properties": {"other": {}}
          }
        }}
        """)
    return JSONSchemaValidator(documents: ["common.schema.json": common, "method.schema.json": method])
  }

  private func violations(_ json: String, _ definition: String) throws -> [String] {
    try validator().validate(JSONValue(decoding: json), against: "method.schema.json#/$defs/" + definition)
      .map(\.description)
  }

  func testValidDocumentsPass() throws {
    XCTAssertEqual(try violations(#"{"items": [{"line": 0}]}"#, "result"), [])
    XCTAssertEqual(
      try violations(
        #"{"items": [{"line": 3, "direction": "rtl", "level": null, "ratio": 0.5}, {"line": 1, "level": 126}]}"#,
        "result"),
      [])
    // 2.0 is an integer in JSON Schema; 1 is a number.
    XCTAssertEqual(try violations(#"{"items": [{"line": 2.0, "ratio": 1}]}"#, "result"), [])
  }

  func testEachKeywordRejectsWhatItForbids() throws {
    let cases: [(json: String, expected: String)] = [
      (#"[]"#, "$: expected object"),
      (#"{}"#, "$: missing required member items"),
      (#"{"items": []}"#, "$.items: 0 items, fewer than minItems 1"),
      (#"{"items": [{"line": 0}], "extra": 1}"#, "$.extra: member extra is not allowed"),
      (#"{"items": [{"direction": "ltr"}]}"#, "$.items[0]: missing required member line"),
      (#"{"items": [{"line": -1}]}"#, "$.items[0].line: -1 is below the minimum 0"),
      (#"{"items": [{"line": 1.5}]}"#, "$.items[0].line: expected integer, got number 1.5"),
      (#"{"items": [{"line": "1"}]}"#, "$.items[0].line: expected integer, got string"),
      (#"{"items": [{"line": 0, "direction": "up"}]}"#, "$.items[0].direction: \"up\" is not one of"),
      (#"{"items": [{"line": 0, "level": 127}]}"#, "$.items[0].level: 127 is above the maximum 126"),
      (#"{"items": [{"line": 0, "level": "1"}]}"#, "$.items[0].level: expected integer or null, got string"),
      (#"{"items": [{"line": 0, "ratio": true}]}"#, "$.items[0].ratio: expected number, got boolean"),
      (#"{"items": [{"line": 0, "colour": "red"}]}"#, "$.items[0].colour: member colour is not allowed"),
    ]
    for (json, expected) in cases {
      let found = try violations(json, "result")
      XCTAssertEqual(found.count, 1, "\(json): \(found)")
      XCTAssertTrue(found.first?.hasPrefix(expected) ?? false, "\(json): expected \(expected), got \(found)")
    }
  }

  func testAdditionalPropertiesSeesOnlyItsOwnSchemaObjectsProperties() throws {
    // `line` is declared inside the allOf only: 2020-12 does not let that
    // count for the outer additionalProperties.
    XCTAssertEqual(try violations(#"{"line": 1, "other": 2}"#, "onlyInAllOf").count, 1)
    XCTAssertEqual(try violations(#"{"other": 2}"#, "onlyInAllOf"), ["$: missing required member line"])
  }

  func testBadReferencesAndUnsupportedKeywordsAreViolations() throws {
    let schemas = JSONSchemaValidator(documents: [
      "a.json": try JSONValue(
        decoding:
          ##"{"$defs": {"x": {"$ref": "missing.json#/$defs/y"}, "z": {"pattern": "a*"}, "w": {"$ref": "#/$defs/nothing"}}}"##
      )
    ])
    XCTAssertEqual(schemas.validate(1, against: "a.json#/$defs/x").count, 1)
    XCTAssertEqual(
      schemas.validate("a", against: "a.json#/$defs/z").map(\.message), ["unsupported schema keyword pattern"])
    XCTAssertEqual(schemas.validate(1, against: "a.json#/$defs/w").count, 1)
    XCTAssertEqual(schemas.validate(1, against: "nope.json").count, 1)
  }

  func testProtocolSchemasLoadAndJudgeRealShapes() throws {
    let schemas = try JSONSchemaValidator.protocolSchemas()
    for name in [
      "common", "bidi-documentInfo", "bidi-naturalDirection", "bidi-alignment", "bidi-visualOrder", "bidi-insertMarks",
    ] {
      XCTAssertNotNil(schemas.documents[name + ".schema.json"], name)
    }
    let direction = "bidi-naturalDirection.schema.json#/$defs/"
    let good = try JSONValue(
      decoding: #"""
        {"paragraphs": [{"line": 0, "start": 0, "end": 4, "direction": "rtl", "basis": "firstStrong",
         "strongCharacter": {"line": 0, "character": 0}}]}
        """#)
    XCTAssertEqual(schemas.validate(good, against: direction + "result"), [])
    let misspelt = try JSONValue(
      decoding: #"{"paragraphs": [{"line": 0, "start": 0, "end": 4, "direction": "rtl", "basis": "guess"}]}"#)
    XCTAssertEqual(schemas.validate(misspelt, against: direction + "result").count, 1)
    let stray = try JSONValue(
      decoding:
        #"{"paragraphs": [{"line": 0, "start": 0, "end": 4, "direction": "rtl", "basis": "fallback", "level": 1}]}"#)
    XCTAssertEqual(schemas.validate(stray, against: direction + "result").count, 1)
    let noStart = try JSONValue(
      decoding: #"{"paragraphs": [{"line": 0, "end": 4, "direction": "rtl", "basis": "fallback"}]}"#)
    XCTAssertEqual(schemas.validate(noStart, against: direction + "result").count, 1)

    let params = try JSONValue(
      decoding: #"{"textDocument": {"uri": "file:///a"}, "strategy": "estimate", "rtlThreshold": 0.5}"#)
    XCTAssertEqual(schemas.validate(params, against: direction + "params"), [])
    let badThreshold = try JSONValue(decoding: #"{"textDocument": {"uri": "file:///a"}, "rtlThreshold": 2}"#)
    XCTAssertEqual(schemas.validate(badThreshold, against: direction + "params").count, 1)
    let noDocument = try JSONValue(decoding: #"{"strategy": "anyRTL"}"#)
    XCTAssertEqual(schemas.validate(noDocument, against: direction + "params").count, 1)

    let visual = "bidi-visualOrder.schema.json#/$defs/result"
    let line = #"{"line": 0, "start": 0, "end": 2, "paragraphLevel": 0, "direction": "ltr", "lines": LINES}"#
    let withNull = try JSONValue(
      decoding: line.replacingOccurrences(of: "LINES", with: #"[{"start": 0, "end": 2, "levels": [0, null]}]"#))
    XCTAssertEqual(schemas.validate(["paragraphs": [withNull]], against: visual), [])
    let noLines = try JSONValue(decoding: line.replacingOccurrences(of: "LINES", with: "[]"))
    XCTAssertEqual(schemas.validate(["paragraphs": [noLines]], against: visual).count, 1)
    let badRun = try JSONValue(
      decoding: line.replacingOccurrences(
        of: "LINES", with: #"[{"start": 0, "end": 2, "runs": [{"start": 0, "end": 2}]}]"#))
    XCTAssertEqual(schemas.validate(["paragraphs": [badRun]], against: visual).count, 1)
  }
}
