import ByteWords

/// One decoded UTF-8 sequence: a scalar, or an ill-formed maximal subpart.
public struct DecodedScalar: Hashable, Sendable {
  /// The scalar value (0xFFFD when `isValid` is false).
  public var value: UInt32
  /// The bytes it covers: 1 to 4 for a scalar, 1 to 3 for a maximal subpart.
  public var length: Int
  /// Whether the bytes are a well-formed UTF-8 sequence.
  public var isValid: Bool

  @inlinable
  public init(value: UInt32, length: Int, isValid: Bool) {
    self.value = value
    self.length = length
    self.isValid = isValid
  }
}

/// Bytes that are not well-formed UTF-8, and where the first ill-formed
/// sequence starts.
public struct InvalidUTF8: Error, Hashable, Sendable {
  public var offset: Int

  @inlinable
  public init(offset: Int) { self.offset = offset }
}

/// What `UTF8Decoder.scanLine(_:from:)` found: where the line's content ends
/// and how many units it takes in UTF-16 and UTF-32.
public struct UTF8LineScan: Hashable, Sendable {
  /// The offset of the first `\n` or `\r`, or the end of the input.
  public var contentEnd: Int
  /// UTF-16 code units of the content.
  public var utf16Count: Int
  /// Unicode scalars of the content.
  public var scalarCount: Int

  @inlinable
  public init(contentEnd: Int, utf16Count: Int, scalarCount: Int) {
    self.contentEnd = contentEnd
    self.utf16Count = utf16Count
    self.scalarCount = scalarCount
  }
}

/// The one UTF-8 decoder and validator of the package (Unicode 17.0, §3.9,
/// Table 3-7 "Well-Formed UTF-8 Byte Sequences").
///
/// Decoding never fails: an ill-formed sequence decodes as U+FFFD covering
/// one *maximal subpart* (the longest prefix of a well-formed sequence, or
/// one byte), as in "U+FFFD Substitution of Maximal Subparts" (§3.9.6) and
/// Swift's own `String(decoding:as:)`. Validation, where text must be
/// well-formed, throws `InvalidUTF8` at the first ill-formed sequence.
/// ASCII and two-byte sequences (most right-to-left scripts) take a short
/// path; `scanLine` skips ASCII eight bytes at a time.
public enum UTF8Decoder {
  /// Whether `byte` is a continuation byte (10xxxxxx).
  @inlinable @inline(__always)
  public static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

  /// Decodes the sequence at `i` (`i < bytes.count`).
  @inlinable @inline(__always)
  public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> DecodedScalar {
    let b0 = bytes[i]
    if b0 < 0x80 { return DecodedScalar(value: UInt32(b0), length: 1, isValid: true) }
    if b0 >= 0xC2 && b0 <= 0xDF && i + 1 < bytes.count && isContinuation(bytes[i + 1]) {
      return DecodedScalar(value: UInt32(b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), length: 2, isValid: true)
    }
    return decodeMultibyte(bytes, at: i)
  }

  /// Calls `body` with every sequence of `bytes` in order, as
  /// `decode(_:at:)` reads them. ASCII and well-formed two- and three-byte
  /// sequences (most right-to-left scripts, the rest of the BMP) are decoded
  /// inline, without a call.
  @inlinable @inline(__always)
  public static func forEachSequence(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (DecodedScalar) -> Void) {
    guard let base = bytes.baseAddress else { return }
    let n = bytes.count
    var i = 0
    while i < n {
      let b0 = base[i]
      if b0 < 0x80 {
        body(DecodedScalar(value: UInt32(b0), length: 1, isValid: true))
        i &+= 1
      } else if b0 >= 0xC2 && b0 <= 0xDF && i &+ 1 < n && isContinuation(base[i &+ 1]) {
        body(DecodedScalar(value: UInt32(b0 & 0x1F) << 6 | UInt32(base[i &+ 1] & 0x3F), length: 2, isValid: true))
        i &+= 2
      } else if b0 == 0xE2 && i &+ 2 < n && base[i &+ 1] & 0xFE == 0x80 && isContinuation(base[i &+ 2]) {
        // U+2000…U+207F, General Punctuation (the bidi controls but ALM,
        // spaces, dashes, quotation marks): one block of 128 code points,
        // so that the body's lookups of its properties can use constants.
        let value = 0x2000 | UInt32(base[i &+ 1] & 1) << 6 | UInt32(base[i &+ 2] & 0x3F)
        body(DecodedScalar(value: value, length: 3, isValid: true))
        i &+= 3
      } else if b0 & 0xF0 == 0xE0 && i &+ 2 < n && isContinuation(base[i &+ 2])
        && base[i &+ 1] >= (b0 == 0xE0 ? 0xA0 : 0x80) && base[i &+ 1] <= (b0 == 0xED ? 0x9F : 0xBF)
      {
        // Three bytes (the rest of the BMP: CJK, the bidi controls), the
        // second byte's range as Table 3-7 gives it.
        let value = UInt32(b0 & 0x0F) << 12 | UInt32(base[i &+ 1] & 0x3F) << 6 | UInt32(base[i &+ 2] & 0x3F)
        body(DecodedScalar(value: value, length: 3, isValid: true))
        i &+= 3
      } else {
        let decoded = decodeMultibyte(bytes, at: i)
        body(decoded)
        i &+= decoded.length
      }
    }
  }

