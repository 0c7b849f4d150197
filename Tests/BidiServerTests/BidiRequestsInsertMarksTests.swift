import BidiTestSupport
import Foundation
import JSONRPC
import UnicodeBidi
import XCTest

/// `bidi/insertMarks` (specification, "bidi/insertMarks"), verified by effect: the edits are
/// applied to a shadow copy and sent to the daemon as a `didChange`, the
/// daemon is asked about the new text (naturalDirection, visualOrder), and
/// asking again over the grown range must give no edits.
final class BidiRequestsInsertMarksTests: XCTestCase {
  private var scratchDocuments = 0

  /// Asks for edits with `options`, checks the daemon's copy against the
  /// shadow after applying them, and checks idempotence. Returns the edits.
  @discardableResult
  private func mark(
    _ session: TestSession, _ shadow: inout TestText, _ options: JSONObject,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> [JSONValue] {
    let edits = try session.edits(options, file: file, line: line)
    var again = options
    if let range = options["range"] {
      guard let grown = shadow.grown(range, by: edits, in: session.encoding) else {
        XCTFail("edits that cannot apply: \(edits)", file: file, line: line)
        return edits
      }
      again["range"] = grown
    }
    try shadow.apply(edits, in: session.encoding)
    try session.apply(edits: edits)
    XCTAssertEqual(
      TestControls.visible(try session.text(file: file, line: line)), TestControls.visible(shadow.text),
      "the daemon's copy after the edits", file: file, line: line)
    let second = try session.edits(again, file: file, line: line)
    XCTAssertEqual(second, [], "not idempotent: \(options) then \(again)", file: file, line: line)
    return edits
  }

  /// The inserted or replaced texts of edits, controls spelled out.
  private func texts(_ edits: [JSONValue]) -> [String] {
    edits.map { TestControls.visible($0["newText"]?.stringValue ?? "?") }
  }

  private func lines(of edits: [JSONValue]) -> [Int] {
    edits.compactMap { $0["range"]?["start"]?["line"]?.intValue }
  }

  // MARK: Display checks through the daemon

  /// The scalar indices of each paragraph of a line, left to right, as the
  /// daemon displays them (characters removed by X9 left out).
  private func visualScalars(
    _ session: TestSession, line: Int, uri: String = TestSession.defaultURI, _ options: JSONObject = [:],
    content: [Unicode.Scalar], file: StaticString = #filePath, lineNumber: UInt = #line
  ) throws -> [(start: Int, order: [Int])] {
    var all = options
    all["range"] = lspRange(line, 0, line, 0)
    all["include"] = ["visualOrder"]
    let unitScalar = TestText.scalarOfUnit(content, in: session.encoding)
    return try session.paragraphs("bidi/visualOrder", all, uri: uri, file: file, line: lineNumber).map { paragraph in
      var order: [Int] = []
      for unit in paragraph["lines"]?[0]?["visualOrder"]?.arrayValue?.compactMap(\.intValue) ?? [] {
        guard unitScalar.indices.contains(unit) else { continue }
        if order.last != unitScalar[unit] { order.append(unitScalar[unit]) }
      }
      let start = paragraph["start"]?.intValue ?? 0
      return (unitScalar.indices.contains(start) ? unitScalar[start] : content.count, order)
    }
  }

  /// Each isolate of the line (initiator and matching PDI, BD9).
  private func isolates(_ line: [Unicode.Scalar]) -> [ClosedRange<Int>] {
    var open: [Int] = []
    var result: [ClosedRange<Int>] = []
    for (index, scalar) in line.enumerated() {
      if TestControls.isIsolateInitiator(scalar) {
        open.append(index)
      } else if scalar == TestControls.pdi, let initiator = open.popLast() {
        result.append(initiator...index)
      } else if scalar == "\u{2029}" {
        open = []
      }
    }
    return result.sorted { $0.lowerBound < $1.lowerBound }
  }

  /// Every isolate of line `line` displays as one block, and its content in
  /// the order it has alone as a paragraph of the isolate's direction.
  /// Returns how many isolates it checked.
  @discardableResult
  private func assertIsolatesDisplayAsBlocks(
    _ session: TestSession, _ shadow: TestText, line: Int, uri: String = TestSession.defaultURI,
    _ options: JSONObject = [:], file: StaticString = #filePath, lineNumber: UInt = #line
  ) throws -> Int {
    let content = shadow.lines[line]
    let spans = isolates(content)
    let paragraphs = try visualScalars(
      session, line: line, uri: uri, options, content: content, file: file, lineNumber: lineNumber)
    for span in spans {
      let context = "isolate \(TestControls.visible(content[span])) in \(TestControls.visible(content))"
      guard let paragraph = paragraphs.last(where: { $0.start <= span.lowerBound }) else {
        XCTFail("no paragraph for \(context)", file: file, line: lineNumber)
        continue
      }
      let positions = paragraph.order.enumerated().filter { span.contains($0.element) }.map(\.offset)
      XCTAssertEqual(
        positions.count, span.count, "every character of the isolate is displayed: \(context)", file: file,
        line: lineNumber)
      XCTAssertEqual(
        positions.last.map { $0 - (positions.first ?? 0) + 1 }, positions.count, "displayed as one block: \(context)",
        file: file, line: lineNumber)
      // The inside, alone, in the isolate's direction.
      let inside = Array(content[(span.lowerBound + 1)..<span.upperBound])
      guard !inside.isEmpty else { continue }
      let direction: JSONValue =
        content[span.lowerBound] == TestControls.lri
        ? "ltr" : content[span.lowerBound] == TestControls.rli ? "rtl" : "auto"
      scratchDocuments += 1
      let scratch = "file:///scratch-\(scratchDocuments).txt"
      var alone = ""
      alone.unicodeScalars.append(contentsOf: inside)
      try session.open(scratch, text: alone)
      let own = try visualScalars(
        session, line: 0, uri: scratch, ["direction": direction, "strategy": "firstStrong", "fallback": "ltr"],
        content: inside,
        file: file, lineNumber: lineNumber)
      let shown = paragraph.order.filter { span.lowerBound < $0 && $0 < span.upperBound }.map {
        $0 - span.lowerBound - 1
      }
      XCTAssertEqual(shown, own.first?.order, "displayed in its own order: \(context)", file: file, line: lineNumber)
    }
    return spans.count
  }

  /// The text of a line as displayed (daemon's visualText), without the
  /// invisible marks and isolate controls.
  private func displayed(
    _ session: TestSession, line: Int, uri: String = TestSession.defaultURI, _ options: JSONObject = [:],
    file: StaticString = #filePath, lineNumber: UInt = #line
  ) throws -> String {
    var all = options
    all["range"] = lspRange(line, 0, line, 0)
    all["include"] = ["visualText"]
    let text = try session.paragraphs("bidi/visualOrder", all, uri: uri, file: file, line: lineNumber)
      .compactMap { $0["lines"]?[0]?["visualText"]?.stringValue }.joined()
    return String(String.UnicodeScalarView(text.unicodeScalars.filter { !TestControls.isControl($0) }))
  }

  /// A right-to-left word as it appears on screen.
  private func onScreen(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.reversed()))
  }

  // MARK: direction

  private let directionLines = [
    "שלום abc",  // 0 rtl
    "abc שלום",  // 1 ltr
    "123",  // 2 no strong character
    "",  // 3 empty: never marked
    "  ",  // 4 only spaces
    "\u{200F}abc",  // 5 an RLM already makes it rtl
    "ab\u{2029}שלום",  // 6 two paragraphs: ltr, rtl
    "\u{2067}abc\u{2069} 5",  // 7 the only strong character is isolated
  ]

  func testDirectionModeMakesEveryParagraphResolveAsAsked() throws {
    for (wanted, expectedLines) in [("rtl", [1, 2, 4, 6, 7]), ("ltr", [0, 2, 4, 5, 6, 7])] {
      let session = try TestSession(.bidiLSP)
      let text = directionLines.joined(separator: "\n")
      try session.open(text: text)
      var shadow = TestText(text)
      let edits = try mark(session, &shadow, ["mode": "direction", "direction": .string(wanted)])
      XCTAssertEqual(lines(of: edits), expectedLines, wanted)
      let mark = wanted == "rtl" ? "<RLM>" : "<LRM>"
      XCTAssertEqual(Set(texts(edits)), [mark], wanted)
      // Judged by firstStrong alone: a fallback cannot fake the answer.
      let opposite: JSONValue = wanted == "rtl" ? "ltr" : "rtl"
      for entry in try session.paragraphs("bidi/naturalDirection", ["strategy": "firstStrong", "fallback": opposite])
      where entry["start"] != entry["end"] {
        XCTAssertEqual(entry["direction"]?.stringValue, wanted, "\(entry)")
        XCTAssertEqual(entry["basis"], "firstStrong", "\(entry)")
      }
    }
  }

  func testDirectionModeOnARangeTouchesOnlyItsLines() throws {
    let session = try TestSession(.bidiLSP)
    let text = directionLines.joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    let edits = try mark(session, &shadow, ["mode": "direction", "direction": "rtl", "range": lspRange(1, 0, 3, 0)])
    XCTAssertEqual(lines(of: edits), [1, 2])
    XCTAssertEqual(shadow.lines[4], Array("  ".unicodeScalars))
  }

  func testDirectionModeInBlocksMarksEachBlockOnce() throws {
    let text = "123\nשלום abc\n\nabc\nעולם\n\n \n456\n-"
    for (wanted, expectedLines) in [("ltr", [0, 7]), ("rtl", [3, 7])] {
      let session = try TestSession(.bidiLSP)
      try session.open(text: text)
      var shadow = TestText(text)
      let edits = try mark(
        session, &shadow, ["mode": "direction", "direction": .string(wanted), "paragraphs": "block"])
      XCTAssertEqual(lines(of: edits), expectedLines, wanted)
      XCTAssertEqual(
        edits.compactMap { $0["range"]?["start"]?["character"]?.intValue }, [0, 0], "at the block's start")
      let opposite: JSONValue = wanted == "rtl" ? "ltr" : "rtl"
      let entries = try session.paragraphs(
        "bidi/naturalDirection", ["strategy": "firstStrong", "paragraphs": "block", "fallback": opposite])
      for (index, entry) in entries.enumerated() where !shadow.lines[index].allSatisfy({ $0 == " " }) {
        XCTAssertEqual(entry["direction"]?.stringValue, wanted, "\(wanted) line \(index)")
        XCTAssertEqual(entry["basis"], "firstStrong", "\(wanted) line \(index)")
      }
    }
  }

  // MARK: isolate

  func testIsolateModeWrapsTheRangeWithEachKind() throws {
    // A nil kind leaves the option out: auto is the default.
    let cases: [(text: String, start: Int, end: Int, kind: String?, initiator: String)] = [
      ("see שלום def now", 4, 12, "auto", "<FSI>"),
      ("שלום abc 123 עולם", 5, 12, "ltr", "<LRI>"),
      ("From @handle: hi", 5, 12, "rtl", "<RLI>"),
      ("כתב abc: שלום", 4, 8, nil, "<FSI>"),
    ]
    for test in cases {
      let session = try TestSession(.bidiLSP)
      try session.open(text: test.text)
      var shadow = TestText(test.text)
      var options: JSONObject = ["mode": "isolate", "range": lspRange(0, test.start, 0, test.end)]
      if let kind = test.kind { options["isolate"] = .string(kind) }
      let edits = try mark(session, &shadow, options)
      XCTAssertEqual(texts(edits), [test.initiator, "<PDI>"], test.text)
      XCTAssertEqual(
        edits.compactMap { $0["range"]?["start"]?["character"]?.intValue }, [test.start, test.end], test.text)
      XCTAssertEqual(try assertIsolatesDisplayAsBlocks(session, shadow, line: 0), 1, test.text)
    }
  }

  func testIsolateModeNeedsARangeWithinOneLine() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc\nשלום")
    let missing = try session.error("bidi/insertMarks", ["mode": "isolate"])
    XCTAssertEqual(missing.code, -32602)
    XCTAssertTrue(missing.message.contains("range"), missing.message)
    let twoLines = try session.error("bidi/insertMarks", ["mode": "isolate", "range": lspRange(0, 1, 1, 2)])
    XCTAssertEqual(twoLines.code, -32602)
    XCTAssertTrue(twoLines.message.contains("range"), twoLines.message)
    XCTAssertEqual(try session.edits(["mode": "isolate", "range": lspRange(1, 2, 1, 2)]), [], "an empty range")
    XCTAssertEqual(try session.text(), "abc\nשלום", "errors change nothing")
  }

  // MARK: placeholders

  private let placeholderLines = [
    #"Total: %d items, %1$@ and %.2f, %lld; 100%% done, \(count) \(f(x)), {0} {name} ${name} {{name}} \#u{2068}%s\#u{2069}"#,
    "נשארו %d פריטים ב-{0}, 50%% הנחה",
  ]

  private let expectedPlaceholders = [
    ["%d", "%1$@", "%.2f", "%lld", #"\(count)"#, #"\(f(x))"#, "{0}", "{name}", "${name}", "{{name}}"],
    ["%d", "{0}"],
  ]

  func testPlaceholdersModeIsolatesEveryKindOnce() throws {
    let session = try TestSession(.bidiLSP)
    let text = placeholderLines.joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    let edits = try mark(session, &shadow, ["mode": "placeholders"])
    XCTAssertEqual(edits.count, 2 * 12)
    XCTAssertEqual(try mark(session, &shadow, ["mode": "placeholders", "style": "isolate"]), [])
    for (index, expected) in expectedPlaceholders.enumerated() {
      let line = shadow.lines[index]
      let wrapped = isolates(line).map { span in
        var text = ""
        text.unicodeScalars.append(contentsOf: line[(span.lowerBound + 1)..<span.upperBound])
        return text
      }
      XCTAssertEqual(wrapped, expected + (index == 0 ? ["%s"] : []), "line \(index)")
      XCTAssertFalse(TestControls.visible(line).contains("<FSI>%%"), "%% is not a placeholder")
      XCTAssertEqual(try assertIsolatesDisplayAsBlocks(session, shadow, line: index), wrapped.count)
    }
  }

  func testPlaceholdersFilledWithValuesDisplayAsBlocks() throws {
    let session = try TestSession(.bidiLSP)
    let format = "נשארו %d פריטים ב-{0} מאת %@"
    try session.open(text: format)
    var shadow = TestText(format)
    try mark(session, &shadow, ["mode": "placeholders"])
    // Fill the isolated placeholders, as a localized app does at run time.
    var filled = shadow.text
    for (placeholder, value) in [("%d", "1,234.56"), ("{0}", "Apple Pay"), ("%@", "user@example.com")] {
      filled = filled.replacingOccurrences(of: placeholder, with: value)
    }
    try session.open("file:///filled.txt", text: filled)
    let checked = try assertIsolatesDisplayAsBlocks(session, TestText(filled), line: 0, uri: "file:///filled.txt")
    XCTAssertEqual(checked, 3)
  }

  func testPlaceholdersMarksStyle() throws {
    let session = try TestSession(.bidiLSP)
    let text = [
      "استخدم %@ 3 مرات",  // rtl: RLM after the placeholder
      "Use %@ 3 times",  // ltr: LRM
      "استخدم %@\u{200F} 3 مرات",  // already marked
      "استخدم %@\u{200E} 3 مرات",  // the opposite mark is replaced
      "استخدم \u{2068}%@\u{2069} 3 مرات",  // already isolated
      "%@ 3",  // no strong character: the fallback (previous, rtl) decides the mark
    ].joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    let edits = try mark(session, &shadow, ["mode": "placeholders", "style": "marks"])
    XCTAssertEqual(texts(edits), ["<RLM>", "<LRM>", "<RLM>", "<RLM>"])
    XCTAssertEqual(lines(of: edits), [0, 1, 3, 5])
    XCTAssertEqual(edits[2]["range"]?["end"]?["character"], 10, "replaces the LRM")

    // By effect: filled, the marked format displays as the isolated one,
    // and as meant: the 3 stays with "times".
    let meant = onScreen("مرات") + " 3 Apple Pay " + onScreen("استخدم")
    let marked = shadow.text.replacingOccurrences(of: "%@", with: "Apple Pay")
    try session.open("file:///marked.txt", text: marked)
    for line in [0, 2, 3, 4] {
      XCTAssertEqual(try displayed(session, line: line, uri: "file:///marked.txt"), meant, "line \(line)")
    }
    let plain = "استخدم Apple Pay 3 مرات"
    try session.open("file:///plain.txt", text: plain)
    XCTAssertNotEqual(
      try displayed(session, line: 0, uri: "file:///plain.txt"), meant, "without the mark the 3 joins the brand")
  }

  // MARK: runs

  func testRunsModeIsolatesOppositeRunsSoEachDisplaysAsABlock() throws {
    let session = try TestSession(.bidiLSP)
    let text = [
      "Hello مرحبا بالعالم 123 world",
      "התקשרו אלינו +1 (555) 123-4567 עכשיו",
      "שלום abc def, ghi עולם",
      "בין 10–20 אנשים, 2024-01-31",
      "plain ascii only",
    ].joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    let edits = try mark(session, &shadow, ["mode": "runs"])
    XCTAssertEqual(Set(lines(of: edits)), [0, 1, 2, 3])
    var checked = 0
    for line in 0..<4 {
      checked += try assertIsolatesDisplayAsBlocks(session, shadow, line: line)
      // Neutrals at a run's edges stay outside it.
      for span in isolates(shadow.lines[line]) {
        let inside = shadow.lines[line][(span.lowerBound + 1)..<span.upperBound]
        XCTAssertFalse(inside.first?.properties.isWhitespace ?? true, TestControls.visible(inside))
        XCTAssertFalse(inside.last?.properties.isWhitespace ?? true, TestControls.visible(inside))
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 5)
    XCTAssertEqual(
      try displayed(session, line: 1), onScreen("עכשיו") + " +1 (555) 123-4567 " + onScreen("התקשרו אלינו"))
    XCTAssertEqual(try displayed(session, line: 2), onScreen("עולם") + " abc def, ghi " + onScreen("שלום"))
  }

  func testRunsModeOnPartOfALineIsolatesOnlyRunsInside() throws {
    let session = try TestSession(.bidiLSP)
    let text = "abc שלום def עולם ghi"
    try session.open(text: text)
    var shadow = TestText(text)
    let edits = try mark(session, &shadow, ["mode": "runs", "range": lspRange(0, 0, 0, 9)])
    XCTAssertEqual(texts(edits), ["<RLI>", "<PDI>"])
    XCTAssertEqual(edits.compactMap { $0["range"]?["start"]?["character"]?.intValue }, [4, 8])
  }

  // MARK: strip

  private let controlLines = [
    "a\u{2067}b\u{2069} c\u{202B}d e\u{2069} \u{202C}\u{200F}",
    "\u{202E}abc",
    "x\u{2069}y\u{2066}z",
    "\u{2066}a\u{202A}b\u{2069}c\u{202C}",
    "\u{200E}\u{061C}\u{202D}q\u{202C}\u{2068}r\u{2069}",
  ]

  func testStripAllRemovesEveryControl() throws {
    let session = try TestSession(.bidiLSP)
    let text = controlLines.joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    let edits = try mark(session, &shadow, ["mode": "strip"])
    XCTAssertEqual(edits.allSatisfy { $0["newText"] == "" }, true)
    XCTAssertFalse(shadow.scalars.contains(where: TestControls.isControl), TestControls.visible(shadow.text))
    XCTAssertEqual(shadow.text, "ab cd e \nabc\nxyz\nabc\nqr")
  }

  func testStripAllOnARangeLeavesTheRestAlone() throws {
    let session = try TestSession(.bidiLSP)
    let text = controlLines.joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    try mark(session, &shadow, ["mode": "strip", "only": "all", "range": lspRange(2, 0, 2, 3)])
    XCTAssertEqual(TestControls.visible(shadow.lines[2]), "xy<LRI>z")
    XCTAssertEqual(shadow.lines[1], Array(controlLines[1].unicodeScalars))
  }

  func testStripUnpairedLeavesOnlyPairedControls() throws {
    let session = try TestSession(.bidiLSP)
    let text = controlLines.joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    let before = shadow.lines
    let edits = try mark(session, &shadow, ["mode": "strip", "only": "unpaired"])
    XCTAssertEqual(edits.count, before.map { TestControls.unpaired($0).count }.reduce(0, +))
    for (index, line) in shadow.lines.enumerated() {
      XCTAssertEqual(TestControls.unpaired(line), [], "line \(index): \(TestControls.visible(line))")
      // Paired controls and marks stay.
      let kept = before[index].filter(TestControls.isControl).count - TestControls.unpaired(before[index]).count
      XCTAssertEqual(line.filter(TestControls.isControl).count, kept, "line \(index): \(TestControls.visible(line))")
    }
    XCTAssertEqual(TestControls.visible(shadow.lines[0]), "a<RLI>b<PDI> c<RLE>d e <PDF><RLM>")
  }

  func testStripUnpairedFollowsTheDiagnosticsPairingRules() throws {
    let session = try TestSession(.bidiLSP)
    let text = [
      "a\u{2067}b\u{2069}c",  // paired
      "\u{2067}a\u{202B}b\u{2069}",  // the PDI closes the RLE opened inside the isolate too
      "\u{202B}a\u{2067}b\u{202C}\u{2069}",  // a PDF cannot close across an open isolate
      "\u{2066}\u{2067}x\u{2069}",  // the PDI closes the inner isolate only
    ].joined(separator: "\n")
    try session.open(text: text)
    var shadow = TestText(text)
    // A range holding half of a pair judges the pair on the whole line.
    XCTAssertEqual(
      try mark(session, &shadow, ["mode": "strip", "only": "unpaired", "range": lspRange(0, 3, 0, 4)]), [])
    let edits = try mark(session, &shadow, ["mode": "strip", "only": "unpaired"])
    XCTAssertEqual(lines(of: edits), [2, 2, 3])
    XCTAssertEqual(
      shadow.lines.map { TestControls.visible($0) },
      ["a<RLI>b<PDI>c", "<RLI>a<RLE>b<PDI>", "a<RLI>b<PDI>", "<RLI>x<PDI>"])
    for line in shadow.lines { XCTAssertEqual(TestControls.unpaired(line), []) }
  }

  func testModeOptionsThatAreRequiredOrImpossible() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "a\u{2067}b\u{2069}c")
    let noDirection = try session.error("bidi/insertMarks", ["mode": "direction"])
    XCTAssertEqual(noDirection.code, -32602)
    XCTAssertTrue(noDirection.message.contains("direction"), noDirection.message)
    // An isolate around half of a pair would pair with the wrong control.
    let split = try session.error("bidi/insertMarks", ["mode": "isolate", "range": lspRange(0, 0, 0, 2)])
    XCTAssertEqual(split.code, -32602)
    XCTAssertEqual(try session.text(), "a\u{2067}b\u{2069}c")
  }

  // MARK: Localization cases

  private let arabicSentence = "مدفوعات بدون فوائد من"

  func testFormatStringFilledWithANumberAndABrand() throws {
    let session = try TestSession(.bidiLSP)
    let format = "%@ مدفوعات بدون فوائد من %@"
    try session.open(text: format)
    var shadow = TestText(format)
    let edits = try mark(session, &shadow, ["mode": "placeholders"])
    XCTAssertEqual(texts(edits), ["<FSI>", "<PDI>", "<FSI>", "<PDI>"])
    for (first, second) in [("1,234.56", "Apple Pay"), ("Apple Pay", "1,234.56")] {
      let meant = second + " " + onScreen(arabicSentence) + " " + first
      func fill(_ text: String) -> String {
        guard let firstRange = text.range(of: "%@") else { return text }
        var result = text.replacingCharacters(in: firstRange, with: first)
        if let secondRange = result.range(of: "%@") {
          result = result.replacingCharacters(in: secondRange, with: second)
        }
        return result
      }
      let isolated = "file:///isolated-\(first.first ?? "x").txt"
      try session.open(isolated, text: fill(shadow.text))
      XCTAssertEqual(try displayed(session, line: 0, uri: isolated), meant, "isolated, \(first) first")
      XCTAssertEqual(
        try assertIsolatesDisplayAsBlocks(session, TestText(fill(shadow.text)), line: 0, uri: isolated), 2)
      let plain = "file:///plain-\(first.first ?? "x").txt"
      try session.open(plain, text: fill(format))
      if first == "Apple Pay" {
        // The brand makes the unmarked sentence ltr: it reads backwards.
        XCTAssertNotEqual(try displayed(session, line: 0, uri: plain), meant, "unmarked, the brand first, is scrambled")
      }
    }
  }

  /// Direction rtl, then runs: the fix for an Arabic sentence that starts
  /// with Latin text.
  private func fixArabicSentence(_ text: String) throws -> (TestSession, TestText) {
    let session = try TestSession(.bidiLSP)
    try session.open(text: text)
    var shadow = TestText(text)
    try mark(session, &shadow, ["mode": "direction", "direction": "rtl"])
    try mark(session, &shadow, ["mode": "runs"])
    try assertIsolatesDisplayAsBlocks(session, shadow, line: 0)
    return (session, shadow)
  }

  func testEmailAtTheStartOfAnArabicSentence() throws {
    let text = "user@example.com هو عنواني."
    let meant = "." + onScreen("هو عنواني") + " user@example.com"
    let plain = try TestSession(.bidiLSP)
    try plain.open(text: text)
    XCTAssertNotEqual(try displayed(plain, line: 0), meant)
    let (session, shadow) = try fixArabicSentence(text)
    XCTAssertEqual(try displayed(session, line: 0), meant)
    XCTAssertEqual(TestControls.visible(shadow.text), "<RLM><LRI>user@example.com<PDI> هو عنواني.")
  }

  func testHandleAtTheStartOfAnArabicSentence() throws {
    let text = "@handle كتب: مرحبا"
    let meant = onScreen("كتب: مرحبا") + " @handle"
    let plain = try TestSession(.bidiLSP)
    try plain.open(text: text)
    XCTAssertNotEqual(
      try displayed(plain, line: 0, ["direction": "rtl"]), meant, "even in an rtl paragraph the @ moves")
    let (session, _) = try fixArabicSentence(text)
    XCTAssertEqual(try displayed(session, line: 0), meant)
    // Isolating the handle alone does the same in an rtl paragraph.
    let isolated = try TestSession(.bidiLSP)
    try isolated.open(text: text)
    var shadow = TestText(text)
    try mark(isolated, &shadow, ["mode": "isolate", "isolate": "ltr", "range": lspRange(0, 0, 0, 7)])
    XCTAssertEqual(try displayed(isolated, line: 0, ["direction": "rtl"]), meant)
  }

  func testPhoneNumberInAHebrewSentence() throws {
    let text = "התקשרו אלינו +1 (555) 123-4567 עכשיו"
    let session = try TestSession(.bidiLSP)
    try session.open(text: text)
    XCTAssertEqual(
      try displayed(session, line: 0), onScreen("עכשיו") + " 123-4567 (555) 1+ " + onScreen("התקשרו אלינו"))
    var shadow = TestText(text)
    try mark(session, &shadow, ["mode": "runs"])
    XCTAssertEqual(
      try displayed(session, line: 0), onScreen("עכשיו") + " +1 (555) 123-4567 " + onScreen("התקשרו אלינו"))
    XCTAssertEqual(try assertIsolatesDisplayAsBlocks(session, shadow, line: 0), 1)
  }

  // MARK: Encodings

  func testEditsCountUnitsOfTheNegotiatedEncoding() throws {
    let text = "😀 abc שלום %d 𝒳"
    for encoding in PositionEncoding.allCases {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      try session.open(text: text)
      var shadow = TestText(text)
      try mark(session, &shadow, ["mode": "placeholders"])
      try mark(session, &shadow, ["mode": "direction", "direction": "rtl"])
      try mark(session, &shadow, ["mode": "runs"])
      let emoji = (
        TestText.length(shadow.lines[0].prefix(1), in: encoding),
        TestText.length(shadow.lines[0].prefix(2), in: encoding)
      )
      XCTAssertEqual(shadow.lines[0][1], "😀", encoding.rawValue)
      try mark(session, &shadow, ["mode": "isolate", "range": lspRange(0, emoji.0, 0, emoji.1)])
      XCTAssertGreaterThanOrEqual(try assertIsolatesDisplayAsBlocks(session, shadow, line: 0), 3, encoding.rawValue)
      try mark(session, &shadow, ["mode": "strip"])
      XCTAssertEqual(shadow.text, text, encoding.rawValue)
    }
  }
}
