import BidiTestSupport
import JSONRPC
import XCTest

/// How the `bidi-lsp` process ends (specification, "exit"): its exit status
/// after `exit`, with and without `shutdown`, at the end of its input, and
/// nothing served after `exit`; its stdout carries protocol messages only.
final class ExitStatusTests: XCTestCase {
  func testExitBeforeInitializeEndsWithStatus1() throws {
    let daemon = try Daemon()
    try daemon.notify("exit")
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
  }

  func testShutdownAnswersNullAndExitThenEndsWithStatus0() throws {
    let daemon = try Daemon.initialized()
    let response = try daemon.request("shutdown")
    XCTAssertEqual(response["result"], .null, "\(response)")
    XCTAssertNil(response["error"])
    try daemon.notify("exit")
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 0)
  }

  func testExitWithoutShutdownEndsWithStatus1() throws {
    let daemon = try Daemon.initialized()
    try daemon.notify("exit")
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
  }

  func testEndOfInputAfterShutdownEndsWithStatus0() throws {
    let daemon = try Daemon.initialized()
    XCTAssertEqual(try daemon.request("shutdown")["result"], .null)
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 0)
  }

  func testEndOfInputWithoutShutdownEndsWithStatus1() throws {
    let daemon = try Daemon.initialized()
    try daemon.open("file:///a.txt", "text")
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
  }

  func testEndOfInputBeforeInitializeEndsWithStatus1() throws {
    let daemon = try Daemon()
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
  }

  func testMessagesAfterExitAreNotServed() throws {
    let daemon = try Daemon.initialized()
    // exit and a request in one write: the process ends without answering.
    let exit = frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
    let request = frame(#"{"jsonrpc":"2.0","id":5,"method":"bidi/documentInfo","params":{}}"#)
    try daemon.sendRaw(exit + request)
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
    XCTAssertThrowsError(try daemon.client.waitForResponse(id: 5, timeout: 2))
  }

  func testStdoutCarriesOnlyProtocolMessages() throws {
    // Every byte the daemon writes must frame as a message: MessageReader
    // throws on anything else. Log at the most verbose level to provoke it.
    let daemon = try Daemon(arguments: ["--log-level", "trace"])
    XCTAssertNotNil(try daemon.initialize(encodings: nil)["result"])
    try daemon.open("file:///a.txt", "שלום\nworld")
    try daemon.sendRaw(Array("garbage\r\n\r\n".utf8))
    _ = try daemon.barrier()
    XCTAssertEqual(try daemon.shutdownAndExit(), 0)
    XCTAssertFalse(daemon.client.standardError().isEmpty, "trace logging goes to stderr")
  }
}
