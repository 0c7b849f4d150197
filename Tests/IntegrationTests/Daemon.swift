import BidiTestSupport
import JSONRPC
import XCTest

/// Why a daemon could not be started.
struct DaemonNotBuilt: Error, CustomStringConvertible {
  var description: String {
    "the bidi-lsp binary was not found: build it with `swift build -c release --product bidi-lsp`"
      + " (or set BIDI_LSP_PATH)"
  }
}

/// The built `bidi-lsp` binary under test.
func builtDaemonPath() throws -> String {
  guard let path = TestClient.builtProduct() else { throw DaemonNotBuilt() }
  return path
}

/// A `bidi-lsp` process spawned over pipes, with helpers for the messages
/// the tests send most. Every wait has a generous timeout, so a hung daemon
/// fails the test instead of hanging it.
final class Daemon {
  let client: TestClient

  init(arguments: [String] = []) throws {
    client = try TestClient(executable: try builtDaemonPath(), arguments: arguments)
    // The transport and document tests look at answers only: the hazard
    // diagnostics the daemon publishes after every change are tested in the
    // Hazard* tests.
    client.reader.ignoredNotifications = ["textDocument/publishDiagnostics", "$/progress"]
  }

  /// A daemon that has answered `initialize` (offering `encodings`, or none)
  /// and received `initialized`.
  static func initialized(encodings: [String]? = nil, arguments: [String] = []) throws -> Daemon {
    let daemon = try Daemon(arguments: arguments)
    let response = try daemon.initialize(encodings: encodings)
    guard response["result"]?["capabilities"] != nil else {
      throw UnexpectedMessage(message: response, expected: "an initialize result")
    }
    try daemon.notify("initialized", [:])
    return daemon
  }

  // MARK: Messages

  /// Sends `initialize` and returns the whole response.
  func initialize(encodings: [String]?) throws -> JSONValue {
    var capabilities: JSONObject = [:]
    if let encodings {
      capabilities["general"] = ["positionEncodings": .array(encodings.map { .string($0) })]
    }
    return try request("initialize", ["processId": nil, "capabilities": .object(capabilities)])
  }

  /// Sends a request and returns the whole response (`result` or `error`).
  @discardableResult
  func request(_ method: String, _ params: JSONValue? = nil, timeout: Double = 20) throws -> JSONValue {
    try client.request(method, params, timeout: timeout)
  }

  func notify(_ method: String, _ params: JSONValue? = nil) throws {
    try client.notify(method, params)
  }

  func sendRaw(_ bytes: [UInt8]) throws {
    try client.sendRaw(bytes)
  }

  /// Sends `body` framed with a correct Content-Length.
  func sendFramed(_ body: String) throws {
    try client.sendRaw(frame(body))
  }

  func open(_ uri: String, _ text: String, version: Int = 1, languageId: String = "plaintext") throws {
    try notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": .string(languageId), "version": JSONValue(version),
          "text": .string(text),
        ]
      ])
  }

  func change(_ uri: String, version: Int, _ changes: [JSONValue]) throws {
    try notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(uri), "version": JSONValue(version)],
        "contentChanges": .array(changes),
      ])
  }

  func close(_ uri: String) throws {
    try notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
  }

  /// The `bidi/documentInfo` response (whole) for `uri`.
  func infoResponse(_ uri: String, includeText: Bool = true) throws -> JSONValue {
    try request(
      "bidi/documentInfo", ["textDocument": ["uri": .string(uri)], "includeText": .bool(includeText)])
  }

  /// The `bidi/documentInfo` result for `uri`; throws if it is an error.
  func info(_ uri: String, includeText: Bool = true) throws -> JSONValue {
    let response = try infoResponse(uri, includeText: includeText)
    guard let result = response["result"] else {
      throw UnexpectedMessage(message: response, expected: "a documentInfo result for \(uri)")
    }
    return result
  }

  /// The daemon's copy of `uri`.
  func text(_ uri: String) throws -> String? {
    try info(uri)["text"]?.stringValue
  }

  /// Sends a request that always gets an answer and returns every message
  /// that arrived before that answer (the daemon handles input in order, so
  /// these are all the effects of what was sent before).
  func barrier() throws -> [JSONValue] {
    _ = try request("bidi/documentInfo", ["textDocument": ["uri": "file:///barrier/never-opened"]])
    return client.reader.takePending()
  }

  /// `shutdown`, `exit`, and the exit status.
  func shutdownAndExit() throws -> Int32? {
    let response = try request("shutdown")
    guard response["result"] == .null else {
      throw UnexpectedMessage(message: response, expected: "shutdown → null")
    }
    try notify("exit")
    return client.exitStatus(timeout: 20)
  }
}

/// A message that is not what a helper expected.
struct UnexpectedMessage: Error, CustomStringConvertible {
  var message: JSONValue
  var expected: String
  var description: String { "expected \(expected), got \(message)" }
}

// MARK: Building messages

/// `Content-Length: N\r\n\r\n` + body.
func frame(_ body: String) -> [UInt8] {
  frame(Array(body.utf8))
}

func frame(_ body: [UInt8]) -> [UInt8] {
  Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}

/// An LSP Position.
func position(_ line: Int, _ character: Int) -> JSONValue {
  ["line": JSONValue(line), "character": JSONValue(character)]
}

/// An incremental content change.
func change(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int, _ text: String)
  -> JSONValue
{
  [
    "range": ["start": position(startLine, startCharacter), "end": position(endLine, endCharacter)],
    "text": .string(text),
  ]
}

/// A full-text content change.
func fullChange(_ text: String) -> JSONValue {
  ["text": .string(text)]
}

// MARK: Assertions

/// Asserts that `response` is an error with `code` (and, when given, `id`
/// and a message containing `mentioning`).
func assertError(
  _ response: JSONValue?, code: Int, id: JSONValue? = nil, mentioning: String? = nil,
  _ context: String = "", file: StaticString = #filePath, line: UInt = #line
) {
  guard let response else { return XCTFail("no response \(context)", file: file, line: line) }
  XCTAssertNil(response["result"], "\(context): unexpected result in \(response)", file: file, line: line)
  XCTAssertEqual(
    response["error"]?["code"], JSONValue(code), "\(context): wrong error in \(response)", file: file, line: line)
  if let id {
    XCTAssertEqual(response["id"], id, "\(context): wrong id in \(response)", file: file, line: line)
  }
  if let mentioning {
    let message = response["error"]?["message"]?.stringValue ?? ""
    XCTAssertTrue(
      message.contains(mentioning),
      "\(context): error message \"\(message)\" does not mention \"\(mentioning)\"", file: file, line: line)
  }
}

/// The `window/logMessage` warnings (type 2) among `messages`.
func warnings(in messages: [JSONValue]) -> [JSONValue] {
  messages.filter { $0["method"] == "window/logMessage" && $0["params"]?["type"] == 2 }
}

/// The responses among `messages`.
func responses(in messages: [JSONValue]) -> [JSONValue] {
  messages.filter { $0["method"] == nil }
}
