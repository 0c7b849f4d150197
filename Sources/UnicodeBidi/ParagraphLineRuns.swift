// UAX #9, 3.4 Reordering Resolved Levels: L1 and L2 for the display lines of
// one paragraph cut at several places (`BidiParagraph.lines(breaks:in:)`),
// from the paragraph's level runs (BD7), found once.

/// Makes the layouts of the lines of a paragraph, in order, from the level
/// runs of the whole paragraph, found once: each line's runs are those
/// runs cut at the line's ends, L1 putting the whitespace at its end at the
/// paragraph level, then reordered (L2). Every line's runs go to one store
/// that the lines share. For a paragraph without characters removed by X9
/// and without segment or paragraph separators (`applies`), where L1
/// changes only the whitespace at the end of a line: the lines are those
/// `LineLayout.init(_:_:marks:)` makes, without a scan of each line's
/// levels and an allocation for each.
struct ParagraphLineRuns {
  let storage: ParagraphStorage
  /// The level runs of the paragraph, in logical order.
  let paragraphRuns: UnsafeMutablePointer<BidiRun>
  let paragraphRunCount: Int
  /// The lines' runs, one after the other.
  let store: LineStore
  /// The runs written to `store` so far.
  var used = 0
  /// The first paragraph run that may reach into the next line.
  var next = 0

  /// Whether the lines of `storage` can be made this way: it needs the
  /// full algorithm (not uniform), and holds no character removed by X9
  /// nor any separator (S, B), so that L1 changes only the end of a line.
  static func applies(_ storage: ParagraphStorage) -> Bool {
    !storage.isUniform && !storage.present.intersects(.removedByX9) && !storage.present.contains(.S)
      && !storage.present.contains(.B)
  }

  /// Calls `body` with the level runs of `storage`'s paragraph (BD7) in
  /// logical order, on the stack when they are few, and their number: the
  /// places where the level changes found once (`LineLayout.changeMasks`),
  /// counted, then the runs read off them.
  static func withParagraphRuns<R, E: Error>(
    _ storage: ParagraphStorage, _ body: (UnsafeMutablePointer<BidiRun>, Int) throws(E) -> R
  ) throws(E) -> R {
    let count = storage.count
    let levels = UnsafePointer(storage.levels)
    return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: LineLayout.maskCount(count)) {
      (words) throws(E) -> R in
      let runCount = count == 0 ? 0 : LineLayout.changeMasks(levels, count, words.baseAddress!)
      return try withUnsafeTemporaryAllocation(of: BidiRun.self, capacity: max(runCount, 1)) {
        (runs) throws(E) -> R in
        if runCount > 0 { LineLayout.writeRuns(words.baseAddress!, levels, count, 0, runs.baseAddress!) }
        return try body(runs.baseAddress!, runCount)
      }
    }
  }

  /// For `lineCount` lines of `storage` (`applies`), with its `runCount`
  /// level runs in `paragraphRuns` (`withParagraphRuns`).
  init(_ storage: ParagraphStorage, lineCount: Int, paragraphRuns: UnsafeMutablePointer<BidiRun>, runCount: Int) {
    self.storage = storage
    self.paragraphRuns = paragraphRuns
    paragraphRunCount = runCount
    // A line holds the runs that reach into it, one of them (cut at its
    // start) shared with the line before, and one more for its trailing
    // whitespace.
    store = LineStore.make(runCount: runCount + 2 * lineCount, levelCount: 0)
  }

  /// The layout of the line `range` (characters), after those of the
  /// lines before it.
  mutating func layout(_ range: Range<Int>, marks: CombiningMarkOrder) -> LineLayout {
    let classes = storage.classes
    let levels = storage.levels
    let paragraphLevel = storage.paragraphLevel
    let start = range.lowerBound
    let end = range.upperBound
    // L1: the whitespace (and isolate formatting characters) at the end
    // of the line goes to the paragraph level; `trailingStart` stays the
    // line's length when it is there already.
    var trailing = end
    while trailing > start && BidiClassSet.trailingWhitespace.contains(classes[trailing &- 1]) { trailing &-= 1 }
    var trailingStart = range.count
    for i in trailing..<end where levels[i] != paragraphLevel {
      trailingStart = trailing &- start
      break
    }
    // BD7: the paragraph's runs cut at the line's start and at the start
    // of its trailing whitespace, then that whitespace as a run (joining
    // the one before it at the same level).
    let runs = store.runs + used
    var count = 0
    while next < paragraphRunCount && paragraphRuns[next].end <= start { next &+= 1 }
    // (Runs from `next` on end after the line's start.)
    var r = next
    while r < paragraphRunCount && paragraphRuns[r].start < trailing && start < trailing {
      let run = paragraphRuns[r]
      runs[count] = BidiRun(start: max(run.start, start), end: min(run.end, trailing), level: run.level)
      count &+= 1
      r &+= 1
    }
    if trailing < end {
      if count > 0 && runs[count &- 1].level == paragraphLevel {
        runs[count &- 1].end = end
      } else {
        runs[count] = BidiRun(start: trailing, end: end, level: paragraphLevel)
        count &+= 1
      }
    }
    let first = count > 0 ? runs[0] : BidiRun(start: start, end: end, level: paragraphLevel)
    if count > 1 {
      // L2.
      LineLayout.reorder(runs, count)
      used &+= count
    }
    return LineLayout(
      range: range, trailingStart: trailingStart, paragraphLevel: paragraphLevel, marks: marks, store: store,
      runs: runs, runCount: count, firstRun: count > 1 ? runs[0] : first)
  }
}
