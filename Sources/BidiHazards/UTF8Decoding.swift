/// One decoded UTF-8 sequence: a scalar, or an invalid maximal subpart.
struct DecodedScalar {
  /// The scalar value (0xFFFD when invalid).
  var value: UInt32
  /// The number of bytes it covers (at least 1).
  var length: Int
  var isValid: Bool
}

/// Decodes the UTF-8 sequence at `i` (`i < bytes.count`). Invalid input gives
/// one maximal subpart, as in Unicode's "U+FFFD substitution of maximal
/// subparts", so decoding always advances.
@inline(__always)
func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> DecodedScalar {
  let n = bytes.count
  let b0 = bytes[i]
  if b0 < 0x80 { return DecodedScalar(value: UInt32(b0), length: 1, isValid: true) }
  @inline(__always) func invalid(_ length: Int) -> DecodedScalar {
    DecodedScalar(value: 0xFFFD, length: length, isValid: false)
  }
  @inline(__always) func isContinuation(_ k: Int) -> Bool {
    k < n && bytes[k] & 0xC0 == 0x80
  }
  switch b0 {
  case 0xC2...0xDF:
    guard isContinuation(i + 1) else { return invalid(1) }
    return DecodedScalar(value: UInt32(b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), length: 2, isValid: true)
  case 0xE0...0xEF:
    guard i + 1 < n else { return invalid(1) }
    let b1 = bytes[i + 1]
    let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
    let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
    guard b1 >= low, b1 <= high else { return invalid(1) }
    guard isContinuation(i + 2) else { return invalid(2) }
    let value = UInt32(b0 & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
    return DecodedScalar(value: value, length: 3, isValid: true)
  case 0xF0...0xF4:
    guard i + 1 < n else { return invalid(1) }
    let b1 = bytes[i + 1]
    let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
    let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
    guard b1 >= low, b1 <= high else { return invalid(1) }
    guard isContinuation(i + 2) else { return invalid(2) }
    guard isContinuation(i + 3) else { return invalid(3) }
    let value =
      UInt32(b0 & 0x07) << 18 | UInt32(b1 & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
      | UInt32(bytes[i + 3] & 0x3F)
    return DecodedScalar(value: value, length: 4, isValid: true)
  default:
    return invalid(1)
  }
}

/// Converts UTF-8 byte offsets within a line to the units of other position
/// encodings (LSP `utf-16` and `utf-32`). An invalid byte sequence counts as
/// one U+FFFD. Offsets inside a character round down to its start; offsets
/// past the end clamp to the end.
public enum LineOffsets {
  /// UTF-16 code units before byte `offset` of `line`.
  public static func utf16Offset(ofByte offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
    count(upTo: offset, in: line) { $0 > 0xFFFF ? 2 : 1 }
  }

  /// Unicode scalars (UTF-32 units) before byte `offset` of `line`.
  public static func utf32Offset(ofByte offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
    count(upTo: offset, in: line) { _ in 1 }
  }

  /// UTF-16 code units before byte `offset` of `line`.
  public static func utf16Offset(ofByte offset: Int, in line: [UInt8]) -> Int {
    line.withUnsafeBufferPointer { utf16Offset(ofByte: offset, in: $0) }
  }

  /// Unicode scalars before byte `offset` of `line`.
  public static func utf32Offset(ofByte offset: Int, in line: [UInt8]) -> Int {
    line.withUnsafeBufferPointer { utf32Offset(ofByte: offset, in: $0) }
  }

  private static func count(
    upTo offset: Int, in line: UnsafeBufferPointer<UInt8>, units: (UInt32) -> Int
  ) -> Int {
    var i = 0
    var total = 0
    let end = min(max(offset, 0), line.count)
    while i < end {
      let decoded = decodeScalar(line, at: i)
      if i + decoded.length > end { break }
      total += units(decoded.value)
      i += decoded.length
    }
    return total
  }
}
