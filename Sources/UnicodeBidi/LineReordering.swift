// UAX #9, 3.4 Reordering Resolved Levels: L1 (levels of a display line) and
// L2 (reversal). L3 (combining marks, optional) is in CombiningMarks.swift,
// L4 (mirroring) in BidiLine.swift.

/// The levels of one display line after L1, and its runs in visual order.
///
/// A line reads the paragraph's resolved levels where it can: without
/// characters removed by X9 and without segment separators, L1 changes only
/// the whitespace at the end of the line, recorded as `trailingStart`, and
/// nothing is copied.
struct LineLayout: Sendable {
  /// The characters of the line.
  let range: Range<Int>
  /// Levels after L1, one per character of `range`, when they had to be
  /// copied (the paragraph has characters removed by X9 or separators); bit
  /// 7 marks characters removed by X9, which take the level of the
  /// character before them (at the start of the line, of the first character
  /// after them). Empty when the line reads `storage.levels[range]`.
  let levels: [UInt8]
  /// With `levels` empty: the characters from this offset in the line on
  /// are at the paragraph level (L1's trailing whitespace); `range.count`
  /// when L1 changed nothing.
  let trailingStart: Int
  let paragraphLevel: UInt8
  /// Runs of characters at one level (BD7), in visual order (L2), in
  /// character offsets from the start of the paragraph: `runs`, or
  /// `firstRun` alone when `runs` is empty (a line of one run, the common
  /// case, which then allocates nothing).
  let firstRun: BidiRun
  let runs: [BidiRun]
  /// True when no character of the line was removed by X9.
  let hasNoRemoved: Bool
  /// L3: where combining marks go in right-to-left runs.
  let marks: CombiningMarkOrder

  /// The number of runs.
  var runCount: Int { range.isEmpty ? 0 : max(1, runs.count) }

  /// True when the line's levels are the paragraph's, unchanged.
  var readsParagraphLevels: Bool { levels.isEmpty && trailingStart == range.count }

  /// A line of a uniform paragraph: one run at the paragraph level.
  init(uniform range: Range<Int>, level: UInt8, marks: CombiningMarkOrder) {
    self.range = range
    levels = []
    trailingStart = range.count
    paragraphLevel = level
    firstRun = BidiRun(start: range.lowerBound, end: range.upperBound, level: level)
    runs = []
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
    var found: [BidiRun] = []
    var sawRemoved = false
    if !present.intersects(.removedByX9) && !separators {
      // L1 changes only the whitespace at the end of the line; none of it
      // may need changing.
      var trailing = count
      while trailing > 0 && BidiClassSet.trailingWhitespace.contains(classes[trailing - 1]) { trailing -= 1 }
      var changes = false
      for i in trailing..<count where source[i] != paragraphLevel { changes = true }
      if !changes { trailing = count }
      levels = []
      trailingStart = trailing
      (firstRun, runs) = Self.findRuns(source, count, trailing, paragraphLevel, start)
      hasNoRemoved = true
      return
    }
    var copy = Array(UnsafeBufferPointer(start: source, count: count))
    copy.withUnsafeMutableBufferPointer { line in
      Self.applyL1(classes, count, paragraphLevel, separators: separators, line)
      // Characters removed by X9 join the run of the character before them;
      // those at the start of the line join the run of the first character
      // after them (the paragraph level when the line holds nothing else).
      // BD7 finds the runs on the way.
      let removedBit = ParagraphStorage.removedBit
      var previous = paragraphLevel
      var first = 0
      while first < count && line[first] & removedBit != 0 { first += 1 }
      if first < count { previous = line[first] }
      var runStart = 0
      var runLevel = previous
      for i in 0..<count {
        var level = line[i]
        if level & removedBit != 0 {
          sawRemoved = true
          level = previous
          line[i] = previous | removedBit
        }
        previous = level
        if level != runLevel {
          if i > runStart { found.append(BidiRun(start: start + runStart, end: start + i, level: runLevel)) }
          runStart = i
          runLevel = level
        }
      }
      if count > runStart { found.append(BidiRun(start: start + runStart, end: start + count, level: runLevel)) }
    }
    Self.reorder(&found)
    levels = copy
    trailingStart = count
    hasNoRemoved = !sawRemoved
    firstRun = found.first ?? BidiRun(start: start, end: start, level: paragraphLevel)
    runs = found.count > 1 ? found : []
  }

  /// L1 on a copy of the line's levels: segment and paragraph separators,
  /// and any sequence of whitespace and isolate formatting characters
  /// before them or at the end of the line, go back to the paragraph level.
  /// Characters removed by X9 do not interrupt such a sequence (they keep
  /// their mark). Without separators, only the end of the line needs
  /// looking at.
  private static func applyL1(
    _ classes: UnsafeMutablePointer<BidiClass>, _ count: Int, _ paragraphLevel: UInt8, separators: Bool,
    _ line: UnsafeMutableBufferPointer<UInt8>
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

  /// BD7 and L2: the runs of `levels[0..<trailing]` followed by `count -
  /// trailing` characters at the paragraph level, in visual order.
  private static func findRuns(
    _ levels: UnsafeMutablePointer<UInt8>, _ count: Int, _ trailing: Int, _ paragraphLevel: UInt8, _ start: Int
  ) -> (BidiRun, [BidiRun]) {
    @inline(__always) func level(_ i: Int) -> UInt8 { i < trailing ? levels[i] : paragraphLevel }
    var first = BidiRun(start: start, end: start, level: paragraphLevel)
    var runs: [BidiRun] = []
    var i = 0
    while i < count {
      let runLevel = level(i)
      var end = i + 1
      while end < count && level(end) == runLevel { end += 1 }
      let run = BidiRun(start: start + i, end: start + end, level: runLevel)
      if i == 0 {
        // The first run, kept out of the array: a line of one run
        // allocates nothing.
        first = run
      } else {
        if runs.isEmpty { runs.append(first) }
        runs.append(run)
      }
      i = end
    }
    guard !runs.isEmpty else { return (first, []) }
    reorder(&runs)
    return (runs[0], runs)
  }

  /// L2: from the highest level to the lowest odd level, reverse every
  /// maximal sequence of runs at that level or higher.
  private static func reorder(_ runs: inout [BidiRun]) {
    guard runs.count > 1 else { return }
    var highest: UInt8 = 0
    var lowestOdd: UInt8 = 0xFF
    for run in runs {
      highest = max(highest, run.level)
      if run.level & 1 == 1 { lowestOdd = min(lowestOdd, run.level) }
    }
    guard lowestOdd != 0xFF else { return }
    runs.withUnsafeMutableBufferPointer { runs in
      var level = highest
      while level >= lowestOdd {
        var k = 0
        while k < runs.count {
          guard runs[k].level >= level else {
            k += 1
            continue
          }
          var end = k + 1
          while end < runs.count && runs[end].level >= level { end += 1 }
          runs[k..<end].reverse()
          k = end
        }
        level -= 1
      }
    }
  }

  /// Calls `body` with each run, in visual order.
  @inline(__always)
  func forEachRun(_ body: (BidiRun) -> Void) {
    guard !range.isEmpty else { return }
    if runs.isEmpty {
      body(firstRun)
    } else {
      for run in runs { body(run) }
    }
  }

  /// The level after L1 of the character at `k` from the line start; bit 7
  /// marks a removed character.
  @inline(__always)
  func levelByte(_ storage: ParagraphStorage, _ k: Int) -> UInt8 {
    if !levels.isEmpty { return levels[k] }
    return k >= trailingStart ? paragraphLevel : storage.levels[range.lowerBound + k]
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
