import UnicodeBidi

/// A document read whole, at once, without the checkpoints and blocks an
/// index keeps for re-reading (what `check` needs): its entries in order,
/// the document's facts applied, its plain regions, its syntax error, the
/// locale its contents name and how marks are written in it.
package struct WholeRead: Sendable {
  package var entries: [TextEntry]
  package var regions: [PlainRegion]
  package var error: SyntaxError?
  package var contentLocale: String?
  package var spelling: MarkSpelling
  /// The findings the reader decided without an entry (`ReadItem.finding`,
  /// a read for findings alone), each with the number of entries before it.
  package var decided: [(before: Int, finding: Finding)]

  package init(
    entries: [TextEntry], regions: [PlainRegion], error: SyntaxError?, contentLocale: String?, spelling: MarkSpelling,
    decided: [(before: Int, finding: Finding)] = []
  ) {
    self.entries = entries
    self.decided = decided
    self.regions = regions
    self.error = error
    self.contentLocale = contentLocale
    self.spelling = spelling
  }

  /// Reads `lines` whole in `format`: the same items a `StructuredIndex`
  /// holds after reading them, in one pass. `findingsOnly`: for the
  /// findings alone (`ReadSink.findingsOnly`: entries that can raise none
  /// may be left out). `runner`: how the reader may split its work.
  /// `withFixes` false: the findings the reader decides (`decided`) may
  /// come without their quick fixes (`ReadSink.needsFixes`).
  package init(
    _ lines: some DocumentLines, format: any StructuredFormat, findingsOnly: Bool = false,
    runner: PartRunner = .serial, withFixes: Bool = true
  ) {
    var sink = ReadSink()
    sink.findingsOnly = findingsOnly
    sink.needsFixes = withFixes
    sink.runner = runner
    sink.keepsCheckpoints = false
    var cursor = Cursor(lines)
    var state = ReaderState()
    format.read(&cursor, &state, &sink)
    sink.finish(at: cursor)
    var entries: [TextEntry] = []
    var regions: [PlainRegion] = []
    var facts: [DocumentFact] = []
    var locale: String?
    var votes = SpellingVotes()
    var decided: [(before: Int, finding: Finding)] = []
    // A read for findings alone holds mostly decided findings: room for
    // as many as it has items (not grown and copied as they come).
    if findingsOnly { decided.reserveCapacity(sink.items.count) }
    // The items moved out one by one (not copied, then released with the
    // sink's array): reversed, then taken from the end.
    var items: [ReadItem] = []
    swap(&items, &sink.items)
    items.reverse()
    while let item = items.popLast() {
      switch item {
      case .entry(let entry):
        votes.count(entry, by: 1)
        entries.append(entry)
      case .region(let region): regions.append(region)
      case .fact(let fact): facts.append(fact)
      case .locale(let tag, _): if locale == nil { locale = tag }
      case .finding(let finding): decided.append((entries.count, finding))
      }
    }
    format.applyFacts(facts, to: &entries)
    self.init(
      entries: entries, regions: regions, error: sink.error, contentLocale: locale, spelling: format.spelling(votes),
      decided: decided)
  }
}
