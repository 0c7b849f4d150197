/// Collects the edits of a plan in scalar indices and hands them out as a
/// sorted, non-overlapping `MarkEdit` list in UTF-8 offsets.
struct EditList {
  private struct Pending {
    var start: Int
    var end: Int
    var text: String
    var order: Int
  }

  private var pending: [Pending] = []

  /// Inserts text before the scalar at `index` (or at the end of the line).
  mutating func insert(_ text: String, at index: Int) {
    pending.append(Pending(start: index, end: index, text: text, order: pending.count))
  }

  /// Inserts one scalar before the scalar at `index`.
  mutating func insert(_ scalar: Unicode.Scalar, at index: Int) {
    insert(String(Character(scalar)), at: index)
  }

  /// Replaces the scalars `range` with text (removes them for "").
  mutating func replace(_ range: Range<Int>, with text: String) {
    pending.append(
      Pending(start: range.lowerBound, end: range.upperBound, text: text, order: pending.count))
  }

  /// The edits in UTF-8 offsets, sorted. Insertions at the same place are
  /// joined in the order they were made, and an insertion at the start of a
  /// replacement joins it. Callers never plan overlapping replacements.
  func edits(offsets: [Int]) -> [MarkEdit] {
    let sorted = pending.sorted {
      ($0.start, $0.end > $0.start ? 1 : 0, $0.order) < ($1.start, $1.end > $1.start ? 1 : 0, $1.order)
    }
    var result: [MarkEdit] = []
    result.reserveCapacity(sorted.count)
    for item in sorted {
      let start = offsets[item.start]
      let end = offsets[item.end]
      if var last = result.last, last.start == start, last.end == start {
        last.end = end
        last.newText += item.text
        result[result.count - 1] = last
      } else {
        result.append(MarkEdit(start: start, end: end, newText: item.text))
      }
    }
    return result
  }
}
