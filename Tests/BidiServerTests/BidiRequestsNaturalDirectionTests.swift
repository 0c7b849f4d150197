import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// `bidi/naturalDirection` and the common options (specification,
/// "bidi/naturalDirection" and "Common parameters"); every params and
/// result is schema-checked by `TestSession`.
final class BidiRequestsNaturalDirectionTests: XCTestCase {
  /// An entry as `line start-end direction basis [@line:character]`.
  private func brief(_ entry: JSONValue) -> String {
    var text = "\(entry["line"]?.intValue ?? -1) \(entry["start"]?.intValue ?? -1)-\(entry["end"]?.intValue ?? -1)"
    text += " \(entry["direction"]?.stringValue ?? "?") \(entry["basis"]?.stringValue ?? "?")"
    if let strong = entry["strongCharacter"] {
      text += " @\(strong["line"]?.intValue ?? -1):\(strong["character"]?.intValue ?? -1)"
    }
    return text
  }

  private func directions(
    _ session: TestSession, _ options: JSONObject = [:], uri: String = TestSession.defaultURI,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> [String] {
    try session.paragraphs("bidi/naturalDirection", options, uri: uri, file: file, line: line).map(brief)
  }

  /// `direction basis` of each entry, without offsets.
  private func decisions(
    _ session: TestSession, _ options: JSONObject = [:], file: StaticString = #filePath, line: UInt = #line
  ) throws -> [String] {
    try session.paragraphs("bidi/naturalDirection", options, file: file, line: line).map {
      "\($0["direction"]?.stringValue ?? "?") \($0["basis"]?.stringValue ?? "?")"
    }
  }

  // MARK: firstStrong

  func testFirstStrongReportsTheStrongCharacterInEveryEncoding() throws {
    // U+1F600 is ON (4 UTF-8 bytes, 2 UTF-16 units); U+0661 is AN (2 bytes);
    // U+1D4B3 MATHEMATICAL SCRIPT CAPITAL X is L (4 bytes, 2 units).
    let text = "😀 123 שלום\n١٢ 𝒳abc"
    let expected: [PositionEncoding: [String]] = [
      .utf8: ["0 0-17 rtl firstStrong @0:9", "1 0-12 ltr firstStrong @1:5"],
      .utf16: ["0 0-11 rtl firstStrong @0:7", "1 0-8 ltr firstStrong @1:3"],
      .utf32: ["0 0-10 rtl firstStrong @0:6", "1 0-7 ltr firstStrong @1:3"],
    ]
    for (encoding, lines) in expected {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      try session.open(text: text)
      XCTAssertEqual(try directions(session), lines, encoding.rawValue)
      XCTAssertEqual(try directions(session, ["strategy": "firstStrong"]), lines, encoding.rawValue)
    }
  }

  func testFirstStrongSkipsIsolatesButNotEmbeddings() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(
      text: [
        "\u{2068}abc\u{2069} שלום",  // FSI abc PDI: the Hebrew decides
        "\u{2067}שלום\u{2069} abc",  // RLI … PDI: the Latin decides
        "\u{2066}a\u{2067}ש\u{2069}b\u{2069}c",  // nested isolates
        "\u{2069}שלום",  // a PDI with no initiator is just skipped
        "\u{202B}abc\u{202C}",  // RLE … PDF: an embedding is not skipped
        "\u{2068}abc שלום",  // an unclosed isolate runs to the paragraph's end
      ].joined(separator: "\n"))
    XCTAssertEqual(
      try directions(session, ["fallback": "rtl"]),
      [
        "0 0-10 rtl firstStrong @0:6",
        "1 0-10 ltr firstStrong @1:7",
        "2 0-8 ltr firstStrong @2:7",
        "3 0-5 rtl firstStrong @3:1",
        "4 0-5 ltr firstStrong @4:1",
        "5 0-9 rtl fallback",
      ])
    XCTAssertEqual(
      try directions(session, ["fallback": "ltr", "range": lspRange(5, 0, 5, 0)]), ["5 0-9 ltr fallback"])
  }

