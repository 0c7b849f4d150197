import ByteWords
import CByteScan
import CUnicodeBidiData

// A fast path before UAX #9: text whose classes all resolve to the
// paragraph level without any rule changing anything (the idea of ICU's
// skipping of phases by the classes present).

/// A paragraph that needs no analysis, as `BidiParagraph.uniform(utf8:)`
/// finds it: the level of every character, and the paragraph's length.
public struct UniformParagraph: Hashable, Sendable {
  /// The level of every character: 0 (every display line in logical
  /// order) or 1 (every display line reversed, a multi-unit character
  /// keeping its units in logical order).
  public var level: UInt8
  /// The length in UTF-8 bytes, UTF-16 units and characters.
  public var utf8Length: Int
  public var utf16Length: Int
  public var characterCount: Int

  @usableFromInline
  init(level: UInt8, utf8Length: Int, utf16Length: Int, characterCount: Int) {
    self.level = level
    self.utf8Length = utf8Length
    self.utf16Length = utf16Length
    self.characterCount = characterCount
  }

  /// The length in units of `encoding`.
  @inlinable
  public func length(in encoding: BidiEncoding) -> Int {
    switch encoding {
    case .utf8: return utf8Length
    case .utf16: return utf16Length
    case .utf32: return characterCount
    }
  }
}

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
  public static func uniformLevel(utf8: UnsafeBufferPointer<UInt8>, direction: DirectionChoice = .auto) -> UInt8? {
    uniform(utf8: utf8, direction: direction)?.level
  }

  /// `uniformLevel(utf8:direction:)` with the paragraph's length in every
  /// encoding, counted in the same pass (a caller needs it to lay out the
  /// lines). Ill-formed UTF-8 counts as `UTF8Decoder` reads it.
  ///
  /// Inlined into the caller, which builds the answer from two registers:
  /// returned through memory, the answer's fields were written one by one
  /// and read back as wider words, a stalled load on every line of text
  /// (`uniformScan` does the work).
  @inlinable
  public static func uniform(utf8: UnsafeBufferPointer<UInt8>, direction: DirectionChoice = .auto) -> UniformParagraph?
  {
    let scan = uniformScan(utf8, direction)
    guard scan.characters >= 0 else { return nil }
    return UniformParagraph(
      level: UInt8(truncatingIfNeeded: scan.levelAndAstral & 1), utf8Length: utf8.count,
      utf16Length: scan.characters &+ scan.levelAndAstral >> 1, characterCount: scan.characters)
  }

  /// The work of `uniform(utf8:direction:)`: the number of characters
  /// (-1 when the paragraph needs analysis), and the level (bit 0) with the
  /// number of characters past U+FFFF (the other bits).
  @usableFromInline
  static func uniformScan(
    _ utf8: UnsafeBufferPointer<UInt8>, _ direction: DirectionChoice
  ) -> (characters: Int, levelAndAstral: Int) {
    guard let base = utf8.baseAddress, utf8.count > 0 else { return (0, direction == .rightToLeft ? 1 : 0) }
    let n = utf8.count
    let raw = UnsafeRawPointer(base)
    var classes = UniformClassCollector()
    // Bytes past the first of a multi-byte sequence, and sequences of four.
    var continuation = 0
    var astral = 0
    // Set once eight plain ASCII bytes were passed over at once: their
    // letters and digits (L, EN) were not recorded.
    var skipped = false
    // Set once an R or AL was seen and the bytes passed over before it held
    // no letter or digit: from then on only a uniformly right-to-left
    // answer is possible, and each eight bytes passed over are checked at
    // once (a mixed line stops at its first letter, not at its end).
    var rightToLeftOnly = false
    // The printable ASCII, tabs and line feeds at the start (all of a line
    // of ASCII code) passed over 16 bytes at a time: their classes (L, EN,
    // ES, ET, CS, S, B, WS, ON) all resolve to level 0, as below.
    var i = cbs_plain_line_prefix(base, n)
    // A line of plain ASCII (all of most lines of code): level 0 unless
    // the paragraph is right-to-left.
    if i == n && direction != .rightToLeft { return (n, 0) }
    if i > 0 { skipped = true }
    while i < n {
      // Eight ASCII bytes at a time, none below U+0020 nor U+007F: their
      // classes (L, EN, ES, ET, CS, WS, ON) all resolve to level 0, and
      // matter only to a uniformly right-to-left answer.
      if i + 8 <= n {
        if ByteWord.isPrintableASCII(ByteWord.load(raw, i)) {
          if rightToLeftOnly && !Self.hasNoLeftToRightASCII(UnsafeBufferPointer(start: base + i, count: 8)) {
            return (-1, 0)
          }
          i += 8
          skipped = true
          continue
        }
      } else if n >= 8 && ByteWord.isPrintableASCII(ByteWord.load(raw, n - 8)) {
        // The last bytes, as the (overlapping) last eight.
        skipped = true
        break
      }
      let b0 = base[i]
      if b0 < 0x80 {
        classes.insert(BidiClass(propertyByte: ubd_properties(UInt32(b0))))
        i += 1
      } else {
        // Two-byte sequences (most right-to-left scripts) inline.
        let decoded = UTF8Decoder.decode(utf8, at: i)
        let c = BidiClass(decoded.value)
        classes.insert(c)
        if !rightToLeftOnly && (c == .R || c == .AL) {
          // The letters and digits passed over would make it mixed.
          if skipped && !Self.hasNoLeftToRightASCII(UnsafeBufferPointer(start: base, count: i)) { return (-1, 0) }
          rightToLeftOnly = true
        }
        continuation &+= decoded.length &- 1
        if decoded.length == 4 { astral &+= 1 }
        i += decoded.length
      }
      if classes.isHopeless { return (-1, 0) }
    }
    guard let level = classes.uniformLevel(direction) else { return (-1, 0) }
    if level == 1 && skipped {
      // The letters and digits passed over would make it mixed.
      guard Self.hasNoLeftToRightASCII(utf8) else { return (-1, 0) }
    }
    return (n - continuation, astral << 1 | Int(level))
  }

  /// True when `uniformLevel(utf8:direction:)` is 0: every class
  /// resolves to level 0 in an `.auto` or `.leftToRight` paragraph. Stops
  /// at the first character of another class, where `uniformLevel` goes on
  /// looking for a uniformly right-to-left answer.
  public static func isUniformlyLeftToRight(utf8: UnsafeBufferPointer<UInt8>, direction: DirectionChoice = .auto)
    -> Bool
  {
    guard direction != .rightToLeft else { return false }
    guard let base = utf8.baseAddress else { return true }
    let n = utf8.count
    let raw = UnsafeRawPointer(base)
    var i = 0
    while i < n {
      // Eight plain ASCII bytes (L, EN, ES, ET, CS, WS, ON) at a time.
      if i + 8 <= n && ByteWord.isPrintableASCII(ByteWord.load(raw, i)) {
        i += 8
        continue
      }
      let b0 = base[i]
      let c: BidiClass
      if b0 < 0x80 {
        c = BidiClass(propertyByte: ubd_properties(UInt32(b0)))
        i += 1
      } else {
        let decoded = UTF8Decoder.decode(utf8, at: i)
        c = BidiClass(decoded.value)
        i += decoded.length
      }
      if !BidiClassSet.uniformLeftToRight.contains(c) { return false }
    }
    return true
  }

  /// True when no ASCII byte of `bytes` is a letter or digit (L or EN).
  private static func hasNoLeftToRightASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where byte < 0x80 {
      let c = BidiClass(propertyByte: ubd_properties(UInt32(byte)))
      if c == .L || c == .EN { return false }
    }
    return true
  }

  /// `uniformLevel(utf8:direction:)` for a paragraph of scalar values.
  public static func uniformLevel(scalars: UnsafeBufferPointer<UInt32>, direction: DirectionChoice = .auto) -> UInt8? {
    var classes = UniformClassCollector()
    for scalar in scalars {
      classes.insert(BidiClass(scalar))
      if classes.isHopeless { return nil }
    }
    return classes.uniformLevel(direction)
  }

  /// `uniformLevel(utf8:direction:)` for an array of bytes of UTF-8.
  public static func uniformLevel(utf8: [UInt8], direction: DirectionChoice = .auto) -> UInt8? {
    utf8.withUnsafeBufferPointer { uniformLevel(utf8: $0, direction: direction) }
  }

  /// `uniformLevel(utf8:direction:)` for an array of scalar values.
  public static func uniformLevel(scalars: [UInt32], direction: DirectionChoice = .auto) -> UInt8? {
    scalars.withUnsafeBufferPointer { uniformLevel(scalars: $0, direction: direction) }
  }
}

/// The set of classes seen, and what it allows.
struct UniformClassCollector {
  var present = BidiClassSet(bits: 0)

  @inline(__always)
  mutating func insert(_ c: BidiClass) { present.insert(c) }

  /// True when neither uniform case can hold any more.
  @inline(__always)
  var isHopeless: Bool {
    !present.isSubset(of: .uniformLeftToRight) && !present.isSubset(of: .uniformRightToLeft)
  }

  func uniformLevel(_ direction: DirectionChoice) -> UInt8? {
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
