import ByteWords
import CByteScan

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte scans of the commands' fast paths, eight bytes at a time.
enum ByteScan {
  /// The line breaks (LF or CR) of a scan that goes forward through one
  /// block (`base[..<end]`), by memchr: the CR is searched for once ahead
  /// and kept until passed, so that text with few CRs (most has none) costs one pass for
  /// the LFs only.
  struct LineBreakFinder {
    let base: UnsafePointer<UInt8>
    let end: Int
    /// Where the last search for a CR started, and what it found: the
    /// first CR from there, or `end`. (-1: none made yet.)
    private var crFrom = -1
    private var cr = -1

    init(_ base: UnsafePointer<UInt8>, end: Int) {
      self.base = base
      self.end = end
    }

    /// The offset of the first LF or CR in `base[from..<end]`, or `end`.
    @inline(__always)
    mutating func next(from: Int) -> Int {
      guard from < end else { return end }
      if from < crFrom || cr < from {
        crFrom = from
        cr = end
        if let found = memchr(base + from, 0x0D, end - from) {
          cr = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
        }
      }
      // No CR in `from..<cr`: the first LF before it, else `cr`.
      guard cr > from, let lf = memchr(base + from, 0x0A, cr - from) else { return cr }
      return UnsafePointer<UInt8>(lf.assumingMemoryBound(to: UInt8.self)) - base
    }
  }

  /// Whether every byte of `bytes` is printable ASCII (0x20...0x7E) or a tab.
  static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    printableASCIIPrefix(bytes, from: 0, to: bytes.count) == bytes.count
  }

  /// The end of the printable ASCII (and tab) bytes from `start`, at most `end`.
  @inline(__always)
  static func printableASCIIPrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
    let base = bytes.baseAddress!
    var i = start
    while i + 8 <= end && ByteWord.isPrintableASCIIOrTab(ByteWord.load(base, i)) { i += 8 }
    while i < end {
      let b = base[i]
      guard (b >= 0x20 && b < 0x7F) || b == 0x09 else { break }
      i += 1
    }
    return i
  }

  /// The end of the printable ASCII, tab and LF bytes from `start` (at most
  /// `end`), and the number of LFs among them.
  @inline(__always)
  static func plainTextPrefix(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (end: Int, lineFeeds: Int)
  {
    var lineFeeds = 0
    let length = cbs_plain_text_prefix(base + start, end - start, &lineFeeds)
    return (start + length, lineFeeds)
  }

  /// Whether `bytes` holds U+200E LEFT-TO-RIGHT MARK (E2 80 8E).
  static func containsLRM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    while i + 2 < bytes.count {
      if bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && bytes[i + 2] == 0x8E { return true }
      i += 1
    }
    return false
  }
}
