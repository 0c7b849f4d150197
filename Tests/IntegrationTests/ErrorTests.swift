import BidiTestSupport
import JSONRPC
import XCTest

/// Contract §1–§2, the error answers: -32601, -32602, -32700, -32600,
/// -32800, each followed by the daemon serving on.
final class ErrorTests: XCTestCase {
  private let uri = "file:///doc.txt"
  private let text = "مرحبا\r\nworld 😀\n"

  private func daemonWithDocument(arguments: [String] = []) throws -> Daemon {
    let daemon = try Daemon.initialized(arguments: arguments)
    try daemon.open(uri, text)
    return daemon
  }

  /// Asserts the daemon still serves and the document is intact.
  private func assertStillServing(_ daemon: Daemon, file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(try daemon.text(uri), text, "document changed", file: file, line: line)
  }

  /// Sends `body` framed and returns the one response with `id: null` that follows.
  private func nullIDResponse(to body: [UInt8], _ daemon: Daemon) throws -> JSONValue? {
    try daemon.sendRaw(frame(body))
    let messages = try daemon.barrier()
    let answers = responses(in: messages)
    XCTAssertEqual(answers.count, 1, "expected one answer, got \(messages)")
    return answers.first
  }

  // MARK: -32601, unknown notifications

  func testUnknownRequestIsMethodNotFound() throws {
    let daemon = try daemonWithDocument()
    let response = try daemon.request("bidi/noSuchThing", ["textDocument": ["uri": .string(uri)]])
    assertError(response, code: -32601, id: response["id"], mentioning: "bidi/noSuchThing")
    try assertStillServing(daemon)
  }

  func testUnknownNotificationIsIgnored() throws {
    let daemon = try daemonWithDocument()
    try daemon.notify("custom/somethingHappened", ["x": 1])
    try daemon.notify("$/setTrace", ["value": "verbose"])
    try daemon.notify("$/progress", ["token": 1, "value": [:]])
    XCTAssertEqual(try daemon.barrier(), [], "unknown notifications get no answer")
    try assertStillServing(daemon)
  }

  // MARK: -32602

  func testMissingTextDocumentIsInvalidParamsNamingIt() throws {
    let daemon = try daemonWithDocument()
    let response = try daemon.request("bidi/documentInfo", ["includeText": true])
    assertError(response, code: -32602, id: response["id"], mentioning: "textDocument")
    let noParams = try daemon.request("bidi/documentInfo")
    assertError(noParams, code: -32602, id: noParams["id"], mentioning: "textDocument")
    try assertStillServing(daemon)
  }

  func testURIOfWrongTypeIsInvalidParamsNamingIt() throws {
    let daemon = try daemonWithDocument()
    for bad: JSONValue in [42, true, ["file:///doc.txt"], [:], 1.5, nil] {
      let response = try daemon.request("bidi/documentInfo", ["textDocument": ["uri": bad]])
      assertError(response, code: -32602, id: response["id"], mentioning: "uri", "uri \(bad)")
    }
    let missing = try daemon.request("bidi/documentInfo", ["textDocument": [:]])
    assertError(missing, code: -32602, id: missing["id"], mentioning: "uri")
    try assertStillServing(daemon)
  }

  func testTextDocumentOfWrongTypeIsInvalidParamsNamingIt() throws {
    let daemon = try daemonWithDocument()
    for bad: JSONValue in [42, "file:///doc.txt", [], nil, false] {
      let response = try daemon.request("bidi/documentInfo", ["textDocument": bad])
      assertError(response, code: -32602, id: response["id"], mentioning: "textDocument", "\(bad)")
    }
    try assertStillServing(daemon)
  }

  func testUnknownDocumentIsInvalidParamsNamingIt() throws {
    let daemon = try daemonWithDocument()
    let response = try daemon.infoResponse("file:///not-open.txt")
    assertError(response, code: -32602, id: response["id"], mentioning: "file:///not-open.txt")
    try assertStillServing(daemon)
  }

  func testIncludeTextOfWrongTypeIsInvalidParamsNamingIt() throws {
    let daemon = try daemonWithDocument()
    for bad: JSONValue in ["yes", 1, 0, [true], [:]] {
      let response = try daemon.request(
        "bidi/documentInfo", ["textDocument": ["uri": .string(uri)], "includeText": bad])
      assertError(response, code: -32602, id: response["id"], mentioning: "includeText", "\(bad)")
    }
    try assertStillServing(daemon)
  }

  // MARK: -32700

  func testInvalidJSONIsParseErrorWithNullID() throws {
    let daemon = try daemonWithDocument()
    for body in [#"{"jsonrpc":"2.0","id":1,"method":"#, "{oops}", "", "[1,]", "\u{7F}"] {
      let answer = try nullIDResponse(to: Array(body.utf8), daemon)
      assertError(answer, code: -32700, id: .null, body)
    }
    try assertStillServing(daemon)
  }