  // MARK: estimate

  func testEstimateCountsWordsWithTheDefaultThreshold() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(
      text: [
        "abc def ghi שלום עולם",  // 2 of 5 words RTL: 0.4 is not more than 0.4
        "abc def שלום עולם",  // 2 of 4: RTL
        "123 456 !!! -- abc שלום",  // words without a strong character do not count: 1 of 2
        "aשלום bשלום שלום",  // a word's first strong character decides it: 1 of 3
        "1ש 2ש a",  // digits are not strong: 2 of 3
        "abc\tשלום\u{00A0}עולם",  // tab and no-break space separate words: 2 of 3
        "123 456",  // no counted word: the fallback (previous)
        "שלום abc def",  // firstStrong says rtl; the estimate 1 of 3
      ].joined(separator: "\n"))
    XCTAssertEqual(
      try decisions(session, ["strategy": "estimate"]),
      [
        "ltr estimate", "rtl estimate", "rtl estimate", "ltr estimate", "rtl estimate", "rtl estimate",
        "rtl fallback", "ltr estimate",
      ])
    // The estimate names no strong character.
    for entry in try session.paragraphs("bidi/naturalDirection", ["strategy": "estimate"]) {
      XCTAssertNil(entry["strongCharacter"], "\(entry)")
    }
    XCTAssertEqual(
      try decisions(session, ["strategy": "estimate", "rtlThreshold": 0.4]),
      try decisions(session, ["strategy": "estimate"]))
  }

  func testEstimateWithACustomThreshold() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc def שלום עולם\nabc def ghi שלום\nabc\nשלום")
    let half = ["range": lspRange(0, 0, 0, 0), "strategy": "estimate"] as JSONObject
    func with(_ threshold: JSONValue, _ base: JSONObject) -> JSONObject {
      var options = base
      options["rtlThreshold"] = threshold
      return options
    }
    XCTAssertEqual(try decisions(session, with(0.6, half)), ["ltr estimate"])
    XCTAssertEqual(try decisions(session, with(0.5, half)), ["ltr estimate"], "more than the threshold, not equal")
    XCTAssertEqual(try decisions(session, with(0.49, half)), ["rtl estimate"])
    let quarter = ["range": lspRange(1, 0, 1, 0), "strategy": "estimate"] as JSONObject
    XCTAssertEqual(try decisions(session, with(0.2, quarter)), ["rtl estimate"])
    XCTAssertEqual(try decisions(session, with(0.3, quarter)), ["ltr estimate"])
    // An integer threshold is a number too.
    XCTAssertEqual(try decisions(session, with(0, quarter)), ["rtl estimate"])
    XCTAssertEqual(
      try decisions(session, ["strategy": "estimate", "rtlThreshold": 0, "range": lspRange(2, 0, 3, 9)]),
      ["ltr estimate", "rtl estimate"])
  }

  // MARK: anyRTL

  func testAnyRTL() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc def ש\nabc def\n\u{2066}ש\u{2069} abc\n123 !\n\u{2067}abc\u{2069}")
    XCTAssertEqual(
      try directions(session, ["strategy": "anyRTL"]),
      [
        "0 0-9 rtl anyRTL", "1 0-7 ltr anyRTL", "2 0-7 rtl anyRTL",
        "3 0-5 rtl fallback",  // previous: line 2
        "4 0-5 ltr anyRTL",  // anyRTL looks inside isolates too
      ])
  }

  // MARK: fallback

  func testFallbackPreviousReachesBackAcrossManyLines() throws {
    var lines = ["123", "שלום"]
    let neutral = ["", "123 - 456", "  ", "(!)", "\u{2067}abc\u{2069}"]
    for index in 0..<500 { lines.append(neutral[index % neutral.count]) }
    lines.append("abc")
    for index in 0..<500 { lines.append(neutral[index % neutral.count]) }
    let session = try TestSession(.bidiLSP)
    try session.open(text: lines.joined(separator: "\n"))

    // Asked alone: the decided line lies outside the range.
    XCTAssertEqual(try decisions(session, ["range": lspRange(501, 0, 501, 0)]), ["rtl fallback"])
    XCTAssertEqual(try decisions(session, ["range": lspRange(1002, 0, 1002, 9)]), ["ltr fallback"])
    XCTAssertEqual(
      try decisions(session, ["range": lspRange(1001, 0, 1001, 9), "strategy": "estimate"]), ["ltr fallback"])

    // The whole document, with each strategy, against a running model. The
    // isolate-only lines are undecided for firstStrong only.
    for strategy in ["firstStrong", "estimate", "anyRTL"] {
      let all = try decisions(session, ["strategy": .string(strategy)])
      XCTAssertEqual(all.count, lines.count)
      var previous = "ltr"  // at the document start: the layout direction
      var mismatches: [String] = []
      for (index, text) in lines.enumerated() {
        let own: String? =
          text == "שלום"
          ? "rtl" : text == "abc" || (text.hasPrefix("\u{2067}") && strategy != "firstStrong") ? "ltr" : nil
        let expected = own.map { "\($0) \(strategy)" } ?? "\(previous) fallback"
        if let own { previous = own }
        if index < all.count && all[index] != expected {
          mismatches.append("line \(index): \(all[index]), expected \(expected)")
        }
      }
      XCTAssertEqual(mismatches, [], strategy)
      XCTAssertEqual(all.filter { $0.hasSuffix("fallback") }.count, strategy == "firstStrong" ? 1001 : 801, strategy)
    }
    XCTAssertEqual(
      try decisions(session, ["layoutDirection": "rtl", "range": lspRange(0, 0, 1, 0)]), ["rtl fallback"],
      "at the document start, previous means the layout direction")
  }

  func testFallbackPreviousWithinALineOfSeveralParagraphs() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "123\u{2029}abc\nשלום\u{2029}123")
    XCTAssertEqual(
      try directions(session, ["layoutDirection": "rtl"]),
      ["0 0-4 rtl fallback", "0 4-7 ltr firstStrong @0:4", "1 0-5 rtl firstStrong @1:0", "1 5-8 rtl fallback"])

    // The nearest preceding paragraph may be inside an earlier line; in
    // block mode the block's first strong character may be in a later
    // paragraph of its first line.
    let other = try TestSession(.bidiLSP)
    try other.open(text: "123\u{2029}שלום\nabc\n\nשלום\u{2029}abc\n123\nabc\u{2029}123\n456")
    XCTAssertEqual(
      try directions(other),
      [
        "0 0-4 ltr fallback", "0 4-8 rtl firstStrong @0:4", "1 0-3 ltr firstStrong @1:0", "2 0-0 ltr fallback",
        "3 0-5 rtl firstStrong @3:0", "3 5-8 ltr firstStrong @3:5", "4 0-3 ltr fallback",
        "5 0-4 ltr firstStrong @5:0", "5 4-7 ltr fallback", "6 0-3 ltr fallback",
      ])
    XCTAssertEqual(
      try directions(other, ["paragraphs": "block"]),
      [
        "0 0-4 rtl firstStrong @0:4", "0 4-8 rtl firstStrong @0:4", "1 0-3 rtl firstStrong @0:4", "2 0-0 rtl fallback",
        "3 0-5 rtl firstStrong @3:0", "3 5-8 rtl firstStrong @3:0", "4 0-3 rtl firstStrong @3:0",
        "5 0-4 rtl firstStrong @3:0", "5 4-7 rtl firstStrong @3:0", "6 0-3 rtl firstStrong @3:0",
      ])
  }

  func testFallbackLayoutLtrAndRtl() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "שלום\n123\nabc\n")
    let cases: [(JSONObject, [String])] = [
      (["fallback": "ltr"], ["rtl firstStrong", "ltr fallback", "ltr firstStrong", "ltr fallback"]),
      (["fallback": "rtl"], ["rtl firstStrong", "rtl fallback", "ltr firstStrong", "rtl fallback"]),
      (["fallback": "layout"], ["rtl firstStrong", "ltr fallback", "ltr firstStrong", "ltr fallback"]),
      (
        ["fallback": "layout", "layoutDirection": "ltr"],
        ["rtl firstStrong", "ltr fallback", "ltr firstStrong", "ltr fallback"]
      ),
      (
        ["fallback": "layout", "layoutDirection": "rtl"],
        ["rtl firstStrong", "rtl fallback", "ltr firstStrong", "rtl fallback"]
      ),
      (["fallback": "previous"], ["rtl firstStrong", "rtl fallback", "ltr firstStrong", "ltr fallback"]),
      (
        ["fallback": "previous", "layoutDirection": "rtl"],
        ["rtl firstStrong", "rtl fallback", "ltr firstStrong", "ltr fallback"]
      ),
      ([:], ["rtl firstStrong", "rtl fallback", "ltr firstStrong", "ltr fallback"]),
    ]
    for (options, expected) in cases {
      XCTAssertEqual(try decisions(session, options), expected, "\(options)")
    }
  }

  // MARK: paragraphs: block

  private let blockText = [
    "123 456",  // 0  block A: no strong character on its first line
    "שלום abc",  // 1  the block's first strong character
    "abc def ghi",  // 2
    "",  // 3  blank
    "  \t",  // 4  blank: only White_Space
    "abc def\u{2029}xyz",  // 5  block B: two paragraphs on one line
    "שלום עולם מה",  // 6
    "",  // 7
    "123",  // 8  block C: no strong character at all
    "-- 456",  // 9
    "\u{3000}",  // 10 blank (ideographic space)
    "\u{2067}abc",  // 11 block D: an isolate left open at a line end
    "abc שלום",  // 12 does not carry over to the next line
  ].joined(separator: "\n")

  func testBlockFirstStrongGivesEveryLineTheBlocksDirection() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: blockText)
    XCTAssertEqual(
      try directions(session, ["paragraphs": "block"]),
      [
        "0 0-7 rtl firstStrong @1:0", "1 0-8 rtl firstStrong @1:0", "2 0-11 rtl firstStrong @1:0",
        "3 0-0 rtl fallback", "4 0-3 rtl fallback",
        "5 0-8 ltr firstStrong @5:0", "5 8-11 ltr firstStrong @5:0", "6 0-12 ltr firstStrong @5:0",
        "7 0-0 ltr fallback",
        "8 0-3 ltr fallback", "9 0-6 ltr fallback",
        "10 0-1 ltr fallback",
        "11 0-4 ltr firstStrong @12:0", "12 0-8 ltr firstStrong @12:0",
      ])
    // Asked about a later line alone, the block and its strong character are the same.
    XCTAssertEqual(
      try directions(session, ["paragraphs": "block", "range": lspRange(2, 0, 2, 0)]), ["2 0-11 rtl firstStrong @1:0"])
    XCTAssertEqual(
      try directions(session, ["paragraphs": "block", "range": lspRange(6, 0, 6, 0)]), ["6 0-12 ltr firstStrong @5:0"])
    // Line by line, for contrast.
    XCTAssertEqual(
      try decisions(session, ["range": lspRange(0, 0, 2, 5)]), ["ltr fallback", "rtl firstStrong", "ltr firstStrong"])
  }

  func testBlockEstimateAndAnyRTLUseTheBlocksTextAsAWhole() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: blockText)
    // Block A: 1 RTL word of 5 counted; B: 3 of 6 (line 5 alone: 0 of 3);
    // D: 1 of 3.
    XCTAssertEqual(
      try decisions(session, ["paragraphs": "block", "strategy": "estimate"]),
      [
        "ltr estimate", "ltr estimate", "ltr estimate", "ltr fallback", "ltr fallback",
        "rtl estimate", "rtl estimate", "rtl estimate", "rtl fallback",
        "rtl fallback", "rtl fallback", "rtl fallback",
        "ltr estimate", "ltr estimate",
      ])
    XCTAssertEqual(
      try decisions(session, ["paragraphs": "block", "strategy": "anyRTL"]),
      [
        "rtl anyRTL", "rtl anyRTL", "rtl anyRTL", "rtl fallback", "rtl fallback",
        "rtl anyRTL", "rtl anyRTL", "rtl anyRTL", "rtl fallback",
        "rtl fallback", "rtl fallback", "rtl fallback",
        "rtl anyRTL", "rtl anyRTL",
      ])
    XCTAssertEqual(
      try decisions(session, ["paragraphs": "line", "strategy": "anyRTL", "range": lspRange(5, 0, 5, 0)]),
      ["ltr anyRTL", "ltr anyRTL"])
  }

  func testBlankLinesTakeTheFallback() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "\n \nשלום\n\nabc\n\t")
    let cases: [(JSONObject, [String])] = [
      ([:], ["ltr fallback", "ltr fallback", "rtl firstStrong", "rtl fallback", "ltr firstStrong", "ltr fallback"]),
      (
        ["layoutDirection": "rtl"],
        ["rtl fallback", "rtl fallback", "rtl firstStrong", "rtl fallback", "ltr firstStrong", "ltr fallback"]
      ),
      (
        ["fallback": "rtl"],
        ["rtl fallback", "rtl fallback", "rtl firstStrong", "rtl fallback", "ltr firstStrong", "rtl fallback"]
      ),
      (
        ["fallback": "ltr"],
        ["ltr fallback", "ltr fallback", "rtl firstStrong", "ltr fallback", "ltr firstStrong", "ltr fallback"]
      ),
      (
        ["fallback": "layout", "layoutDirection": "rtl"],
        ["rtl fallback", "rtl fallback", "rtl firstStrong", "rtl fallback", "ltr firstStrong", "rtl fallback"]
      ),
    ]
    for (options, expected) in cases {
      var block = options
      block["paragraphs"] = "block"
      XCTAssertEqual(try decisions(session, block), expected, "\(options)")
    }
  }

  // MARK: range

  func testRangeEndingAtCharacterZeroLeavesThatLineOut() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "a\nb\nc\nd\n")
    func lines(_ range: JSONValue) throws -> [Int] {
      try session.paragraphs("bidi/naturalDirection", ["range": range]).compactMap { $0["line"]?.intValue }
    }
    XCTAssertEqual(try lines(lspRange(0, 0, 2, 0)), [0, 1])
    XCTAssertEqual(try lines(lineRange(2)), [2])
    XCTAssertEqual(try lines(lspRange(1, 0, 1, 0)), [1], "an empty range on one line covers that line")
    XCTAssertEqual(try lines(lspRange(0, 0, 2, 1)), [0, 1, 2])
    XCTAssertEqual(try lines(lspRange(1, 1, 3, 0)), [1, 2])
    XCTAssertEqual(try lines(lspRange(0, 0, 3, 99)), [0, 1, 2, 3], "a character past the end is clamped")
    XCTAssertEqual(try lines(lspRange(3, 0, 4, 0)), [3], "the empty last line after the final newline exists")
    XCTAssertEqual(try lines(lspRange(4, 0, 4, 0)), [4])
    XCTAssertEqual(try session.paragraphs("bidi/naturalDirection").count, 5)
  }

  func testRangesPastTheEndAreInvalidParams() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "a\nb\n")
    let bad: [JSONValue] = [
      lspRange(0, 0, 4, 0), lspRange(0, 0, 3, 1), lspRange(3, 0, 3, 0), lspRange(9, 0, 9, 1), lspRange(2, 0, 1, 0),
    ]
    let requests: [(String, JSONObject)] = [
      ("bidi/naturalDirection", [:]), ("bidi/alignment", ["textAlignment": "natural"]),
      ("bidi/visualOrder", ["include": ["levels"]]), ("bidi/insertMarks", ["mode": "strip"]),
    ]
    for (method, options) in requests {
      for range in bad {
        var params = options
        params["range"] = range
        let error = try session.error(method, params)
        XCTAssertEqual(error.code, -32602, "\(method) \(range)")
        XCTAssertTrue(error.message.contains("range"), "the message names the field: \(error.message)")
      }
      let unknown = try session.error(method, options, uri: "file:///not-open.txt")
      XCTAssertEqual(unknown.code, -32602, method)
      XCTAssertTrue(unknown.message.contains("not-open"), unknown.message)
    }
    // The daemon keeps serving, with the document intact.
    XCTAssertEqual(try session.text(), "a\nb\n")
  }

  /// The specification, "Common parameters": an `end` of `{lineCount, 0}` means
  /// "to the end of the document", as many LSP clients send it.
  func testRangeMayEndAtTheStartOfTheLinePastTheEnd() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "a\nb\n")
    let paragraphs = try session.paragraphs("bidi/naturalDirection", ["range": lspRange(1, 0, 3, 0)])
    XCTAssertEqual(paragraphs.map { $0["line"]?.intValue }, [1, 2])
  }

  func testOptionsOutsideTheirValuesAreRejectedByTheSchemaAndTheDaemon() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc")
    let schemas = try TestSession.schemas()
    let cases: [(String, String, JSONValue)] = [
      ("bidi/naturalDirection", "strategy", "guess"),
      ("bidi/naturalDirection", "rtlThreshold", 1.5),
      ("bidi/naturalDirection", "rtlThreshold", "0.4"),
      ("bidi/naturalDirection", "fallback", "none"),
      ("bidi/naturalDirection", "paragraphs", "page"),
      ("bidi/naturalDirection", "layoutDirection", "up"),
      ("bidi/alignment", "textAlignment", "middle"),
      ("bidi/visualOrder", "direction", "up"),
      ("bidi/visualOrder", "include", ["glyphs"]),
      ("bidi/visualOrder", "mirror", "yes"),
      ("bidi/visualOrder", "lineBreaks", [-1]),
      ("bidi/insertMarks", "mode", "bold"),
    ]
    for (method, field, value) in cases {
      var params = TestSession.params([:], uri: TestSession.defaultURI)
      if method == "bidi/insertMarks" && field != "mode" { params["mode"] = "strip" }
      params[field] = value
      XCTAssertFalse(
        schemas.validate(.object(params), against: TestSession.schemaFile(method) + "#/$defs/params").isEmpty,
        "the schema must reject \(field): \(value)")
      let reply = try session.client.request(method, .object(params))
      XCTAssertEqual(reply["error"]?["code"], -32602, "\(method) \(field): \(value) → \(reply)")
      XCTAssertTrue(reply["error"]?["message"]?.stringValue?.contains(field) ?? false, "\(reply)")
    }
  }

  // MARK: Lines holding several paragraphs

  func testAParagraphSeparatorGivesTwoEntriesOnOneLine() throws {
    let text = "😀a\u{2029}ש\nabc\u{2029}"
    let expected: [PositionEncoding: [String]] = [
      .utf8: ["0 0-8 ltr firstStrong @0:4", "0 8-10 rtl firstStrong @0:8", "1 0-6 ltr firstStrong @1:0"],
      .utf16: ["0 0-4 ltr firstStrong @0:2", "0 4-5 rtl firstStrong @0:4", "1 0-4 ltr firstStrong @1:0"],
      .utf32: ["0 0-3 ltr firstStrong @0:1", "0 3-4 rtl firstStrong @0:3", "1 0-4 ltr firstStrong @1:0"],
    ]
    for (encoding, entries) in expected {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      try session.open(text: text)
      XCTAssertEqual(try directions(session), entries, encoding.rawValue)
      let spans = entries.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
      let alignment = try session.paragraphs("bidi/alignment").map {
        "\($0["line"]?.intValue ?? -1) \($0["start"]?.intValue ?? -1)-\($0["end"]?.intValue ?? -1)"
      }
      XCTAssertEqual(alignment, spans, encoding.rawValue)
      let visual = try session.paragraphs("bidi/visualOrder").map {
        "\($0["line"]?.intValue ?? -1) \($0["start"]?.intValue ?? -1)-\($0["end"]?.intValue ?? -1)"
      }
      XCTAssertEqual(visual, spans, encoding.rawValue)
    }
  }

  // MARK: Settings

  /// Line 0: 2 of 4 words RTL; line 1: 2 of 3; a blank line; no strong
  /// character. As one block, 4 of 7.
  private let settingsText = "abc def שלום עולם\nשלום עולם abc\n\n123"

  func testInitializationOptionsSetTheDefaults() throws {
    let settings: JSONValue = [
      "bidi": [
        "strategy": "estimate", "rtlThreshold": 0.6, "fallback": "rtl", "paragraphs": "block", "layoutDirection": "rtl",
      ]
    ]
    let session = try TestSession(.bidiLSP, initializationOptions: settings)
    try session.open(text: settingsText)
    // block + estimate at 0.6 (4/7 is not more); the blank line and the
    // block without strong characters take the fallback rtl.
    XCTAssertEqual(try decisions(session), ["ltr estimate", "ltr estimate", "rtl fallback", "rtl fallback"])
    // Each default can be overridden.
    XCTAssertEqual(
      try decisions(session, ["paragraphs": "line"]), ["ltr estimate", "rtl estimate", "rtl fallback", "rtl fallback"])
    XCTAssertEqual(
      try decisions(session, ["rtlThreshold": 0.5]), ["rtl estimate", "rtl estimate", "rtl fallback", "rtl fallback"])
    XCTAssertEqual(
      try decisions(session, ["strategy": "firstStrong"]),
      ["ltr firstStrong", "ltr firstStrong", "rtl fallback", "rtl fallback"])
    XCTAssertEqual(
      try decisions(session, ["fallback": "previous"]),
      ["ltr estimate", "ltr estimate", "ltr fallback", "ltr fallback"])
    XCTAssertEqual(
      try decisions(session, ["fallback": "layout"]), ["ltr estimate", "ltr estimate", "rtl fallback", "rtl fallback"])
    XCTAssertEqual(
      try decisions(session, ["fallback": "layout", "layoutDirection": "ltr"]),
      ["ltr estimate", "ltr estimate", "ltr fallback", "ltr fallback"])
    // The layout direction setting: an ltr paragraph in an rtl layout is trailing.
    let alignment = try session.paragraphs("bidi/alignment", ["range": lspRange(0, 0, 0, 0)])
    XCTAssertEqual(alignment.first?["alignment"], "trailing")
    XCTAssertEqual(alignment.first?["physical"], "left")

    // Without settings, the contract's defaults.
    let plain = try TestSession(.bidiLSP)
    try plain.open(text: settingsText)
    XCTAssertEqual(try decisions(plain), ["ltr firstStrong", "rtl firstStrong", "rtl fallback", "rtl fallback"])
    XCTAssertEqual(
      try plain.paragraphs("bidi/alignment", ["range": lspRange(0, 0, 0, 0)]).first?["alignment"], "leading")
  }

  func testDidChangeConfigurationSettingsApply() throws {
    // The specification, "Settings": settings come through initializationOptions.bidi and the
    // settings.bidi of workspace/didChangeConfiguration.
    let session = try TestSession(.bidiLSP)
    try session.open(text: settingsText)
    try session.client.notify(
      "workspace/didChangeConfiguration",
      [
        "settings": [
          "bidi": [
            "strategy": "estimate", "rtlThreshold": 0.6, "fallback": "rtl", "paragraphs": "block",
            "layoutDirection": "rtl",
          ]
        ]
      ])
    XCTAssertEqual(try decisions(session), ["ltr estimate", "ltr estimate", "rtl fallback", "rtl fallback"])
    XCTAssertEqual(
      try session.paragraphs("bidi/alignment", ["range": lspRange(0, 0, 0, 0)]).first?["alignment"], "trailing")
    // A later change applies too.
    try session.client.notify("workspace/didChangeConfiguration", ["settings": ["bidi": ["strategy": "anyRTL"]]])
    XCTAssertEqual(try decisions(session, ["range": lspRange(0, 0, 0, 0)]).first, "rtl anyRTL")
  }
}
