/// Byte-level helpers over UTF-8: finding line ends, validating, counting.
enum UTF8Scan {
  @inline(__always)
  static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

  /// The length of the scalar a valid lead byte starts.
  @inline(__always)
  static func scalarLength(lead: UInt8) -> Int {
    if lead < 0x80 { return 1 }
    if lead < 0xE0 { return 2 }
    if lead < 0xF0 { return 3 }
    return 4
  }

  /// Unicode scalars in well-formed UTF-8.
  static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for byte in bytes where !isContinuation(byte) { count += 1 }
    return count
  }

  /// UTF-16 code units of well-formed UTF-8.
  static func utf16Count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for byte in bytes {
      if !isContinuation(byte) { count += 1 }
      if byte >= 0xF0 { count += 1 }
    }
    return count
  }

  /// What `scanLine` found: where the content ends (at a `\n`, a `\r` or the
  /// end of the input) and how far its scalar counts fall short of its byte count.
  struct LineScan {
    var contentEnd: Int
    /// Bytes minus scalars: the continuation bytes seen.
    var continuationBytes: Int
    /// Scalars outside the BMP (2 UTF-16 units each).
    var astralScalars: Int
  }

  @inline(__always)
  private static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
    let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
  }

  /// Scans the content of the line that starts at `start`, validating its
  /// UTF-8. ASCII without line breaks is skipped eight bytes at a time.
  static func scanLine(
    _ base: UnsafePointer<UInt8>, from start: Int, count: Int
  ) throws(DocumentError) -> LineScan {
    let raw = UnsafeRawPointer(base)
    var i = start
    var continuation = 0
    var astral = 0
    while true {
      while i + 8 <= count {
        let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 || hasByte(word, 0x0A) || hasByte(word, 0x0D) {
          break
        }
        i += 8
      }
      guard i < count else { break }
      let lead = base[i]
      if lead < 0x80 {
        if lead == 0x0A || lead == 0x0D { break }
        i += 1
        continue
      }
      // Two-byte scalars (Arabic, Hebrew, most accented Latin) inline.
      let length =
        lead >= 0xC2 && lead <= 0xDF && i + 1 < count && isContinuation(base[i + 1])
        ? 2 : try validScalarLength(base, at: i, count: count)
      i += length
      continuation += length - 1
      if length == 4 { astral += 1 }
    }
    return LineScan(contentEnd: i, continuationBytes: continuation, astralScalars: astral)
  }

  /// Scans `text` as one line's content: `contentEnd` is where its first
  /// line break is (or its end). Throws `invalidUTF8` for malformed UTF-8
  /// before that point.
  static func scan(_ text: UnsafeBufferPointer<UInt8>) throws(DocumentError) -> LineScan {
    guard let base = text.baseAddress else { return LineScan(contentEnd: 0, continuationBytes: 0, astralScalars: 0) }
    return try scanLine(base, from: 0, count: text.count)
  }

  /// The length of the well-formed non-ASCII scalar at `i`, or `invalidUTF8`.
  private static func validScalarLength(
    _ base: UnsafePointer<UInt8>, at i: Int, count: Int
  ) throws(DocumentError) -> Int {
    let lead = base[i]
    let length: Int
    var secondLow: UInt8 = 0x80
    var secondHigh: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; secondLow = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; secondHigh = 0x9F
    case 0xF0: length = 4; secondLow = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; secondHigh = 0x8F
    default: throw .invalidUTF8
    }
    guard i + length <= count else { throw .invalidUTF8 }
    let second = base[i + 1]
    guard second >= secondLow && second <= secondHigh else { throw .invalidUTF8 }
    var k = 2
    while k < length {
      guard isContinuation(base[i + k]) else { throw .invalidUTF8 }
      k += 1
    }
    return length
  }
}
