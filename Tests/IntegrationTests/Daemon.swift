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

extension TestServer {
  /// The built `bidi-lsp` binary, spawned over pipes: the server of this
  /// suite (BidiServerTests runs the same sessions in process).
  static let bidiLSP = bidiLSP(arguments: [])

  /// The binary started with command-line `arguments`.
  static func bidiLSP(arguments: [String]) -> TestServer {
    TestServer { try TestClient(executable: try builtDaemonPath(), arguments: arguments) }
  }
}

/// The pipe suite's session with the built daemon: a `TestSession` that
/// looks at answers only (diagnostics and progress reports are dropped).
typealias Daemon = TestSession

extension TestSession {
  /// A daemon started with `arguments`, not initialized.
  convenience init(arguments: [String] = []) throws {
    try self.init(.bidiLSP(arguments: arguments), initialize: false, ignoring: TestSession.diagnosticsAndProgress)
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

  /// Opens `uri` with `text` (the pipe tests' shorthand).
  func open(_ uri: String, _ text: String, version: Int = 1, languageId: String = "plaintext") throws {
    try open(uri, languageId: languageId, text: text, version: version)
  }
}
