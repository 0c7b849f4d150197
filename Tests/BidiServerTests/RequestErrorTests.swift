import BidiTestSupport
import JSONRPC
import XCTest

/// The error answers of the handlers (specification, "Error codes"):
/// -32601, -32602 naming the faulty parameter, -32800 for a cancelled
/// request, each followed by the server serving on. The answers to input
/// that is no valid message are IntegrationTests' ErrorTests.
final class RequestErrorTests: XCTestCase {
  private let uri = "file:///doc.txt"
  private let text = "مرحبا\r\nworld 😀\n"

  private func daemonWithDocument() throws -> TestSession {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open(uri, text: text)
    return daemon
  }

  /// Asserts the daemon still serves and the document is intact.
  private func assertStillServing(_ daemon: TestSession, file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(try daemon.text(uri), text, "document changed", file: file, line: line)
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

  // MARK: -32800 and cancellation

  func testCancelledPendingRequestIsRequestCancelled() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
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
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    let line = "سطر عربي with English and 😀 — \r\n"
    let count = (100 << 20) / line.utf8.count + 1
    let big = String(repeating: line, count: count)
    XCTAssertGreaterThan(big.utf8.count, 100 << 20)
    try daemon.open("file:///huge.txt", text: big)
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
