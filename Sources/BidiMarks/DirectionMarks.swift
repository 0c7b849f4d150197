import UnicodeBidi

// Mode `direction`: make a paragraph resolve to a direction under UAX #9
// P2–P3 (first strong character, isolates skipped) with LRM or RLM.

extension MarkPlanner {
  /// The first strong character of a paragraph as UAX #9 P2–P3 finds it: the
  /// first L, R or AL outside isolates (an isolate with no matching PDI
  /// reaches to the end of the paragraph). Nil when there is none.
  func firstStrong(inParagraph paragraph: Int) -> (direction: BidiDirection, index: Int)? {
    let bounds = content(ofParagraph: paragraph)
    var index = bounds.lowerBound
    while index < bounds.upperBound {
      switch classes[index] {
      case .L: return (.leftToRight, index)
      case .R, .AL: return (.rightToLeft, index)
      case .LRI, .RLI, .FSI: index = unitEnd(from: index, limit: bounds)
      default: index += 1
      }
    }
    return nil
  }

  /// The direction a paragraph of the line now resolves to under
  /// firstStrong, or nil when it has no strong character.
  package func firstStrongDirection(ofParagraph paragraph: Int) -> BidiDirection? {
    guard paragraphIndices.indices.contains(paragraph) else { return nil }
    return firstStrong(inParagraph: paragraph)?.direction
  }

  /// Mode `direction` over the whole line: for each non-empty paragraph that
  /// does not resolve to `direction` under firstStrong, the mark of that
  /// direction at its start. See `directionEdit(_:paragraph:)`.
  package func directionEdits(_ direction: BidiDirection) -> [MarkEdit] {
    var list = EditList()
    for paragraph in paragraphIndices.indices {
      plan(direction, paragraph: paragraph, resolved: firstStrong(inParagraph: paragraph)?.direction, into: &list)
    }
    return list.edits(offsets: offsets)
  }

  /// Mode `direction` for one paragraph of the line (an index into
  /// `paragraphs`): nil when the paragraph is empty (nothing but its
  /// separator) or already resolves to `direction` under firstStrong;
  /// otherwise LRM (left to right) or RLM (right to left) at its start. A
  /// paragraph of spaces only, or of digits and punctuation, is not empty and
  /// gets the mark. When the paragraph starts with a mark of another
  /// direction (LRM, RLM or ALM), that mark is replaced rather than a new one
  /// inserted, so that switching directions does not pile marks up.
  package func directionEdit(_ direction: BidiDirection, paragraph: Int) -> MarkEdit? {
    guard paragraphIndices.indices.contains(paragraph) else { return nil }
    return directionEdit(
      direction, paragraph: paragraph, resolved: firstStrong(inParagraph: paragraph)?.direction)
  }

  /// The same for a paragraph whose direction is decided beyond this line,
  /// as in block mode (`paragraphs: "block"`): call it on the first non-blank
  /// line of the block with `resolved`, the direction the whole block now
  /// resolves to under firstStrong (nil when it has no strong character). The
  /// mark goes at the start of paragraph `paragraph` of this line (normally 0).
  package func directionEdit(
    _ direction: BidiDirection, paragraph: Int, resolved: BidiDirection?
  ) -> MarkEdit? {
    guard paragraphIndices.indices.contains(paragraph) else { return nil }
    var list = EditList()
    plan(direction, paragraph: paragraph, resolved: resolved, into: &list)
    return list.edits(offsets: offsets).first
  }

  private func plan(
    _ direction: BidiDirection, paragraph: Int, resolved: BidiDirection?, into list: inout EditList
  ) {
    let bounds = content(ofParagraph: paragraph)
    guard !bounds.isEmpty, resolved != direction else { return }
    let first = bounds.lowerBound
    let mark = String(Character(direction.mark))
    if Controls.isMark(scalars[first]) {
      list.replace(first..<first + 1, with: mark)
    } else {
      list.insert(mark, at: first)
    }
  }
}
