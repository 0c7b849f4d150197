import BidiTestSupport
import JSONRPC
import XCTest

/// specification, “The command line”, first two items: serving on stdio, `--version`, `--help`,
/// and usage errors.
final class CommandLineTests: XCTestCase {
  func testVersionPrintsNameAndVersionAndExits0() throws {
    let result = try TestClient.run(try builtDaemonPath(), arguments: ["--version"])
    XCTAssertEqual(result.status, 0, result.standardError)
    XCTAssertTrue(result.standardOutput.hasPrefix("bidi-lsp "), result.standardOutput)
    // The same version as initialize's serverInfo.
    let daemon = try Daemon()
    let version = try XCTUnwrap(daemon.initialize(encodings: nil)["result"]?["serverInfo"]?["version"]?.stringValue)
    XCTAssertTrue(result.standardOutput.contains(version), "\(result.standardOutput) lacks \(version)")
    XCTAssertTrue(result.standardOutput.contains("Unicode 17.0.0"), result.standardOutput)
  }

  func testHelpPrintsUsageOnStdoutAndExits0() throws {
    let result = try TestClient.run(try builtDaemonPath(), arguments: ["--help"])
    XCTAssertEqual(result.status, 0, result.standardError)
    XCTAssertTrue(result.standardOutput.contains("Usage"), result.standardOutput)
    for option in ["--stdio", "--version", "--help", "--max-message-size", "--log-level", "--log-file"] {
      XCTAssertTrue(result.standardOutput.contains(option), "usage lacks \(option)")
    }
    XCTAssertEqual(result.standardError, "")
  }

  func testUnknownOptionExits2WithUsageOnStderr() throws {
    for arguments in [["--no-such-option"], ["--stdio", "--bogus"], ["-z"]] {
      let result = try TestClient.run(try builtDaemonPath(), arguments: arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertTrue(result.standardError.contains("Usage"), "\(arguments): \(result.standardError)")
      XCTAssertEqual(result.standardOutput, "", "\(arguments): stdout must stay clean")
    }
  }

  func testBadOptionValueExits2WithUsageOnStderr() throws {
    let cases = [["--max-message-size", "lots"], ["--max-message-size"], ["--log-level", "loud"], ["--log-file"]]
    for arguments in cases {
      let result = try TestClient.run(try builtDaemonPath(), arguments: arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertTrue(result.standardError.contains("Usage"), "\(arguments): \(result.standardError)")
    }
  }

  func testStdioOptionServesTheProtocol() throws {
    let daemon = try Daemon(arguments: ["--stdio"])
    XCTAssertEqual(try daemon.initialize(encodings: ["utf-8"])["result"]?["capabilities"]?["positionEncoding"], "utf-8")
    try daemon.notify("initialized", [:])
    try daemon.open("file:///a.txt", "served on stdio")
    XCTAssertEqual(try daemon.text("file:///a.txt"), "served on stdio")
    XCTAssertEqual(try daemon.shutdownAndExit(), 0)
  }

  func testNoArgumentsServesTheProtocol() throws {
    let daemon = try Daemon(arguments: [])
    XCTAssertNotNil(try daemon.initialize(encodings: nil)["result"])
    XCTAssertEqual(try daemon.shutdownAndExit(), 0)
  }

  func testScriptedSessionOnStdinExitsWithStatus() throws {
    // A whole session piped in at once, as a script would: the answers come
    // out framed on stdout and the status follows the lifecycle.
    var input: [UInt8] = []
    input += frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
    input += frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    input += frame(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
    input += frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
    let result = try TestClient.run(try builtDaemonPath(), input: input)
    XCTAssertEqual(result.status, 0, result.standardError)
    XCTAssertTrue(result.standardOutput.hasPrefix("Content-Length: "), result.standardOutput)
    XCTAssertTrue(result.standardOutput.contains(#""serverInfo""#), result.standardOutput)
  }

  func testLogFileReceivesLogsAndStdoutStaysClean() throws {
    let path = "/tmp/bidi-itest-log-\(getpid()).log"
    defer { unlink(path) }
    let daemon = try Daemon(arguments: ["--log-file", path, "--log-level", "debug"])
    XCTAssertNotNil(try daemon.initialize(encodings: nil)["result"])
    XCTAssertEqual(try daemon.shutdownAndExit(), 0)
    let log = try TestClient.run("/bin/cat", arguments: [path])
    XCTAssertFalse(log.standardOutput.isEmpty, "the log file is empty")
  }
}
