import JSONRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A synchronous client for integration tests: spawns a server executable
/// with pipes for stdin and stdout (stderr goes to a temporary file, see
/// `standardError()`), sends raw bytes or framed messages, and reads framed
/// messages with timeouts so that a hung server fails the test instead of
/// hanging it.
///
///     let client = try TestClient(executable: TestClient.builtProduct())
///     let reply = try client.request("initialize", ["capabilities": [:]])
///     client.notify("exit")
///     XCTAssertEqual(client.exitStatus(timeout: 10), 1)
public final class TestClient {
  /// The server's process id.
  public let processID: pid_t
  /// Reads the server's stdout.
  public let reader: MessageReader
  private var inputDescriptor: Int32
  private let outputDescriptor: Int32
  private let standardErrorPath: String
  private var status: Int32? = nil
  private var lastID: Int64 = 0

  /// Starts `executable` with `arguments`. `environment` entries are added to
  /// (or replace those of) the test process's environment.
  public init(
    executable: String, arguments: [String] = [], environment: [String: String] = [:]
  ) throws(TestClientError) {
    // Writing to a server that has exited must be an error, not a killed test.
    signal(SIGPIPE, SIG_IGN)
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0 else { throw .system(call: "pipe", errno: errno) }
    guard pipe(&fromChild) == 0 else {
      close(toChild[0])
      close(toChild[1])
      throw .system(call: "pipe", errno: errno)
    }
    var template = Array("/tmp/bidi-test-stderr-XXXXXX".utf8CString)
    let errorDescriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    standardErrorPath = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Our ends must not leak into other children (or keep pipes open).
    for descriptor in toChild + fromChild + [errorDescriptor] where descriptor >= 0 {
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    if errorDescriptor >= 0 { posix_spawn_file_actions_adddup2(&actions, errorDescriptor, 2) }

    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let pair = String(cString: pointer)
      if let equals = pair.firstIndex(of: "=") {
        variables[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
      }
      entry += 1
    }
    for (key, value) in environment { variables[key] = value }

    var pid: pid_t = 0
    let argv = [executable] + arguments
    let envp = variables.map { "\($0.key)=\($0.value)" }
    let argvPointers = cStrings(argv)
    let envpPointers = cStrings(envp)
    defer { for pointer in argvPointers + envpPointers { free(pointer) } }
    let result = posix_spawn(&pid, executable, &actions, nil, argvPointers, envpPointers)
    close(toChild[0])
    close(fromChild[1])
    if errorDescriptor >= 0 { close(errorDescriptor) }
    guard result == 0 else {
      close(toChild[1])
      close(fromChild[0])
      throw .system(call: "posix_spawn \(executable)", errno: result)
    }
    processID = pid
    inputDescriptor = toChild[1]
    outputDescriptor = fromChild[0]
    // Non-blocking writes: while the server's input is full, we drain its output.
    _ = fcntl(inputDescriptor, F_SETFL, fcntl(inputDescriptor, F_GETFL) | O_NONBLOCK)
    reader = MessageReader(fileDescriptor: outputDescriptor)
  }

  deinit {
    if status == nil {
      sendSignal(processID, SIGKILL)
      var raw: Int32 = 0
      _ = waitpid(processID, &raw, 0)
    }
    if inputDescriptor >= 0 { close(inputDescriptor) }
    close(outputDescriptor)
    unlink(standardErrorPath)
  }

  // MARK: Sending

  /// Writes `bytes` as they are (for malformed input), waiting up to
  /// `timeout` seconds for the server to take them while reading its output.
  public func sendRaw(_ bytes: [UInt8], timeout: Double = 30) throws(TestClientError) {
    guard inputDescriptor >= 0 else { throw .system(call: "write (input closed)", errno: EBADF) }
    let deadline = Deadline(seconds: timeout)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return write(inputDescriptor, base + offset, raw.count - offset)
      }
      if written > 0 {
        offset += written
        continue
      }
      let error = errno
      guard written < 0, error == EAGAIN || error == EWOULDBLOCK || error == EINTR else {
        throw .system(call: "write", errno: error)
      }
      guard let remaining = deadline.remainingMilliseconds else {
        throw .timedOut(waitingFor: "the server to read its input", seconds: timeout)
      }
      var entries = [
        pollfd(fd: inputDescriptor, events: Int16(POLLOUT), revents: 0),
        pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0),
      ]
      _ = poll(&entries, 2, Int32(clamping: remaining))
      if entries[1].revents != 0 { try reader.pump(timeoutMilliseconds: 0) }
    }
  }

  /// Sends a JSON value, framed.
  public func send(_ value: JSONValue, timeout: Double = 30) throws(TestClientError) {
    try sendRaw(MessageWriter.frame(value.encoded()), timeout: timeout)
  }

  /// Sends a message, framed.
  public func send(_ message: Message, timeout: Double = 30) throws(TestClientError) {
    try send(message.json, timeout: timeout)
  }

  /// A fresh integer request id.
  public func nextID() -> RequestID {
    lastID += 1
    return .integer(lastID)
  }

  /// Sends a request and returns the whole response object (`{jsonrpc, id,
  /// result}` or `{…, error}`); messages that arrive meanwhile stay pending.
  @discardableResult
  public func request(_ method: String, _ params: JSONValue? = nil, timeout: Double = 10)
    throws(TestClientError) -> JSONValue
  {
    let id = nextID()
    try send(.request(Request(id: id, method: method, params: params)))
    return try reader.response(id: id, timeout: timeout)
  }

  /// Sends a notification.
  public func notify(_ method: String, _ params: JSONValue? = nil) throws(TestClientError) {
    try send(.notification(Notification(method: method, params: params)))
  }

  /// The next message, whatever it is.
  public func nextMessage(timeout: Double = 10) throws(TestClientError) -> JSONValue {
    try reader.next(timeout: timeout)
  }

  /// The next notification named `method` (others stay pending).
  public func waitForNotification(_ method: String, timeout: Double = 10)
    throws(TestClientError) -> JSONValue
  {
    try reader.notification(method, timeout: timeout)
  }

  /// The response with `id` (others stay pending).
  public func waitForResponse(id: RequestID, timeout: Double = 10) throws(TestClientError)
    -> JSONValue
  {
    try reader.response(id: id, timeout: timeout)
  }

  /// Closes the server's stdin (end of input).
  public func closeInput() {
    if inputDescriptor >= 0 {
      close(inputDescriptor)
      inputDescriptor = -1
    }
  }

  // MARK: Process

  /// The exit status once the server has exited (128 + signal number if a
  /// signal killed it), or nil if it is still running after `timeout` seconds.
  public func exitStatus(timeout: Double = 10) -> Int32? {
    if let status { return status }
    let deadline = Deadline(seconds: timeout)
    while true {
      var raw: Int32 = 0
      let result = waitpid(processID, &raw, WNOHANG)
      if result == processID {
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return status
      }
      if result < 0, errno != EINTR { return nil }
      guard deadline.remainingMilliseconds != nil else { return nil }
      // Keep draining stdout so a server blocked on a full pipe can exit.
      try? reader.pump(timeoutMilliseconds: 10)
    }
  }

  /// Kills the server (SIGKILL) and reaps it.
  public func terminate() {
    guard status == nil else { return }
    sendSignal(processID, SIGKILL)
    _ = exitStatus(timeout: 10)
  }

  /// Everything the server wrote to stderr so far.
  public func standardError() -> String {
    let descriptor = open(standardErrorPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

private func sendSignal(_ process: pid_t, _ signal: Int32) {
  _ = kill(process, signal)
}

/// A NULL-terminated `char *[]` of copies of `strings` (free each element).
private func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
  strings.map { strdup($0) } + [nil]
}
