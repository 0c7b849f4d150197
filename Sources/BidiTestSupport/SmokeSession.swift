import JSONRPC
import XCTest

extension TestSession {
  /// One short session through every family of methods, the same over
  /// either transport: BidiServerTests runs it in process, IntegrationTests
  /// against the built binary over pipes. Initialize; a C file with a
  /// Trojan Source override and a mixed-direction comment line; its
  /// diagnostic, a quick fix, the bidi requests, a hover, an insertMarks
  /// whose edits the server applies as the model does; shutdown and exit.
  package static func runSmokeSession(_ server: TestServer, file: StaticString = #filePath, line: UInt = #line) throws {
    let session = try TestSession(server, encoding: .utf16)
    let methods = session.capabilities["experimental"]?["bidi"]?["methods"]?.arrayValue ?? []
    XCTAssertTrue(methods.contains("bidi/visualOrder"), "capabilities: \(session.capabilities)", file: file, line: line)

    let uri = "file:///smoke.c"
    let text = TestText(marked: "int x = 1; // 1️⃣\u{202E}2️⃣ evil\n// 3️⃣שלום abc4️⃣ עולם\nint y;\n")
    let diagnostics = try session.openAndDiagnose(uri, languageId: "c", text: text.text)
    let override = diagnostics.first { $0.diagnosticCode == "bidi.override" }
    XCTAssertEqual(override?["range"], text.range("1️⃣", "2️⃣", in: .utf16), "\(diagnostics)", file: file, line: line)

    let actions = try session.codeActions(
      uri, range: text.range("1️⃣", "2️⃣", in: .utf16), only: ["quickfix"], diagnostics: override.map { [$0] } ?? [])
    XCTAssertFalse(actions.isEmpty, "a quick fix for the override", file: file, line: line)
    XCTAssertTrue(actions.allSatisfy { $0["kind"] == "quickfix" }, "\(actions)", file: file, line: line)

    let directions = try session.paragraphs("bidi/naturalDirection", [:], uri: uri, file: file, line: line)
    XCTAssertEqual(
      directions.map { $0["direction"]?.stringValue ?? "" }, ["ltr", "rtl", "ltr", "ltr"], file: file, line: line)
    let alignment = try session.paragraphs("bidi/alignment", ["range": lineRange(1)], uri: uri, file: file, line: line)
    XCTAssertEqual(alignment.first?["physical"], "right", "\(alignment)", file: file, line: line)
    // "// שלום abc עולם" in its right-to-left paragraph: the Hebrew words
    // and their order reversed, "abc" and "//" kept left to right.
    XCTAssertEqual(
      try session.visualText(uri, line: 1), "\u{5DD}\u{5DC}\u{5D5}\u{5E2} abc \u{5DD}\u{5D5}\u{5DC}\u{5E9} //",
      file: file,
      line: line)

    let hover = try session.request(
      "textDocument/hover", ["textDocument": documentID(uri), "position": text.position("3️⃣", in: .utf16)])
    XCTAssertEqual(
      hover["result"]?["range"], lspRange(1, 0, 1, text.lineWidth(1, in: .utf16)), "\(hover)", file: file, line: line)

    let edits = try session.edits(
      ["mode": "isolate", "range": text.range("3️⃣", "4️⃣", in: .utf16)], uri: uri, file: file, line: line)
    XCTAssertFalse(edits.isEmpty, "an isolate around the selection", file: file, line: line)
    let marked = try text.applying(edits, in: .utf16)
    try session.apply(uri, edits: edits)
    XCTAssertEqual(
      TestControls.visible(try session.text(uri, file: file, line: line)), TestControls.visible(marked.text),
      "the server's copy after the edits", file: file, line: line)

    XCTAssertEqual(try session.shutdownAndExit(), 0, "exit after shutdown", file: file, line: line)
  }
}
