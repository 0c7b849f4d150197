/// A resolved embedding level (0...126), or the mark of a character that
/// rule X9 removed (BidiCharacterTest.txt's `x`).
public struct BidiLevel: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt8

  @inlinable
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The mark of a character removed by X9 (explicit embeddings, overrides,
  /// PDF and BN); such a character has no level of its own.
  public static let removed = BidiLevel(rawValue: 0xFF)

  /// True for `removed`.
  @inlinable
  public var isRemoved: Bool { rawValue == 0xFF }

  /// The level, or nil when the character was removed by X9.
  @inlinable
  public var value: UInt8? { isRemoved ? nil : rawValue }

  /// True for an odd level: the character is displayed right to left.
  @inlinable
  public var isRightToLeft: Bool { !isRemoved && rawValue & 1 == 1 }

  public var description: String { isRemoved ? "x" : String(rawValue) }
}

/// A run of characters at one level of a display line (BD7), in logical
/// offsets `start..<end` from the start of the paragraph.
public struct BidiRun: Hashable, Sendable {
  public var start: Int
  public var end: Int
  public var level: UInt8

  @inlinable
  public init(start: Int, end: Int, level: UInt8) {
    self.start = start
    self.end = end
    self.level = level
  }

  /// True when the run is displayed right to left (odd level).
  @inlinable
  public var isRightToLeft: Bool { level & 1 == 1 }
}

/// Errors in the arguments of a line request.
public enum BidiError: Error, Hashable, Sendable {
  /// The offset lies outside the paragraph.
  case offsetOutOfRange(Int)
  /// The offset falls inside the units of one character.
  case offsetInsideCharacter(Int)
  /// Line break offsets must increase.
  case offsetsNotIncreasing(Int)
}
