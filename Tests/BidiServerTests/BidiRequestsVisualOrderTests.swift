import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// `bidi/visualOrder` (specification, "bidi/visualOrder"); every params
/// and result is schema-checked by `TestSession`.
final class BidiRequestsVisualOrderTests: XCTestCase {
  private static let everything: JSONValue = [
    "runs", "levels", "visualOrder", "visualText", "logicalToVisual", "visualToLogical",
  ]

  /// The display lines of every paragraph of the answer, in order.
  private func displayLines(
    _ session: TestSession, _ options: JSONObject, file: StaticString = #filePath, line: UInt = #line
  ) throws -> [JSONValue] {
    try session.paragraphs("bidi/visualOrder", options, file: file, line: line).flatMap {
      $0["lines"]?.arrayValue ?? []
    }
  }

  private func ints(_ value: JSONValue?) -> [Int] { value?.arrayValue?.compactMap(\.intValue) ?? [] }

  /// Runs as `start-end@level`.
  private func runs(_ value: JSONValue?) -> [String] {
    (value?.arrayValue ?? []).map {
      "\($0["start"]?.intValue ?? -1)-\($0["end"]?.intValue ?? -1)@\($0["level"]?.intValue ?? -1)"
    }
  }

  // MARK: direction

  func testDirectionAutoLtrAndRtl() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc שלום\nשלום abc\n123\nשלום abc def")
    func levels(_ options: JSONObject) throws -> [Int] {
      try session.paragraphs("bidi/visualOrder", options).compactMap { $0["paragraphLevel"]?.intValue }
    }
    XCTAssertEqual(try levels([:]), [0, 1, 1, 1], "auto: firstStrong, fallback previous")
    XCTAssertEqual(try levels(["direction": "auto"]), [0, 1, 1, 1])
    XCTAssertEqual(try levels(["direction": "auto", "fallback": "ltr"]), [0, 1, 0, 1], "UAX #9's default")
    XCTAssertEqual(
      try levels(["direction": "auto", "strategy": "estimate"]), [1, 1, 1, 0], "half the words: rtl; then 1 of 3")
    XCTAssertEqual(try levels(["direction": "auto", "strategy": "anyRTL"]), [1, 1, 1, 1])
    XCTAssertEqual(try levels(["direction": "ltr"]), [0, 0, 0, 0])
    XCTAssertEqual(try levels(["direction": "rtl"]), [1, 1, 1, 1])
    let directions = try session.paragraphs("bidi/visualOrder", ["direction": "rtl"]).compactMap {
      $0["direction"]?.stringValue
    }
    XCTAssertEqual(directions, ["rtl", "rtl", "rtl", "rtl"])

