import BidiHazards
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The size of the reads of `bidi-lsp check` (`CheckInput.blockSize`), for
/// tests that put text across their boundaries.
package let checkReadBlockSize = CheckInput.blockSize

/// The text `bidi-lsp check` scans, as bytes read in blocks from a file
/// descriptor or given whole: `buffer` holds the bytes from `offset` on
/// that are read and not yet discarded.
struct CheckInput {
  /// The bytes a read asks for. The scans drop each block's lines once
  /// scanned, so a small block stays in the L2 cache from its read to its
  /// scan: 1 MiB blocks cost 0.5 ms more CPU time on a 10 MB file.
  static let blockSize = 1 << 17

  /// The descriptor read, or nil for text given whole.
  let descriptor: Int32?
  var buffer: [UInt8] = []
  /// The offset in the text of `buffer[0]`.
  var offset = 0
  var atEnd = false
  var readFailed = false
  /// The `errno` of the failed read, if one failed.
  var readError: Int32 = 0
  /// Text given whole, kept for `rewind`.
  private let text: [UInt8]

  /// The text read from `descriptor`.
  init(descriptor: Int32) {
    self.descriptor = descriptor
    text = []
    buffer.reserveCapacity(Self.blockSize * 2)
  }

  /// Text already in memory (such as the values of a localization file).
  init(text: [UInt8]) {
    descriptor = nil
    self.text = text
    buffer = text
    atEnd = true
  }

  /// Whether the text can be read again from its start: a regular file or
  /// text given whole (standard input and pipes cannot).
  var canRewind: Bool {
    guard let descriptor else { return true }
    var info = stat()
    return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// Room in `buffer` for the rest of a regular file and the read that
  /// finds its end: read whole, its buffer is not grown and copied as
  /// blocks come (a file that grows meanwhile grows it as before).
  mutating func reserveForRest() {
    guard let descriptor, !atEnd else { return }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
    let rest = max(0, Int(info.st_size) - offset - buffer.count)
    buffer.reserveCapacity(buffer.count + rest + Self.blockSize)
  }

  /// Reads the rest of the text: into room reserved once for a regular
  /// file, else in growing blocks.
  mutating func readAll() {
    reserveForRest()
    while !atEnd { readMore() }
  }

  /// Reads on for a scan that keeps the bytes of a line cut by the end of
  /// `buffer`: a block, or about as many bytes as `buffer` holds when that
  /// is more, so that a line longer than a block is read in doubling
  /// blocks and a scan that searches it again from a point before its end
  /// does so a bounded number of times (not once a block). The read ends
  /// at a multiple of `blockSize` in the text. A pipe gives at most its
  /// own buffer (64 KiB) a read, so such a line is read on until it has
  /// that much more, or the text ends (a 100 MB line on standard input:
  /// 5.7 s before, searched again after every 64 KiB).
  mutating func readOn() {
    let kept = buffer.count
    let end = offset + kept
    let next = (end + max(Self.blockSize, kept)) / Self.blockSize * Self.blockSize
    let target = kept + next - end
    repeat {
      readMore(atMost: target - buffer.count)
    } while kept >= Self.blockSize && buffer.count < target && !atEnd
  }

  /// Reads the next block (of `count` bytes at most) after `buffer`; sets
  /// `atEnd` at the end of the text and `readFailed` (and `atEnd`) on a
  /// read error.
  mutating func readMore(atMost count: Int = blockSize) {
    guard let descriptor, !atEnd else {
      atEnd = true
      return
    }
    var got = -1
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      // Read straight into the room after the bytes, not filled first.
      buffer.append(addingCapacity: count) { span in
        span.withUnsafeMutableBufferPointer { room, initialized in
          got = Self.readAtMost(descriptor, into: room.baseAddress!, count: count)
          initialized = max(0, got)
        }
      }
    } else {
      let old = buffer.count
      buffer.append(contentsOf: repeatElement(0, count: count))
      got = buffer.withUnsafeMutableBytes { raw in
        Self.readAtMost(descriptor, into: raw.baseAddress! + old, count: count)
      }
      buffer.removeSubrange((old + max(0, got))...)
    }
    if got <= 0 {
      atEnd = true
      readFailed = got < 0
      if readFailed { readError = errno }
    }
  }

  /// `read(2)` of up to `count` bytes into `bytes`, again when interrupted.
  private static func readAtMost(_ descriptor: Int32, into bytes: UnsafeMutableRawPointer, count: Int) -> Int {
    while true {
      let got = read(descriptor, bytes, count)
      if got < 0 && errno == EINTR { continue }
      return got
    }
  }

  /// Hands `buffer` over in `storage` and goes on with `storage`'s memory
  /// (its bytes dropped) holding the bytes of `buffer` from `start` on.
  mutating func exchange(_ storage: inout [UInt8], keepingFrom start: Int) {
    swap(&buffer, &storage)
    buffer.removeAll(keepingCapacity: true)
    buffer.append(contentsOf: storage[start...])
    offset += start
  }

  /// Drops the first `count` bytes of `buffer`.
  mutating func discard(_ count: Int) {
    buffer.removeSubrange(0..<count)
    offset += count
  }

  /// Reads the rest of the text with the clean-line scan and returns the
  /// offset of the last byte where a finding can start (`HazardBytes`), or
  /// nil if there is none (or a read failed: `readFailed`).
  mutating func lastHazardOffset() -> Int? {
    var last: Int? = nil
    // Bytes from `from` on are not scanned yet.
    var from = 0
    while true {
      let (found, scanned) = buffer.withUnsafeBufferPointer { p -> (Int?, Int) in
        var found: Int? = nil
        var i = from
        while let at = HazardBytes.firstHazard(in: p, from: i) {
          // A sequence cut off by the end of the block is read again with
          // the next one.
          if !atEnd && p.count - at < 4 { return (found, at) }
          found = at
          i = at + (BidiControl.decode(p, at: at)?.utf8Count ?? 1)
        }
        return (found, p.count)
      }
      if let found { last = offset + found }
      if atEnd { return readFailed ? nil : last }
      discard(scanned)
      from = 0
      readOn()
    }
  }

  /// Reads on with the clean-line scan until the first byte where a
  /// finding can start: its offset, or nil if there is none (or a read
  /// failed: `readFailed`).
  mutating func firstHazardOffset() -> Int? {
    while true {
      let (found, scanned) = buffer.withUnsafeBufferPointer { p -> (Int?, Int) in
        guard let at = HazardBytes.firstHazard(in: p) else { return (nil, p.count) }
        // A sequence cut off by the end of the block is read again with
        // the next one.
        if !atEnd && p.count - at < 4 { return (nil, at) }
        return (at, at)
      }
      if let found { return offset + found }
      if atEnd { return nil }
      discard(scanned)
      readOn()
    }
  }

  /// Goes back to the start of the text; false if that fails.
  mutating func rewind() -> Bool {
    offset = 0
    readFailed = false
    guard let descriptor else {
      buffer = text
      atEnd = true
      return true
    }
    buffer.removeAll(keepingCapacity: true)
    atEnd = false
    return lseek(descriptor, 0, SEEK_SET) == 0
  }
}
