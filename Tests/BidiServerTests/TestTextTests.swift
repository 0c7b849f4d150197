import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// The tests' text model (BidiTestSupport's `TestText`): its markers, its
/// positions in each encoding and its edits, checked by hand.
final class TestTextTests: XCTestCase {
  func testMarkersAreTakenOutAndStandForTheirPoint() {
    let text = TestText(marked: "1️⃣abc 2️⃣שלום😀3️⃣\r\nx10️⃣y")
    XCTAssertEqual(text.text, "abc שלום😀\r\nxy")
    XCTAssertEqual(text.markers, ["1️⃣": 0, "2️⃣": 4, "3️⃣": 9, "10️⃣": 12])
    XCTAssertEqual(text.position("1️⃣", in: .utf16), position(0, 0))
    XCTAssertEqual(text.position("3️⃣", in: .utf8), position(0, 4 + 8 + 4))
    XCTAssertEqual(text.position("3️⃣", in: .utf16), position(0, 4 + 4 + 2))
    XCTAssertEqual(text.position("3️⃣", in: .utf32), position(0, 4 + 4 + 1))
    XCTAssertEqual(text.position("10️⃣", in: .utf16), position(1, 1))
    XCTAssertEqual(text.range("2️⃣", "3️⃣", in: .utf16), lspRange(0, 4, 0, 10))
    // A digit without the keycap is text.
    XCTAssertEqual(TestText(marked: "a1b2\u{FE0F}c").text, "a1b2\u{FE0F}c")
  }

  func testLinesAndPositionsFollowTheSpecificationsRules() {
    let text = TestText("a😀b\r\nc\rd\n")
    XCTAssertEqual(text.lineCount, 4)
    XCTAssertEqual(text.terminators, ["\r\n", "\r", "\n", ""])
    XCTAssertEqual(text.line(0), "a😀b")
    XCTAssertEqual(text.lineWidth(0, in: .utf16), 4)
    XCTAssertEqual(text.utf8Length, 1 + 4 + 1 + 2 + 1 + 1 + 1 + 1)
    // Inside the surrogate pair: back to the character's start; past the
    // end: clamped; a line past the end: none.
    XCTAssertEqual(text.index(line: 0, character: 2, in: .utf16), 1)
    XCTAssertEqual(text.index(line: 0, character: 99, in: .utf16), 3)
    XCTAssertNil(text.index(line: 4, character: 0, in: .utf16))
    XCTAssertEqual(text.position(of: 5, in: .utf16)?.line, 1)
    XCTAssertNil(text.position(of: 4, in: .utf16), "between CR and LF")
    XCTAssertEqual(text.character(line: 0, utf8Offset: 5, in: .utf16), 3)
    XCTAssertEqual(text.character(line: 0, utf8Offset: 3, in: .utf16), 1, "inside 😀")
    XCTAssertEqual(text.utf8Offset(line: 0, character: 3, in: .utf16), 5)
    XCTAssertEqual(text.scalar(line: 0, utf8Offset: 1), "😀")
    XCTAssertNil(text.scalar(line: 0, utf8Offset: 2))
    XCTAssertEqual(text.scalar(line: 0, character: 3, in: .utf16), "b")
  }

  func testEditsApplyTogetherAndOverlapsAreRefused() throws {
    let text = TestText("hello world")
    let edits: [JSONValue] = [
      ["range": lspRange(0, 6, 0, 11), "newText": "there"],
      ["range": lspRange(0, 0, 0, 0), "newText": "1"],
      ["range": lspRange(0, 0, 0, 0), "newText": "2"],
    ]
    XCTAssertEqual(try text.applying(edits, in: .utf16).text, "12hello there")
    // As didChange changes, one after the other, they give the same text.
    var stepwise = text
    for change in TestText.contentChanges(for: edits) {
      let edit: JSONValue = ["range": change["range"] ?? .null, "newText": change["text"] ?? ""]
      try stepwise.apply([edit], in: .utf16)
    }
    XCTAssertEqual(stepwise.text, "12hello there")
    let overlapping: [JSONValue] = [
      ["range": lspRange(0, 0, 0, 5), "newText": "x"], ["range": lspRange(0, 3, 0, 7), "newText": "y"],
    ]
    XCTAssertThrowsError(try text.applying(overlapping, in: .utf16))
    XCTAssertEqual(
      text.grown(lspRange(0, 6, 0, 11), by: [["range": lspRange(0, 6, 0, 6), "newText": "<"]], in: .utf16),
      lspRange(0, 6, 0, 12))
  }
}
