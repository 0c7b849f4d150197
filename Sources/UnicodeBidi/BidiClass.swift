import CUnicodeBidiData

/// The Bidi_Class of a character (UAX #9, Table 4).
///
/// The cases carry the standard's short names, so that code applying a rule
/// reads like the rule: `case .EN where lastStrong == .AL` is W2.
public enum BidiClass: UInt8, CaseIterable, Sendable {
  // Strong types.
  case L, R, AL
  // Weak types.
  case EN, ES, ET, AN, CS, NSM, BN
  // Neutral types.
  case B, S, WS, ON
  // Explicit formatting characters.
  case LRE, LRO, RLE, RLO, PDF, LRI, RLI, FSI, PDI

  /// The class of a scalar value; values that are not Unicode scalars
  /// (past U+10FFFF) read as ON.
  @inlinable
  public init(_ scalar: UInt32) {
    self.init(propertyByte: ubd_properties(scalar))
  }

  @inlinable
  init(propertyByte: UInt8) {
    // The generated table holds only raw values of this enum (0...22).
    self = unsafeBitCast(propertyByte & UInt8(UBD_CLASS_MASK), to: BidiClass.self)
  }

  /// This class as a one-bit set, for `BidiClassSet`.
  @inlinable
  var bit: UInt32 { 1 &<< UInt32(rawValue) }

  /// True for L, R and AL.
  @inlinable
  public var isStrong: Bool { rawValue <= BidiClass.AL.rawValue }

  /// True for LRI, RLI and FSI.
  @inlinable
  public var isIsolateInitiator: Bool {
    self == .LRI || self == .RLI || self == .FSI
  }

  /// True for the characters that rule X9 removes: embeddings, overrides,
  /// PDF and BN.
  @inlinable
  public var isRemovedByX9: Bool { BidiClassSet.removedByX9.contains(self) }
}

/// A set of bidi classes as a bit mask.
@usableFromInline
struct BidiClassSet: Sendable {
  @usableFromInline var bits: UInt32

  @inlinable init(bits: UInt32) { self.bits = bits }

  @inlinable func contains(_ c: BidiClass) -> Bool { bits & c.bit != 0 }
  @inlinable func intersects(_ other: BidiClassSet) -> Bool { bits & other.bits != 0 }
  @inlinable func isSubset(of other: BidiClassSet) -> Bool { bits & ~other.bits == 0 }
  @inlinable mutating func insert(_ c: BidiClass) { bits |= c.bit }

  @inlinable static var removedByX9: BidiClassSet {
    BidiClassSet(
      bits: BidiClass.LRE.bit | BidiClass.LRO.bit | BidiClass.RLE.bit | BidiClass.RLO.bit | BidiClass.PDF.bit
        | BidiClass.BN.bit)
  }
  @inlinable static var isolateControls: BidiClassSet {
    BidiClassSet(
      bits: BidiClass.LRI.bit | BidiClass.RLI.bit | BidiClass.FSI.bit | BidiClass.PDI.bit)
  }
  @inlinable static var explicitControls: BidiClassSet {
    BidiClassSet(
      bits: BidiClass.LRE.bit | BidiClass.LRO.bit | BidiClass.RLE.bit | BidiClass.RLO.bit | BidiClass.PDF.bit
        | BidiClass.LRI.bit | BidiClass.RLI.bit | BidiClass.FSI.bit | BidiClass.PDI.bit)
  }
  /// The classes of text that, in an LTR paragraph without explicit
  /// controls, all resolve to level 0 (EN becomes L by W7).
  @inlinable static var uniformLeftToRight: BidiClassSet {
    BidiClassSet(
      bits: BidiClass.L.bit | BidiClass.EN.bit | BidiClass.ES.bit | BidiClass.ET.bit | BidiClass.CS.bit
        | BidiClass.NSM.bit | BidiClass.B.bit | BidiClass.S.bit | BidiClass.WS.bit | BidiClass.ON.bit)
  }
  /// The classes of text that, in an RTL paragraph without explicit
  /// controls, all resolve to level 1.
  @inlinable static var uniformRightToLeft: BidiClassSet {
    BidiClassSet(
      bits: BidiClass.R.bit | BidiClass.AL.bit | BidiClass.ES.bit | BidiClass.ET.bit | BidiClass.CS.bit
        | BidiClass.NSM.bit | BidiClass.B.bit | BidiClass.S.bit | BidiClass.WS.bit | BidiClass.ON.bit)
  }
  /// NI in UAX #9: neutrals and isolate formatting characters (N1).
  @inlinable static var neutralOrIsolate: BidiClassSet {
    BidiClassSet(
      bits: BidiClass.B.bit | BidiClass.S.bit | BidiClass.WS.bit | BidiClass.ON.bit | BidiClass.LRI.bit
        | BidiClass.RLI.bit | BidiClass.FSI.bit | BidiClass.PDI.bit)
  }
  /// Characters that rule L1 resets to the paragraph level when they end a
  /// line or precede a separator (whitespace and isolate controls; the
  /// characters X9 removed are passed over).
  @inlinable static var trailingWhitespace: BidiClassSet {
    BidiClassSet(
      bits: BidiClass.WS.bit | BidiClass.LRI.bit | BidiClass.RLI.bit | BidiClass.FSI.bit | BidiClass.PDI.bit
        | BidiClass.LRE.bit | BidiClass.LRO.bit | BidiClass.RLE.bit | BidiClass.RLO.bit | BidiClass.PDF.bit
        | BidiClass.BN.bit)
  }
}

/// Bidi_Paired_Bracket_Type.
public enum BidiBracketType: UInt8, Sendable {
  case none, open, close
}

/// Lookups of the bidi character properties of a scalar value (Unicode 17.0.0).
///
/// Every function accepts any `UInt32`; values that are not Unicode scalars
/// have class ON and no mirroring glyph or paired bracket.
public enum BidiProperties {
  /// The Unicode version of the property tables.
  public static let unicodeVersion = "17.0.0"

  /// Bidi_Class.
  @inlinable
  public static func bidiClass(_ scalar: UInt32) -> BidiClass {
    BidiClass(scalar)
  }

  /// Bidi_Mirroring_Glyph, or nil when the character has none.
  @inlinable
  public static func mirroringGlyph(_ scalar: UInt32) -> UInt32? {
    let glyph = ubd_mirroring_glyph(scalar)
    return glyph == scalar ? nil : glyph
  }

  /// Bidi_Paired_Bracket and Bidi_Paired_Bracket_Type, or nil when the
  /// character is not a paired bracket.
  @inlinable
  public static func pairedBracket(_ scalar: UInt32) -> (bracket: UInt32, type: BidiBracketType)? {
    let kind = ubd_bracket_type(scalar)
    guard kind != 0 else { return nil }
    return (ubd_paired_bracket(scalar), kind == 1 ? .open : .close)
  }
}
