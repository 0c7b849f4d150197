import BidiTestSupport
import JSONRPC
import XCTest

/// `bidi/visualOrder`'s `shape` option (specification, "bidi/visualOrder"):
/// `visualText` with Arabic joined, as GNU FriBidi 1.0.8 joins it (each
/// expected text read from `fribidi --nopad --nobreak`, its U+FEFF after a
/// lam-alef ligature dropped); the other members unchanged.
final class BidiRequestsVisualShapeTests: XCTestCase {
  static let lines = [
    // مرحبا بالعالم
    "\u{645}\u{631}\u{62D}\u{628}\u{627} \u{628}\u{627}\u{644}\u{639}\u{627}\u{644}\u{645}",
    // لا إله, lam-alef and lam-alef-with-hamza-below.
    "\u{644}\u{627} \u{625}\u{644}\u{647}",
    "abc \u{628}\u{628} def",
    "\u{202D}\u{628}\u{628}\u{628}\u{202C}",
    "\u{5E9}\u{5DC}\u{5D5}\u{5DD}",
  ]
  static let shaped = [
    "\u{FEE2}\u{FEDF}\u{FE8E}\u{FECC}\u{FEDF}\u{FE8E}\u{FE91} \u{FE8E}\u{FE92}\u{FEA3}\u{FEAE}\u{FEE3}",
    "\u{FEEA}\u{FEDF}\u{FE87} \u{FEFB}",
    "abc \u{FE90}\u{FE91} def",
    "\u{FE90}\u{FE92}\u{FE91}",
    "\u{5DD}\u{5D5}\u{5DC}\u{5E9}",
  ]

  func testShapeJoinsTheVisualText() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///shape.txt"
    try session.open(uri, text: Self.lines.joined(separator: "\n"))
    for (index, expected) in Self.shaped.enumerated() {
      XCTAssertEqual(try session.visualText(uri, line: index, options: ["shape": true]), expected, "line \(index)")
      // The default, and false: the characters themselves.
      let plain = try session.visualText(uri, line: index)
      XCTAssertEqual(try session.visualText(uri, line: index, options: ["shape": false]), plain)
      XCTAssertEqual(plain.unicodeScalars.contains { $0.value >= 0xFB50 }, false, "line \(index)")
    }
  }

  func testShapeChangesNothingButTheVisualText() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///maps.txt"
    let text = "x \u{628}\u{644}\u{627}\u{64E} (\u{644}\u{627}) \u{2067}\u{628}\u{628}\u{2069} 12"
    try session.open(uri, text: text)
    var answers: [JSONValue] = []
    for shape in [false, true] {
      let result = try session.result(
        "bidi/visualOrder",
        [
          "shape": .bool(shape), "combiningMarks": "afterBase",
          "include": ["runs", "levels", "visualOrder", "logicalToVisual", "visualToLogical", "visualText"],
        ],
        uri: uri)
      var line = try XCTUnwrap(result["paragraphs"]?[0]?["lines"]?[0]?.objectValue)
      let visualText = try XCTUnwrap(line.removeValue(forKey: "visualText")?.stringValue)
      answers.append(.object(line))
      if shape {
        // Two lam-alef ligatures: two characters fewer, the maps as before.
        XCTAssertEqual(visualText, "x 12 \u{2069}\u{FE90}\u{FE91}\u{2067} (\u{FEFB}) \u{FEFC}\u{64E}\u{FE91}")
      }
    }
    XCTAssertEqual(answers[0], answers[1])
  }

  func testShapeIsABoolean() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "\u{628}")
    let reply = try session.request(
      "bidi/visualOrder", ["textDocument": ["uri": .string(TestSession.defaultURI)], "shape": "yes"])
    XCTAssertEqual(reply["error"]?["code"]?.intValue, -32602)
    XCTAssertEqual(reply["error"]?["message"]?.stringValue?.contains("params.shape"), true, "\(reply)")
  }

  func testValuesModeShapesEachValue() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///ar.lproj/Localizable.strings"
    try session.open(uri, languageId: "strings", text: "\"hello\" = \"\(Self.lines[0])\";\n")
    let result = try session.result("bidi/visualOrder", ["shape": true, "include": ["visualText"]], uri: uri)
    let entry = try XCTUnwrap(result["paragraphs"]?[0])
    XCTAssertEqual(entry["key"]?.stringValue, "hello")
    XCTAssertEqual(entry["lines"]?[0]?["visualText"]?.stringValue, Self.shaped[0])
  }
}
