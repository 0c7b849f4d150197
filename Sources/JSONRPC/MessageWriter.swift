import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Frames messages (`Content-Length: N\r\n\r\n` + body) and writes each one
/// whole to a file descriptor, under a lock, so messages from several threads
/// never interleave. Partial writes and EINTR are retried. Once the peer has
/// gone (EPIPE or another write error) further messages are dropped; SIGPIPE
/// must be ignored by the process (`Connection` does this).
public final class MessageWriter: Sendable {
  private let fileDescriptor: Int32
  private let logger: Logger
  /// Whether output has failed (true once, then messages are dropped).
  private let state = Mutex<Bool>(false)

  public init(fileDescriptor: Int32, logger: Logger) {
    self.fileDescriptor = fileDescriptor
    self.logger = logger
  }

  /// The framed bytes of a body: header then body.
  public static func frame(_ body: [UInt8]) -> [UInt8] {
    var bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    bytes.append(contentsOf: body)
    return bytes
  }

  /// Writes one message; false if output has failed.
  @discardableResult
  public func write(_ message: Message) -> Bool {
    let body = message.encoded()
    if logger.isEnabled(.trace) {
      logger.trace("--> \(String(decoding: body.prefix(4000), as: UTF8.self))")
    }
    return write(body: body)
  }

  /// Writes an already encoded body, framed; false if output has failed.
  @discardableResult
  public func write(body: [UInt8]) -> Bool {
    let header = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    return state.withLock { failed -> Bool in
      guard !failed else { return false }
      if let error = writeAll(header) ?? writeAll(body) {
        failed = true
        logger.error(
          "output closed (\(String(cString: strerror(error)))): dropping further messages")
        return false
      }
      return true
    }
  }

  /// nil on success, else the errno.
  private func writeAll(_ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBytes { raw -> Int32? in
      guard let base = raw.baseAddress else { return nil }
      var offset = 0
      while offset < raw.count {
        let written = systemWrite(fileDescriptor, base + offset, raw.count - offset)
        if written < 0 {
          let error = errno
          if error == EINTR { continue }
          if error == EAGAIN || error == EWOULDBLOCK {
            // A non-blocking descriptor: wait until it can take more.
            var entry = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, -1)
            continue
          }
          return error
        }
        offset += written
      }
      return nil
    }
  }
}

/// write(2), named so that `MessageWriter.write` does not shadow it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
