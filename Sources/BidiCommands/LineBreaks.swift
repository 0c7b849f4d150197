/// Line breaks counted eight bytes at a time, for `check`'s one-pass read of
/// plain text: LF, CR LF and a lone CR each end a line, as the daemon splits
/// them. Callers pass ranges that no CR LF straddles.
enum LineBreaks {
  private static let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
  private static let carriageReturns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D

  /// The number of line breaks in `base[from..<to]`.
  static func count(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    var lf = 0
    var cr = 0
    var pairs = 0
    // Whether the byte before `i` is a CR.
    var afterCR = false
    var i = from
    while i + 8 <= to {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      let lfMask = ByteScan.zeroBytes(word ^ lineFeeds)
      let crMask = ByteScan.zeroBytes(word ^ carriageReturns)
      if lfMask | crMask != 0 {
        lf &+= bytesSet(lfMask)
        cr &+= bytesSet(crMask)
        // A CR followed by an LF in the next byte (little-endian: byte k+1
        // shifted onto byte k), and across the words' boundary.
        pairs &+= bytesSet(crMask & (lfMask >> 8))
        if afterCR && lfMask & 0x80 != 0 { pairs &+= 1 }
      }
      afterCR = crMask >> 63 != 0
      i &+= 8
    }
    while i < to {
      let byte = base[i]
      if byte == 0x0A {
        lf &+= 1
        if afterCR { pairs &+= 1 }
      } else if byte == 0x0D {
        cr &+= 1
      }
      afterCR = byte == 0x0D
      i &+= 1
    }
    return lf &+ cr &- pairs
  }

  /// The number of bytes of `mask` whose bit 7 is set (its other bits
  /// clear): the bytes summed into the top one by a multiplication, since
  /// the baseline x86-64 has no population count instruction.
  @inline(__always)
  private static func bytesSet(_ mask: UInt64) -> Int {
    Int(truncatingIfNeeded: ((mask >> 7) &* 0x0101_0101_0101_0101) >> 56)
  }

  /// The offset just past the last LF or CR in `base[from..<to]`, or nil.
  static func lastEnd(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
    var i = to
    while i - 8 >= from {
      let word = UnsafeRawPointer(base + i - 8).loadUnaligned(as: UInt64.self)
      if ByteScan.zeroBytes(word ^ lineFeeds) | ByteScan.zeroBytes(word ^ carriageReturns) != 0 { break }
      i &-= 8
    }
    while i > from {
      i &-= 1
      if base[i] == 0x0A || base[i] == 0x0D { return i &+ 1 }
    }
    return nil
  }
}
