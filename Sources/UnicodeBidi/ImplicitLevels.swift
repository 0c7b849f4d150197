// UAX #9, 3.3.6 Resolving Implicit Levels: I1 and I2. Applied per
// character by `resolveNeutralAndImplicitLevels` (NeutralTypes.swift).

/// How much I1–I2 raise the level of a resolved type at one embedding level.
struct ImplicitRaises {
  /// Two bits per class, for L, R, AL, EN, ES, ET, AN.
  let bits: UInt32

  init(level: UInt8) {
    // I1: on an even level, R goes up one, AN and EN two.
    // I2: on an odd level, L, EN and AN go up one.
    // AL (left as it was when W1–W3 had nothing else to do) counts as R.
    //              AN    ET ES EN    AL R     L
    bits = level & 1 == 0 ? 0b10_00_00_10_01_01_00 : 0b01_00_00_01_00_00_01
  }

  /// The raise of a type (L, R, AL, EN or AN once N1–N2 have resolved the
  /// rest).
  @inline(__always)
  subscript(_ c: BidiClass) -> UInt8 {
    UInt8(truncatingIfNeeded: (bits >> (UInt32(c.rawValue) & 15 &* 2)) & 3)
  }
}
