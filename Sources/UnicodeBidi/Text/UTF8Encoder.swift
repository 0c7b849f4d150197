/// The one UTF-8 encoder (beside `UTF8Decoder`, the one decoder): a scalar
/// value written as its bytes, into memory (`visual` and `check` write
/// straight into their output) or onto an array.
package enum UTF8Encoder {
  /// The number of bytes of the UTF-8 of scalar value `v` (3 for a value
  /// that is not a scalar, which is written as U+FFFD).
  @inlinable @inline(__always)
  package static func width(_ v: UInt32) -> Int {
    v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 || v > 0x10FFFF ? 3 : 4
  }

  /// Writes the UTF-8 of scalar value `v` at `p` (room for 4 bytes) and
  /// returns its length. `v` must be a scalar value.
  @inlinable @inline(__always)
  package static func write(_ v: UInt32, to p: UnsafeMutablePointer<UInt8>) -> Int {
    if v < 0x80 {
      p[0] = UInt8(truncatingIfNeeded: v)
      return 1
    } else if v < 0x800 {
      p[0] = UInt8(truncatingIfNeeded: 0xC0 | v >> 6)
      p[1] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
      return 2
    } else if v < 0x10000 {
      p[0] = UInt8(truncatingIfNeeded: 0xE0 | v >> 12)
      p[1] = UInt8(truncatingIfNeeded: 0x80 | (v >> 6) & 0x3F)
      p[2] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
      return 3
    } else {
      p[0] = UInt8(truncatingIfNeeded: 0xF0 | v >> 18)
      p[1] = UInt8(truncatingIfNeeded: 0x80 | (v >> 12) & 0x3F)
      p[2] = UInt8(truncatingIfNeeded: 0x80 | (v >> 6) & 0x3F)
      p[3] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
      return 4
    }
  }

  /// `v`, or U+FFFD when it is not a scalar value (a surrogate, past U+10FFFF).
  @inlinable @inline(__always)
  package static func scalarOrReplacement(_ v: UInt32) -> UInt32 {
    v >= 0xD800 && (v < 0xE000 || v > 0x10FFFF) ? 0xFFFD : v
  }

  /// Appends the UTF-8 of `v` (U+FFFD when it is not a scalar value).
  @inlinable
  package static func append(_ v: UInt32, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
      let count = write(scalarOrReplacement(v), to: buffer.baseAddress!)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
  }

  /// The UTF-8 of `v` (U+FFFD when it is not a scalar value).
  @inlinable
  package static func bytes(_ v: UInt32) -> [UInt8] {
    var result: [UInt8] = []
    append(v, to: &result)
    return result
  }
}
