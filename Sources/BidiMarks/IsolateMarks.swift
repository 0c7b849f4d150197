import UnicodeBidi

// Mode `isolate`: wrap a range of one line in FSI/LRI/RLI … PDI.

extension MarkPlanner {
  /// Mode `isolate`: the edits that wrap `range` (UTF-8 offsets in the line)
  /// in an isolate of `kind`, so that it displays as one unit whatever
  /// surrounds it.
  ///
  /// - No edits for an empty range, or when the range already is exactly one
  ///   isolate: it starts with an isolate initiator whose matching PDI is its
  ///   last character, or the characters just before and after it are an
  ///   initiator and its matching PDI. If that isolate's initiator differs
  ///   from an explicitly requested `.ltr` or `.rtl`, it is replaced instead
  ///   (`.auto` accepts any initiator).
  /// - Throws when the range is outside the line or not on scalar boundaries,
  ///   holds a paragraph separator, or holds a bidi control whose partner is
  ///   not inside it: an unmatched isolate initiator or PDI (the new PDI or
  ///   initiator would pair with it), or an embedding or override opened
  ///   inside and closed outside (or the reverse). Unpaired embedding,
  ///   override and PDF characters are allowed.
  package func isolateEdits(_ range: Range<Int>, kind: DirectionChoice = .auto) throws(MarkError)
    -> [MarkEdit]
  {
    let span = try scalarRange(strictly: range)
    guard let first = span.first, let last = span.last else { return [] }
    var existing: Int?
    if isIsolate(from: first, to: last) {
      existing = first
    } else if isIsolate(from: first - 1, to: span.upperBound) {
      existing = first - 1
    }
    var list = EditList()
    if let existing {
      if kind != .auto && scalars[existing] != kind.isolateInitiator {
        list.replace(existing..<existing + 1, with: String(Character(kind.isolateInitiator)))
      }
      return list.edits(offsets: offsets)
    }
    for index in span {
      switch classes[index] {
      case .B:
        throw .rangeSpansParagraphs(range)
      case .LRI, .RLI, .FSI, .PDI:
        guard let other = partner(of: index), span.contains(other) else {
          throw .rangeSplitsPair(range)
        }
      case .LRE, .RLE, .LRO, .RLO, .PDF:
        if let other = partner(of: index), !span.contains(other) {
          throw .rangeSplitsPair(range)
        }
      default:
        break
      }
    }
    list.insert(kind.isolateInitiator, at: span.lowerBound)
    list.insert(Controls.pdi, at: span.upperBound)
    return list.edits(offsets: offsets)
  }
}
