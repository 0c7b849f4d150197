// UAX #9, 3.3.4 Resolving Weak Types: W1–W7, applied to one isolating run
// sequence at a time.

extension ParagraphResolver {
  func resolveWeakTypes(_ sequence: IsolatingRunSequence) {
    let t = sequenceTypes
    let m = sequence.count

    // W1–W3 in one pass: each looks only backwards.
    var previous = sequence.sos  // the type before W2/W3 changed it
    var lastStrong = sequence.sos  // L, R, AL or sos, for W2
    for k in 0..<m {
      var c = t[k]
      if c == .NSM {
        // W1: an NSM takes the type of the previous character, or ON after
        // an isolate initiator or PDI, or sos at the start.
        switch previous {
        case .LRI, .RLI, .FSI, .PDI: c = .ON
        default: c = previous
        }
      }
      previous = c
      switch c {
      case .EN where lastStrong == .AL:
        // W2: EN after AL becomes AN.
        c = .AN
      case .L, .R:
        lastStrong = c
      case .AL:
        lastStrong = .AL
        // W3: AL becomes R.
        c = .R
      default:
        break
      }
      t[k] = c
    }

    // W4: a single ES between two EN becomes EN; a single CS between two
    // numbers of the same type becomes that type.
    if m >= 3 && (present.contains(.ES) || present.contains(.CS)) {
      for k in 1..<(m - 1) {
        let c = t[k]
        guard c == .ES || c == .CS else { continue }
        let before = t[k - 1]
        let after = t[k + 1]
        if before == after && (before == .EN || (before == .AN && c == .CS)) {
          t[k] = before
        }
      }
    }

    // W5: a sequence of ET next to an EN becomes EN.
    if present.contains(.ET) {
      var k = 0
      while k < m {
        guard t[k] == .ET else {
          k += 1
          continue
        }
        var end = k + 1
        while end < m && t[end] == .ET { end += 1 }
        if (k > 0 && t[k - 1] == .EN) || (end < m && t[end] == .EN) {
          for j in k..<end { t[j] = .EN }
        }
        k = end
      }
    }

    // W6: remaining separators and terminators become ON.
    // W7: EN after L (or sos L) becomes L.
    lastStrong = sequence.sos
    for k in 0..<m {
      switch t[k] {
      case .ES, .ET, .CS: t[k] = .ON
      case .L: lastStrong = .L
      case .R: lastStrong = .R
      case .EN where lastStrong == .L: t[k] = .L
      default: break
      }
    }
  }
}
