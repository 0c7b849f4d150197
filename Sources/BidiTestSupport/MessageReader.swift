import JSONRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What went wrong while talking to a server under test.
package enum TestClientError: Error, CustomStringConvertible, Sendable {
  /// Nothing (or not the awaited message) arrived within the timeout.
  case timedOut(waitingFor: String, seconds: Double)
  /// The server closed its output.
  case endOfOutput(waitingFor: String)
  /// The server's output is not well framed.
  case framing(String)
  /// A message body is not JSON.
  case invalidJSON(String)
  /// A system call failed.
  case system(call: String, errno: Int32)

  package var description: String {
    switch self {
    case .timedOut(let what, let seconds): return "timed out after \(seconds) s waiting for \(what)"
    case .endOfOutput(let what): return "the server closed its output while waiting for \(what)"
    case .framing(let problem): return "bad framing from the server: \(problem)"
    case .invalidJSON(let problem): return "the server sent invalid JSON: \(problem)"
    case .system(let call, let error): return "\(call) failed: \(String(cString: strerror(error)))"
    }
  }
}

/// A server's output as a test reads it: whatever bytes arrive within a
/// timeout. A pipe from a child process (`DescriptorOutput`) or the
/// `MemoryPipe` of a server run in process.
package protocol ServerOutput: AnyObject {
  /// Reads at most `buffer.count` bytes that arrive within
  /// `timeoutMilliseconds` (nil: as long as it takes); nil when none came.
  func read(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int?) -> ReadOutcome?
}

extension MemoryPipe: ServerOutput {}

/// The reading end of a pipe, polled with a timeout.
package final class DescriptorOutput: ServerOutput {
  package let fileDescriptor: Int32

  package init(_ fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  package func read(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int?) -> ReadOutcome? {
    var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&entry, 1, Int32(clamping: timeoutMilliseconds ?? -1))
    if ready < 0 { return errno == EINTR ? nil : .failed("poll: \(String(cString: strerror(errno)))") }
    guard ready > 0 else { return nil }
    let count = systemRead(fileDescriptor, buffer.baseAddress, buffer.count)
    if count > 0 { return .bytes(count) }
    if count == 0 { return .endOfInput }
    return errno == EINTR || errno == EAGAIN ? nil : .failed("read: \(String(cString: strerror(errno)))")
  }
}

/// Reads framed JSON-RPC messages from a server's output with timeouts, so
/// a hung server fails a test instead of hanging it. Messages that arrive
/// while waiting for a particular one are kept, in order, for later calls.
package final class MessageReader {
  package let output: any ServerOutput
  private var framer = MessageFramer()
  /// Messages received but not yet returned, oldest first.
  package private(set) var pending: [JSONValue] = []
  /// Notifications dropped on arrival (e.g. diagnostics a test does not
  /// look at): they never reach `pending`.
  package var ignoredNotifications: Set<String> = []
  private var ended = false

  package init(_ output: any ServerOutput) {
    self.output = output
  }

  /// Reads the pipe `fileDescriptor`.
  package convenience init(fileDescriptor: Int32) {
    self.init(DescriptorOutput(fileDescriptor))
  }

  /// The file descriptor read, or -1 for a server in process.
  package var fileDescriptor: Int32 { (output as? DescriptorOutput)?.fileDescriptor ?? -1 }

  /// The oldest unreturned message, waiting up to `timeout` seconds.
  package func next(timeout: Double = 10) throws(TestClientError) -> JSONValue {
    try next(timeout: timeout, what: "a message") { _ in true }
  }

  /// The first unreturned message matching `predicate` (others stay pending).
  package func next(
    timeout: Double = 10, what: String, where predicate: (JSONValue) -> Bool
  ) throws(TestClientError) -> JSONValue {
    let deadline = Deadline(seconds: timeout)
    var checked = 0
    while true {
      while checked < pending.count {
        if predicate(pending[checked]) { return pending.remove(at: checked) }
        checked += 1
      }
      if ended { throw .endOfOutput(waitingFor: what) }
      guard let remaining = deadline.remainingMilliseconds, remaining > 0 else {
        throw .timedOut(waitingFor: what, seconds: timeout)
      }
      try pump(timeoutMilliseconds: remaining)
    }
  }

  /// The response with `id`.
  package func response(id: RequestID, timeout: Double = 10) throws(TestClientError) -> JSONValue {
    try next(timeout: timeout, what: "the response to \(id)") {
      $0["id"] == id.json && $0["method"] == nil
    }
  }

  /// The next notification named `method`.
  package func notification(_ method: String, timeout: Double = 10) throws(TestClientError)
    -> JSONValue
  {
    try next(timeout: timeout, what: "notification \(method)") {
      $0["method"] == .string(method) && $0["id"] == nil
    }
  }

  /// Removes and returns every message received but not yet returned, oldest
  /// first (without reading more input).
  package func takePending() -> [JSONValue] {
    defer { pending.removeAll() }
    return pending
  }

  /// True once the other end has closed (messages may still be pending).
  package var hasEnded: Bool { ended }

  /// True if the other end has closed and every message has been returned.
  package var isAtEnd: Bool { ended && pending.isEmpty }

  /// Waits up to `timeoutMilliseconds` for input and reads what is there.
  /// Returns without error on a timeout.
  package func pump(timeoutMilliseconds: Int) throws(TestClientError) {
    guard !ended else { return }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let outcome = buffer.withUnsafeMutableBytes { output.read(into: $0, timeoutMilliseconds: timeoutMilliseconds) }
    let count: Int
    switch outcome {
    case nil: return
    case .bytes(let read): count = read
    case .failed(let reason): throw .system(call: reason, errno: EIO)
    case .endOfInput:
      ended = true
      if let event = framer.finish() { try accept(event) }
      return
    }
    var failure: TestClientError? = nil
    buffer.withUnsafeBytes { raw in
      _ = framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { event in
        guard failure == nil else { return }
        do throws(TestClientError) { try accept(event) } catch { failure = error }
      }
    }
    if let failure { throw failure }
  }

  private func accept(_ event: MessageFramer.Event) throws(TestClientError) {
    switch event {
    case .message(let body):
      do {
        let message = try JSONValue(decoding: body)
        if let method = message["method"]?.stringValue, message["id"] == nil, ignoredNotifications.contains(method) {
          return
        }
        pending.append(message)
      } catch {
        throw .invalidJSON(error.description)
      }
    case .oversized(let length, _):
      throw .framing("message of \(length) bytes")
    case .error(let error):
      throw .framing(error.description)
    }
  }
}

/// A point in monotonic time some seconds from now.
struct Deadline {
  private let end: Double

  init(seconds: Double) { end = Deadline.now() + seconds }

  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Milliseconds left (rounded up), nil or 0 once passed.
  var remainingMilliseconds: Int? {
    let left = end - Deadline.now()
    return left > 0 ? Int((left * 1000).rounded(.up)) : nil
  }
}

/// read(2), named so that `read(into:)` does not shadow it.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, bytes, count)
}
