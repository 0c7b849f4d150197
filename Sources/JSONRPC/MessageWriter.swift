import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Frames messages (`Content-Length: N\r\n\r\n` + body) and writes each one
/// whole to a `ByteSink` (a file descriptor, or memory), under a lock, so
/// messages from several threads never interleave. Once the peer has gone
/// (EPIPE or another write error) further messages are dropped; SIGPIPE
/// must be ignored by the process (`Connection` does this).
package final class MessageWriter: Sendable {
  private let sink: any ByteSink
  private let logger: Logger
  /// Whether output has failed (true once, then messages are dropped).
  private let state = Mutex<Bool>(false)

  package init(sink: any ByteSink, logger: Logger) {
    self.sink = sink
    self.logger = logger
  }

  package convenience init(fileDescriptor: Int32, logger: Logger) {
    self.init(sink: FileDescriptorStream(fileDescriptor), logger: logger)
  }

  /// The framed bytes of a body: header then body.
  package static func frame(_ body: [UInt8]) -> [UInt8] {
    var bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    bytes.append(contentsOf: body)
    return bytes
  }

  /// Writes one message; false if output has failed.
  @discardableResult
  package func write(_ message: Message) -> Bool {
    write(body: message.encoded())
  }

  /// Writes an already encoded body, framed; false if output has failed.
  @discardableResult
  package func write(body: [UInt8]) -> Bool {
    write(chunks: [body])
  }

  /// Writes a body held as chunks (see `JSONWriter`), framed; false if
  /// output has failed. Each chunk is released once written, so a large
  /// body's memory goes down while it is written.
  @discardableResult
  package func write(chunks: consuming [[UInt8]]) -> Bool {
    let count = chunks.reduce(0) { $0 + $1.count }
    if logger.isEnabled(.trace) {
      logger.trace("--> \(String(decoding: (chunks.first ?? []).prefix(4000), as: UTF8.self))")
    }
    let header = Array("Content-Length: \(count)\r\n\r\n".utf8)
    var pieces = chunks
    return state.withLock { failed -> Bool in
      guard !failed else { return false }
      var error = header.withUnsafeBytes { sink.write($0) }
      var index = 0
      while error == nil, index < pieces.count {
        error = pieces[index].withUnsafeBytes { sink.write($0) }
        pieces[index] = []
        index += 1
      }
      if let error {
        failed = true
        logger.error("output closed (\(error)): dropping further messages")
        return false
      }
      return true
    }
  }
}
