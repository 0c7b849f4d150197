import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bytes written to a file descriptor in large blocks (1 MiB by default).
/// Callers `reserve` room for what they are about to append and write into
/// it directly, so that a line is never split across two writes and no
/// bound check happens per byte.
struct OutputBuffer: ~Copyable {
  let fd: Int32
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// The number of bytes waiting to be written.
  var count = 0
  /// Set by the first failed write; nothing is written after it.
  private(set) var failed = false

  init(fd: Int32, capacity: Int = 1 << 20) {
    self.fd = fd
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  /// Makes room for `extra` more bytes: writes out what is buffered when
  /// they would not fit, and grows the buffer when they would not fit even
  /// then.
  mutating func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    _ = flush()
    guard extra > capacity else { return }
    base.deallocate()
    capacity = extra
    base = .allocate(capacity: capacity)
  }

  /// Appends `bytes` (room must have been reserved).
  @inline(__always)
  mutating func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
    (base + count).update(from: bytes, count: n)
    count &+= n
  }

  /// Appends one byte (room must have been reserved).
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    base[count] = byte
    count &+= 1
  }

  /// Appends the UTF-8 encoding of a scalar value, at most 4 bytes (room
  /// must have been reserved); U+FFFD for a value that is not a scalar.
  @inline(__always)
  mutating func append(scalar value: UInt32) {
    count &+= UTF8Encoder.write(UTF8Encoder.scalarOrReplacement(value), to: base + count)
  }

  /// Appends ASCII text (reserving room for it).
  mutating func append(text: String) {
    var text = text
    text.withUTF8 { bytes in
      reserve(bytes.count)
      if let start = bytes.baseAddress { append(start, count: bytes.count) }
    }
  }

  /// Writes out the buffered bytes; false once a write has failed.
  mutating func flush() -> Bool {
    writeAll(base, count)
    count = 0
    return !failed
  }

  /// Writes the buffered bytes and then `bytes` (without copying them).
  mutating func write(_ bytes: UnsafePointer<UInt8>, count n: Int) {
    if n < 4096 {
      reserve(n)
      append(bytes, count: n)
      return
    }
    _ = flush()
    writeAll(bytes, n)
  }

  private mutating func writeAll(_ bytes: UnsafePointer<UInt8>, _ n: Int) {
    var offset = 0
    while offset < n && !failed {
      #if canImport(Glibc)
        let written = Glibc.write(fd, bytes + offset, n - offset)
      #else
        let written = Darwin.write(fd, bytes + offset, n - offset)
      #endif
      if written < 0 {
        if errno == EINTR { continue }
        failed = true
      } else {
        offset += written
      }
    }
  }
}