  func testParseErrorMessageGivesReasonAndPosition() throws {
    let daemon = try daemonWithDocument()
    let answer = try nullIDResponse(to: Array(#"{"a":1,}"#.utf8), daemon)
    assertError(answer, code: -32700, id: .null)
    let message = answer?["error"]?["message"]?.stringValue ?? ""
    XCTAssertTrue(message.contains("8"), "the position (byte 8) is named: \(message)")
    XCTAssertTrue(message.contains("expected"), "the decoder's reason is given: \(message)")
  }

  func testIntegerBeyond64BitsIsParseErrorWithNullID() throws {
    let daemon = try daemonWithDocument()
    let body = #"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"bidi/documentInfo"}"#
    assertError(try nullIDResponse(to: Array(body.utf8), daemon), code: -32700, id: .null)
    // Also as a didChange version: the change must not apply.
    let change =
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///doc.txt","version":99999999999999999999},"contentChanges":[{"text":"lost"}]}}"#
    assertError(try nullIDResponse(to: Array(change.utf8), daemon), code: -32700, id: .null)
    try assertStillServing(daemon)
  }

  func testVeryDeepNestingIsParseErrorWithNullID() throws {
    let daemon = try daemonWithDocument()
    let depth = 100_000
    let body =
      #"{"jsonrpc":"2.0","id":3,"method":"x","params":{"a":"#
      + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
    assertError(try nullIDResponse(to: Array(body.utf8), daemon), code: -32700, id: .null)
    try assertStillServing(daemon)
  }

  func testLoneSurrogateEscapeIsParseErrorWithNullID() throws {
    let daemon = try daemonWithDocument()
    let body =
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///doc.txt","version":2},"contentChanges":[{"text":"\ud800"}]}}"#
    let answer = try nullIDResponse(to: Array(body.utf8), daemon)
    assertError(answer, code: -32700, id: .null)
    let message = answer?["error"]?["message"]?.stringValue ?? ""
    XCTAssertFalse(message.isEmpty, "a clear message is expected")
    // Logged too: a lost notification means the buffers may now differ.
    XCTAssertTrue(daemon.client.standardError().contains("JSON"), daemon.client.standardError())
    try assertStillServing(daemon)
  }

  // MARK: -32600

  func testBareNumberIsInvalidRequest() throws {
    let daemon = try daemonWithDocument()
    assertError(try nullIDResponse(to: Array("42".utf8), daemon), code: -32600, id: .null)
    try assertStillServing(daemon)
  }

  func testStringIsInvalidRequest() throws {
    let daemon = try daemonWithDocument()
    assertError(try nullIDResponse(to: Array(#""initialize""#.utf8), daemon), code: -32600, id: .null)
    try assertStillServing(daemon)
  }

  func testBatchIsOneInvalidRequestWithNullID() throws {
    let daemon = try daemonWithDocument()
    let batch =
      #"[{"jsonrpc":"2.0","id":1,"method":"shutdown"},{"jsonrpc":"2.0","id":2,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///doc.txt"}}}]"#
    assertError(try nullIDResponse(to: Array(batch.utf8), daemon), code: -32600, id: .null)
    // The batch's shutdown did not run.
    try assertStillServing(daemon)
  }

  func testNullIDIsInvalidRequestWithNullID() throws {
    let daemon = try daemonWithDocument()
    let body =
      #"{"jsonrpc":"2.0","id":null,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///doc.txt"}}}"#
    assertError(try nullIDResponse(to: Array(body.utf8), daemon), code: -32600, id: .null)
    try assertStillServing(daemon)
  }

  func testIDOfWrongTypeIsInvalidRequestWithNullID() throws {
    let daemon = try daemonWithDocument()
    for id in ["true", "false", "1.5", "1e2", "{}", #"{"n":1}"#, "[1]"] {
      let body =
        #"{"jsonrpc":"2.0","id":"# + id
        + #","method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///doc.txt"}}}"#
      assertError(try nullIDResponse(to: Array(body.utf8), daemon), code: -32600, id: .null, "id \(id)")
    }
    try assertStillServing(daemon)
  }

  func testMethodNotAStringIsInvalidRequest() throws {
    let daemon = try daemonWithDocument()
    for method in ["42", "null", "true", "[]", #"{"m":"shutdown"}"#] {
      let body = #"{"jsonrpc":"2.0","id":7,"method":"# + method + "}"
      let answer = try nullIDResponse(to: Array(body.utf8), daemon)
      assertError(answer, code: -32600, "method \(method)")
      // The id is valid, so the answer may carry it (specification §1), or null.
      XCTAssertTrue(answer?["id"] == 7 || answer?["id"] == .null, "\(answer.map { "\($0)" } ?? "")")
    }
    try assertStillServing(daemon)
  }

  func testMessageOverSizeLimitIsInvalidRequestNamingTheLimitAndSkipped() throws {
    let daemon = try daemonWithDocument(arguments: ["--max-message-size", "1000"])
    // A real request, padded past the limit: it must not run.
    func request(_ id: Int) -> [UInt8] {
      Array(
        #"{"jsonrpc":"2.0","id":\#(id),"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///doc.txt"}}}"#
          .utf8)
    }
    let body = request(55) + [UInt8](repeating: UInt8(ascii: " "), count: 1001 - request(55).count)
    let next = frame(request(56))
    try daemon.sendRaw(frame(body) + next)
    let refused = try daemon.client.nextMessage(timeout: 20)
    assertError(refused, code: -32600, id: .null, mentioning: "1000")
    let answer = try daemon.client.waitForResponse(id: 56, timeout: 20)
    XCTAssertEqual(answer["result"]?["uri"], .string(uri), "the next message is served: \(answer)")
    XCTAssertEqual(daemon.client.reader.takePending(), [], "the skipped request got no answer")
    // Exactly at the limit is accepted.
    let padded = request(57) + [UInt8](repeating: UInt8(ascii: " "), count: 1000 - request(57).count)
    try daemon.sendRaw(frame(padded))
    XCTAssertNotNil(try daemon.client.waitForResponse(id: 57, timeout: 20)["result"])
    try assertStillServing(daemon)
  }

  func testHugeContentLengthIsRefusedBeforeTheBodyArrives() throws {
    let daemon = try daemonWithDocument()
    // 1 TiB announced: the answer must come at once, without the bytes.
    try daemon.sendRaw(Array("Content-Length: 1099511627776\r\n\r\n{\"jsonrpc\"".utf8))
    let refused = try daemon.client.nextMessage(timeout: 20)
    assertError(refused, code: -32600, id: .null, mentioning: "limit")
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
  }

  // MARK: -32800

  func testCancelledPendingRequestIsRequestCancelled() throws {
    let daemon = try Daemon.initialized()
    // A large document makes each documentInfo with includeText long; the
    // last request is cancelled while it still waits in the queue. All of it
    // goes in one write, so the reader has everything queued.
    let line = "مرحبا بالعالم — hello world 😀 שלום\n"
    let big = String(repeating: line, count: 120_000)
    var bytes: [UInt8] = []
    let open: JSONValue = [
      "jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": [
        "textDocument": ["uri": "file:///big.txt", "languageId": "plaintext", "version": 1, "text": .string(big)]
      ],
    ]
    bytes += frame(open.encoded())
    for id in 100...103 {
      bytes += frame(
        #"{"jsonrpc":"2.0","id":\#(id),"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///big.txt"},"includeText":true}}"#
      )
    }
    bytes += frame(
      #"{"jsonrpc":"2.0","id":"last","method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///big.txt"},"includeText":true}}"#
    )
    bytes += frame(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":103}}"#)
    bytes += frame(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"last"}}"#)
    try daemon.sendRaw(bytes)
    let cancelled = try daemon.client.waitForResponse(id: 103, timeout: 60)
    assertError(cancelled, code: -32800, id: 103)
    assertError(try daemon.client.waitForResponse(id: "last", timeout: 60), code: -32800, id: "last")
    for id: Int64 in 100...102 {
      let answer = try daemon.client.waitForResponse(id: .integer(id), timeout: 60)
      XCTAssertEqual(answer["result"]?["utf8Length"], JSONValue(big.utf8.count), "request \(id)")
    }
    XCTAssertEqual(try daemon.info("file:///big.txt", includeText: false)["lineCount"], 120_001)
  }

  func testHundredMegabyteDocumentOpensUnderTheDefaultLimit() throws {
    let daemon = try Daemon.initialized()
    let line = "سطر عربي with English and 😀 — \r\n"
    let count = (100 << 20) / line.utf8.count + 1
    let big = String(repeating: line, count: count)
    XCTAssertGreaterThan(big.utf8.count, 100 << 20)
    try daemon.open("file:///huge.txt", big)
    let info = try daemon.info("file:///huge.txt", includeText: false)
    XCTAssertEqual(info["utf8Length"], JSONValue(big.utf8.count))
    XCTAssertEqual(info["lineCount"], JSONValue(count + 1))
    // An edit at the far end, then one in the middle.
    try daemon.change(
      "file:///huge.txt", version: 2, [change(count, 0, count, 0, "end"), change(count / 2, 0, count / 2, 3, "")])
    let edited = try daemon.info("file:///huge.txt", includeText: false)
    XCTAssertEqual(edited["utf8Length"], JSONValue(big.utf8.count + 3 - "سطر".utf8.count))
    XCTAssertEqual(edited["version"], 2)
    XCTAssertEqual(warnings(in: try daemon.barrier()), [])
  }

  func testCancelOfUnknownOrAnsweredRequestIsIgnored() throws {
    let daemon = try daemonWithDocument()
    let answered = try daemon.infoResponse(uri)
    XCTAssertNotNil(answered["result"])
    let answeredID = try XCTUnwrap(answered["id"])
    try daemon.notify("$/cancelRequest", ["id": answeredID])
    try daemon.notify("$/cancelRequest", ["id": 987_654])
    try daemon.notify("$/cancelRequest", ["id": "never-sent"])
    XCTAssertEqual(try daemon.barrier(), [], "cancels of answered or unknown ids get no answer")
    try assertStillServing(daemon)
  }
}
