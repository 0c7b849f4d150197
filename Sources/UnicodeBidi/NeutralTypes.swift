// UAX #9, 3.3.5 Resolving Neutral and Isolate Formatting Types: N1 and N2,
// applied to one isolating run sequence.

extension ParagraphResolver {
  func resolveNeutralTypes(_ sequence: IsolatingRunSequence) {
    let t = sequenceTypes
    let m = sequence.count
    let embedding = sequence.embeddingDirection
    var k = 0
    while k < m {
      guard BidiClassSet.neutralOrIsolate.contains(t[k]) else {
        k += 1
        continue
      }
      var end = k + 1
      while end < m && BidiClassSet.neutralOrIsolate.contains(t[end]) { end += 1 }
      // N1: NIs between two strong types of one direction take it; EN and
      // AN count as R; sos and eos stand at the edges.
      let before = k == 0 ? sequence.sos : (t[k - 1] == .L ? BidiClass.L : .R)
      let after = end == m ? sequence.eos : (t[end] == .L ? BidiClass.L : .R)
      // N2: any other NIs take the embedding direction.
      let resolved = before == after ? before : embedding
      for j in k..<end { t[j] = resolved }
      k = end
    }
  }
}
