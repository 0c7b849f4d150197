import ByteWords

// UAX #9, 3.4 Reordering Resolved Levels: L1 (levels of a display line) and
// L2 (reversal). The level runs (BD7) that L2 reverses are found in
// LevelRuns.swift; L3 (combining marks, optional) is in CombiningMarks.swift,
// L4 (mirroring) in BidiLine.swift; the lines of a paragraph cut into
// several, from its level runs found once, in ParagraphLineRuns.swift.

/// The runs of a display line in visual order and, when they had to be
/// copied, its levels after L1, in one allocation (runs first, then one
/// byte per character).
final class LineStore: ManagedBuffer<LineStore.Header, BidiRun> {
  struct Header {
    let runCount: Int
    let levelCount: Int
  }

  static func make(runCount: Int, levelCount: Int) -> LineStore {
    let stride = MemoryLayout<BidiRun>.stride
    let capacity = runCount + (levelCount + stride - 1) / stride
    let buffer = create(minimumCapacity: max(capacity, 1)) { _ in
      Header(runCount: runCount, levelCount: levelCount)
    }
    return unsafeDowncast(buffer, to: LineStore.self)
  }

  /// The runs, in visual order once L2 has reordered them.
  var runs: UnsafeMutablePointer<BidiRun> { withUnsafeMutablePointerToElements { $0 } }
  /// The levels after L1 (`header.levelCount` bytes; none when 0).
  /// (Through the header's pointer: reading `header`, a class's stored
  /// `var`, costs a dynamic exclusivity check, `swift_beginAccess`.)
  var levels: UnsafeMutablePointer<UInt8> {
    withUnsafeMutablePointers { header, runs in
      UnsafeMutableRawPointer(runs + header.pointee.runCount).assumingMemoryBound(to: UInt8.self)
    }
  }
}

/// The levels of one display line after L1, and its runs in visual order.
///
/// A line reads the paragraph's resolved levels where it can: without
/// segment separators, L1 changes only the whitespace at the end of the
/// line, recorded as `trailingStart`, and nothing is copied (characters
/// removed by X9 have the level of the one before them there). A line of
/// one such run allocates nothing.
// @unchecked: the store is written only while `init` runs, read-only
// afterwards, as the paragraph's storage.
struct LineLayout: @unchecked Sendable {
  /// The characters of the line.
  let range: Range<Int>
  /// The runs when there are several, and the levels after L1 when they
  /// had to be copied (the paragraph has characters removed by X9 or
  /// separators): one per character of `range`, bit 7 marking characters
  /// removed by X9, which take the level of the character before them (at
  /// the start of the line, of the first character after them).
  let store: LineStore?
  /// The copied levels, or nil when the line reads `storage.levels[range]`.
  let copiedLevels: UnsafeMutablePointer<UInt8>?
  /// Without copied levels: the characters from this offset in the line on
  /// are at the paragraph level (L1's trailing whitespace); `range.count`
  /// when L1 changed nothing.
  let trailingStart: Int
  let paragraphLevel: UInt8
  /// Runs of characters at one level (BD7), in visual order (L2), in
  /// character offsets from the start of the paragraph: `runCount` of them
  /// in the store from `storedRunStart` on, or `firstRun` alone when the
  /// store holds none.
  let firstRun: BidiRun
  private let storedRuns: Int
  /// The first of the line's runs in `store` (which a paragraph's lines may
  /// share, `ParagraphLineRuns`), when it holds them.
  private let storedRunStart: UnsafeMutablePointer<BidiRun>?
  /// True when no character of the line was removed by X9.
  let hasNoRemoved: Bool
  /// L3: where combining marks go in right-to-left runs.
  let marks: CombiningMarkOrder

  /// The number of runs.
  var runCount: Int { range.isEmpty ? 0 : max(1, storedRuns) }

  /// True when the line's levels are the paragraph's, unchanged.
  var readsParagraphLevels: Bool { copiedLevels == nil && trailingStart == range.count }