  /// Decodes the sequence at `i`, whose first byte is not ASCII: the slow
  /// path of `decode(_:at:)`, for callers that test for ASCII themselves.
  @inlinable
  public static func decodeMultibyte(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> DecodedScalar {
    let b0 = bytes[i]
    let available = bytes.count - i
    // The second byte's range depends on the first (Table 3-7); the others
    // are any continuation byte.
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return DecodedScalar(value: 0xFFFD, length: 1, isValid: false)
    }
    guard available > 1 else { return DecodedScalar(value: 0xFFFD, length: 1, isValid: false) }
    let b1 = bytes[i + 1]
    guard b1 >= low && b1 <= high else { return DecodedScalar(value: 0xFFFD, length: 1, isValid: false) }
    if length == 2 { return DecodedScalar(value: UInt32(b0 & 0x1F) << 6 | UInt32(b1 & 0x3F), length: 2, isValid: true) }
    guard available > 2, isContinuation(bytes[i + 2]) else {
      return DecodedScalar(value: 0xFFFD, length: 2, isValid: false)
    }
    let b2 = bytes[i + 2]
    if length == 3 {
      let value = UInt32(b0 & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F)
      return DecodedScalar(value: value, length: 3, isValid: true)
    }
    guard available > 3, isContinuation(bytes[i + 3]) else {
      return DecodedScalar(value: 0xFFFD, length: 3, isValid: false)
    }
    let value =
      UInt32(b0 & 0x07) << 18 | UInt32(b1 & 0x3F) << 12 | UInt32(b2 & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
    return DecodedScalar(value: value, length: 4, isValid: true)
  }

  /// The start of the sequence (scalar or maximal subpart) that holds byte
  /// `offset` (`0 ≤ offset < bytes.count`): `offset` itself unless it is a
  /// continuation byte of a sequence that starts before it.
  @inlinable
  public static func sequenceStart(_ bytes: UnsafeBufferPointer<UInt8>, containing offset: Int) -> Int {
    guard isContinuation(bytes[offset]) else { return offset }
    var start = offset
    while start > 0 && offset - start < 3 && isContinuation(bytes[start]) { start -= 1 }
    if start < offset && !isContinuation(bytes[start]) && start + decode(bytes, at: start).length > offset {
      return start
    }
    return offset
  }

  /// Scans the content of the line that starts at `start`, which must be
  /// well-formed: up to the first `\n` or `\r` (or the end), with its
  /// UTF-16 and scalar counts. Throws at the first ill-formed sequence.
  @inlinable
  public static func scanLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(InvalidUTF8) -> UTF8LineScan
  {
    guard let base = bytes.baseAddress else { return UTF8LineScan(contentEnd: 0, utf16Count: 0, scalarCount: 0) }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var i = start
    var continuation = 0
    var astral = 0
    while true {
      // Eight ASCII bytes without a line break at a time.
      while i + 8 <= count {
        let word = ByteWord.load(raw, i)
        if ByteWord.hasNonASCII(word) || ByteWord.contains(word, 0x0A) || ByteWord.contains(word, 0x0D) { break }
        i += 8
      }
      guard i < count else { break }
      let lead = base[i]
      if lead < 0x80 {
        if lead == 0x0A || lead == 0x0D { break }
        i += 1
        continue
      }
      let length: Int
      if lead >= 0xC2 && lead <= 0xDF && i + 1 < count && isContinuation(base[i + 1]) {
        length = 2
      } else {
        let decoded = decodeMultibyte(bytes, at: i)
        guard decoded.isValid else { throw InvalidUTF8(offset: i) }
        length = decoded.length
      }
      i += length
      continuation += length - 1
      if length == 4 { astral += 1 }
    }
    let scalars = i - start - continuation
    return UTF8LineScan(contentEnd: i, utf16Count: scalars + astral, scalarCount: scalars)
  }

  /// Validates `bytes` as a whole; throws at the first ill-formed sequence.
  @inlinable
  public static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvalidUTF8) {
    var i = 0
    while i < bytes.count {
      let scan = try scanLine(bytes, from: i)
      i = scan.contentEnd + 1  // past the line break
    }
  }
}
