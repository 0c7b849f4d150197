/// The paragraph separators of UAX #9 (Bidi_Class B, rule P1) in UTF-8,
/// tested byte by byte without a property lookup: LF, CR (CR LF is one
/// separator), U+001C…U+001E, U+0085 (C2 85) and U+2029 (E2 80 A9). The one
/// place the list is written; `BidiParagraph.paragraphRanges` splits with it.
package enum ParagraphSeparator {
  /// Whether scalar value `v` is a paragraph separator.
  @inlinable @inline(__always)
  package static func contains(_ v: UInt32) -> Bool {
    v < 0x20 ? v == 0x0A || v == 0x0D || (v >= 0x1C && v <= 0x1E) : v == 0x85 || v == 0x2029
  }

  /// The length of the separator starting at `i` in `bytes` (2 for CR LF
  /// and U+0085, 3 for U+2029), or 0 when none starts there.
  @inlinable @inline(__always)
  package static func length(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let byte = bytes[i]
    switch byte {
    case 0x0A, 0x1C...0x1E: return 1
    case 0x0D: return i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
    case 0xC2: return i + 1 < bytes.count && bytes[i + 1] == 0x85 ? 2 : 0
    case 0xE2: return i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA9 ? 3 : 0
    default: return 0
    }
  }

  /// The length of the separator that ends `bytes[start..<end]` (CR LF: 2),
  /// or 0 when it does not end with one.
  @inlinable
  package static func length(endingAt end: Int, from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard end > start else { return 0 }
    switch bytes[end - 1] {
    case 0x0A: return end - start >= 2 && bytes[end - 2] == 0x0D ? 2 : 1
    case 0x0D, 0x1C...0x1E: return 1
    case 0x85: return end - start >= 2 && bytes[end - 2] == 0xC2 ? 2 : 0
    case 0xA9: return end - start >= 3 && bytes[end - 3] == 0xE2 && bytes[end - 2] == 0x80 ? 3 : 0
    default: return 0
    }
  }

  /// The offset just past the last separator in `bytes`, or nil.
  package static func lastEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = bytes.count
    while i > 0 {
      if length(endingAt: i, from: 0, in: bytes) > 0 { return i }
      i -= 1
    }
    return nil
  }
}