  /// A line of a uniform paragraph: one run at the paragraph level.
  init(uniform range: Range<Int>, level: UInt8, marks: CombiningMarkOrder) {
    self.range = range
    store = nil
    copiedLevels = nil
    trailingStart = range.count
    paragraphLevel = level
    firstRun = BidiRun(start: range.lowerBound, end: range.upperBound, level: level)
    storedRuns = 0
    storedRunStart = nil
    hasNoRemoved = true
    self.marks = marks
  }

  /// A line without characters removed by X9 whose levels are the
  /// paragraph's up to `trailingStart` (L1 puts those from there on at
  /// `paragraphLevel`), with `runCount` runs in visual order: from `runs`
  /// on in `store` when there are several, else `firstRun` alone.
  init(
    range: Range<Int>, trailingStart: Int, paragraphLevel: UInt8, marks: CombiningMarkOrder, store: LineStore?,
    runs: UnsafeMutablePointer<BidiRun>?, runCount: Int, firstRun: BidiRun
  ) {
    self.range = range
    self.store = runCount > 1 ? store : nil
    copiedLevels = nil
    self.trailingStart = trailingStart
    self.paragraphLevel = paragraphLevel
    self.firstRun = firstRun
    storedRuns = runCount > 1 ? runCount : 0
    storedRunStart = runCount > 1 ? runs : nil
    hasNoRemoved = true
    self.marks = marks
  }

