import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// The lifecycle (specification, "Lifecycle and errors"): initialize,
/// initialized, shutdown, requests before and after them, ids, and
/// position-encoding negotiation. The exit statuses of a process are
/// IntegrationTests' ExitStatusTests.
final class LifecycleTests: XCTestCase {
  func testInitializeResultHasCapabilitiesAndServerInfo() throws {
    let daemon = try TestSession(.bidiLSP, initialize: false, ignoring: TestSession.diagnosticsAndProgress)
    let response = try daemon.initialize(encodings: nil)
    XCTAssertEqual(response["jsonrpc"], "2.0")
    let result = try XCTUnwrap(response["result"], "\(response)")
    let capabilities = try XCTUnwrap(result["capabilities"]?.objectValue, "\(result)")
    XCTAssertEqual(capabilities["positionEncoding"], "utf-16")
    XCTAssertEqual(capabilities["textDocumentSync"]?["change"], 2)
    XCTAssertEqual(capabilities["textDocumentSync"]?["openClose"], true)
    XCTAssertEqual(result["serverInfo"]?["name"], "bidi-lsp")
    let version = try XCTUnwrap(result["serverInfo"]?["version"]?.stringValue)
    XCTAssertFalse(version.isEmpty)
    let methods = capabilities["experimental"]?["bidi"]?["methods"]?.arrayValue ?? []
    XCTAssertTrue(methods.contains("bidi/documentInfo"), "experimental.bidi.methods: \(methods)")
  }

  func testPositionEncodingIsTheClientsFirstSupportedChoice() throws {
    let cases: [([String]?, String)] = [
      (["utf-32", "utf-16"], "utf-32"),
      (["utf-8"], "utf-8"),
      (["utf-16", "utf-8"], "utf-16"),
      (["utf-7", "latin-1", "utf-8", "utf-32"], "utf-8"),
      (["utf-7", "ucs-2"], "utf-16"),
      ([], "utf-16"),
      (nil, "utf-16"),
    ]
    for (offered, expected) in cases {
      let daemon = try TestSession(.bidiLSP, initialize: false, ignoring: TestSession.diagnosticsAndProgress)
      let response = try daemon.initialize(encodings: offered)
      XCTAssertEqual(
        response["result"]?["capabilities"]?["positionEncoding"], .string(expected),
        "offered \(offered.map { "\($0)" } ?? "nothing")")
    }
  }

  func testNegotiatedEncodingCountsCharacterOffsets() throws {
    // "a😀b": the 'b' is at 1+4 bytes, 1+2 UTF-16 units, 1+1 scalars.
    let starts: [PositionEncoding: Int] = [.utf8: 5, .utf16: 3, .utf32: 2]
    for (encoding, start) in starts {
      let daemon = try TestSession(.bidiLSP, encoding: encoding, ignoring: TestSession.diagnosticsAndProgress)
      try daemon.open("file:///enc.txt", text: "a😀b")
      try daemon.change("file:///enc.txt", version: 2, [change(0, start, 0, start + 1, "B")])
      XCTAssertEqual(try daemon.text("file:///enc.txt"), "a😀B", encoding.rawValue)
    }
  }

  func testRequestBeforeInitializeIsServerNotInitialized() throws {
    let daemon = try TestSession(.bidiLSP, initialize: false, ignoring: TestSession.diagnosticsAndProgress)
    for method in ["bidi/documentInfo", "shutdown", "no/suchMethod", "textDocument/hover"] {
      let response = try daemon.request(method, ["textDocument": ["uri": "file:///x"]])
      assertError(response, code: -32002, id: response["id"], method)
    }
    // The daemon still initializes normally afterwards.
    XCTAssertNotNil(try daemon.initialize(encodings: nil)["result"])
  }

  func testNotificationBeforeInitializeIsDropped() throws {
    let daemon = try TestSession(.bidiLSP, initialize: false, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open("file:///early.txt", text: "opened too early")
    try daemon.notify("initialized", [:])
    XCTAssertNotNil(try daemon.initialize(encodings: nil)["result"])
    let response = try daemon.infoResponse("file:///early.txt")
    assertError(response, code: -32602, mentioning: "uri", "a didOpen before initialize must leave no document")
    // Once initialized, the same didOpen works.
    try daemon.open("file:///early.txt", text: "now")
    XCTAssertEqual(try daemon.text("file:///early.txt"), "now")
  }

  func testInitializedNotificationIsAccepted() throws {
    let daemon = try TestSession(.bidiLSP, initialize: false, ignoring: TestSession.diagnosticsAndProgress)
    XCTAssertNotNil(try daemon.initialize(encodings: nil)["result"])
    try daemon.notify("initialized", [:])
    let unsolicited = try daemon.barrier()
    XCTAssertEqual(unsolicited, [], "initialized must be accepted silently")
    try daemon.open("file:///a.txt", text: "served")
    XCTAssertEqual(try daemon.text("file:///a.txt"), "served")
  }

  func testShutdownWithNullParamsAnswersNull() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.sendFramed(#"{"jsonrpc":"2.0","id":"s","method":"shutdown","params":null}"#)
    let response = try daemon.client.waitForResponse(id: "s", timeout: 20)
    XCTAssertEqual(response["result"], .null, "\(response)")
  }

  func testSecondInitializeIsInvalidRequest() throws {
    let daemon = try TestSession(.bidiLSP, encoding: .utf8, ignoring: TestSession.diagnosticsAndProgress)
    let response = try daemon.initialize(encodings: ["utf-32"])
    assertError(response, code: -32600, id: response["id"])
    // The first negotiation stands: offsets still count UTF-8 bytes.
    try daemon.open("file:///a.txt", text: "é|")
    try daemon.change("file:///a.txt", version: 2, [change(0, 2, 0, 3, "!")])
    XCTAssertEqual(try daemon.text("file:///a.txt"), "é!")
  }

  func testRequestAfterShutdownIsInvalidRequest() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try daemon.open("file:///a.txt", text: "text")
    XCTAssertEqual(try daemon.request("shutdown")["result"], .null)
    for method in ["bidi/documentInfo", "shutdown", "initialize", "no/such"] {
      let response = try daemon.request(method, ["textDocument": ["uri": "file:///a.txt"]])
      assertError(response, code: -32600, id: response["id"], method)
    }
    try daemon.notify("exit")
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 0)
  }

  func testResponsesEchoIntegerAndStringIDsExactly() throws {
    let daemon = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    let ids = ["0", "-1", "9223372036854775807", "-9223372036854775808", #""""#, #""ü😀""#, #""1""#, #""null""#]
    for id in ids {
      try daemon.sendFramed(#"{"jsonrpc":"2.0","id":\#(id),"method":"no/such"}"#)
      let answer = try daemon.client.nextMessage(timeout: 20)
      let expected = try JSONValue(decoding: id)
      XCTAssertEqual(answer["id"], expected, "id \(id)")
      assertError(answer, code: -32601, mentioning: "no/such", id)
    }
  }
}
