/// How the entries of a document write bidi controls, counted entry by
/// entry (in and out as an index re-reads them), from which its format
/// decides how the marks a plan inserts are written
/// (`StructuredFormat.spelling(_:)`): the character itself, or the file's
/// own escape style where it already writes bidi controls as escapes (the
/// most frequent one when it mixes styles).
package struct SpellingVotes: Hashable, Sendable {
  var escaped: [MarkSpelling: Int] = [:]
  /// The entries that hold a non-ASCII character written as itself.
  package private(set) var nonASCIILiterals = 0

  package init() {}

  /// Counts an entry in (`by: 1`) or out (`by: -1`).
  package mutating func count(_ entry: TextEntry, by delta: Int) {
    if let spelling = entry.controlSpelling { escaped[spelling, default: 0] += delta }
    if entry.hasNonASCIILiteral { nonASCIILiterals += delta }
  }

  package init(_ entries: some Sequence<TextEntry>) {
    for entry in entries { count(entry, by: 1) }
  }

  /// The escape the most entries write bidi controls with (ties broken by
  /// name, so that the answer does not depend on the order), if any does.
  package var mostFrequentEscape: MarkSpelling? {
    escaped.filter { $0.value > 0 }.max { a, b in
      a.value != b.value ? a.value < b.value : String(describing: a.key) > String(describing: b.key)
    }?.key
  }
}
