// UAX #9, 3.3.4 Resolving Weak Types: W1–W7, applied to one isolating run
// sequence at a time, in two forward passes: W1–W3 (when the paragraph's
// classes give them something to do), then W4–W7 fused, which hands each
// final weak type on (to the types, or straight to N1–I2).

extension ParagraphResolver {
  /// W1–W3 in one pass, reading `sequence.source` and writing
  /// `sequence.types`; each rule looks only backwards. They change nothing
  /// without NSM, or EN after AL; AL alone is left for W4–W7, which read it
  /// as R (W3). Returns where the next pass reads the types from.
  func resolveW1ToW3(_ sequence: IsolatingRunSequence) -> UnsafePointer<BidiClass> {
    guard present.contains(.NSM) || (present.contains(.AL) && present.contains(.EN)) else { return sequence.source }
    let (source, t) = (sequence.source, sequence.types)
    // Raw values, so that the selections below compile without branches.
    let (R, AL, EN, AN) = (BidiClass.R.rawValue, BidiClass.AL.rawValue, BidiClass.EN.rawValue, BidiClass.AN.rawValue)
    var previous = sequence.sos  // the type after W1, before W2–W3
    var lastStrong = sequence.sos.rawValue  // L, R, AL or sos, for W2
    let m = sequence.count
    var k = 0
    while k < m {
      // A run of one class takes one type: the rules look only at the
      // character before it, and within the run that is the same class.
      var c = source[k]
      var end = k + 1
      while end < m && source[end] == c { end += 1 }
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
      (t + k).update(repeating: BidiClass(propertyByte: raw), count: end - k)
      k = end
    }
    return UnsafePointer(t)
  }

  /// W4–W7 in one forward pass over the types after W1–W3 in `source`,
  /// calling `emit(start, end, type)` with the final weak type of every
  /// character, a run of characters of one type at a time, in order (W3's
  /// R for AL). `emit` may write `sequence.types[start..<end]` even when it
  /// is `source`: the pass has read what it needs of them by then.
  @inline(__always)
  func resolveW4ToW7(
    _ sequence: IsolatingRunSequence, _ source: UnsafePointer<BidiClass>, _ emit: (Int, Int, BidiClass) -> Void
  ) {
    let m = sequence.count
    var lastStrong = sequence.sos  // L or R, for W7
    var before = sequence.sos  // the type of k - 1 after W4, for W4 and W5
    var k = 0
    while k < m {
      let c = source[k]
      switch c {
      case .ES, .CS:
        // W4: a single ES between two EN becomes EN; a single CS between
        // two numbers of the same type becomes that type.
        var w = c
        if k + 1 < m {
          let after = source[k + 1]
          if before == after && (after == .EN || (after == .AN && c == .CS)) { w = after }
        }
        before = w
        switch w {
        case .EN: emit(k, k + 1, lastStrong == .L ? .L : .EN)  // W7
        case .AN: emit(k, k + 1, .AN)
        default: emit(k, k + 1, .ON)  // W6
        }
        k += 1
      case .ET:
        // W5: a sequence of ET next to an EN becomes EN (then W7); W6
        // makes the others ON. W4 cannot have made the character after the
        // sequence EN: its neighbour before is an ET.
        var end = k + 1
        while end < m && source[end] == .ET { end += 1 }
        let number = before == .EN || (end < m && source[end] == .EN)
        emit(k, end, number ? (lastStrong == .L ? .L : .EN) : .ON)
        before = .ET
        k = end
      default:
        // A run of one class: the rules above look at its first and last
        // characters only, and W7 reads the last strong type before it.
        var end = k + 1
        while end < m && source[end] == c { end += 1 }
        switch c {
        case .L:
          lastStrong = .L
          before = .L
          emit(k, end, .L)
        case .R, .AL:
          lastStrong = .R
          before = .R
          emit(k, end, .R)
        case .EN:
          before = .EN
          // W7: EN after L (or sos L) becomes L.
          emit(k, end, lastStrong == .L ? .L : .EN)
        default:
          before = c
          emit(k, end, c)
        }
        k = end
      }
    }
  }
}
