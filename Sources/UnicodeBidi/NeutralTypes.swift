// UAX #9, 3.3.5 Resolving Neutral and Isolate Formatting Types: N1 and N2,
// applied to one isolating run sequence, fused with I1–I2 (the next phase)
// into a single pass that writes the levels.

extension ParagraphResolver {
  /// N1–N2 and then I1–I2 for each character; with `applyingW6W7`, W6–W7
  /// first (when no bracket pair needed them done beforehand). Returns true
  /// when every character stays at the paragraph level.
  func resolveNeutralAndImplicitLevels(_ sequence: IsolatingRunSequence, applyingW6W7: Bool) -> Bool {
    // Four copies of the loop, so that each is compiled without the tests
    // that its case does not need.
    switch (applyingW6W7, sequence.indices) {
    case (true, nil): return resolveNeutralAndImplicitLevels(sequence, true, nil)
    case (false, nil): return resolveNeutralAndImplicitLevels(sequence, false, nil)
    case (true, let indices?): return resolveNeutralAndImplicitLevels(sequence, true, indices)
    case (false, let indices?): return resolveNeutralAndImplicitLevels(sequence, false, indices)
    }
  }

  @inline(__always)
  private func resolveNeutralAndImplicitLevels(
    _ sequence: IsolatingRunSequence, _ applyingW6W7: Bool, _ indices: UnsafeMutablePointer<Int32>?
  ) -> Bool {
    let offset = sequence.offset
    @inline(__always) func position(_ k: Int) -> Int {
      if let indices { return Int(indices[k]) }
      return offset + k
    }
    let t = sequence.types
    let m = sequence.count
    let level = sequence.level
    let embedding = sequence.embeddingDirection
    let raises = ImplicitRaises(level: level)
    var raised: UInt8 = 0
    var lastStrong = sequence.sos  // for W7
    var before = sequence.sos  // the direction before a run of NIs
    var neutralStart = -1
    for k in 0..<m {
      var c = t[k]
      if applyingW6W7 { c = weakTypeAfterW6W7(c, &lastStrong) }
      if BidiClassSet.neutralOrIsolate.contains(c) {
        if neutralStart < 0 { neutralStart = k }
        continue
      }
      // EN and AN count as R for N1.
      let direction: BidiClass = c == .L ? .L : .R
      if neutralStart >= 0 {
        // N1: NIs between two strong types of one direction take it.
        // N2: any other NIs take the embedding direction.
        let raise = raises[before == direction ? direction : embedding]
        raised |= raise
        for j in neutralStart..<k { levels[position(j)] = level + raise }
        neutralStart = -1
      }
      before = direction
      let raise = raises[c]
      raised |= raise
      levels[position(k)] = level + raise
    }
    if neutralStart >= 0 {
      // N1–N2 at the end of the sequence, against eos.
      let raise = raises[before == sequence.eos ? before : embedding]
      raised |= raise
      for j in neutralStart..<m { levels[position(j)] = level + raise }
    }
    return raised == 0 && level == paragraphLevel
  }
}
