import JSONRPC
import UnicodeBidi
import XCTest

/// How to start the server a `TestSession` talks to: an executable over
/// pipes, or a server run in process over memory pipes.
package struct TestServer: Sendable {
  private let start: @Sendable () throws -> TestClient

  package init(start: @escaping @Sendable () throws -> TestClient) {
    self.start = start
  }

  /// `executable` (with `arguments`) as a child process.
  package static func process(_ executable: String, arguments: [String] = []) -> TestServer {
    TestServer { try TestClient(executable: executable, arguments: arguments) }
  }

  /// `serve` on a thread of the test process.
  package static func inProcess(
    options: Connection.Options = Connection.Options(), _ serve: @escaping InProcessServe
  ) -> TestServer {
    TestServer { try TestClient(serving: serve, options: options) }
  }

  /// A new client of a new server.
  package func client() throws -> TestClient { try start() }
}

/// A test's session with a bidi-lsp server (in process or a process): it
/// initializes it, keeps the versions of the documents it opens, and has
/// helpers for the messages tests send most. Every wait has a generous
/// timeout, so a hung server fails the test instead of hanging it;
/// messages that arrive while waiting for another stay queued.
package final class TestSession {
  /// The document of the helpers that take no URI.
  package static let defaultURI = "file:///test-session.txt"
  /// Notifications a session that looks at answers only drops on arrival.
  package static let diagnosticsAndProgress: Set<String> = ["textDocument/publishDiagnostics", "$/progress"]
  /// Hang timeout of every wait, in seconds: a hung server fails, a slow one passes.
  package static let timeout = 60.0

  package let client: TestClient
  /// The negotiated position encoding.
  package private(set) var encoding = PositionEncoding.utf16
  /// The `capabilities` of the `initialize` result.
  package private(set) var capabilities: JSONValue = .null
  /// How many requests had their params and result validated against the
  /// protocol's schemas (see `result(_:_:uri:)`).
  package private(set) var validatedCalls = 0
  private var versions: [String: Int] = [:]
  private var freshCount = 0

  /// Starts `server` and, when `initialize` is true, initializes it: offers
  /// `encoding` alone (and requires it), passes `initializationOptions` and
  /// the `capabilities` given, and sends `initialized`. Notifications named
  /// in `ignoring` are dropped on arrival.
  package init(
    _ server: TestServer, initialize: Bool = true, encoding: PositionEncoding? = nil,
    initializationOptions: JSONValue? = nil, capabilities: JSONObject = [:], ignoring: Set<String> = []
  ) throws {
    client = try server.client()
    client.reader.ignoredNotifications = ignoring
    guard initialize else { return }
    let response = try self.initialize(
      encodings: encoding.map { [$0.rawValue] }, initializationOptions: initializationOptions,
      capabilities: capabilities)
    guard response["result"]?["capabilities"] != nil else {
      throw UnexpectedMessage(message: response, expected: "an initialize result")
    }
    if let encoding, self.encoding != encoding {
      throw UnexpectedMessage(message: response, expected: "the only encoding offered, \(encoding.rawValue)")
    }
    try notify("initialized", [:])
  }

  // MARK: Messages

  /// Sends `initialize` offering `encodings` (none when nil) and returns the
  /// whole response; a result sets `encoding` and `capabilities`.
  @discardableResult
  package func initialize(
    encodings: [String]?, initializationOptions: JSONValue? = nil, capabilities extra: JSONObject = [:]
  ) throws -> JSONValue {
    var capabilities = extra
    if let encodings {
      capabilities["general"] = ["positionEncodings": .array(encodings.map { .string($0) })]
    }
    var params: JSONObject = ["processId": nil, "capabilities": .object(capabilities)]
    if let initializationOptions { params["initializationOptions"] = initializationOptions }
    let response = try request("initialize", .object(params))
    if let result = response["result"]?["capabilities"] {
      self.capabilities = result
      if let name = result["positionEncoding"]?.stringValue, let negotiated = PositionEncoding(rawValue: name) {
        encoding = negotiated
      }
    }
    return response
  }

  /// Sends a request and returns the whole response (`result` or `error`).
  @discardableResult
  package func request(_ method: String, _ params: JSONValue? = nil, timeout: Double = TestSession.timeout) throws
    -> JSONValue
  {
    try client.request(method, params, timeout: timeout)
  }

  package func notify(_ method: String, _ params: JSONValue? = nil) throws {
    try client.notify(method, params)
  }

  package func sendRaw(_ bytes: [UInt8]) throws {
    try client.sendRaw(bytes)
  }

  /// Sends `body` framed with a correct Content-Length.
  package func sendFramed(_ body: String) throws {
    try client.sendRaw(frame(body))
  }

  /// Sends a request that always gets an answer and returns every message
  /// that arrived before that answer (the server handles input in order, so
  /// these are all the effects of what was sent before).
  package func barrier() throws -> [JSONValue] {
    _ = try request("bidi/documentInfo", ["textDocument": documentID("file:///barrier/never-opened")])
    return client.reader.takePending()
  }

  /// `shutdown`, `exit`, and the exit status.
  package func shutdownAndExit() throws -> Int32? {
    let response = try request("shutdown")
    guard response["result"] == .null else {
      throw UnexpectedMessage(message: response, expected: "shutdown → null")
    }
    try notify("exit")
    return client.exitStatus(timeout: Self.timeout)
  }

  // MARK: Documents

  package func open(
    _ uri: String = TestSession.defaultURI, languageId: String = "plaintext", text: String, version: Int = 1
  ) throws {
    versions[uri] = version
    try notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": .string(languageId), "version": JSONValue(version), "text": .string(text),
        ]
      ])
  }

  /// Sends a `didChange` with `changes` at `version` (by default the one
  /// after the document's last) and returns that version.
  @discardableResult
  package func change(_ uri: String, version: Int? = nil, _ changes: [JSONValue]) throws -> Int {
    let version = version ?? (versions[uri] ?? 0) + 1
    versions[uri] = version
    try notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": JSONValue(version)], "contentChanges": .array(changes)])
    return version
  }

  /// Sends TextEdits (against one version, not overlapping, as the server
  /// answers them) as one `didChange`, last edit first so that each
  /// change's range still means what it meant.
  package func apply(_ uri: String = TestSession.defaultURI, edits: [JSONValue]) throws {
    guard !edits.isEmpty else { return }
    try change(uri, TestText.contentChanges(for: edits))
  }

  /// Replaces the whole text (a full-text change).
  @discardableResult
  package func replaceText(_ uri: String, with text: String) throws -> Int {
    try change(uri, [fullChange(text)])
  }

  package func close(_ uri: String) throws {
    try notify("textDocument/didClose", ["textDocument": documentID(uri)])
  }

  /// The version last sent for `uri`.
  package func version(_ uri: String) -> Int { versions[uri] ?? 0 }

  /// The `bidi/documentInfo` response (whole) for `uri`.
  package func infoResponse(_ uri: String, includeText: Bool = true) throws -> JSONValue {
    try request("bidi/documentInfo", ["textDocument": documentID(uri), "includeText": .bool(includeText)])
  }

  /// The `bidi/documentInfo` result for `uri`; throws if it is an error.
  package func info(_ uri: String, includeText: Bool = true) throws -> JSONValue {
    let response = try infoResponse(uri, includeText: includeText)
    guard let result = response["result"] else {
      throw UnexpectedMessage(message: response, expected: "a documentInfo result for \(uri)")
    }
    return result
  }

  /// The server's copy of a document (`bidi/documentInfo` with its text,
  /// checked against its schema).
  package func text(_ uri: String = TestSession.defaultURI, file: StaticString = #filePath, line: UInt = #line)
    throws -> String
  {
    let info = try result("bidi/documentInfo", ["includeText": true], uri: uri, file: file, line: line)
    guard let text = info["text"]?.stringValue else { throw UnexpectedMessage(message: info, expected: "a text") }
    return text
  }

  // MARK: Diagnostics

  /// The params of the next publishDiagnostics for `uri`, skipping older
  /// versions when `version` is given.
  package func publish(_ uri: String, version: Int? = nil) throws -> JSONValue {
    while true {
      let message = try client.reader.next(timeout: Self.timeout, what: "publishDiagnostics for \(uri)") {
        $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"] == .string(uri)
      }
      let params = message["params"] ?? .null
      guard let version, let published = params["version"]?.intValue, published < version else { return params }
    }
  }

  /// The diagnostics of the next publish for `uri` (at `version` if given).
  package func diagnostics(_ uri: String, version: Int? = nil, file: StaticString = #filePath, line: UInt = #line)
    throws -> [JSONValue]
  {
    let params = try publish(uri, version: version)
    if let version {
      XCTAssertEqual(params["version"]?.intValue, version, "publish version of \(uri)", file: file, line: line)
    }
    return params["diagnostics"]?.arrayValue ?? []
  }

  /// Opens a document and returns its first published diagnostics.
  package func openAndDiagnose(_ uri: String, languageId: String, text: String) throws -> [JSONValue] {
    try open(uri, languageId: languageId, text: text)
    return try diagnostics(uri, version: version(uri))
  }

  /// What a fresh scan of `text` gives: opens it under a new URI, reads the
  /// diagnostics, closes it again.
  package func freshDiagnostics(of text: String, languageId: String, like uri: String) throws -> [JSONValue] {
    let fresh = uri + ".fresh\(freshCount)"
    freshCount += 1
    let diagnostics = try openAndDiagnose(fresh, languageId: languageId, text: text)
    try close(fresh)
    _ = try publish(fresh)
    return diagnostics
  }

  /// Whether a publish for `uri` is waiting (after a round trip, so that
  /// anything the server sent before answering has arrived).
  package func hasPendingPublish(_ uri: String) throws -> Bool {
    _ = try request("bidi/documentInfo", ["textDocument": documentID("file:///nonexistent-sync")])
    return client.reader.pending.contains {
      $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"] == .string(uri)
    }
  }

  // MARK: Requests

  /// The result of a request that must succeed.
  package func result(_ method: String, params: JSONValue) throws -> JSONValue {
    let response = try request(method, params)
    guard let result = response["result"] else {
      throw UnexpectedMessage(message: response, expected: "a result of \(method)")
    }
    return result
  }

  /// The code actions for `range` of `uri`.
  package func codeActions(_ uri: String, range: JSONValue, only: [String]? = nil, diagnostics: [JSONValue] = [])
    throws -> [JSONValue]
  {
    var context: JSONObject = ["diagnostics": .array(diagnostics)]
    if let only { context["only"] = .array(only.map { .string($0) }) }
    let result = try result(
      "textDocument/codeAction",
      params: ["textDocument": documentID(uri), "range": range, "context": .object(context)])
    return result.arrayValue ?? []
  }

  /// The `visualText` of every display line of line `line`'s paragraphs,
  /// joined, from `bidi/visualOrder` (direction auto unless given).
  package func visualText(_ uri: String, line: Int, options: JSONObject = [:]) throws -> String {
    var params = options
    params["textDocument"] = documentID(uri)
    params["range"] = lspRange(line, 0, line, Int(Int32.max))
    params["include"] = ["visualText"]
    let result = try result("bidi/visualOrder", params: .object(params))
    var text = ""
    for paragraph in result["paragraphs"]?.arrayValue ?? [] {
      for display in paragraph["lines"]?.arrayValue ?? [] { text += display["visualText"]?.stringValue ?? "" }
    }
    return text
  }

  // MARK: Requests checked against the schemas

  private static let loadedSchemas = Result { () throws(JSONSchemaValidator.LoadError) in
    try JSONSchemaValidator.protocolSchemas()
  }

  /// The protocol's schemas (Protocol/schemas).
  package static func schemas() throws -> JSONSchemaValidator {
    try loadedSchemas.get()
  }

  /// The schema file of a method: `bidi/visualOrder` → `bidi-visualOrder.schema.json`.
  package static func schemaFile(_ method: String) -> String {
    method.split(separator: "/").joined(separator: "-") + ".schema.json"
  }

  /// The full params of a request on a document: `textDocument` and `options`.
  package static func params(_ options: JSONObject, uri: String) -> JSONObject {
    var params: JSONObject = ["textDocument": documentID(uri)]
    for (key, value) in options { params[key] = value }
    return params
  }

  /// Checks `value` against `$defs.<part>` of the method's schema.
  package func assertValid(
    _ value: JSONValue, _ method: String, _ part: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let reference = Self.schemaFile(method) + "#/$defs/" + part
    let violations = try Self.schemas().validate(value, against: reference)
    XCTAssert(
      violations.isEmpty,
      "\(method) \(part) does not match \(reference):\n  "
        + violations.map(\.description).joined(separator: "\n  ") + "\n  value: \(value)",
      file: file, line: line)
  }

  /// Sends a request with `options` on `uri`, validating the params against
  /// the method's schema, and returns the validated result. An error answer
  /// fails the test and throws.
  @discardableResult
  package func result(
    _ method: String, _ options: JSONObject = [:], uri: String = TestSession.defaultURI,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> JSONValue {
    let params = JSONValue.object(Self.params(options, uri: uri))
    try assertValid(params, method, "params", file: file, line: line)
    let reply = try request(method, params)
    guard let result = reply["result"] else {
      XCTFail("\(method) \(params) failed: \(reply)", file: file, line: line)
      throw UnexpectedMessage(message: reply, expected: "a result of \(method)")
    }
    try assertValid(result, method, "result", file: file, line: line)
    validatedCalls += 1
    return result
  }

  /// Sends a request that must fail; returns its error code and message.
  /// The params are still checked against the schema: these errors are
  /// about meaning (a line past the end), not about form.
  package func error(
    _ method: String, _ options: JSONObject, uri: String = TestSession.defaultURI,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> (code: Int, message: String) {
    let params = JSONValue.object(Self.params(options, uri: uri))
    try assertValid(params, method, "params", file: file, line: line)
    let reply = try request(method, params)
    guard let error = reply["error"], let code = error["code"]?.intValue else {
      XCTFail("\(method) \(params) should have failed: \(reply)", file: file, line: line)
      throw UnexpectedMessage(message: reply, expected: "an error answer to \(method)")
    }
    return (code, error["message"]?.stringValue ?? "")
  }

  /// The paragraph entries of a `bidi/naturalDirection`, `bidi/alignment`
  /// or `bidi/visualOrder` result (validated).
  package func paragraphs(
    _ method: String, _ options: JSONObject = [:], uri: String = TestSession.defaultURI,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> [JSONValue] {
    try result(method, options, uri: uri, file: file, line: line)["paragraphs"]?.arrayValue ?? []
  }

  /// The edits of a `bidi/insertMarks` result (validated).
  package func edits(
    _ options: JSONObject, uri: String = TestSession.defaultURI, file: StaticString = #filePath, line: UInt = #line
  ) throws -> [JSONValue] {
    try result("bidi/insertMarks", options, uri: uri, file: file, line: line)["edits"]?.arrayValue ?? []
  }
}
