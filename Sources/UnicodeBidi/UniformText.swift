// A fast path before UAX #9: text whose classes all resolve to the
// paragraph level without any rule changing anything (the idea of ICU's
// skipping of phases by the classes present).

extension BidiParagraph {
  /// The level that every character of a paragraph of UTF-8 resolves to,
  /// when no analysis is needed; nil when the paragraph needs one.
  ///
  /// Returns 0 for text with no R, AL, AN, BN or explicit control character
  /// (such as pure ASCII code) in an `.auto` or `.leftToRight` paragraph:
  /// every character is at level 0 and every display line is in logical
  /// order. Returns 1 for text with no L, EN, AN, BN or explicit control
  /// character in an `.auto` (with some R or AL) or `.rightToLeft`
  /// paragraph: every character is at level 1 and every display line is
  /// reversed (a multi-unit character keeps its units in logical order).
  /// Either answer equals what `BidiParagraph(utf8:direction:)` resolves.
  public static func uniformLevel(utf8: UnsafeBufferPointer<UInt8>, direction: Direction = .auto) -> UInt8? {
    guard let base = utf8.baseAddress else { return direction == .rightToLeft ? 1 : 0 }
    let n = utf8.count
    var classes = UniformClassCollector()
    var i = 0
    while i < n {
      // Eight ASCII bytes at a time, none below U+0020 nor U+007F: their
      // classes (L, EN, ES, ET, CS, WS, ON) all resolve to level 0, so they
      // matter only while the text could still be uniformly RTL. The last
      // bytes are checked as the (overlapping) last eight.
      if !classes.mayBeRightToLeft(direction) {
        while i + 8 <= n && Self.isPlainASCII(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { i += 8 }
        if i < n && i + 8 > n && n >= 8
          && Self.isPlainASCII(UnsafeRawPointer(base + n - 8).loadUnaligned(as: UInt64.self))
        {
          break
        }
        guard i < n else { break }
      }
      let (scalar, length) =
        base[i] < 0x80 ? (UInt32(base[i]), 1) : UTF8Decoding.decodeMultibyte(utf8, at: i)
      classes.insert(BidiClass(scalar))
      if classes.isHopeless { return nil }
      i += length
    }
    return classes.uniformLevel(direction)
  }

  /// True when each of the eight bytes of `word` is in 0x20...0x7E.
  @inline(__always)
  static func isPlainASCII(_ word: UInt64) -> Bool {
    let high: UInt64 = 0x8080_8080_8080_8080
    let low = word & ~high
    // Bit 7 of each byte of `atLeastSpace` is set when the byte's low seven
    // bits are 0x20 or more, of `delete` when they are 0x7F (no byte
    // carries into the next).
    let atLeastSpace = low &+ 0x6060_6060_6060_6060
    let delete = low &+ 0x0101_0101_0101_0101
    return (~atLeastSpace | delete | word) & high == 0
  }

  /// `uniformLevel(utf8:direction:)` for a paragraph of scalar values.
  public static func uniformLevel(scalars: UnsafeBufferPointer<UInt32>, direction: Direction = .auto) -> UInt8? {
    var classes = UniformClassCollector()
    for scalar in scalars {
      classes.insert(BidiClass(scalar))
      if classes.isHopeless { return nil }
    }
    return classes.uniformLevel(direction)
  }

  /// `uniformLevel(utf8:direction:)` for an array of bytes of UTF-8.
  public static func uniformLevel(utf8: [UInt8], direction: Direction = .auto) -> UInt8? {
    utf8.withUnsafeBufferPointer { uniformLevel(utf8: $0, direction: direction) }
  }

  /// `uniformLevel(utf8:direction:)` for an array of scalar values.
  public static func uniformLevel(scalars: [UInt32], direction: Direction = .auto) -> UInt8? {
    scalars.withUnsafeBufferPointer { uniformLevel(scalars: $0, direction: direction) }
  }
}

/// The set of classes seen, and what it allows.
struct UniformClassCollector {
  var present = BidiClassSet(bits: 0)

  @inline(__always)
  mutating func insert(_ c: BidiClass) { present.insert(c) }

  /// True when the text could still resolve to level 1 everywhere.
  @inline(__always)
  func mayBeRightToLeft(_ direction: BidiParagraph.Direction) -> Bool {
    direction != .leftToRight && present.isSubset(of: .uniformRightToLeft)
  }

  /// True when neither uniform case can hold any more.
  @inline(__always)
  var isHopeless: Bool {
    !present.isSubset(of: .uniformLeftToRight) && !present.isSubset(of: .uniformRightToLeft)
  }

  func uniformLevel(_ direction: BidiParagraph.Direction) -> UInt8? {
    // No explicit controls, BN or AN is in either set, so X1–X9 change
    // nothing and one isolating run sequence holds the whole paragraph.
    let leftToRight = present.isSubset(of: .uniformLeftToRight)
    let rightToLeft = present.isSubset(of: .uniformRightToLeft)
    switch direction {
    case .leftToRight: return leftToRight ? 0 : nil
    case .rightToLeft: return rightToLeft ? 1 : nil
    case .auto:
      // P2–P3: with no R or AL the paragraph is LTR; with R or AL and no L,
      // RTL.
      if leftToRight { return 0 }
      return rightToLeft ? 1 : nil
    }
  }
}
