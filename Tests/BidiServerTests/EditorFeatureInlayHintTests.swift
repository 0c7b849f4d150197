import BidiTestSupport
import Foundation
import JSONRPC
import UnicodeBidi
import XCTest

/// `textDocument/inlayHint` (specification, "textDocument/inlayHint"): every bidi
/// control in the range, by its short name, with a tooltip naming the code
/// point, at positions of the negotiated encoding.
final class EditorFeatureInlayHintTests: XCTestCase {
  /// All twelve controls, with emoji (two UTF-16 units, four UTF-8 bytes)
  /// before them.
  static let text =
    "😀\u{061C}\u{200E}😀\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\n"
    + "😀😀\u{2066}\u{2067}\u{2068}\u{2069} \u{202E}\nno controls\n"

  /// `line:character label tooltip` of every control of `text` inside
  /// `range` (start inclusive, end exclusive), computed from the text.
  func expectedHints(_ text: TestText, _ encoding: PositionEncoding, from start: (Int, Int), to end: (Int, Int))
    -> [String]
  {
    var hints: [String] = []
    for line in 0..<text.lineCount {
      var character = 0
      for scalar in text.lines[line] {
        defer { character += encoding.units(of: scalar) }
        guard let control = TestControls.all.first(where: { $0.scalar == scalar }) else { continue }
        guard (line, character) >= start, (line, character) < end else { continue }
        hints.append("\(line):\(character) \(control.short) \(TestControls.displayName(scalar) ?? "")")
      }
    }
    return hints
  }

  func hints(_ session: TestSession, _ uri: String, _ range: JSONValue) throws -> [String] {
    let result = try session.result(
      "textDocument/inlayHint", params: ["textDocument": documentID(uri), "range": range])
    return (result.arrayValue ?? []).map { hint in
      let position = hint["position"]
      return "\(position?["line"]?.intValue ?? -1):\(position?["character"]?.intValue ?? -1) "
        + "\(hint["label"]?.stringValue ?? "") \(hint["tooltip"]?.stringValue ?? "")"
    }
  }

  func testEveryControlKindIsShownByItsShortNameInEachEncoding() throws {
    let text = TestText(Self.text)
    for encoding in PositionEncoding.allCases {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      let uri = "file:///controls.txt"
      try session.open(uri, languageId: "plaintext", text: Self.text)
      let got = try hints(session, uri, lspRange(0, 0, 3, 0))
      let expected = expectedHints(text, encoding, from: (0, 0), to: (3, 0))
      XCTAssertEqual(got, expected, encoding.rawValue)
      XCTAssertEqual(got.count, 13)
      let labels = Set(got.map { $0.split(separator: " ")[1] })
      XCTAssertEqual(labels, ["LRM", "RLM", "ALM", "LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"])
    }
    // Spot checks of the expectation itself, in UTF-16: the ALM after one
    // emoji is at 2, the LRI after two at 4.
    XCTAssertEqual(expectedHints(text, .utf16, from: (0, 0), to: (3, 0)).first, "0:2 ALM U+061C ARABIC LETTER MARK")
    XCTAssertTrue(
      expectedHints(text, .utf16, from: (0, 0), to: (3, 0)).contains("1:4 LRI U+2066 LEFT-TO-RIGHT ISOLATE"))
  }

  func testControlsOutsideTheRangeAreNotListed() throws {
    let text = TestText(Self.text)
    let ranges: [((Int, Int), (Int, Int))] = [
      ((0, 4), (1, 5)), ((0, 6), (0, 9)), ((1, 0), (1, 4)), ((2, 0), (2, 11)), ((0, 11), (1, 0)),
    ]
    for encoding in [PositionEncoding.utf16, .utf8] {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      let uri = "file:///controls.txt"
      try session.open(uri, languageId: "plaintext", text: Self.text)
      var listed = 0
      for (start, end) in ranges {
        let got = try hints(session, uri, lspRange(start.0, start.1, end.0, end.1))
        XCTAssertEqual(got, expectedHints(text, encoding, from: start, to: end), "\(encoding.rawValue) \(start)-\(end)")
        listed += got.count
      }
      XCTAssertGreaterThan(listed, 0)
      XCTAssertLessThan(listed, 13 * ranges.count)
    }
    // In UTF-16, (0,4)-(1,5) holds RLM … RLO of line 0 and the LRI of line 1.
    XCTAssertEqual(expectedHints(text, .utf16, from: (0, 4), to: (1, 5)).count, 7)
  }

  func testTheCleanCorpusShowsEachOfItsLegitimateControls() throws {
    // The clean files hold 92 balanced isolates and marks: no diagnostic,
    // but every one is shown.
    let session = try TestSession(.bidiLSP)
    var total = 0
    for path in try HazardCorpus.files("clean") {
      let source = try HazardCorpus.text(path)
      let text = TestText(source)
      let uri = "file:///corpus/\(path)"
      XCTAssertEqual(try session.openAndDiagnose(uri, languageId: HazardCorpus.languageId(path), text: source), [])
      let got = try hints(session, uri, lspRange(0, 0, text.lineCount - 1, Int(Int32.max)))
      XCTAssertEqual(got, expectedHints(text, .utf16, from: (0, 0), to: (text.lineCount, 0)), path)
      total += got.count
    }
    XCTAssertEqual(total, 92)
  }

  func testARangePastTheEndIsInvalidParams() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///controls.txt"
    try session.open(uri, languageId: "plaintext", text: Self.text)
    let response = try session.request(
      "textDocument/inlayHint", ["textDocument": documentID(uri), "range": lspRange(0, 0, 9, 0)])
    XCTAssertEqual(response["error"]?["code"], -32602)
  }
}
