// UAX #9, 3.3.4 Resolving Weak Types: W1–W7, applied to one isolating run
// sequence at a time.

extension ParagraphResolver {
  /// Applies W1–W5, and W6–W7 when `includingW6W7`; otherwise the caller
  /// applies W6–W7 with `weakTypeAfterW6W7` as it goes (they look only
  /// backwards). Passes that cannot change anything, by the classes the
  /// paragraph holds, are skipped.
  func resolveWeakTypes(_ sequence: IsolatingRunSequence, includingW6W7: Bool) {
    let t = sequence.types
    let m = sequence.count

    // W1–W3 in one pass: each looks only backwards. They change nothing
    // without NSM, or EN after AL; AL alone is left for the later rules,
    // which read it as R (W3).
    if present.contains(.NSM) || (present.contains(.AL) && present.contains(.EN)) {
      // Raw values, so that the selections below compile without branches.
      let (R, AL, EN, AN) = (
        BidiClass.R.rawValue, BidiClass.AL.rawValue, BidiClass.EN.rawValue, BidiClass.AN.rawValue
      )
      var previous = sequence.sos  // the type after W1, before W2–W3
      var lastStrong = sequence.sos.rawValue  // L, R, AL or sos, for W2
      for k in 0..<m {
        var c = t[k]
        if c == .NSM {
          // W1: an NSM takes the type of the previous character, or ON
          // after an isolate initiator or PDI, or sos at the start.
          switch previous {
          case .LRI, .RLI, .FSI, .PDI: c = .ON
          default: c = previous
          }
        }
        previous = c
        var raw = c.rawValue
        // W2: EN after AL becomes AN.
        raw = raw == EN && lastStrong == AL ? AN : raw
        lastStrong = raw <= AL ? raw : lastStrong
        // W3: AL becomes R.
        raw = raw == AL ? R : raw
        t[k] = BidiClass(propertyByte: raw)
      }
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

    guard includingW6W7 else { return }
    var lastStrong = sequence.sos
    for k in 0..<m {
      t[k] = weakTypeAfterW6W7(t[k], &lastStrong)
    }
  }

  /// W6: separators and terminators left become ON. W7: EN after L (or sos
  /// L) becomes L; `lastStrong` carries the last L or R, starting at sos.
  @inline(__always)
  func weakTypeAfterW6W7(_ c: BidiClass, _ lastStrong: inout BidiClass) -> BidiClass {
    switch c {
    case .ES, .ET, .CS: return .ON
    case .L, .R:
      lastStrong = c
      return c
    case .AL:
      // W3, when the W1–W3 pass was skipped.
      lastStrong = .R
      return .R
    case .EN: return lastStrong == .L ? .L : .EN
    default: return c
    }
  }
}
