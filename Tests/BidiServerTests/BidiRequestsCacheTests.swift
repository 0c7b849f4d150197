import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// The incremental core gives the answers of a from-scratch analysis: a
/// daemon that took a long random edit sequence, with requests in between so
/// that its per-line caches and summaries are warm, answers every line
/// exactly as a fresh daemon that opens the final text.
final class BidiRequestsCacheTests: XCTestCase {
  private let pieces = [
    "a", "word", " ", "  ", "\t", "שלום", "ש", "مرحبا", "١٢٣", "123", "-", ",", "(", ")", "[", "]", "😀", "𝒳", "🇸🇦",
    "\u{2067}", "\u{2068}", "\u{2069}", "\u{200F}", "\u{200E}", "\u{202B}", "\u{202C}", "\u{2029}",
    "\n", "\n", "\n\n", "\r\n", "\r", "\u{3000}", "%@", "é",
  ]

  /// A random LSP position on `line` at a character boundary.
  private func position(
    _ shadow: TestText, line: Int, _ encoding: PositionEncoding, _ generator: inout SeededGenerator
  ) -> (line: Int, character: Int) {
    let offsets = TestText.offsets(shadow.lines[line], in: encoding)
    return (line, offsets[Int.random(in: 0..<offsets.count, using: &generator)])
  }

  /// The options of every direction configuration compared.
  private let directionConfigurations: [JSONObject] = {
    var all: [JSONObject] = []
    for strategy in ["firstStrong", "estimate", "anyRTL"] {
      for paragraphs in ["line", "block"] {
        all.append(["strategy": .string(strategy), "paragraphs": .string(paragraphs), "fallback": "previous"])
      }
    }
    all.append(["strategy": "firstStrong", "paragraphs": "block", "fallback": "previous", "layoutDirection": "rtl"])
    all.append(["strategy": "estimate", "paragraphs": "line", "fallback": "previous", "rtlThreshold": 0.25])
    return all
  }()

  /// Compares every line's answers of `session` with those of a fresh
  /// daemon opening `shadow`'s text; returns how many paragraph entries
  /// it compared.
  private func compareWithAFreshDaemon(
    _ session: TestSession, _ shadow: TestText, _ context: String
  ) throws -> Int {
    XCTAssertEqual(
      TestControls.visible(try session.text()), TestControls.visible(shadow.text), "the edited copy: \(context)")
    let fresh = try TestSession(.bidiLSP, encoding: session.encoding)
    try fresh.open(text: shadow.text)
    var compared = 0
    var requests: [(String, JSONObject)] = directionConfigurations.map { ("bidi/naturalDirection", $0) }
    requests.append(("bidi/visualOrder", ["include": ["runs", "levels", "visualOrder"]]))
    requests.append(("bidi/visualOrder", ["include": ["levels"], "paragraphs": "block", "strategy": "estimate"]))
    requests.append(("bidi/alignment", ["paragraphs": "block", "textAlignment": "natural"]))
    for (method, options) in requests {
      let edited = try session.paragraphs(method, options)
      let expected = try fresh.paragraphs(method, options)
      XCTAssertEqual(edited.count, expected.count, "\(method) \(options): \(context)")
      XCTAssertGreaterThanOrEqual(expected.count, shadow.lines.count)
      for (index, (a, b)) in zip(edited, expected).enumerated() where a != b {
        XCTFail("\(method) \(options) entry \(index), \(context):\n  edited: \(a)\n  fresh:  \(b)")
        break
      }
      compared += expected.count
    }
    return compared
  }

  func testAnswersAfterRandomEditsEqualThoseOfAFreshDaemon() throws {
    var generator = SeededGenerator(seed: 0xB1D1_CAC4E)
    var edits = 0
    var warmingRequests = 0
    var compared = 0
    for encoding in PositionEncoding.allCases {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      let initial = (0..<150).map { _ in generator.text(pieces, lengths: 0...6) }
        .joined(separator: "\n")
      try session.open(text: initial)
      var shadow = TestText(initial)
      for checkpoint in 0..<3 {
        for _ in 0..<400 {
          // One to three changes in one didChange, applied in order.
          var changes: [JSONValue] = []
          for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let lineCount = shadow.lineRanges.count
            let startLine = Int.random(in: 0..<lineCount, using: &generator)
            let endLine = min(
              lineCount - 1,
              startLine + (Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: 0...3, using: &generator) : 0)
            )
            var start = position(shadow, line: startLine, encoding, &generator)
            var end = position(shadow, line: endLine, encoding, &generator)
            if start.line == end.line && end.character < start.character { swap(&start, &end) }
            // Deletions are rarer while the document is small, so that it keeps its size.
            let deletes = Int.random(in: 0..<(lineCount < 150 ? 6 : 2), using: &generator) == 0
            let grow = lineCount < 150 && Bool.random(using: &generator)
            let text =
              deletes ? "" : generator.text(pieces, lengths: 1...4) + (grow ? "\n" : "")
            let change: JSONValue = [
              "range": lspRange(start.line, start.character, end.line, end.character), "text": .string(text),
            ]
            try shadow.apply([["range": change["range"] ?? .null, "newText": .string(text)]], in: encoding)
            changes.append(change)
            edits += 1
          }
          try session.change(TestSession.defaultURI, changes)
          // Requests on parts of the document keep caches and summaries warm.
          if Int.random(in: 0..<3, using: &generator) == 0 {
            let lineCount = shadow.lineRanges.count
            let line = Int.random(in: 0..<lineCount, using: &generator)
            let last = min(lineCount - 1, line + Int.random(in: 0...5, using: &generator))
            var options = directionConfigurations[Int.random(in: 0..<directionConfigurations.count, using: &generator)]
            options["range"] = lspRange(line, 0, last, 0)
            let method = ["bidi/naturalDirection", "bidi/visualOrder", "bidi/alignment"][
              Int.random(in: 0..<3, using: &generator)]
            _ = try session.paragraphs(method, options)
            warmingRequests += 1
          }
        }
        compared += try compareWithAFreshDaemon(session, shadow, "\(encoding), checkpoint \(checkpoint)")
      }
    }
    print(
      "BidiRequestsCacheTests: \(edits) changes, \(warmingRequests) requests between them, \(compared) entries compared"
    )
    XCTAssertGreaterThanOrEqual(edits, 3 * 3 * 400)
    XCTAssertGreaterThan(warmingRequests, 1000)
    XCTAssertGreaterThan(compared, 9 * 11 * 120)
  }
}
