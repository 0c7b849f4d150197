import JSONRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A synchronous client for tests of a JSON-RPC server, run either as a
/// child process over pipes (stderr to a temporary file, see
/// `standardError()`) or in process on a thread over `MemoryPipe`s (its log
/// to a temporary file). It sends raw bytes or framed messages and reads
/// framed messages with timeouts, so that a hung server fails the test
/// instead of hanging it. Both run the same session:
///
///     let client = try TestClient(executable: TestClient.builtProduct()!)
///     // or: try TestClient(serving: { connection in … })
///     let reply = try client.request("initialize", ["capabilities": [:]])
///     client.notify("exit")
///     XCTAssertEqual(client.exitStatus(timeout: 10), 1)
package final class TestClient {
  /// Reads the server's output.
  package let reader: MessageReader
  private let server: any ServerLink
  private var lastID: Int64 = 0

  /// Starts `executable` with `arguments`. `environment` entries are added to
  /// (or replace those of) the test process's environment.
  package init(
    executable: String, arguments: [String] = [], environment: [String: String] = [:]
  ) throws(TestClientError) {
    server = try ServerProcess(executable: executable, arguments: arguments, environment: environment)
    reader = MessageReader(server.output)
  }

  /// Runs `serve` on a new thread over memory pipes, its connection made
  /// with `options` and a logger at `logLevel`. Releasing the client ends
  /// the server's input.
  package init(
    serving serve: @escaping InProcessServe, options: Connection.Options = Connection.Options(),
    logLevel: Logger.Level = .info
  ) throws(TestClientError) {
    server = try InProcessServer(serve, options: options, logLevel: logLevel)
    reader = MessageReader(server.output)
  }

  /// The server's process id. A server in process has none: asking is a
  /// programming error.
  package var processID: pid_t {
    guard let id = server.processID else { preconditionFailure("a server in process has no process id") }
    return id
  }

  /// Whether the server runs in the test process.
  package var isInProcess: Bool { server.processID == nil }

  // MARK: Sending

  /// Writes `bytes` as they are (for malformed input), waiting up to
  /// `timeout` seconds for the server to take them while reading its output.
  package func sendRaw(_ bytes: [UInt8], timeout: Double = 30) throws(TestClientError) {
    try server.write(bytes, timeout: timeout) { [reader] () throws(TestClientError) in
      try reader.pump(timeoutMilliseconds: 0)
    }
  }

  /// Writes `bytes` as they are without ever reading the server's output
  /// (a client that does not read: back-pressure tests), waiting up to
  /// `timeout` seconds for the server to take them. It touches only the
  /// server's input, so one thread may call it while another reads.
  package func sendRawWithoutReading(_ bytes: [UInt8], timeout: Double = 60) throws(TestClientError) {
    try server.write(bytes, timeout: timeout, drain: nil)
  }

  /// Sends a JSON value, framed.
  package func send(_ value: JSONValue, timeout: Double = 30) throws(TestClientError) {
    try sendRaw(MessageWriter.frame(value.encoded()), timeout: timeout)
  }

  /// Sends a message, framed.
  package func send(_ message: Message, timeout: Double = 30) throws(TestClientError) {
    try send(message.json, timeout: timeout)
  }

  /// A fresh integer request id.
  package func nextID() -> RequestID {
    lastID += 1
    return .integer(lastID)
  }

  /// Sends a request and returns the whole response object (`{jsonrpc, id,
  /// result}` or `{…, error}`); messages that arrive meanwhile stay pending.
  @discardableResult
  package func request(_ method: String, _ params: JSONValue? = nil, timeout: Double = 10)
    throws(TestClientError) -> JSONValue
  {
    let id = nextID()
    try send(.request(Request(id: id, method: method, params: params)))
    return try reader.response(id: id, timeout: timeout)
  }

  /// Sends a notification.
  package func notify(_ method: String, _ params: JSONValue? = nil) throws(TestClientError) {
    try send(.notification(Notification(method: method, params: params)))
  }

  /// The next message, whatever it is.
  package func nextMessage(timeout: Double = 10) throws(TestClientError) -> JSONValue {
    try reader.next(timeout: timeout)
  }

  /// The next notification named `method` (others stay pending).
  package func waitForNotification(_ method: String, timeout: Double = 10)
    throws(TestClientError) -> JSONValue
  {
    try reader.notification(method, timeout: timeout)
  }

  /// The response with `id` (others stay pending).
  package func waitForResponse(id: RequestID, timeout: Double = 10) throws(TestClientError)
    -> JSONValue
  {
    try reader.response(id: id, timeout: timeout)
  }

  /// Closes the server's input (end of input).
  package func closeInput() {
    server.closeInput()
  }

  // MARK: Ending

  /// The exit status once the server has ended (for a process, 128 + the
  /// signal number if a signal killed it), or nil if it is still running
  /// after `timeout` seconds.
  package func exitStatus(timeout: Double = 10) -> Int32? {
    let deadline = Deadline(seconds: timeout)
    while true {
      if let status = server.endedStatus() { return status }
      guard deadline.remainingMilliseconds != nil else { return nil }
      // Keep draining the output so a server blocked on a full pipe can end.
      if reader.hasEnded {
        usleep(1_000)
      } else {
        do { try reader.pump(timeoutMilliseconds: 10) } catch { usleep(10_000) }
      }
    }
  }

  /// Stops the server (a process: SIGKILL; in process: the end of its
  /// input) and waits for it.
  package func terminate() {
    server.kill()
    _ = exitStatus(timeout: 10)
  }

  /// Everything the server wrote to stderr (or, in process, logged) so far.
  package func standardError() -> String {
    server.standardError()
  }
}
