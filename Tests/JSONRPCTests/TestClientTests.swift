import BidiTestSupport
import JSONRPC
import XCTest

/// The test client, against stand-in servers: `cat` echoes every framed
/// message back, `sh` exits with a chosen status, `sleep` hangs.
final class TestClientTests: XCTestCase {
  func testEchoServerRoundTripsFramedMessages() throws {
    let client = try TestClient(executable: "/bin/cat")
    let message: JSONValue = ["jsonrpc": "2.0", "method": "note", "params": ["text": "שלום 😀"]]
    try client.send(message)
    XCTAssertEqual(try client.nextMessage(), message)
    try client.notify("first")
    try client.notify("second", ["n": 2])
    XCTAssertEqual(try client.waitForNotification("second")["params"], ["n": 2])
    XCTAssertEqual(try client.nextMessage()["method"], "first")
    try client.sendRaw(Array("Content-Length: 2\r\n\r\n{}".utf8))
    XCTAssertEqual(try client.nextMessage(), [:])
    client.closeInput()
    XCTAssertEqual(client.exitStatus(timeout: 10), 0)
  }

  func testLargeMessagesDoNotDeadlockThePipes() throws {
    // cat writes back while we are still writing: the client must drain.
    let client = try TestClient(executable: "/bin/cat")
    let text = String(repeating: "abc שלום ", count: 200_000)
    try client.notify("big", ["text": .string(text)])
    XCTAssertEqual(try client.nextMessage(timeout: 30)["params"]?["text"]?.stringValue, text)
  }

  func testRequestTimesOutWhenNoResponseComes() throws {
    let client = try TestClient(executable: "/bin/cat")
    // cat echoes the request itself, which is not a response.
    XCTAssertThrowsError(try client.request("ping", nil, timeout: 0.3)) { error in
      guard case TestClientError.timedOut = error else { return XCTFail("\(error)") }
    }
    XCTAssertEqual(try client.nextMessage()["method"], "ping")
  }

  func testEndOfOutputIsReported() throws {
    let client = try TestClient(executable: "/bin/sh", arguments: ["-c", "echo oops >&2; exit 3"])
    XCTAssertThrowsError(try client.nextMessage(timeout: 10)) { error in
      guard case TestClientError.endOfOutput = error else { return XCTFail("\(error)") }
    }
    XCTAssertEqual(client.exitStatus(timeout: 10), 3)
    XCTAssertEqual(client.standardError(), "oops\n")
  }

  func testExitStatusTimesOutForAHungProcess() throws {
    let client = try TestClient(executable: "/bin/sleep", arguments: ["30"])
    XCTAssertNil(client.exitStatus(timeout: 0.2))
    client.terminate()
    XCTAssertEqual(client.exitStatus(timeout: 1), 128 + SIGKILL)
  }

  func testEnvironmentIsPassed() throws {
    let client = try TestClient(
      executable: "/bin/sh", arguments: ["-c", "printf \"$BIDI_TEST_VALUE\" >&2"],
      environment: ["BIDI_TEST_VALUE": "hello"])
    XCTAssertEqual(client.exitStatus(timeout: 10), 0)
    XCTAssertEqual(client.standardError(), "hello")
  }

  func testWritingToAnExitedServerIsAnError() throws {
    let client = try TestClient(executable: "/bin/true")
    XCTAssertEqual(client.exitStatus(timeout: 10), 0)
    XCTAssertThrowsError(try client.notify("late")) { error in
      guard case TestClientError.system(_, let code) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(code, EPIPE)
    }
  }

  func testMissingExecutableIsAnError() {
    XCTAssertThrowsError(try TestClient(executable: "/nonexistent/bidi-lsp"))
  }

  func testBuiltProductIsFound() throws {
    // `swift test` builds the package's executables next to the test bundle.
    let path = try XCTUnwrap(TestClient.builtProduct())
    XCTAssertTrue(path.hasSuffix("/bidi-lsp"), path)
    XCTAssertNil(TestClient.builtProduct("no-such-product"))
  }
}
