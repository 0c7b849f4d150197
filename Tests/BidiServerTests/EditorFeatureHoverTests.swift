import BidiTestSupport
import Foundation
import JSONRPC
import UnicodeBidi
import XCTest

/// `textDocument/hover` (specification, "textDocument/hover"): a line's
/// direction with its basis, its alignment in the layout, and its visual
/// order as plain text, equal to `bidi/visualOrder`'s visualText.
final class EditorFeatureHoverTests: XCTestCase {
  static let lines = [
    "abc",
    "\u{5E9}\u{5DC}\u{5D5}\u{5DD} (world) 123!",
    "123 456",
    "\u{202E}abc\u{202C} def",
    "\u{2067}\u{5D0}\u{2069} abc",
    "[\u{5D0}\u{5D1} (c)] <\u{5D2}>",
    "",
    "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629} \u{661}\u{662}\u{663} x",
    "\u{645}\u{64F}\u{62D}\u{64E}\u{645}\u{651}\u{64E}\u{62F} \u{5E9}\u{5C1}\u{5B8}\u{5DC}",
    "\u{5D0} \u{202D}abc\u{202C} \u{5D1}",
    "x \u{2068}\u{5D0} [b]\u{2069} y",
    "😀 \u{5D0}\u{5D1} 😁 (\u{5D2})",
  ]

  /// What the hover's visual order is: marks after their base (L3), the
  /// controls by name.
  static let shownAsInATerminal: JSONObject = ["combiningMarks": "afterBase", "controls": "names"]

  func hover(_ session: TestSession, _ uri: String, line: Int, character: Int = 0) throws -> JSONValue {
    try session.request(
      "textDocument/hover",
      ["textDocument": documentID(uri), "position": position(line, character)])
  }

  /// The value of a `Name: value` line of the hover text.
  func field(_ name: String, _ hover: JSONValue) -> String? {
    let text = hover["result"]?["contents"]?["value"]?.stringValue ?? ""
    return text.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
  }

