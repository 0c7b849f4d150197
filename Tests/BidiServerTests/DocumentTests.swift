import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// Documents (specification, "Documents"): didOpen, didChange (incremental
/// and full), didClose, didSave, bidi/documentInfo, lines, and changes that
/// cannot apply.
final class DocumentTests: XCTestCase {
  private let uri = "file:///doc.txt"

  /// Asserts the daemon's copy of `uri` is `text` at `version`, with the
  /// line count and UTF-8 length the test computes itself.
  private func assertDocument(
    _ daemon: TestSession, _ uri: String, is text: String, version: Int,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let info = try daemon.info(uri)
    let shadow = TestText(text)
    XCTAssertEqual(info["text"]?.stringValue, text, "text", file: file, line: line)
    XCTAssertEqual(info["uri"], .string(uri), file: file, line: line)
    XCTAssertEqual(info["version"], JSONValue(version), "version", file: file, line: line)
    XCTAssertEqual(info["lineCount"], JSONValue(shadow.lineCount), "lineCount", file: file, line: line)
    XCTAssertEqual(info["utf8Length"], JSONValue(text.utf8.count), "utf8Length", file: file, line: line)
  }

  // MARK: Opening, changing, closing

  func testDidOpenStoresTextVersionAndLanguage() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, languageId: "markdown", text: "שלום עולם\nhello", version: 7)
    try assertDocument(daemon, uri, is: "שלום עולם\nhello", version: 7)
    XCTAssertEqual(try daemon.barrier(), [], "a valid didOpen gets no answer")
  }

  func testDocumentInfoWithoutIncludeTextOmitsText() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "abc\ndef", version: 3)
    let plain = try daemon.request("bidi/documentInfo", ["textDocument": ["uri": .string(uri)]])
    let result = try XCTUnwrap(plain["result"]?.objectValue, "\(plain)")
    XCTAssertEqual(result["uri"], .string(uri))
    XCTAssertEqual(result["version"], 3)
    XCTAssertEqual(result["lineCount"], 2)
    XCTAssertEqual(result["utf8Length"], 7)
    XCTAssertNil(result["text"])
    let excluded = try daemon.info(uri, includeText: false)
    XCTAssertNil(excluded["text"])
    XCTAssertEqual(try daemon.info(uri, includeText: true)["text"], "abc\ndef")
  }

  func testChangeWithNoContentChangesOnlySetsTheVersion() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "abc\nשלום", version: 1)
    try daemon.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": 2], "contentChanges": []])
    try assertDocument(daemon, uri, is: "abc\nשלום", version: 2)
    XCTAssertEqual(try daemon.barrier(), [], "no warning for an empty list of changes")
  }

  func testIncrementalChangeReplacesRangeAndSetsVersion() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "hello world\nsecond line")
    try daemon.change(uri, version: 2, [change(0, 6, 1, 6, "there\nfirst")])
    try assertDocument(daemon, uri, is: "hello there\nfirst line", version: 2)
    try daemon.change(uri, version: 3, [change(1, 0, 1, 0, "→ ")])
    try assertDocument(daemon, uri, is: "hello there\n→ first line", version: 3)
    try daemon.change(uri, version: 4, [change(0, 0, 0, 6, "")])
    try assertDocument(daemon, uri, is: "there\n→ first line", version: 4)
    XCTAssertEqual(warnings(in: try daemon.barrier()), [])
  }

  func testFullChangeReplacesWholeText() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "old\ntext\n")
    try daemon.change(uri, version: 9, [fullChange("مرحبا")])
    try assertDocument(daemon, uri, is: "مرحبا", version: 9)
    try daemon.change(uri, version: 10, [fullChange("")])
    try assertDocument(daemon, uri, is: "", version: 10)
  }

  func testChangesOfOneNotificationApplyInOrder() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "abc")
    // The second change's positions refer to the text after the first.
    try daemon.change(
      uri, version: 2,
      [change(0, 0, 0, 0, "X\n"), change(1, 1, 1, 2, "Y"), fullChange("full"), change(0, 4, 0, 4, "!")])
    try assertDocument(daemon, uri, is: "full!", version: 2)
  }

  func testDidCloseForgetsTheDocumentAndItCanBeReopened() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "first")
    try daemon.close(uri)
    assertError(try daemon.infoResponse(uri), code: -32602, mentioning: "uri")
    try daemon.open(uri, text: "second", version: 5)
    try assertDocument(daemon, uri, is: "second", version: 5)
    XCTAssertEqual(warnings(in: try daemon.barrier()), [])
  }

  func testDidSaveIsAcceptedAndIgnored() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "kept", version: 4)
    try daemon.notify("textDocument/didSave", ["textDocument": ["uri": .string(uri)], "text": "not this"])
    try daemon.notify("textDocument/didSave", ["textDocument": ["uri": "file:///unknown.txt"]])
    XCTAssertEqual(try daemon.barrier(), [], "didSave gets no answer and no warning")
    try assertDocument(daemon, uri, is: "kept", version: 4)
  }

  func testSeveralDocumentsAreIndependent() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open("file:///a.txt", text: "alpha")
    try daemon.open("file:///b.txt", text: "ביתא")
    try daemon.change("file:///a.txt", version: 2, [change(0, 5, 0, 5, "!")])
    try daemon.close("file:///b.txt")
    try assertDocument(daemon, "file:///a.txt", is: "alpha!", version: 2)
    assertError(try daemon.infoResponse("file:///b.txt"), code: -32602)
  }

  // MARK: Lines

  func testTextEndingWithNewlineHasEmptyLastLine() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "one\ntwo\n")
    XCTAssertEqual(try daemon.info(uri)["lineCount"], 3)
    // The empty last line is addressable.
    try daemon.change(uri, version: 2, [change(2, 0, 2, 0, "three")])
    try assertDocument(daemon, uri, is: "one\ntwo\nthree", version: 2)
  }

  func testEmptyDocumentHasOneLine() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "")
    let info = try daemon.info(uri)
    XCTAssertEqual(info["lineCount"], 1)
    XCTAssertEqual(info["utf8Length"], 0)
    XCTAssertEqual(info["text"], "")
    try daemon.change(uri, version: 2, [change(0, 0, 0, 0, "x")])
    try assertDocument(daemon, uri, is: "x", version: 2)
  }

  func testLinesSplitAtCRLFCRAndLF() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    let text = "a\r\nb\rc\nd\r\r\ne\n\rf"
    try daemon.open(uri, text: text)
    // a | b | c | d | (empty) | e | (empty) | f
    XCTAssertEqual(try daemon.info(uri)["lineCount"], 8)
    XCTAssertEqual(try daemon.text(uri), text, "terminators read back byte for byte")
    // Replace each line's single letter, addressing it by line number.
    let letters = [(0, "A"), (1, "B"), (2, "C"), (3, "D"), (5, "E"), (7, "F")]
    try daemon.change(uri, version: 2, letters.map { change($0.0, 0, $0.0, 1, $0.1) })
    try assertDocument(daemon, uri, is: "A\r\nB\rC\nD\r\r\nE\n\rF", version: 2)
  }

  func testOtherSeparatorsDoNotEndLSPLines() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    let text = "a\u{2029}b\u{2028}c\u{85}d\u{1C}e\u{0B}f\u{0C}g"
    try daemon.open(uri, text: text)
    XCTAssertEqual(try daemon.info(uri)["lineCount"], 1)
    try assertDocument(daemon, uri, is: text, version: 1)
  }

  func testChangeSplittingCRLFRecountsLines() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "ab\r\ncd")
    // Replace the CRLF by a CR and an LF with text between: three lines.
    try daemon.change(uri, version: 2, [change(0, 2, 1, 0, "\rX\n")])
    try assertDocument(daemon, uri, is: "ab\rX\ncd", version: 2)
    XCTAssertEqual(try daemon.info(uri)["lineCount"], 3)
    // Deleting the LF that ends line 1 joins lines 1 and 2.
    try daemon.change(uri, version: 3, [change(1, 1, 2, 0, "")])
    try assertDocument(daemon, uri, is: "ab\rXcd", version: 3)
  }

  func testChangeJoiningCRAndLFMakesOneLineBreak() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "ab\rX\ncd")
    XCTAssertEqual(try daemon.info(uri)["lineCount"], 3)
    // Delete the X: the CR and LF meet and form one CRLF.
    try daemon.change(uri, version: 2, [change(1, 0, 1, 1, "")])
    try assertDocument(daemon, uri, is: "ab\r\ncd", version: 2)
    XCTAssertEqual(try daemon.info(uri)["lineCount"], 2)
    // Line 1 is now "cd".
    try daemon.change(uri, version: 3, [change(1, 1, 1, 2, "D")])
    try assertDocument(daemon, uri, is: "ab\r\ncD", version: 3)
    // Inserting an LF after a lone CR at the start of the next line joins too.
    try daemon.change(uri, version: 4, [fullChange("x\ry")])
    try daemon.change(uri, version: 5, [change(1, 0, 1, 0, "\n")])
    try assertDocument(daemon, uri, is: "x\r\ny", version: 5)
    // And a CR inserted at the end of an LF-terminated line.
    try daemon.change(uri, version: 6, [fullChange("p\nq")])
    try daemon.change(uri, version: 7, [change(0, 1, 0, 1, "\r")])
    try assertDocument(daemon, uri, is: "p\r\nq", version: 7)
  }

  // MARK: Encodings

  func testAstralCharactersUseSurrogatePairsInUTF16() throws {
    let daemon = try TestSession(.bidiLSP, encoding: .utf16, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "x😀y𝒜z")
    // x=0, 😀=1..3, y=3, 𝒜=4..6, z=6
    try daemon.change(uri, version: 2, [change(0, 3, 0, 4, "Y")])
    try daemon.change(uri, version: 3, [change(0, 6, 0, 7, "Z")])
    try daemon.change(uri, version: 4, [change(0, 1, 0, 3, "☺")])
    try assertDocument(daemon, uri, is: "x☺Y𝒜Z", version: 4)
  }

  func testAstralCharactersInUTF8AndUTF32Offsets() throws {
    // Each: the offsets of 'y' and 'z' in "x😀y𝒜z", and of the emoji.
    let layouts: [(PositionEncoding, y: Int, z: Int)] = [(.utf8, 5, 10), (.utf32, 2, 4), (.utf16, 3, 6)]
    for (encoding, y, z) in layouts {
      let daemon = try TestSession(.bidiLSP, encoding: encoding, ignoring: TestSession.diagnosticsAndProgress)
      try daemon.open(uri, text: "x😀y𝒜z\nمرحبا😀!")
      try daemon.change(uri, version: 2, [change(0, y, 0, y + 1, "Y"), change(0, z, 0, z + 1, "Z")])
      // On line 1: the '!' after five Arabic letters and an emoji.
      let bang = [PositionEncoding.utf8: 14, .utf32: 6, .utf16: 7][encoding] ?? 0
      try daemon.change(uri, version: 3, [change(1, bang, 1, bang + 1, "؟")])
      try assertDocument(daemon, uri, is: "x😀Y𝒜Z\nمرحبا😀؟", version: 3)
    }
  }

  func testPositionInsideACharacterMovesToItsStart() throws {
    // Specification choice: never split a character.
    let cases: [(PositionEncoding, Int)] = [(.utf16, 2), (.utf8, 2), (.utf8, 3), (.utf8, 4)]
    for (encoding, character) in cases {
      let daemon = try TestSession(.bidiLSP, encoding: encoding, ignoring: TestSession.diagnosticsAndProgress)
      try daemon.open(uri, text: "a😀b")
      try daemon.change(uri, version: 2, [change(0, character, 0, character, "|")])
      try assertDocument(daemon, uri, is: "a|😀b", version: 2)
    }
  }

  // MARK: Clamping and refusals

  func testPositionPastLineEndIsClamped() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "short\r\nnext")
    try daemon.change(uri, version: 2, [change(0, 100, 0, 1000, "!")])
    try assertDocument(daemon, uri, is: "short!\r\nnext", version: 2)
    // A range from past the end of line 0 to line 1 removes only the terminator.
    try daemon.change(uri, version: 3, [change(0, 50, 1, 0, " ")])
    try assertDocument(daemon, uri, is: "short! next", version: 3)
    XCTAssertEqual(warnings(in: try daemon.barrier()), [])
  }

  func testLinePastEndRefusesChangeWithWarning() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "one\ntwo", version: 1)
    try daemon.change(uri, version: 2, [change(2, 0, 2, 0, "three")])
    try daemon.change(uri, version: 3, [change(0, 0, 5, 0, "")])
    let messages = try daemon.barrier()
    XCTAssertEqual(warnings(in: messages).count, 2, "\(messages)")
    XCTAssertEqual(responses(in: messages), [])
    try assertDocument(daemon, uri, is: "one\ntwo", version: 1)
  }

  func testRangeStartAfterEndRefusesChange() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "abcdef", version: 1)
    try daemon.change(uri, version: 2, [change(0, 4, 0, 2, "X")])
    XCTAssertEqual(warnings(in: try daemon.barrier()).count, 1)
    try assertDocument(daemon, uri, is: "abcdef", version: 1)
  }

  func testChangeToUnknownDocumentWarnsAndChangesNothing() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "mine", version: 1)
    try daemon.change("file:///other.txt", version: 2, [fullChange("x")])
    let messages = try daemon.barrier()
    XCTAssertEqual(warnings(in: messages).count, 1, "\(messages)")
    XCTAssertEqual(responses(in: messages), [])
    assertError(try daemon.infoResponse("file:///other.txt"), code: -32602)
    try assertDocument(daemon, uri, is: "mine", version: 1)
  }

  func testDidCloseOfUnknownDocumentWarns() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "mine")
    try daemon.close("file:///other.txt")
    XCTAssertEqual(warnings(in: try daemon.barrier()).count, 1)
    try assertDocument(daemon, uri, is: "mine", version: 1)
  }

  func testDidOpenOfOpenDocumentWarnsAndKeepsOriginal() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "original", version: 1)
    try daemon.open(uri, text: "replacement", version: 2)
    let messages = try daemon.barrier()
    XCTAssertEqual(warnings(in: messages).count, 1, "\(messages)")
    XCTAssertEqual(responses(in: messages), [])
    try assertDocument(daemon, uri, is: "original", version: 1)
  }

  func testInvalidChangeInMultiChangeNotificationLeavesDocumentUnchanged() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    let text = "first line\r\nsecond 😀\nthird"
    try daemon.open(uri, text: text, version: 1)
    // The first change is valid; the second's line is past the end.
    try daemon.change(uri, version: 2, [change(0, 0, 0, 5, "FIRST"), change(9, 0, 9, 1, "x")])
    // A full change followed by an invalid one: nothing applies either.
    try daemon.change(uri, version: 3, [fullChange("gone"), change(0, 3, 0, 1, "")])
    // A valid change followed by one without text.
    try daemon.change(
      uri, version: 4, [change(1, 0, 1, 0, "+"), ["range": ["start": position(0, 0), "end": position(0, 0)]]])
    let messages = try daemon.barrier()
    XCTAssertEqual(warnings(in: messages).count, 3, "\(messages)")
    try assertDocument(daemon, uri, is: text, version: 1)
  }

  func testNULInDocumentTextIsKept() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: "a\u{0}b\n\u{0}")
    try daemon.change(uri, version: 2, [change(0, 2, 0, 2, "\u{0}\u{0}")])
    try assertDocument(daemon, uri, is: "a\u{0}\u{0}\u{0}b\n\u{0}", version: 2)
  }

  // MARK: Long texts (kept as jansson's bytes, LongString)

  func testALongDidOpenTextIsStoredAsSentAndCountedInEveryEncoding() throws {
    let mixed = "שלום مرحبا 😀 \u{202E}x\u{202C} \u{0}€"
    let filler = String(repeating: mixed + "\r\nplain ascii line\rnext\n", count: 2_000)
    // Characters of every UTF-8 length before each edited character.
    let head = "ش€😀a", middle = "\u{2067}𝒜ב", tail = "مرحبا😀"
    let text = filler + head + "y" + middle + "z\r\n" + tail + "!"
    XCTAssertGreaterThanOrEqual(text.utf8.count, LongString.minimumCount)
    let line = TestText(filler).lineCount - 1
    let lastLines = [mixed, "plain ascii line", "next", head + "y" + middle + "z", tail + "!"]
    for encoding in [PositionEncoding.utf16, .utf8, .utf32] {
      func units(_ text: String) -> Int {
        switch encoding {
        case .utf8: text.utf8.count
        case .utf16: text.utf16.count
        case .utf32: text.unicodeScalars.count
        }
      }
      let y = units(head), z = units(head + "y" + middle), bang = units(tail)
      let daemon = try TestSession(.bidiLSP, encoding: encoding, ignoring: TestSession.diagnosticsAndProgress)
      try daemon.open(uri, text: text, version: 1)
      try assertDocument(daemon, uri, is: text, version: 1)
      // Each line's length in the encoding, as the line tree counted it.
      let paragraphs = try daemon.paragraphs(
        "bidi/naturalDirection", ["range": lspRange(line - 3, 0, line + 1, 99)], uri: uri)
      XCTAssertEqual(paragraphs.map { $0["end"]?.intValue }, lastLines.map(units), "\(encoding)")
      try daemon.change(
        uri, version: 2,
        [
          change(line, y, line, y + 1, "Y"), change(line, z, line, z + 1, "Z"),
          change(line + 1, bang, line + 1, bang + 1, "؟"),
        ])
      let changed = filler + head + "Y" + middle + "Z\r\n" + tail + "؟"
      try assertDocument(daemon, uri, is: changed, version: 2)
      XCTAssertEqual(warnings(in: try daemon.barrier()), [], "\(encoding)")
    }
  }

  func testALongDidOpenTextWithALoneSurrogateEscapeIsAParseErrorAndOpensNothing() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    let long = String(repeating: "a", count: LongString.minimumCount)
    for escape in [#"\ud800"#, #"\udfff\u0041"#] {
      try daemon.sendFramed(
        #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","#
          + #""languageId":"plaintext","version":1,"text":"\#(long)\#(escape)\#(long)"}}}"#)
      assertError(try daemon.barrier().first, code: -32700, id: .null, escape)
      assertError(try daemon.infoResponse(uri), code: -32602, mentioning: "not open", escape)
    }
  }
}
