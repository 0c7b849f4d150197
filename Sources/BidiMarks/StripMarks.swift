import UnicodeBidi

// Mode `strip`: remove bidi controls.

extension MarkPlanner {
  /// Mode `strip`: the edits that remove bidi controls inside `range` (UTF-8
  /// offsets, nil for the whole line); each maximal sequence of adjacent
  /// controls to remove is one edit.
  ///
  /// - `.all` removes U+200E LRM, U+200F RLM, U+061C ALM, U+202A–U+202E
  ///   (embeddings, PDF, overrides) and U+2066–U+2069 (isolates, PDI).
  /// - `.unpaired` removes only the embeddings, overrides and isolates that
  ///   are not closed on the line and the PDF and PDI characters that close
  ///   nothing, paired exactly as `HazardScanner` pairs them for
  ///   `bidi.unpaired` and `bidi.unmatched` (GCC's `-Wbidi-chars=unpaired`
  ///   rules, the whole line as one context). The pairing is that of the
  ///   whole line, even when `range` covers part of it.
  package func stripEdits(_ scope: StripScope, in range: Range<Int>? = nil) -> [MarkEdit] {
    let limit = scalarRange(leniently: range)
    var remove = [Bool](repeating: false, count: limit.count)
    switch scope {
    case .all:
      for index in limit where Controls.isBidiControl(scalars[index]) {
        remove[index - limit.lowerBound] = true
      }
    case .unpaired:
      guard structure != nil else { return [] }
      for index in unpairedControls() where limit.contains(index) {
        remove[index - limit.lowerBound] = true
      }
    }
    var list = EditList()
    var index = limit.lowerBound
    while index < limit.upperBound {
      guard remove[index - limit.lowerBound] else {
        index += 1
        continue
      }
      let start = index
      while index < limit.upperBound && remove[index - limit.lowerBound] { index += 1 }
      list.replace(start..<index, with: "")
    }
    return list.edits(offsets: offsets)
  }

  /// The scalar indices of the controls `HazardScanner` finds unpaired or
  /// unmatched on this line (its whole-line rules).
  private func unpairedControls() -> [Int] {
    ExplicitStructure.unpairedControls(classes)
  }
}
