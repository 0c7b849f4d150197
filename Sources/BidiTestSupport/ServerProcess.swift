import JSONRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How a `TestClient` reaches its server: the pipes of a child process or
/// the memory pipes of a server on a thread of the test process.
protocol ServerLink: AnyObject {
  /// What the server writes.
  var output: any ServerOutput { get }
  /// The server's process id; nil in process.
  var processID: pid_t? { get }
  /// Writes all of `bytes` within `timeout` seconds, calling `drain` while
  /// the server's input is full (so a server blocked on its output can go
  /// on); with no `drain`, only waits for the server to read.
  func write(_ bytes: [UInt8], timeout: Double, drain: (() throws(TestClientError) -> Void)?) throws(TestClientError)
  /// Ends the server's input.
  func closeInput()
  /// The exit status once the server has ended (without waiting).
  func endedStatus() -> Int32?
  /// Stops the server as fast as it can be stopped.
  func kill()
  /// What the server logged so far.
  func standardError() -> String
}

/// A server executable spawned with pipes for stdin and stdout and stderr
/// going to a temporary file.
final class ServerProcess: ServerLink {
  let processID: pid_t?
  let output: any ServerOutput
  private let pid: pid_t
  private var inputDescriptor: Int32
  private let outputDescriptor: Int32
  private let standardErrorPath: String
  private var status: Int32?

  /// Starts `executable` with `arguments`. `environment` entries are added to
  /// (or replace those of) the test process's environment.
  init(executable: String, arguments: [String], environment: [String: String]) throws(TestClientError) {
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
    let (errorDescriptor, errorPath) = makeTemporaryFile("bidi-test-stderr")
    standardErrorPath = errorPath
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
      unlink(errorPath)
      throw .system(call: "posix_spawn \(executable)", errno: result)
    }
    self.pid = pid
    processID = pid
    inputDescriptor = toChild[1]
    outputDescriptor = fromChild[0]
    // Non-blocking writes: while the server's input is full, we drain its output.
    _ = fcntl(inputDescriptor, F_SETFL, fcntl(inputDescriptor, F_GETFL) | O_NONBLOCK)
    output = DescriptorOutput(outputDescriptor)
  }

  deinit {
    if status == nil {
      sendSignal(pid, SIGKILL)
      var raw: Int32 = 0
      _ = waitpid(pid, &raw, 0)
    }
    if inputDescriptor >= 0 { close(inputDescriptor) }
    close(outputDescriptor)
    unlink(standardErrorPath)
  }

  func write(_ bytes: [UInt8], timeout: Double, drain: (() throws(TestClientError) -> Void)?) throws(TestClientError) {
    guard inputDescriptor >= 0 else { throw .system(call: "write (input closed)", errno: EBADF) }
    let deadline = Deadline(seconds: timeout)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return systemWrite(inputDescriptor, base + offset, raw.count - offset)
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
      _ = poll(&entries, drain == nil ? 1 : 2, Int32(clamping: remaining))
      if entries[1].revents != 0, let drain { try drain() }
    }
  }

  func closeInput() {
    if inputDescriptor >= 0 {
      close(inputDescriptor)
      inputDescriptor = -1
    }
  }

  func endedStatus() -> Int32? {
    if let status { return status }
    var raw: Int32 = 0
    guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
    let signal = raw & 0x7f
    status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    return status
  }

  func kill() {
    guard status == nil else { return }
    sendSignal(pid, SIGKILL)
  }

  func standardError() -> String {
    readWholeFile(standardErrorPath)
  }
}

/// A new empty file in /tmp, named after `prefix`: its descriptor (-1 when
/// it could not be made) and its path.
func makeTemporaryFile(_ prefix: String) -> (descriptor: Int32, path: String) {
  var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
  let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
    guard let base = buffer.baseAddress else { return -1 }
    return mkstemp(base)
  }
  let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  return (descriptor, path)
}

/// The contents of the file at `path` ("" when it cannot be read).
func readWholeFile(_ path: String) -> String {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
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

private func sendSignal(_ process: pid_t, _ signal: Int32) {
  _ = kill(process, signal)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// A NULL-terminated `char *[]` of copies of `strings` (free each element).
private func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
  strings.map { strdup($0) } + [nil]
}
