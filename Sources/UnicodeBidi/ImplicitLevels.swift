// UAX #9, 3.3.6 Resolving Implicit Levels: I1 and I2, applied to one
// isolating run sequence; writes the resolved levels.

extension ParagraphResolver {
  /// Returns true when every character stays at the paragraph level.
  func resolveImplicitLevels(_ sequence: IsolatingRunSequence) -> Bool {
    let t = sequenceTypes
    let level = sequence.level
    // I1: on an even level, R goes up one, AN and EN two.
    // I2: on an odd level, L, EN and AN go up one.
    // The raises by type, two bits per class (L, R, AL, EN, ES, ET, AN).
    let raises: UInt32 = level & 1 == 0 ? 0b00_10_00_00_10_00_01_00 : 0b00_01_00_00_01_00_00_01
    @inline(__always) func raise(_ c: BidiClass) -> UInt8 {
      UInt8(truncatingIfNeeded: raises >> (UInt32(c.rawValue) &* 2) & 3)
    }
    var raised: UInt8 = 0
    if let indices = sequenceIndices {
      for k in 0..<sequence.count {
        let r = raise(t[k])
        raised |= r
        levels[Int(indices[k])] = level + r
      }
    } else {
      for k in 0..<sequence.count {
        let r = raise(t[k])
        raised |= r
        levels[k] = level + r
      }
    }
    return raised == 0 && level == paragraphLevel
  }
}
