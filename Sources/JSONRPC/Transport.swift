#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a read from a `ByteSource` gave.
package enum ReadOutcome: Sendable, Equatable {
  /// This many bytes (at least one) are in the buffer.
  case bytes(Int)
  /// The other end has closed: nothing more will come.
  case endOfInput
  /// Reading failed; the text says why.
  case failed(String)
}

/// The framed byte stream a `Connection` reads: standard input, a pipe, or
/// memory (a server run in process by the tests).
package protocol ByteSource: AnyObject, Sendable {
  /// Blocks until at least one byte has arrived (or the input ended) and
  /// reads at most `buffer.count` bytes into `buffer`. Called from one
  /// thread at a time.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome
}

/// The framed byte stream a `Connection` writes. `MessageWriter` calls it
/// under its lock, so that messages never interleave.
package protocol ByteSink: AnyObject, Sendable {
  /// Writes all of `bytes`, or returns why it could not (the peer has gone).
  func write(_ bytes: UnsafeRawBufferPointer) -> String?
}

// MARK: File descriptors

/// A file descriptor as a byte stream: read(2) and write(2), retried on
/// EINTR and, for a non-blocking descriptor, after poll(2).
package final class FileDescriptorStream: ByteSource, ByteSink {
  package let fileDescriptor: Int32

  package init(_ fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  package func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
    while true {
      let count = systemRead(fileDescriptor, buffer.baseAddress, buffer.count)
      if count > 0 { return .bytes(count) }
      if count == 0 { return .endOfInput }
      switch errno {
      case EINTR:
        continue
      case EAGAIN, EWOULDBLOCK:
        var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, -1)
      case let error:
        return .failed(String(cString: strerror(error)))
      }
    }
  }

  package func write(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(fileDescriptor, base + offset, bytes.count - offset)
      if written < 0 {
        let error = errno
        if error == EINTR { continue }
        if error == EAGAIN || error == EWOULDBLOCK {
          // A non-blocking descriptor: wait until it can take more.
          var entry = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&entry, 1, -1)
          continue
        }
        return String(cString: strerror(error))
      }
      offset += written
    }
    return nil
  }
}

/// read(2) and write(2), named so that the methods do not shadow them.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, bytes, count)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

// MARK: Memory

/// A one-way byte pipe in memory: what is written is read, in order, by
/// the other side; `close()` ends the input. For running a server in
/// process (the tests), with a pipe each way. Unbounded: the writer never
/// waits.
package final class MemoryPipe: ByteSource, ByteSink, @unchecked Sendable {
  private let lock = ConditionLock()
  /// Guarded by `lock`.
  private var buffer: [UInt8] = []
  private var head = 0
  private var closed = false

  package init() {}

  /// Ends the stream: a reader gets what is left, then the end of input;
  /// later writes fail.
  package func close() {
    lock.withLock {
      closed = true
      lock.broadcast()
    }
  }

  package func write(_ bytes: UnsafeRawBufferPointer) -> String? {
    lock.withLock { () -> String? in
      guard !closed else { return "the pipe is closed" }
      buffer.append(contentsOf: bytes)
      lock.broadcast()
      return nil
    }
  }

  /// Writes `bytes`; false when the pipe is closed.
  @discardableResult
  package func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { write($0) } == nil
  }

  package func read(into destination: UnsafeMutableRawBufferPointer) -> ReadOutcome {
    read(into: destination, timeoutMilliseconds: nil) ?? .endOfInput
  }

  /// Like `read(into:)`, but returns nil when nothing has arrived within
  /// `timeoutMilliseconds` (nil: wait as long as it takes).
  package func read(into destination: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int?) -> ReadOutcome? {
    lock.withLock { () -> ReadOutcome? in
      if let timeoutMilliseconds {
        guard lock.wait(milliseconds: timeoutMilliseconds, until: { head < buffer.count || closed }) else {
          return nil
        }
      } else {
        lock.wait { head < buffer.count || closed }
      }
      guard head < buffer.count else { return .endOfInput }
      let count = min(destination.count, buffer.count - head)
      buffer.withUnsafeBytes { source in
        destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[head..<head + count]))
      }
      head += count
      if head == buffer.count {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        head = 0
      } else if head >= 1 << 20 && head >= buffer.count - head {
        // Compacting once at least half is consumed keeps reading linear:
        // a large write read in small pieces is moved O(1) times per byte.
        buffer.removeFirst(head)
        head = 0
      }
      return .bytes(count)
    }
  }
}
