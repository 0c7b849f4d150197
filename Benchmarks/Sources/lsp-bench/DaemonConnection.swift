import BenchJansson
import BenchmarkSupport
import Glibc

/// What went wrong talking to the daemon.
struct DaemonError: Error, CustomStringConvertible {
  var description: String
}

/// The daemon as a child process, spoken to over its stdin and stdout with LSP
/// framing (Protocol/specification.md, “Framing”). One thread drives both pipes with poll(2), so a
/// large message is written while whatever the daemon says meanwhile is read,
/// and no pipe can fill up and stall either side.
final class DaemonConnection {
  let pid: pid_t
  private let toDaemon: Int32
  private let fromDaemon: Int32
  private var outgoing: [[UInt8]] = []
  private var outgoingOffset = 0
  private var incoming: [UInt8] = []
  private var incomingOffset = 0
  private var exited = false
  private var scratch = [UInt8](repeating: 0, count: 1 << 20)
  /// Notifications read so far (they are otherwise dropped), by method.
  private(set) var notifications: [String: NotificationTally] = [:]
  /// The `version` and number of diagnostics of the last
  /// `textDocument/publishDiagnostics` read.
  private(set) var lastDiagnostics: (version: Int, count: Int)?

  /// Starts `executable` with `arguments`; its stderr goes to `logPath`.
  init(executable: String, arguments: [String] = [], logPath: String = "/dev/null") throws {
    signal(SIGPIPE, SIG_IGN)
    var stdinPipe: [Int32] = [0, 0]
    var stdoutPipe: [Int32] = [0, 0]
    guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0 else {
      throw DaemonError(description: "pipe: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    for fd in stdinPipe + stdoutPipe { posix_spawn_file_actions_addclose(&actions, fd) }

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
    close(stdinPipe[0])
    close(stdoutPipe[1])
    guard status == 0 else {
      close(stdinPipe[1])
      close(stdoutPipe[0])
      throw DaemonError(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    pid = child
    toDaemon = stdinPipe[1]
    fromDaemon = stdoutPipe[0]
    _ = fcntl(toDaemon, F_SETFL, fcntl(toDaemon, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    close(toDaemon)
    close(fromDaemon)
    if !exited {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
  }

  // MARK: Sending

  /// Frames a JSON body with its Content-Length header.
  static func frame(_ body: [UInt8]) -> [UInt8] {
    var framed = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    framed.reserveCapacity(framed.count + body.count)
    framed.append(contentsOf: body)
    return framed
  }

  /// Queues an already framed message; it is written while waiting.
  func enqueue(framed: [UInt8]) {
    outgoing.append(framed)
  }

  func enqueue(body: [UInt8]) {
    enqueue(framed: DaemonConnection.frame(body))
  }

  /// Writes everything queued now (what arrives meanwhile is kept for later).
  func flush(timeout: Double = 60) throws {
    let deadline = now() + timeout
    while !outgoing.isEmpty { try pump(deadline: deadline) }
  }

  // MARK: Receiving

  /// Writes what is queued and reads until the response to `id` arrives;
  /// returns its `result` as parsed JSON (the caller releases it), or throws
  /// with the daemon's error. Notifications (such as the hazard diagnostics
  /// the daemon publishes when idle) are tallied and dropped; a server
  /// request is answered with a null result.
  @discardableResult
  func waitForResponse(id: Int, timeout: Double = 3600) throws -> UnsafeMutablePointer<json_t>? {
    var response: Result?
    try pump(timeout: timeout) {
      response = try handle(body: $0, waitingFor: id)
      return response != nil
    }
    return response?.json
  }

  /// Reads until a `textDocument/publishDiagnostics` of `version` (or later)
  /// arrives; returns its number of diagnostics.
  @discardableResult
  func waitForDiagnostics(version: Int, timeout: Double = 600) throws -> Int {
    if let last = lastDiagnostics, last.version >= version { return last.count }
    var count = 0
    try pump(timeout: timeout) {
      _ = try handle(body: $0, waitingFor: nil)
      guard let last = lastDiagnostics, last.version >= version else { return false }
      count = last.count
      return true
    }
    return count
  }

  /// Writes and reads until `done` says so of a message body.
  private func pump(timeout: Double, until done: (ArraySlice<UInt8>) throws -> Bool) throws {
    let deadline = now() + timeout
    while true {
      while let body = nextBody() {
        if try done(body) { return }
      }
      try pump(deadline: deadline)
    }
  }

  private struct Result {
    var json: UnsafeMutablePointer<json_t>?
  }

  private func handle(body: ArraySlice<UInt8>, waitingFor id: Int?) throws -> Result? {
    var error = json_error_t()
    let message = body.withUnsafeBytes { bytes -> UnsafeMutablePointer<json_t>? in
      json_loadb(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, 0, &error)
    }
    guard let message else {
      throw DaemonError(description: "unreadable message from the daemon: \(text(of: &error.text))")
    }
    defer { bench_json_release(message) }
    let messageID = json_object_get(message, "id")
    if let method = json_object_get(message, "method") {
      if let messageID, bench_json_is_integer(messageID) != 0 {
        // A request from the server: answer it so that it does not wait on us.
        let idText = String(json_integer_value(messageID))
        enqueue(body: Array("{\"jsonrpc\":\"2.0\",\"id\":\(idText),\"result\":null}".utf8))
      } else if messageID == nil {
        tally(notification: method, message: message, bytes: body.count)
      }
      return nil
    }
    guard let id, let messageID, bench_json_is_integer(messageID) != 0, json_integer_value(messageID) == id
    else { return nil }
    if let failure = json_object_get(message, "error") {
      let text = json_string_value(json_object_get(failure, "message")).map { String(cString: $0) } ?? "?"
      throw DaemonError(description: "request \(id) failed: \(text)")
    }
    let result = json_object_get(message, "result")
    if let result { bench_json_retain(result) }
    return Result(json: result)
  }

  private func tally(
    notification method: UnsafeMutablePointer<json_t>, message: UnsafeMutablePointer<json_t>, bytes: Int
  ) {
    let name = json_string_value(method).map { String(cString: $0) } ?? "?"
    notifications[name, default: NotificationTally()].add(bytes: bytes)
    guard name == "textDocument/publishDiagnostics", let params = json_object_get(message, "params") else { return }
    let version = json_object_get(params, "version").map { Int(json_integer_value($0)) } ?? 0
    let count = json_object_get(params, "diagnostics").map { json_array_size($0) } ?? 0
    lastDiagnostics = (version, count)
  }

  /// The next complete message body, if one has arrived.
  private func nextBody() -> ArraySlice<UInt8>? {
    let available = incoming.count - incomingOffset
    guard available >= 4 else { return nil }
    // Find the blank line ending the header.
    var headerEnd = -1
    var i = incomingOffset
    while i + 3 < incoming.count {
      if incoming[i] == 13 && incoming[i + 1] == 10 && incoming[i + 2] == 13 && incoming[i + 3] == 10 {
        headerEnd = i
        break
      }
      i += 1
    }
    guard headerEnd >= 0 else { return nil }
    let header = String(decoding: incoming[incomingOffset..<headerEnd], as: UTF8.self).lowercased()
    var length = -1
    for line in header.split(separator: "\r\n") where line.hasPrefix("content-length:") {
      length = Int(line.dropFirst("content-length:".count).filter { $0 != " " && $0 != "\t" }) ?? -1
    }
    let bodyStart = headerEnd + 4
    guard length >= 0, incoming.count - bodyStart >= length else { return nil }
    let body = incoming[bodyStart..<bodyStart + length]
    incomingOffset = bodyStart + length
    return body
  }

  /// One poll(2) round: write what the daemon will take, read what it sent.
  private func pump(deadline: Double) throws {
    if incomingOffset > 0 && incomingOffset * 2 > incoming.count {
      incoming.removeFirst(incomingOffset)
      incomingOffset = 0
    }
    var fds = [pollfd(fd: fromDaemon, events: Int16(POLLIN), revents: 0)]
    if !outgoing.isEmpty { fds.append(pollfd(fd: toDaemon, events: Int16(POLLOUT), revents: 0)) }
    let waitMilliseconds = Int32(max(0, min(1000, (deadline - now()) * 1000)))
    guard now() < deadline else { throw DaemonError(description: "timed out waiting for the daemon") }
    let ready = poll(&fds, nfds_t(fds.count), waitMilliseconds)
    guard ready >= 0 || errno == EINTR else {
      throw DaemonError(description: "poll: \(String(cString: strerror(errno)))")
    }
    if fds.count > 1 && fds[1].revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
      try writeSome()
    }
    if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      try readSome()
    }
  }

  private func writeSome() throws {
    while let first = outgoing.first {
      let written = first.withUnsafeBytes { bytes in
        write(toDaemon, bytes.baseAddress! + outgoingOffset, bytes.count - outgoingOffset)
      }
      if written < 0 {
        if errno == EAGAIN || errno == EINTR { return }
        throw DaemonError(description: "the daemon stopped reading: \(String(cString: strerror(errno)))")
      }
      outgoingOffset += written
      guard outgoingOffset == first.count else { return }
      outgoing.removeFirst()
      outgoingOffset = 0
    }
  }

  private func readSome() throws {
    let got = scratch.withUnsafeMutableBytes { read(fromDaemon, $0.baseAddress!, $0.count) }
    if got > 0 { incoming.append(contentsOf: scratch[0..<got]) }
    if got == 0 { throw DaemonError(description: "the daemon closed its output (exited?)") }
    if got < 0 && errno != EAGAIN && errno != EINTR {
      throw DaemonError(description: "read: \(String(cString: strerror(errno)))")
    }
  }

  // MARK: Process

  /// A "Vm…" field of /proc/<pid>/status, in bytes (e.g. "VmHWM", the peak RSS).
  func memory(_ field: String) -> Int? {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard text.hasPrefix(field + ":") else { continue }
      let digits = text.dropFirst(field.count + 1).filter(\.isNumber)
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }

  /// `shutdown`, then `exit`, then waits for the process; returns its exit status.
  @discardableResult
  func shutDown(id: Int) throws -> Int32 {
    enqueue(body: Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"shutdown\"}".utf8))
    if let result = try waitForResponse(id: id, timeout: 60) { bench_json_release(result) }
    enqueue(body: Array("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}".utf8))
    while !outgoing.isEmpty { try pump(deadline: now() + 60) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    exited = true
    return (status >> 8) & 0xFF
  }
}

/// How many notifications of one method arrived, and their body bytes.
struct NotificationTally {
  var count = 0
  var bytes = 0

  mutating func add(bytes: Int) {
    count += 1
    self.bytes += bytes
  }

  static func - (a: NotificationTally, b: NotificationTally) -> NotificationTally {
    NotificationTally(count: a.count - b.count, bytes: a.bytes - b.bytes)
  }
}

private func text<T>(of tuple: inout T) -> String {
  withUnsafeBytes(of: &tuple) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
}
