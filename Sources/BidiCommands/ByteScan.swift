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
  /// The offset of the first LF or CR in `base[from..<to]`, or `to`: memchr
  /// for the LF, then for a CR before it.
  @inline(__always)
  static func nextLineBreak(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    guard from < to else { return to }
    var lf = to
    if let found = memchr(base + from, 0x0A, to - from) {
      lf = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
    }
    guard lf > from, let cr = memchr(base + from, 0x0D, lf - from) else { return lf }
    return UnsafePointer<UInt8>(cr.assumingMemoryBound(to: UInt8.self)) - base
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
    while i + 8 <= end && isPrintable(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { i += 8 }
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

  /// True when each of the eight bytes of `word` is in 0x20...0x7E or a tab.
  @inline(__always)
  static func isPrintable(_ word: UInt64) -> Bool {
    let high: UInt64 = 0x8080_8080_8080_8080
    // Tabs become 0x29 (their high bit, shifted, adds 0x20): exact per byte.
    let tabs = zeroBytes(word ^ 0x0909_0909_0909_0909)
    let w = word | (tabs >> 2)
    let low = w & ~high
    let atLeastSpace = low &+ 0x6060_6060_6060_6060
    let delete = low &+ 0x0101_0101_0101_0101
    return (~atLeastSpace | delete | w) & high == 0
  }

  /// Bit 7 of each byte of the result is set where `word`'s byte is zero
  /// (exact per byte: no borrow crosses bytes).
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((word & low7) &+ low7) | word | low7)
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

/// The paragraph separators of UAX #9 (class B) other than LF and CR, which
/// end lines: U+001C...U+001E, U+0085 (C2 85) and U+2029 (E2 80 A9).
enum ParagraphSeparators {
  /// The offset just past the last one in `bytes`, or nil.
  static func lastEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = bytes.count
    while i > 0 {
      i -= 1
      switch bytes[i] {
      case 0x1C...0x1E: return i + 1
      case 0x85 where i >= 1 && bytes[i - 1] == 0xC2: return i + 1
      case 0xA9 where i >= 2 && bytes[i - 1] == 0x80 && bytes[i - 2] == 0xE2: return i + 1
      default: continue
      }
    }
    return nil
  }
}
