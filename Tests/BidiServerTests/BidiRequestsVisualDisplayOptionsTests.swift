import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// `bidi/visualOrder`'s `combiningMarks` (UAX #9 L3) and `controls`
/// options (specification, "bidi/visualOrder"), checked against orders
/// derived independently: Swift's own grapheme clusters for L3, the text's
/// own controls for `controls`.
final class BidiRequestsVisualDisplayOptionsTests: XCTestCase {
  /// Right-to-left lines with harakat, tanween, shadda and niqqud.
  static let rightToLeft = [
    "\u{628}\u{64E}\u{64A}\u{652}\u{62A}\u{64C}",
    "\u{645}\u{64F}\u{62D}\u{64E}\u{645}\u{651}\u{64E}\u{62F}",
    "\u{5E9}\u{5C1}\u{5B8}\u{5DC}\u{5D5}\u{5B9}\u{5DD}",
    "\u{627}\u{644}\u{633}\u{651}\u{64E}\u{644}\u{627}\u{645}\u{64F}",
  ]

  func visualText(_ session: TestSession, _ uri: String, line: Int, _ options: JSONObject) throws -> String {
    try session.visualText(uri, line: line, options: options)
  }

  func testAfterBaseKeepsEachClusterInLogicalOrder() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf32)
    let uri = "file:///marks.txt"
    try session.open(uri, text: Self.rightToLeft.joined(separator: "\n"))
    for (index, line) in Self.rightToLeft.enumerated() {
      // A line of one right-to-left run: L2 reverses every scalar, L3 then
      // restores each base with its marks, which is reversing the
      // grapheme clusters.
      let resolved = try visualText(session, uri, line: index, ["combiningMarks": "resolved"])
      let afterBase = try visualText(session, uri, line: index, ["combiningMarks": "afterBase"])
      XCTAssertEqual(Array(resolved.unicodeScalars), Array(line.unicodeScalars.reversed()), "line \(index)")
      XCTAssertEqual(afterBase, String(line.reversed()), "line \(index)")
      XCTAssertNotEqual(afterBase.unicodeScalars.first.map { $0.properties.generalCategory }, .nonspacingMark)
      // The default is the conformance files' order.
      XCTAssertEqual(try visualText(session, uri, line: index, [:]), resolved)
    }
  }

  func testAfterBaseChangesTheOrderAndMapsTogether() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf32)
    let uri = "file:///marks.txt"
    let text = "abc \u{628}\u{64E}\u{64A}\u{652}\u{62A} (x\u{301}) \u{5E9}\u{5C1}\u{5B8}\u{5DC} 12"
    try session.open(uri, text: text)
    let scalars = Array(text.unicodeScalars)
    for marks in ["resolved", "afterBase"] {
      let result = try session.result(
        "bidi/visualOrder",
        [
          "combiningMarks": .string(marks), "mirror": false,
          "include": ["visualOrder", "visualText", "logicalToVisual", "visualToLogical"],
        ],
        uri: uri)
      let display = try XCTUnwrap(result["paragraphs"]?[0]?["lines"]?[0])
      let order = (display["visualOrder"]?.arrayValue ?? []).compactMap { $0.intValue }
      let visual = String(String.UnicodeScalarView(order.map { scalars[$0] }))
      XCTAssertEqual(display["visualText"]?.stringValue, visual, marks)
      let toVisual = (display["logicalToVisual"]?.arrayValue ?? []).compactMap { $0.intValue }
      let toLogical = (display["visualToLogical"]?.arrayValue ?? []).compactMap { $0.intValue }
      XCTAssertEqual(toLogical, order, marks)
      for (logical, position) in toVisual.enumerated() { XCTAssertEqual(toLogical[position], logical, marks) }
    }
  }

  func testControlsKeepStripAndNames() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///controls.txt"
    let lines = [
      "\u{202E}abc\u{202C} def",
      "x \u{2067}\u{5D0}\u{5D1}\u{2069} y\u{200F}",
      "\u{5D0} \u{202D}abc\u{202C} \u{5D1}\u{200E}",
      "plain \u{5D0} text",
    ]
    try session.open(uri, text: lines.joined(separator: "\n"))
    for (index, line) in lines.enumerated() {
      let keep = try visualText(session, uri, line: index, ["controls": "keep"])
      let strip = try visualText(session, uri, line: index, ["controls": "strip"])
      let names = try visualText(session, uri, line: index, ["controls": "names"])
      XCTAssertEqual(try visualText(session, uri, line: index, [:]), keep, "the default, line \(index)")
      // keep: X9 drops embeddings, overrides and PDF; isolates and marks stay.
      let kept = line.unicodeScalars.filter {
        BidiControl(scalar: $0.value).map { !$0.isEmbeddingOrOverride && $0 != .pdf } ?? true
      }
      XCTAssertEqual(keep.unicodeScalars.count, kept.count, "line \(index)")
      // strip: no control at all, every other character.
      XCTAssertFalse(strip.unicodeScalars.contains { BidiControl(scalar: $0.value) != nil }, "line \(index)")
      XCTAssertEqual(
        strip.unicodeScalars.count, line.unicodeScalars.filter { BidiControl(scalar: $0.value) == nil }.count)
      // names: every control of the line by name, once, and no raw control.
      XCTAssertFalse(names.unicodeScalars.contains { BidiControl(scalar: $0.value) != nil }, "line \(index)")
      let controls = line.unicodeScalars.compactMap { BidiControl(scalar: $0.value) }
      var named = names
      for control in controls {
        let name = "[\(control.shortName)]"
        let found = try XCTUnwrap(named.range(of: name), "\(name) in line \(index): \(names)")
        named.removeSubrange(found)
      }
      XCTAssertEqual(named, strip, "line \(index)")
    }
    XCTAssertEqual(try visualText(session, uri, line: 0, ["controls": "names"]), "[PDF]cba[RLO] def")
  }

  func testUnknownOptionValuesAreInvalidParams() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc")
    for (name, value) in [("combiningMarks", "after-base"), ("controls", "hide")] {
      let reply = try session.request(
        "bidi/visualOrder", ["textDocument": ["uri": .string(TestSession.defaultURI)], name: .string(value)])
      XCTAssertEqual(reply["error"]?["code"]?.intValue, -32602, name)
      XCTAssertEqual(reply["error"]?["message"]?.stringValue?.contains("params.\(name)"), true, "\(reply)")
    }
  }

  func testValuesModeHonoursBothOptions() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///ar.lproj/Localizable.strings"
    let value = "\u{645}\u{64F}\u{62D}\u{64E}\u{645}\u{651}\u{64E}\u{62F}\u{200F}"
    try session.open(uri, languageId: "strings", text: "\"name\" = \"\(value)\";\n")
    let result = try session.result(
      "bidi/visualOrder", ["combiningMarks": "afterBase", "controls": "names", "include": ["visualText"]], uri: uri)
    let entry = try XCTUnwrap(result["paragraphs"]?[0])
    XCTAssertEqual(entry["key"]?.stringValue, "name")
    XCTAssertEqual(entry["text"]?.stringValue, value)
    // One right-to-left run: its clusters reversed, the RLM by name.
    let letters = String(value.unicodeScalars.dropLast())
    XCTAssertEqual(entry["lines"]?[0]?["visualText"]?.stringValue, "[RLM]" + String(letters.reversed()))
  }
}
