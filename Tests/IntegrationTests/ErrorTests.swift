import BidiTestSupport
import JSONRPC
import XCTest

/// The answers to input that is no valid message (specification,
/// "Malformed input" and "Error codes"): -32700 and -32600 with `id: null`,
/// the size limit, each followed by the daemon serving on. The handlers'
/// error answers are BidiServerTests' RequestErrorTests.
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
      // The id is valid, so the answer may carry it (specification, “Transport”), or null.
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
}