  func testHoverOnAnRTLLineInAnLTRLayout() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///hover.txt"
    try session.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
    let hover = try hover(session, uri, line: 1, character: 5)
    XCTAssertEqual(hover["result"]?["contents"]?["kind"], "plaintext")
    XCTAssertEqual(field("Direction", hover), "rtl (first strong character at line 2, character 1)")
    XCTAssertEqual(field("Alignment", hover), "trailing (right) in a ltr layout")
    let visual = try session.visualText(uri, line: 1, options: Self.shownAsInATerminal)
    XCTAssertEqual(visual, "!123 (world) \u{5DD}\u{5D5}\u{5DC}\u{5E9}")
    XCTAssertEqual(field("Visual order (left to right)", hover), visual)
    // The hover covers the whole line.
    XCTAssertEqual(hover["result"]?["range"], lspRange(1, 0, 1, Self.lines[1].utf16.count))
  }

  func testHoverShowsMarksAfterTheirBaseAndControlsByName() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///hover.txt"
    try session.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
    // One right-to-left run: displayed as its grapheme clusters reversed,
    // each letter with its harakat or niqqud after it (UAX #9 L3).
    let marks = Self.lines.firstIndex { $0.hasPrefix("\u{645}\u{64F}") }!
    XCTAssertEqual(
      field("Visual order (left to right)", try hover(session, uri, line: marks)), String(Self.lines[marks].reversed()))
    // No raw control that would reorder the hover text again; a removed
    // control stands in the run it joined (the override reverses it with abc).
    XCTAssertEqual(field("Visual order (left to right)", try hover(session, uri, line: 3)), "[PDF]cba[RLO] def")
  }

  func testHoverBasisForStrategiesAndFallback() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///hover.txt"
    try session.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
    XCTAssertEqual(
      field("Direction", try hover(session, uri, line: 0)), "ltr (first strong character at line 1, character 1)")
    // "123 456" has no strong character: the previous line's direction.
    XCTAssertEqual(field("Direction", try hover(session, uri, line: 2)), "rtl (no strong character: fallback previous)")
    // The first strong character skips the control before it.
    XCTAssertEqual(
      field("Direction", try hover(session, uri, line: 3)), "ltr (first strong character at line 4, character 2)")
    let estimate = try TestSession(.bidiLSP, initializationOptions: ["bidi": ["strategy": "estimate"]])
    try estimate.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
    XCTAssertEqual(field("Direction", try hover(estimate, uri, line: 1)), "rtl (estimate)")
  }

  func testHoverInAnRTLLayout() throws {
    let session = try TestSession(.bidiLSP, initializationOptions: ["bidi": ["layoutDirection": "rtl"]])
    let uri = "file:///hover.txt"
    try session.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
    XCTAssertEqual(field("Alignment", try hover(session, uri, line: 1)), "leading (right) in a rtl layout")
    XCTAssertEqual(field("Alignment", try hover(session, uri, line: 0)), "trailing (left) in a rtl layout")
  }

  func testHoverFollowsDidChangeConfiguration() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///hover.txt"
    try session.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
    XCTAssertEqual(field("Alignment", try hover(session, uri, line: 1)), "trailing (right) in a ltr layout")
    try session.client.notify("workspace/didChangeConfiguration", ["settings": ["bidi": ["layoutDirection": "rtl"]]])
    XCTAssertEqual(field("Alignment", try hover(session, uri, line: 1)), "leading (right) in a rtl layout")
    // A bad value is refused with a warning and changes nothing.
    try session.client.notify(
      "workspace/didChangeConfiguration", ["settings": ["bidi": ["layoutDirection": "sideways"]]])
    let warning = try session.client.waitForNotification("window/logMessage", timeout: TestSession.timeout)
    XCTAssertTrue(
      warning["params"]?["message"]?.stringValue?.contains("params.settings.bidi.layoutDirection") ?? false,
      "\(warning)")
    XCTAssertEqual(field("Alignment", try hover(session, uri, line: 1)), "leading (right) in a rtl layout")
  }

  func testHoverAgreesWithTheBidiRequestsOnEveryLine() throws {
    let settings: [JSONValue?] = [
      nil, ["layoutDirection": "rtl"], ["paragraphs": "block", "fallback": "layout"], ["strategy": "estimate"],
      ["strategy": "anyRTL", "fallback": "rtl"],
    ]
    var checked = 0
    for options in settings {
      for encoding in [PositionEncoding.utf16, .utf8] {
        let session = try TestSession(.bidiLSP, encoding: encoding, initializationOptions: options.map { ["bidi": $0] })
        let uri = "file:///hover.txt"
        try session.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
        for line in Self.lines.indices {
          let hover = try hover(session, uri, line: line)
          let range = lspRange(line, 0, line, Int(Int32.max))
          let alignment = try session.result(
            "bidi/alignment", params: ["textDocument": documentID(uri), "range": range])
          let paragraph = alignment["paragraphs"]?[0]
          let context = "\(options ?? .null) \(encoding.rawValue) line \(line)"
          XCTAssertEqual(
            field("Direction", hover)?.split(separator: " ").first.map(String.init),
            paragraph?["direction"]?.stringValue, context)
          let expectedAlignment =
            "\(paragraph?["alignment"]?.stringValue ?? "") (\(paragraph?["physical"]?.stringValue ?? ""))"
          XCTAssertEqual(field("Alignment", hover)?.hasPrefix(expectedAlignment), true, context)
          XCTAssertEqual(
            field("Visual order (left to right)", hover),
            try session.visualText(uri, line: line, options: Self.shownAsInATerminal), context)
          checked += 1
        }
      }
    }
    XCTAssertEqual(checked, settings.count * 2 * Self.lines.count)
  }

  func testHoverListsTheLinesBidiControls() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///hover.txt"
    try session.open(uri, languageId: "plaintext", text: Self.lines.joined(separator: "\n"))
    XCTAssertEqual(field("Bidi controls", try hover(session, uri, line: 3)), "RLO (U+202E), PDF (U+202C)")
    XCTAssertEqual(field("Bidi controls", try hover(session, uri, line: 4)), "RLI (U+2067), PDI (U+2069)")
    XCTAssertNil(field("Bidi controls", try hover(session, uri, line: 1)))
  }

  /// A long line's visual order is cut to its leftmost 2,000 characters,
  /// and its controls to the first 100 named, each cut said; 2,000
  /// characters are shown whole.
  func testHoverCutsALongVisualOrderAndAControlList() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///long.txt"
    let exact = String(repeating: "\u{5D0}b", count: 1_000)
    let long = "abc " + String(repeating: "\u{2067}\u{5D0}\u{2069} ", count: 1_500)
    try session.open(uri, languageId: "plaintext", text: exact + "\n" + long)
    let whole = try XCTUnwrap(field("Visual order (left to right)", try hover(session, uri, line: 0)))
    XCTAssertEqual(whole.unicodeScalars.count, 2_000)
    let answer = try hover(session, uri, line: 1)
    let cut = try XCTUnwrap(field("Visual order (left to right, the first 2000 of 18004 characters)", answer))
    XCTAssertEqual(cut.unicodeScalars.count, 2_001)
    XCTAssertTrue(cut.hasPrefix("abc [RLI]\u{5D0}[PDI] [RLI]"), String(cut.prefix(40)))
    XCTAssertTrue(cut.hasSuffix("…"))
    let controls = try XCTUnwrap(field("Bidi controls", answer))
    XCTAssertTrue(controls.hasSuffix(", PDI (U+2069), and 2900 more"), String(controls.suffix(60)))
    XCTAssertEqual(controls.components(separatedBy: "(U+").count - 1, 100)
  }

  func testHoverPastTheEndOrOnAnUnknownDocumentIsInvalidParams() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///hover.txt"
    try session.open(uri, languageId: "plaintext", text: "abc\n\u{5D0}")
    XCTAssertNotNil(try hover(session, uri, line: 1)["result"])
    let past = try hover(session, uri, line: 2)
    XCTAssertEqual(past["error"]?["code"], -32602)
    XCTAssertTrue(past["error"]?["message"]?.stringValue?.contains("params.position.line") ?? false, "\(past)")
    XCTAssertEqual(try hover(session, "file:///unknown.txt", line: 0)["error"]?["code"], -32602)
  }
}