    XCTAssertEqual(
      runs(try displayLines(session, ["range": lspRange(0, 0, 0, 0)]).first?["runs"]), ["0-4@0", "4-8@1"])
    // In an rtl paragraph the Latin rises to level 2; the space between
    // the two directions takes the paragraph's (N2).
    XCTAssertEqual(
      runs(try displayLines(session, ["range": lspRange(0, 0, 0, 0), "direction": "rtl"]).first?["runs"]),
      ["3-8@1", "0-3@2"])
    XCTAssertEqual(
      runs(try displayLines(session, ["range": lspRange(1, 0, 1, 0), "direction": "ltr"]).first?["runs"]),
      ["0-4@1", "4-8@0"])
  }

  // MARK: include

  func testEachIncludeFieldAloneAndAllTogether() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc שלום")
    let expected: JSONObject = [
      "start": 0, "end": 8,
      "runs": [["start": 0, "end": 4, "level": 0], ["start": 4, "end": 8, "level": 1]],
      "levels": [0, 0, 0, 0, 1, 1, 1, 1],
      "visualOrder": [0, 1, 2, 3, 7, 6, 5, 4],
      "visualText": "abc םולש",
      "logicalToVisual": [0, 1, 2, 3, 7, 6, 5, 4],
      "visualToLogical": [0, 1, 2, 3, 7, 6, 5, 4],
    ]
    for field in Self.everything.arrayValue ?? [] {
      guard let name = field.stringValue else { continue }
      let lines = try displayLines(session, ["include": [field]])
      XCTAssertEqual(lines.count, 1)
      XCTAssertEqual(lines.first, .object(["start": 0, "end": 8, name: expected[name] ?? .null]), name)
    }
    XCTAssertEqual(try displayLines(session, ["include": Self.everything]), [.object(expected)])
    XCTAssertEqual(
      try displayLines(session, [:]), [["start": 0, "end": 8, "runs": expected["runs"] ?? .null]], "runs by default")
    XCTAssertEqual(try displayLines(session, ["include": []]), [["start": 0, "end": 8]])
  }

  // MARK: lineBreaks

  func testLineBreaksReorderEachDisplayLineByItself() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "שלום abc def\nabc\u{2029}שלום def")
    let include: JSONValue = ["levels", "visualOrder", "logicalToVisual", "runs"]
    let whole = try displayLines(session, ["range": lspRange(0, 0, 0, 0), "include": include])
    XCTAssertEqual(whole.count, 1)
    XCTAssertEqual(ints(whole.first?["levels"]), [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2])

    let broken = try displayLines(session, ["range": lspRange(0, 0, 0, 0), "include": include, "lineBreaks": [9]])
    XCTAssertEqual(broken.count, 2)
    // L1: the space before the break is now at the end of a display line,
    // so it goes back to the paragraph level.
    XCTAssertEqual(broken.first?["start"], 0)
    XCTAssertEqual(broken.first?["end"], 9)
    XCTAssertEqual(ints(broken.first?["levels"]), [1, 1, 1, 1, 1, 2, 2, 2, 1])
    XCTAssertEqual(ints(broken.first?["visualOrder"]), [8, 5, 6, 7, 4, 3, 2, 1, 0])
    XCTAssertEqual(ints(broken.first?["logicalToVisual"]), [8, 7, 6, 5, 4, 1, 2, 3, 0])
    XCTAssertEqual(runs(broken.first?["runs"]), ["8-9@1", "5-8@2", "0-5@1"])
    XCTAssertEqual(broken.last?["start"], 9)
    XCTAssertEqual(broken.last?["end"], 12)
    XCTAssertEqual(ints(broken.last?["levels"]), [2, 2, 2])
    XCTAssertEqual(ints(broken.last?["visualOrder"]), [9, 10, 11], "offsets count from the LSP line's start")
    XCTAssertEqual(ints(broken.last?["logicalToVisual"]), [0, 1, 2], "positions count within the display line")
    XCTAssertEqual(runs(broken.last?["runs"]), ["9-12@2"])

    // Two breaks, one per word boundary.
    let three = try displayLines(
      session, ["range": lspRange(0, 0, 0, 0), "lineBreaks": [5, 9], "include": ["visualOrder"]])
    XCTAssertEqual(three.map { ints($0["visualOrder"]) }, [[4, 3, 2, 1, 0], [8, 5, 6, 7], [9, 10, 11]])

    // In a line of two paragraphs, display lines also end at the paragraph's end.
    let paragraphs = try session.paragraphs(
      "bidi/visualOrder", ["range": lspRange(1, 0, 1, 0), "lineBreaks": [6], "include": ["levels"]])
    XCTAssertEqual(paragraphs.count, 2)
    XCTAssertEqual(paragraphs.first?["lines"]?.arrayValue?.map { ints($0["levels"]) }, [[0, 0, 0, 0]])
    XCTAssertEqual(
      paragraphs.last?["lines"]?.arrayValue?.map { "\($0["start"]?.intValue ?? -1)-\($0["end"]?.intValue ?? -1)" },
      ["4-6", "6-12"])
    XCTAssertEqual(paragraphs.last?["lines"]?.arrayValue?.map { ints($0["levels"]) }, [[1, 1], [1, 1, 1, 2, 2, 2]])
  }

  func testBadLineBreaksAreInvalidParams() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "a😀b שלום\nabc")
    let cases: [(JSONObject, String)] = [
      (["lineBreaks": [2]], "a range of more than one line"),
      (["lineBreaks": [2], "range": lspRange(0, 0, 1, 1)], "a range of more than one line"),
      (["lineBreaks": [2], "range": lspRange(0, 0, 0, 0)], "inside a surrogate pair"),
      (["lineBreaks": [0], "range": lspRange(0, 0, 0, 0)], "at the line start"),
      (["lineBreaks": [9], "range": lspRange(0, 0, 0, 0)], "at the line end"),
      (["lineBreaks": [12], "range": lspRange(0, 0, 0, 0)], "past the line end"),
      (["lineBreaks": [5, 3], "range": lspRange(0, 0, 0, 0)], "decreasing"),
      (["lineBreaks": [3, 3], "range": lspRange(0, 0, 0, 0)], "repeated"),
    ]
    for (options, problem) in cases {
      let error = try session.error("bidi/visualOrder", options)
      XCTAssertEqual(error.code, -32602, problem)
      XCTAssertTrue(error.message.contains("lineBreaks"), "\(problem): \(error.message)")
    }
    // The same break on a character boundary is fine, in UTF-8 too.
    XCTAssertEqual(try displayLines(session, ["lineBreaks": [3], "range": lspRange(0, 0, 0, 0)]).count, 2)
    let utf8 = try TestSession(.bidiLSP, encoding: .utf8)
    try utf8.open(text: "שלום")
    XCTAssertEqual(try utf8.error("bidi/visualOrder", ["lineBreaks": [3]]).code, -32602, "inside a UTF-8 sequence")
    XCTAssertEqual(try displayLines(utf8, ["lineBreaks": [4]]).count, 2)
  }

  // MARK: mirror

  func testMirroredGlyphsInRTLText() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "(שלום)\nשלום [abc] <x>\nabc (def)")
    func texts(_ options: JSONObject) throws -> [String] {
      var all = options
      all["include"] = ["visualText"]
      return try displayLines(session, all).compactMap { $0["visualText"]?.stringValue }
    }
    XCTAssertEqual(try texts([:]), ["(םולש)", "<x> [abc] םולש", "abc (def)"])
    XCTAssertEqual(try texts(["mirror": true]), ["(םולש)", "<x> [abc] םולש", "abc (def)"])
    XCTAssertEqual(try texts(["mirror": false]), [")םולש(", ">x< ]abc[ םולש", "abc (def)"])
    // Mirroring is only for visualText: the order is the same.
    XCTAssertEqual(
      try displayLines(session, ["mirror": false, "include": ["visualOrder"]]),
      try displayLines(session, ["mirror": true, "include": ["visualOrder"]]))
  }

  // MARK: Encodings

  func testOffsetsCountUnitsOfTheNegotiatedEncoding() throws {
    // U+10900 PHOENICIAN LETTER ALF and U+10901 BET are R and astral: in an
    // rtl paragraph their units stay in logical order.
    let text = "𐤀𐤁 ab\nab😀 שלום"
    let expected: [PositionEncoding: [(levels: [Int], order: [Int], runs: [String])]] = [
      .utf8: [
        ([1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2], [9, 10, 8, 4, 5, 6, 7, 0, 1, 2, 3], ["9-11@2", "0-9@1"]),
        (
          [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1], [0, 1, 2, 3, 4, 5, 6, 13, 14, 11, 12, 9, 10, 7, 8],
          ["0-7@0", "7-15@1"]
        ),
      ],
      .utf16: [
        ([1, 1, 1, 1, 1, 2, 2], [5, 6, 4, 2, 3, 0, 1], ["5-7@2", "0-5@1"]),
        ([0, 0, 0, 0, 0, 1, 1, 1, 1], [0, 1, 2, 3, 4, 8, 7, 6, 5], ["0-5@0", "5-9@1"]),
      ],
      .utf32: [
        ([1, 1, 1, 2, 2], [3, 4, 2, 1, 0], ["3-5@2", "0-3@1"]),
        ([0, 0, 0, 0, 1, 1, 1, 1], [0, 1, 2, 3, 7, 6, 5, 4], ["0-4@0", "4-8@1"]),
      ],
    ]
    for (encoding, lines) in expected {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      try session.open(text: text)
      let answer = try displayLines(session, ["include": Self.everything])
      XCTAssertEqual(answer.count, 2, encoding.rawValue)
      for (display, want) in zip(answer, lines) {
        XCTAssertEqual(ints(display["levels"]), want.levels, encoding.rawValue)
        XCTAssertEqual(ints(display["visualOrder"]), want.order, encoding.rawValue)
        XCTAssertEqual(runs(display["runs"]), want.runs, encoding.rawValue)
        XCTAssertEqual(display["end"]?.intValue, want.levels.count, encoding.rawValue)
        XCTAssertEqual(ints(display["logicalToVisual"]).count, want.levels.count, encoding.rawValue)
        XCTAssertEqual(ints(display["visualToLogical"]).sorted(), Array(0..<want.levels.count), encoding.rawValue)
      }
      XCTAssertEqual(answer.map { $0["visualText"]?.stringValue }, ["ab 𐤁𐤀", "ab😀 םולש"], encoding.rawValue)
    }
  }

  // MARK: Removed characters

  func testCharactersRemovedByX9HaveNullLevelsAndJoinTheRunBefore() throws {
    let session = try TestSession(.bidiLSP)
    // RLE b PDF: b is raised to level 2 (an L at an odd embedding level);
    // U+200B ZERO WIDTH SPACE is BN.
    try session.open(text: "a\u{202B}b\u{202C}c\nab\u{200B}c")
    let lines = try displayLines(session, ["include": Self.everything])
    XCTAssertEqual(lines.count, 2)
    XCTAssertEqual(lines[0]["levels"], [0, nil, 2, nil, 0])
    XCTAssertEqual(ints(lines[0]["visualOrder"]), [0, 2, 4])
    XCTAssertEqual(runs(lines[0]["runs"]), ["0-2@0", "2-4@2", "4-5@0"])
    XCTAssertEqual(lines[0]["visualText"], "abc")
    XCTAssertEqual(ints(lines[0]["logicalToVisual"]), [0, 1, 2, 3, 4])
    XCTAssertEqual(lines[1]["levels"], [0, 0, nil, 0])
    XCTAssertEqual(ints(lines[1]["visualOrder"]), [0, 1, 3])
    XCTAssertEqual(lines[1]["visualText"], "abc")
  }

  func testARemovedCharacterAtTheStartOfADisplayLineJoinsTheRunAfterIt() throws {
    // Protocol/specification.md, "bidi/visualOrder" (runs): removed
    // characters at the start of a display line join the run of the first
    // character after them.
    let session = try TestSession(.bidiLSP)
    try session.open(text: "\u{202A}abc")
    let line = try displayLines(session, ["include": ["runs", "levels", "visualOrder"]]).first
    XCTAssertEqual(line?["levels"], [nil, 2, 2, 2])
    XCTAssertEqual(ints(line?["visualOrder"]), [1, 2, 3])
    XCTAssertEqual(runs(line?["runs"]), ["0-4@2"])
  }

  // MARK: Maps

  /// Expands runs into the visual order of all units (odd levels reversed).
  private func expand(_ runs: JSONValue?, from start: Int) -> [Int] {
    (runs?.arrayValue ?? []).flatMap { run -> [Int] in
      let units = Array(((run["start"]?.intValue ?? 0) - start)..<((run["end"]?.intValue ?? 0) - start))
      return (run["level"]?.intValue ?? 0) % 2 == 1 ? units.reversed() : units
    }
  }

  func testLogicalAndVisualMapsAreInversePermutationsPlacedAsRunsPlaceThem() throws {
    // UTF-32, so that units are characters.
    let session = try TestSession(.bidiLSP, encoding: .utf32)
    let pieces = [
      "abc", " ", "שלום", "عربي", "123", "٣٤", "(", ")", "[x]", "-", ",", "\u{202B}", "\u{202C}", "\u{2067}",
      "\u{2069}", "\u{200F}", "\u{200B}", ".", "\t",
    ]
    var generator = SeededGenerator(seed: 0x5EED_0F_0DE5)
    var lines: [String] = []
    for _ in 0..<120 {
      var line = ""
      for _ in 0..<Int.random(in: 1...14, using: &generator) {
        line += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      lines.append(line)
    }
    try session.open(text: lines.joined(separator: "\n"))
    var checked = 0
    for direction in ["auto", "ltr", "rtl"] {
      let displays = try displayLines(session, ["include": Self.everything, "direction": .string(direction)])
      XCTAssertEqual(displays.count, lines.count)
      for (index, display) in displays.enumerated() {
        let count = (display["end"]?.intValue ?? 0) - (display["start"]?.intValue ?? 0)
        let toVisual = ints(display["logicalToVisual"])
        let toLogical = ints(display["visualToLogical"])
        let context = "\(direction) line \(index) \(TestControls.visible(lines[index]))"
        XCTAssertEqual(toVisual.sorted(), Array(0..<count), context)
        XCTAssertEqual(toLogical.sorted(), Array(0..<count), context)
        XCTAssertEqual(
          toLogical.indices.map { toVisual.indices.contains(toLogical[$0]) ? toVisual[toLogical[$0]] : -1 },
          Array(0..<count), context)
        XCTAssertEqual(
          toLogical, expand(display["runs"], from: 0), "maps place removed characters as runs do: \(context)")
        let levels = display["levels"]?.arrayValue ?? []
        XCTAssertEqual(levels.count, count, context)
        XCTAssertEqual(
          toLogical.filter { levels.indices.contains($0) && !levels[$0].isNull }, ints(display["visualOrder"]), context)
        var covered: [Int] = []
        for run in display["runs"]?.arrayValue ?? [] {
          covered += Array((run["start"]?.intValue ?? 0)..<(run["end"]?.intValue ?? 0))
        }
        XCTAssertEqual(covered.sorted(), Array(0..<count), "runs cover every unit once: \(context)")
        checked += 1
      }
    }
    XCTAssertEqual(checked, 360)
  }

  func testVisualToLogicalCountsFromTheDisplayLineStart() throws {
    // The specification, "bidi/visualOrder": "logicalToVisual values and visualToLogical positions
    // count 0… within the display line", so that the maps are inverse
    // permutations even for display lines that do not start at offset 0.
    let session = try TestSession(.bidiLSP)
    try session.open(text: "שלום abc def\nabc\u{2029}שלום")
    let broken = try displayLines(
      session, ["range": lspRange(0, 0, 0, 0), "lineBreaks": [9], "include": ["logicalToVisual", "visualToLogical"]])
    XCTAssertEqual(ints(broken.last?["logicalToVisual"]), [0, 1, 2])
    XCTAssertEqual(ints(broken.last?["visualToLogical"]), [0, 1, 2])
    let second = try displayLines(
      session, ["range": lspRange(1, 0, 1, 0), "include": ["logicalToVisual", "visualToLogical"]])
    XCTAssertEqual(ints(second.last?["logicalToVisual"]), [3, 2, 1, 0])
    XCTAssertEqual(ints(second.last?["visualToLogical"]), [3, 2, 1, 0])
  }
}
