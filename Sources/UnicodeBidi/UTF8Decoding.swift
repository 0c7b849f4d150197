// UTF-8 decoding of the paragraph store, the paragraph splitter and the
// uniform-text scan: the one decoder of this module, kept in this file so
// that it can be merged with the shared text decoder.
//
// Each byte of an ill-formed sequence becomes one character, the value
// 0x110000 + the byte: class ON, one unit wide in every encoding, shown as
// U+FFFD.

enum UTF8Decoding {
  /// Calls `body` with every scalar value of `bytes` and its length in bytes,
  /// in order. One- and two-byte sequences (ASCII, Hebrew, Arabic and most
  /// other right-to-left scripts) are decoded inline.
  @inline(__always)
  static func forEachScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (_ scalar: UInt32, _ length: Int) -> Void) {
    guard let base = bytes.baseAddress else { return }
    let n = bytes.count
    var at = 0
    while at < n {
      let b0 = UInt32(base[at])
      if b0 < 0x80 {
        body(b0, 1)
        at &+= 1
      } else if b0 >= 0xC2 && b0 <= 0xDF && at &+ 1 < n && base[at &+ 1] & 0xC0 == 0x80 {
        body((b0 & 0x1F) << 6 | UInt32(base[at &+ 1] & 0x3F), 2)
        at &+= 2
      } else {
        let (scalar, length) = decodeMultibyte(bytes, at: at)
        body(scalar, length)
        at &+= length
      }
    }
  }

  /// Decodes the sequence at `at`, whose first byte is not ASCII: the scalar
  /// value and its length, or an ill-formed byte (length 1).
  @inline(__always)
  static func decodeMultibyte(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> (UInt32, Int) {
    let b0 = bytes[at]
    let available = bytes.count - at
    @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
      guard k < available else { return nil }
      let b = bytes[at + k]
      return b >= low && b <= high ? UInt32(b & 0x3F) : nil
    }
    let invalid = (0x110000 | UInt32(b0), 1)
    switch b0 {
    case 0xC2...0xDF:
      guard let c1 = continuation(1) else { return invalid }
      return (UInt32(b0 & 0x1F) << 6 | c1, 2)
    case 0xE0...0xEF:
      let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
      let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
      guard let c1 = continuation(1, low, high), let c2 = continuation(2) else { return invalid }
      return (UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2, 3)
    case 0xF0...0xF4:
      let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
      let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
      guard let c1 = continuation(1, low, high), let c2 = continuation(2), let c3 = continuation(3)
      else { return invalid }
      return (UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3, 4)
    default:
      return invalid
    }
  }
}

/// A forward UTF-8 decoder over a byte buffer, one scalar at a time.
struct UTF8Scanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The next scalar value and its length in bytes.
  @inline(__always)
  mutating func next() -> (UInt32, Int)? {
    guard position < bytes.count else { return nil }
    let b0 = bytes[position]
    if b0 < 0x80 {
      position += 1
      return (UInt32(b0), 1)
    }
    let (scalar, length) = UTF8Decoding.decodeMultibyte(bytes, at: position)
    position += length
    return (scalar, length)
  }
}