  init(_ storage: ParagraphStorage, _ range: Range<Int>, marks: CombiningMarkOrder) {
    self.range = range
    self.marks = marks
    let paragraphLevel = storage.paragraphLevel
    self.paragraphLevel = paragraphLevel
    let start = range.lowerBound
    let count = range.count
    let classes = storage.classes + start
    let source = storage.levels + start
    let present = storage.present
    let separators = present.contains(.S) || present.contains(.B)
    let removedBit = ParagraphStorage.removedBit
    let removes = present.intersects(.removedByX9)
    // The paragraph gave each removed character the level of the one
    // before it (`ParagraphResolver.placeRemovedCharacters`); a line that
    // starts with removed characters in the middle of the paragraph gives
    // them that of the first character after them, in a copy.
    if Self.readsParagraphLevels(storage, range) {
      // L1 changes only the whitespace at the end of the line (removed
      // characters at its start keep the level of the character before
      // them, when the line has one); none of it may need changing.
      let trailing = Self.trailingStart(storage, range)
      copiedLevels = nil
      trailingStart = trailing
      hasNoRemoved = !removes || !LevelScan.containsRemoved(source, count)
      // BD7–L2 with the runs counted first, so that they take one
      // allocation.
      if let found = Self.withPlainRuns(
        storage, range, trailing,
        { runCount, fill -> (LineStore, Int) in
          let store = LineStore.make(runCount: runCount, levelCount: 0)
          fill(store.runs)
          return (store, runCount)
        })
      {
        let (store, runs) = found
        self.store = store
        storedRuns = runs
        storedRunStart = store.runs
        firstRun = store.runs[0]
        return
      }
      let level = trailing > 0 ? source[0] & ~removedBit : paragraphLevel
      firstRun = BidiRun(start: start, end: start + count, level: level)
      store = nil
      storedRuns = 0
      storedRunStart = nil
      return
    }
    // The levels after L1, with the characters removed by X9 placed: on the
    // stack first, while the runs are counted.
    let (store, runs, removedSeen) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(count, 1)) { buffer in
      let line = buffer.baseAddress!
      line.update(from: source, count: count)
      Self.applyL1(classes, count, paragraphLevel, separators: separators, line)
      // Characters removed by X9 join the run of the character before them;
      // those at the start of the line join the run of the first character
      // after them (the paragraph level when the line holds nothing else).
      var removedSeen = false
      var previous = paragraphLevel
      var first = 0
      while first < count && line[first] & removedBit != 0 { first &+= 1 }
      if first < count { previous = line[first] }
      // Segments of characters that are not removed, eight bytes at a time,
      // and the removed ones between them; BD7 counts the runs on the way.
      var runs = count > 0 ? 1 : 0
      var i = 0
      while i < count {
        var end = i
        while end &+ 8 <= count && !ByteWord.hasNonASCII(LevelScan.load(line, end)) { end &+= 8 }
        while end < count && line[end] & removedBit == 0 { end &+= 1 }
        if end > i {
          if line[i] != previous { runs &+= 1 }
          runs &+= LevelScan.changes(line + i, end &- i)
          previous = line[end &- 1]
        }
        while end < count && line[end] & removedBit != 0 {
          removedSeen = true
          line[end] = previous | removedBit
          end &+= 1
        }
        i = end
      }
      let store = LineStore.make(runCount: runs > 1 ? runs : 0, levelCount: count)
      store.levels.update(from: line, count: count)
      if runs > 1 {
        Self.findRuns(store.levels, count, start, store.runs)
        Self.reorder(store.runs, runs)
      }
      return (store, runs, removedSeen)
    }
    self.store = store
    copiedLevels = store.levels
    trailingStart = count
    hasNoRemoved = !removedSeen
    storedRuns = runs > 1 ? runs : 0
    storedRunStart = runs > 1 ? store.runs : nil
    if runs > 1 {
      firstRun = store.runs[0]
    } else {
      let level = count > 0 ? store.levels[0] & ~ParagraphStorage.removedBit : paragraphLevel
      firstRun = BidiRun(start: start, end: start + count, level: level)
    }
  }

  /// True when the line `range` can read the paragraph's levels, L1
  /// changing only the whitespace at its end: the paragraph has no segment
  /// or paragraph separator, and the line does not start with characters
  /// removed by X9 in the middle of the paragraph (those would take the
  /// level of the first character after them, in a copy).
  @inline(__always)
  static func readsParagraphLevels(_ storage: ParagraphStorage, _ range: Range<Int>) -> Bool {
    let present = storage.present
    guard !present.contains(.S) && !present.contains(.B) else { return false }
    return !present.intersects(.removedByX9) || range.lowerBound == 0 || range.isEmpty
      || storage.levels[range.lowerBound] & ParagraphStorage.removedBit == 0
  }

  /// L1 on a line that `readsParagraphLevels`: the offset in the line
  /// from which its trailing whitespace (and isolate controls, and removed
  /// characters among them) goes to the paragraph level, or the line's
  /// length when that changes no level.
  @inline(__always)
  static func trailingStart(_ storage: ParagraphStorage, _ range: Range<Int>) -> Int {
    let count = range.count
    let classes = storage.classes + range.lowerBound
    let source = storage.levels + range.lowerBound
    let removedBit = ParagraphStorage.removedBit
    let removes = storage.present.intersects(.removedByX9)
    var trailing = count
    while trailing > 0 && BidiClassSet.trailingWhitespace.contains(classes[trailing - 1]) { trailing -= 1 }
    while removes && trailing > 0 && trailing < count && source[trailing] & removedBit != 0 { trailing += 1 }
    for i in trailing..<count where source[i] & ~removedBit != storage.paragraphLevel { return trailing }
    return count
  }

  /// BD7 and L2 on a line that `readsParagraphLevels`, its whitespace
  /// from `trailing` on at the paragraph level (L1): when it has more than
  /// one run, counts them and returns what `withMemory` makes with room
  /// for that many, which it has `fill` with the runs in visual order; nil
  /// for a line of one run. The places where the level changes are found
  /// first (a word for 64 characters, on the stack), so that the runs are
  /// read off the same words once counted.
  @inline(__always)
  static func withPlainRuns<R>(
    _ storage: ParagraphStorage, _ range: Range<Int>, _ trailing: Int,
    _ withMemory: (_ runCount: Int, _ fill: (UnsafeMutablePointer<BidiRun>) -> Void) -> R
  ) -> R? {
    guard trailing > 0 else { return nil }
    let start = range.lowerBound
    let count = range.count
    let source = UnsafePointer(storage.levels + start)
    let paragraphLevel = storage.paragraphLevel
    // The trailing whitespace is one more run unless the run before it is
    // at the paragraph level already.
    let joinsTrailing = trailing == count || source[trailing - 1] & ~ParagraphStorage.removedBit == paragraphLevel
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: maskCount(trailing)) { words -> R? in
      let masks = words.baseAddress!
      let levelRuns = changeMasks(source, trailing, masks)
      let runCount = levelRuns + (joinsTrailing ? 0 : 1)
      guard runCount > 1 else { return nil }
      return withMemory(runCount) { line in
        var levels = writeRuns(masks, source, trailing, start, line)
        if trailing < count {
          if joinsTrailing {
            line[levelRuns - 1].end = start + count
          } else {
            line[levelRuns] = BidiRun(start: start + trailing, end: start + count, level: paragraphLevel)
            levels.append(paragraphLevel)
          }
        }
        reorder(line, runCount, levels)
      }
    }
  }

  /// Calls `body` with the runs in visual order (L1–L2) of the whole
  /// paragraph as one line, as `LineLayout` finds them (for either order
  /// of marks: L3 is the writer's), but without making the line when it
  /// `readsParagraphLevels`: the runs on the stack, no `LineStore` to
  /// allocate and release.
  @inline(__always)
  static func withWholeLineRuns<R>(_ storage: ParagraphStorage, _ body: (UnsafePointer<BidiRun>, Int) -> R) -> R {
    let range = 0..<storage.count
    let one = BidiRun(start: 0, end: range.upperBound, level: storage.paragraphLevel)
    if range.isEmpty { return withUnsafePointer(to: one) { body($0, 0) } }
    if storage.isUniform { return withUnsafePointer(to: one) { body($0, 1) } }
    guard readsParagraphLevels(storage, range) else {
      return LineLayout(storage, range, marks: .resolved).withRuns(body)
    }
    let trailing = trailingStart(storage, range)
    let several = withPlainRuns(storage, range, trailing) { runCount, fill in
      withUnsafeTemporaryAllocation(of: BidiRun.self, capacity: runCount) { buffer in
        fill(buffer.baseAddress!)
        return body(buffer.baseAddress!, runCount)
      }
    }
    if let several { return several }
    // One run: the level of its first character (L1 put none of it at
    // another level, or the whole line, trailing from 0, at the
    // paragraph's).
    let level = trailing > 0 ? storage.levels[0] & ~ParagraphStorage.removedBit : storage.paragraphLevel
    return withUnsafePointer(to: BidiRun(start: 0, end: range.upperBound, level: level)) { body($0, 1) }
  }

  /// L1 on a copy of the line's levels: segment and paragraph separators,
  /// and any sequence of whitespace and isolate formatting characters
  /// before them or at the end of the line, go back to the paragraph level.
  /// Characters removed by X9 do not interrupt such a sequence (they keep
  /// their mark). Without separators, only the end of the line needs
  /// looking at.
  private static func applyL1(
    _ classes: UnsafeMutablePointer<BidiClass>, _ count: Int, _ paragraphLevel: UInt8, separators: Bool,
    _ line: UnsafeMutablePointer<UInt8>
  ) {
    let removedBit = ParagraphStorage.removedBit
    var trailing = true
    var i = count
    while i > 0 {
      i -= 1
      let c = classes[i]
      if BidiClassSet.trailingWhitespace.contains(c) {
        if trailing { line[i] = (line[i] & removedBit) | paragraphLevel }
      } else if c == .S || c == .B {
        line[i] = paragraphLevel
        trailing = true
      } else if separators {
        trailing = false
      } else {
        break
      }
    }
  }

  /// L2 on `count` runs, their levels looked at first.
  static func reorder(_ runs: UnsafeMutablePointer<BidiRun>, _ count: Int) {
    guard count > 1 else { return }
    var levels = RunLevels(first: runs[0].level)
    for k in 1..<count {
      let level = runs[k].level
      levels.highestPair = max(levels.highestPair, min(levels.last, level))
      if level & 1 == 1 { levels.lowestOdd = min(levels.lowestOdd, level) }
      levels.last = level
    }
    reorder(runs, count, levels)
  }

  /// L2: from the highest level to the lowest odd level, reverse every
  /// maximal sequence of runs at that level or higher. The levels above
  /// the highest at which two neighbouring runs both stand are skipped:
  /// there every such sequence is a single run, which a reversal leaves
  /// as it is (numbers in right-to-left text, most isolates' contents).
  /// `levels` are the runs' (`RunLevels`).
  static func reorder(_ runs: UnsafeMutablePointer<BidiRun>, _ count: Int, _ levels: RunLevels) {
    guard count > 1, levels.lowestOdd != 0xFF else { return }
    let lowestOdd = levels.lowestOdd
    var level = levels.highestPair
    while level >= lowestOdd {
      // A sequence of one run stays as it is: look for two neighbours at
      // `level` or above (one test of the lower of the two, predicted
      // where such pairs are rare, as at the levels of isolates and
      // numbers inside right-to-left text).
      var k = 0
      while k &+ 1 < count {
        guard min(runs[k].level, runs[k &+ 1].level) >= level else {
          k &+= 1
          continue
        }
        var end = k &+ 2
        while end < count && runs[end].level >= level { end &+= 1 }
        var low = k
        var high = end &- 1
        while low < high {
          let run = runs[low]
          runs[low] = runs[high]
          runs[high] = run
          low &+= 1
          high &-= 1
        }
        k = end
      }
      level &-= 1
    }
  }

  /// Calls `body` with each run, in visual order.
  @inline(__always)
  func forEachRun(_ body: (BidiRun) -> Void) {
    guard !range.isEmpty else { return }
    if let runs = storedRunStart, storedRuns > 1 {
      for k in 0..<storedRuns { body(runs[k]) }
    } else {
      body(firstRun)
    }
  }

  /// Calls `body` with the runs in visual order, as a pointer to the first
  /// and their number (`runCount`).
  @inline(__always)
  func withRuns<R>(_ body: (UnsafePointer<BidiRun>, Int) -> R) -> R {
    if let runs = storedRunStart, storedRuns > 1 { return body(runs, storedRuns) }
    return withUnsafePointer(to: firstRun) { body($0, runCount) }
  }

  /// The level after L1 of the character at `k` from the line start; bit 7
  /// marks a removed character.
  @inline(__always)
  func levelByte(_ storage: ParagraphStorage, _ k: Int) -> UInt8 {
    if let copiedLevels { return copiedLevels[k] }
    let raw = storage.levels[range.lowerBound + k]
    return k >= trailingStart ? paragraphLevel | raw & ParagraphStorage.removedBit : raw
  }

  /// Calls `body` with the characters of the line in visual order, as spans
  /// `start..<end` (paragraph offsets) whose characters are shown in logical
  /// order: a left-to-right run is one span, a right-to-left one is split
  /// by `forEachRightToLeftSpan`.
  @inline(__always)
  func forEachVisualSpan(_ storage: ParagraphStorage, _ body: (_ start: Int, _ end: Int) -> Void) {
    forEachRun { run in
      if run.level & 1 == 0 {
        body(run.start, run.end)
      } else {
        forEachRightToLeftSpan(storage, run, body)
      }
    }
  }

  /// Calls `body` with the spans of the right-to-left run `run`, right to
  /// left: each character alone, or with L3 (`.afterBase`) each base and
  /// the combining marks after it as one span.
  @inline(__always)
  func forEachRightToLeftSpan(_ storage: ParagraphStorage, _ run: BidiRun, _ body: (_ start: Int, _ end: Int) -> Void) {
    if marks == .resolved {
      var i = run.end
      while i > run.start {
        body(i - 1, i)
        i -= 1
      }
    } else {
      CombiningMarks.forEachCluster(storage, run, body)
    }
  }
}
