// UAX #9, 3.3.6 Resolving Implicit Levels: I1 and I2, applied to one
// isolating run sequence; writes the resolved levels.

extension ParagraphResolver {
  func resolveImplicitLevels(_ sequence: IsolatingRunSequence) {
    let t = sequenceTypes
    let indices = sequenceIndices
    let level = sequence.level
    if level & 1 == 0 {
      // I1: on an even level, R goes up one, AN and EN two.
      for k in 0..<sequence.count {
        let raise: UInt8
        switch t[k] {
        case .R: raise = 1
        case .AN, .EN: raise = 2
        default: raise = 0
        }
        levels[Int(indices[k])] = level + raise
      }
    } else {
      // I2: on an odd level, L, EN and AN go up one.
      for k in 0..<sequence.count {
        let raise: UInt8
        switch t[k] {
        case .L, .EN, .AN: raise = 1
        default: raise = 0
        }
        levels[Int(indices[k])] = level + raise
      }
    }
  }
}
