/// The entries of a structured document, kept up to date edit by edit
/// (contract §7, §8: "an edit re-reads only the entries it touches").
///
/// The index keeps what its format's reader found (entries, the locale,
/// facts, plain regions) and the reader's checkpoints: entry boundaries at line starts with the
/// reader's state there. After an edit it reads again from the last
/// checkpoint before the edit and stops at the first checkpoint past the
/// edit whose state equals the old one at that place; everything after it
/// is kept, moved by the edit's line delta one block at a time (see
/// `LineBlocks`). A syntax error ends the values: nothing after it is read,
/// and an edit after it changes nothing.
///
/// The index may be read lazily: `init(_:format:through:)` reads only up to
/// the first checkpoint past a line (the *frontier*), `read(_:through:)`
/// goes on from there. What lies past the frontier is not read: the
/// accessors answer for the lines before it, so callers read through the
/// lines they ask about first, and through the end (`isComplete`) before
/// anything about the whole file (every entry, the mark spelling, the
/// syntax error). An edit past the frontier reads nothing; one before it
/// reads up to the frontier at most.
///
/// Integration: the server keeps one index per structured document, made
/// with `init(_:format:through:)` on open and fed every `didChange` as
/// `edit(_:replacing:newLineCount:)` (the lines the change replaced, old
/// numbering, and how many lines replace them; the lines as they now are).
package struct StructuredIndex: Sendable {
  package let format: any StructuredFormat
  private var items: LineBlocks<ReadItem>
  private var checkpoints: LineBlocks<Checkpoint>
  /// The first syntax error, if the file stops being its format.
  package private(set) var error: SyntaxError?
  /// The line the reader was on when it met the error (an unterminated
  /// construct is found at the end of the file, far past its start).
  private var errorReadLine = 0
  /// The locale and fact items, few, in order, at their lines.
  private var facts: [ReadItem] = []
  /// How many facts have each key, and, during an operation, whether each
  /// key touched had any before it (see `rereadForChangedFacts`).
  private var factKeyCounts: [String: Int] = [:]
  private var keysBefore: [String: Bool] = [:]
  /// In a lazily read index, the facts past the frontier as the format
  /// finds them without reading entries (`StructuredFormat.facts(_:from:)`),
  /// in order, once an entry looked up a key no fact read has; nil until
  /// then and once the index is read through. They move with the frontier;
  /// those it passes are read facts then.
  private var aheadFacts: [DocumentFact]?
  /// How many of `aheadFacts` have each key.
  private var aheadCounts: [String: Int] = [:]
  private var votes = SpellingVotes()
  /// How many plain regions the index holds (most documents: none).
  private var regionCount = 0
  package private(set) var lineCount: Int
  /// The checkpoint where a lazy read stopped: the first line not read
  /// and the reader's state there; nil once the document is read through.
  private var frontier: Checkpoint?
  /// Whether the whole document is read (to its end or its syntax error).
  package var isComplete: Bool { frontier == nil }
  /// The first line not read yet (nil once the document is read through).
  package var frontierLine: Int? { frontier?.line }
  /// How many entries the last edit read (for tests and benchmarks).
  package private(set) var lastReadItemCount = 0
  /// The lines the last edit read again, in the old numbering and in the
  /// new: items starting in `old` were replaced by the items starting in
  /// `new`; items after `old` moved by `new.upperBound - old.upperBound`
  /// lines. Callers that keep something per value (the server's findings)
  /// update exactly these.
  package private(set) var lastRead = ReadWindow(old: 0..<0, new: 0..<0)

  /// See `lastRead`.
  package struct ReadWindow: Hashable, Sendable {
    package var old: Range<Int>
    package var new: Range<Int>
  }

  /// Reads `lines` up to the first entry boundary past line `through`
  /// (everything by default; always everything for a format that
  /// `readsWhole`).
  package init(_ lines: some DocumentLines, format: any StructuredFormat, through line: Int = Int.max) {
    self.format = format
    let limit = format.readsWhole ? Int.max : line
    var sink = ReadSink(shouldStop: limit == Int.max ? nil : { boundary, _ in boundary > limit })
    var cursor = Cursor(lines)
    var state = ReaderState()
    format.read(&cursor, &state, &sink)
    sink.finish(at: cursor)
    let read = sink.checkpoints.map { Checkpoint(line: $0.line, state: $0.state) }
    items = LineBlocks(sink.items)
    checkpoints = LineBlocks(read)
    frontier = sink.stopped ? read.last : nil
    error = sink.error
    errorReadLine = cursor.line
    lineCount = lines.lineCount
    lastReadItemCount = sink.items.count
    lastRead = ReadWindow(old: 0..<Int.max / 2, new: 0..<Int.max / 2)
    for item in sink.items { count(item, by: 1) }
    facts = sink.items.filter(\.isFact)
    keysBefore = [:]
    if sink.stopped { lookAhead(lines, for: sink.items) }
  }

  /// Whether some fact has `key`, read or past the frontier.
  private func present(_ key: String) -> Bool { factKeyCounts[key] != nil || aheadCounts[key] != nil }

  /// The fact keys a read is given: those of the facts read and past the frontier.
  private var knownKeys: [String: Int] {
    guard !aheadCounts.isEmpty else { return factKeyCounts }
    return factKeyCounts.merging(aheadCounts) { $0 + $1 }
  }

  /// In a lazily read index, after a read of `items`: when an entry looked
  /// up a key no fact read has, the keys past the frontier decide it. The
  /// format finds them without reading the entries (else the index reads
  /// through), and the entries read before that look up one are read again.
  private mutating func lookAhead(_ lines: some DocumentLines, for items: [ReadItem]) {
    guard let frontier, aheadFacts == nil, hasUnresolvedFacts(items) else { return }
    guard let ahead = format.facts(lines, from: frontier.line) else {
      let window = (lastRead, lastReadItemCount)
      read(lines, through: Int.max)
      (lastRead, lastReadItemCount) = window
      return
    }
    setAhead(ahead)
    rereadForChangedFacts(lines)
  }

  /// Sets the facts past the frontier (the caller reads again the entries
  /// that looked up a key that came or went).
  private mutating func setAhead(_ ahead: [DocumentFact]?) {
    for fact in (ahead ?? []) + (aheadFacts ?? []) where keysBefore[fact.key] == nil {
      keysBefore[fact.key] = present(fact.key)
    }
    aheadFacts = ahead
    aheadCounts = [:]
    for fact in ahead ?? [] { aheadCounts[fact.key, default: 0] += 1 }
  }

  /// After the frontier moved forward: the facts past it it passed are read.
  private mutating func trimAhead() {
    guard let ahead = aheadFacts else { return }
    guard let frontier else { return setAhead(nil) }
    if let first = ahead.first, first.line < frontier.line { setAhead(ahead.filter { $0.line >= frontier.line }) }
  }

  /// Goes on reading from the frontier up to the first entry boundary past
  /// line `through` (`Int.max`: to the end). Does nothing when those lines
  /// are read already.
  package mutating func read(_ lines: some DocumentLines, through line: Int) {
    guard let start = frontier, line >= start.line else { return }
    var sink = ReadSink(shouldStop: line == Int.max ? nil : { boundary, _ in boundary > line })
    sink.factKeys = knownKeys
    var cursor = Cursor(lines, line: start.line)
    var state = start.state
    format.read(&cursor, &state, &sink)
    sink.finish(at: cursor)
    let read = sink.checkpoints.map { Checkpoint(line: $0.line, state: $0.state) }
    checkpoints.replace(lines: start.line..<Int.max / 2, with: read, delta: 0)
    items.replace(lines: start.line..<Int.max / 2, with: sink.items, delta: 0)
    for item in sink.items { count(item, by: 1) }
    facts += sink.items.filter(\.isFact)
    if sink.stopped {
      frontier = read.last
    } else {
      frontier = nil
      error = sink.error
      errorReadLine = cursor.line
    }
    lineCount = lines.lineCount
    let window = (lastRead, lastReadItemCount)
    trimAhead()
    rereadForChangedFacts(lines, read: start.line..<Int.max, found: sink.items)
    (lastRead, lastReadItemCount) = window
    if sink.stopped { lookAhead(lines, for: sink.items) }
  }

  /// Whether one of `items` is an entry that looked up a fact key no fact
  /// has yet: a lazy index reads through then, so that its answers never
  /// depend on lines it has not read.
  private func hasUnresolvedFacts(_ items: [ReadItem]) -> Bool {
    items.contains { item in
      guard case .entry(let entry) = item else { return false }
      return entry.factKeys.contains { !present($0) }
    }
  }

  /// After a read of the lines `read`: when a fact key came to have facts
  /// or stopped having any, the entries that looked it up
  /// (`TextEntry.factKeys`) are read again, each from the checkpoint before
  /// it to the first one after it, and `lastRead` grows to cover them. The
  /// entries just read (`read`, whose items are `found`) were read with
  /// the keys known before and those the read found: of them, only those
  /// that looked up a changed key that the read did not find.
  private mutating func rereadForChangedFacts(
    _ lines: some DocumentLines, read: Range<Int> = 0..<0, found: [ReadItem] = []
  ) {
    let changed = Set(keysBefore.filter { $0.value != present($0.key) }.keys)
    keysBefore = [:]
    guard !changed.isEmpty else { return }
    // The entries read were read with the keys found by the same read.
    var stale = changed
    for case .fact(let fact) in found { stale.remove(fact.key) }
    var ranges: [Range<Int>] = []
    for case .entry(let entry) in items.all
    where entry.factKeys.contains(where: read.contains(entry.firstLine) ? stale.contains : changed.contains) {
      let range = entry.firstLine..<entry.range.end.line + 1
      if let last = ranges.last, last.upperBound >= range.lowerBound {
        ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        ranges.append(range)
      }
    }
    var window = lastRead
    var itemCount = lastReadItemCount
    for range in ranges where frontier.map({ range.lowerBound < $0.line }) ?? true {
      edit(lines, replacing: range, newLineCount: range.count)
      itemCount += lastReadItemCount
      let shift = window.new.upperBound - window.old.upperBound
      let lower = min(window.new.lowerBound, lastRead.new.lowerBound)
      let upper = max(window.new.upperBound, lastRead.new.upperBound)
      window = ReadWindow(old: lower..<max(lower, upper - shift), new: lower..<upper)
    }
    lastRead = window
    lastReadItemCount = itemCount
  }

  private mutating func count(_ item: ReadItem, by delta: Int) {
    switch item {
    case .entry(let entry): votes.count(entry, by: delta)
    case .region: regionCount += delta
    case .locale, .finding: break
    case .fact(let fact):
      let before = factKeyCounts[fact.key] ?? 0
      if keysBefore[fact.key] == nil { keysBefore[fact.key] = present(fact.key) }
      factKeyCounts[fact.key] = before + delta > 0 ? before + delta : nil
    }
  }

  /// Applies an edit: lines `old` (old numbering) were replaced by
  /// `newLineCount` lines; `lines` is the document after the edit.
  package mutating func edit(_ lines: some DocumentLines, replacing old: Range<Int>, newLineCount: Int) {
    let delta = newLineCount - old.count
    let editStart = old.lowerBound
    defer { lineCount = lines.lineCount }
    if let found = error, errorReadLine < editStart {
      // Reading stops at the error again; nothing after it is read. (Only
      // the message of a byte that is not UTF-8 reads on: its legacy
      // encoding is told from the text after it, which may have changed;
      // its own line is before the edit, as it was.)
      if found.isInvalidText, found.position.line < editStart {
        error = ReadSink.invalidTextError(lines, at: found.position)
      }
      lastReadItemCount = 0
      lastRead = ReadWindow(old: editStart..<editStart, new: editStart..<editStart)
      return
    }
    if let frontier, editStart >= frontier.line {
      // Not read yet; the text before the frontier, which its state
      // depends on, is unchanged. The keys past it may not be.
      lastReadItemCount = 0
      lastRead = ReadWindow(old: editStart..<editStart, new: editStart..<editStart)
      lineCount = lines.lineCount
      if aheadFacts != nil {
        setAhead(format.facts(lines, from: frontier.line))
        rereadForChangedFacts(lines)
      }
      return
    }
    let resume = checkpoints.last(before: editStart) ?? Checkpoint(line: 0, state: ReaderState())
    let oldCheckpoints = checkpoints
    let oldFrontier = frontier?.line
    let editEnd = editStart + newLineCount
    var sink = ReadSink(shouldStop: { line, state in
      guard line >= editEnd else { return false }
      let oldLine = line - delta
      // The unread part begins: a lazy index reads no further.
      if let oldFrontier, oldLine >= oldFrontier { return true }
      return oldCheckpoints.elements(in: oldLine..<oldLine + 1).first?.state == state
    })
    sink.factKeys = knownKeys
    var cursor = Cursor(lines, line: resume.line)
    var state = resume.state
    format.read(&cursor, &state, &sink)
    sink.finish(at: cursor)
    lastReadItemCount = sink.items.count
    let newCheckpoints = sink.checkpoints.map { Checkpoint(line: $0.line, state: $0.state) }
    let oldEnd: Int
    if sink.stopped, let stop = newCheckpoints.last {
      oldEnd = stop.line - delta
      checkpoints.replace(lines: resume.line..<oldEnd + 1, with: newCheckpoints, delta: delta)
      error = error?.shifted(by: delta)
      errorReadLine += delta
      // At the frontier, the new state there is where reading goes on.
      if let oldFrontier { frontier = oldEnd >= oldFrontier ? stop : frontier?.moved(by: delta) }
      if let oldFrontier, oldEnd > oldFrontier, aheadFacts != nil {
        // Read past the frontier: the facts past the new one were found
        // by a reading that went through lines read differently now.
        setAhead(format.facts(lines, from: stop.line))
      } else if delta != 0, let ahead = aheadFacts {
        aheadFacts = ahead.map { fact in
          var moved = fact
          moved.line += delta
          return moved
        }
      }
    } else {
      oldEnd = Int.max / 2
      checkpoints.replace(lines: resume.line..<oldEnd, with: newCheckpoints, delta: 0)
      error = sink.error
      errorReadLine = cursor.line
      frontier = nil
    }
    lastRead = ReadWindow(
      old: resume.line..<max(resume.line, oldEnd),
      new: resume.line..<max(resume.line, sink.stopped ? oldEnd + delta : Int.max / 2))
    let removed = items.replace(lines: resume.line..<oldEnd, with: sink.items, delta: sink.stopped ? delta : 0)
    for item in removed { count(item, by: -1) }
    for item in sink.items { count(item, by: 1) }
    if !facts.isEmpty || sink.items.contains(where: \.isFact) {
      var updated = facts.filter { $0.line < resume.line }
      updated += sink.items.filter(\.isFact)
      if sink.stopped { updated += facts.filter { $0.line >= oldEnd }.map { $0.shifted(by: delta) } }
      facts = updated
    }
    lineCount = lines.lineCount
    trimAhead()
    rereadForChangedFacts(lines, read: lastRead.new, found: sink.items)
    if sink.stopped { lookAhead(lines, for: sink.items) }
  }

  /// Everything found, in order (entries as read, before facts apply).
  package var allItems: [ReadItem] { items.all }

  /// Every checkpoint, in order (for tests).
  package var allCheckpoints: [Checkpoint] { checkpoints.all }

  /// Every entry, in order, the document's facts applied.
  package var entries: [TextEntry] {
    var result = items.all.compactMap(\.entry)
    format.applyFacts(documentFacts, to: &result)
    return result
  }

  /// The entries whose source touches a line of `lines` (a request's range
  /// selects among these), in order, the document's facts applied.
  package func entries(touching lines: Range<Int>) -> [TextEntry] {
    // Entries start in order; one that starts before the range may reach into it.
    var result: [TextEntry] = []
    var start = lines.lowerBound
    if let reaching = items.last(before: lines.lowerBound)?.entry, reaching.range.end.line >= lines.lowerBound {
      start = reaching.firstLine
    }
    for item in items.elements(in: start..<max(lines.upperBound, start + 1)) {
      guard let entry = item.entry, entry.range.end.line >= lines.lowerBound, entry.firstLine < lines.upperBound
      else { continue }
      result.append(entry)
    }
    format.applyFacts(documentFacts, to: &result)
    return result
  }

  /// The facts found so far, in order.
  package var documentFacts: [DocumentFact] {
    facts.compactMap {
      if case .fact(let fact) = $0 { return fact }
      return nil
    }
  }

  /// The plain regions that touch a line of `lines`, in order.
  package func regions(touching lines: Range<Int>) -> [PlainRegion] {
    guard regionCount > 0 else { return [] }
    var result: [PlainRegion] = []
    var start = lines.lowerBound
    if case .region(let reaching) = items.last(before: lines.lowerBound), reaching.lines.upperBound > lines.lowerBound {
      start = reaching.lines.lowerBound
    }
    for case .region(let region) in items.elements(in: start..<max(lines.upperBound, start + 1))
    where region.lines.upperBound > lines.lowerBound && region.lines.lowerBound < lines.upperBound {
      result.append(region)
    }
    return result
  }

  /// The locale the contents name (the first one), if any.
  package var contentLocale: String? {
    for case .locale(let tag, _) in facts { return tag }
    return nil
  }

  /// How marks are written in this document.
  package var spelling: MarkSpelling { format.spelling(votes) }
}

extension ReadItem {
  /// Whether the item is a locale or a fact: the few items an index keeps
  /// in one list beside the entries and regions.
  var isFact: Bool {
    switch self {
    case .locale, .fact: true
    case .entry, .region, .finding: false
    }
  }
}
