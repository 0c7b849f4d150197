// UAX #9, 3.4 Reordering Resolved Levels: L1 (levels of a display line),
// L2 (reversal), L3 (combining marks, optional). L4 is in BidiLine.swift.

/// The levels of one display line after L1, and its runs in visual order.
struct LineLayout: Sendable {
  /// The characters of the line.
  let range: Range<Int>
  /// Levels after L1, one per character of `range`, when they differ from
  /// the paragraph's resolved levels; bit 7 marks characters removed by X9,
  /// which take the level of the character before them (at the start of the
  /// line, of the first character after them). Empty when the paragraph's
  /// levels serve as they are (`storage.levels[range]`), or the paragraph is
  /// uniform.
  let levels: [UInt8]
  /// Runs of characters at one level (BD7), in visual order (L2), in
  /// character offsets from the start of the paragraph.
  let runs: [BidiRun]
  /// True when no character of the line was removed by X9.
  let hasNoRemoved: Bool

  /// A line of a uniform paragraph: one run at the paragraph level.
  init(uniform range: Range<Int>, level: UInt8) {
    self.range = range
    levels = []
    runs = range.isEmpty ? [] : [BidiRun(start: range.lowerBound, end: range.upperBound, level: level)]
    hasNoRemoved = true
  }

  init(_ storage: ParagraphStorage, _ range: Range<Int>) {
    self.range = range
    let paragraphLevel = storage.paragraphLevel
    let removedBit = ParagraphStorage.removedBit
    let start = range.lowerBound
    let count = range.count
    let classes = storage.classes + start
    let source = storage.levels + start
    let present = storage.present
    let separators = present.contains(.S) || present.contains(.B)
    var copy: [UInt8] = []
    var runs: [BidiRun] = []
    runs.reserveCapacity(8)
    var sawRemoved = false
    if present.intersects(.removedByX9) {
      // The paragraph has characters removed by X9: its lines need their own
      // levels, to place them.
      copy = Array(UnsafeBufferPointer(start: source, count: count))
      copy.withUnsafeMutableBufferPointer { line in
        Self.applyL1(
          classes, count, paragraphLevel, separators: separators,
          get: { line[$0] }, set: { line[$0] = $1 })
        // Characters removed by X9 join the run of the character before
        // them; those at the start of the line join the run of the first
        // character after them (the paragraph level when the line holds
        // nothing else). BD7 finds the runs on the way.
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
            if i > runStart { runs.append(BidiRun(start: start + runStart, end: start + i, level: runLevel)) }
            runStart = i
            runLevel = level
          }
        }
        if count > runStart { runs.append(BidiRun(start: start + runStart, end: start + count, level: runLevel)) }
      }
      Self.reorder(&runs)
    } else {
      // Other lines copy the paragraph's levels only if L1 changes some.
      Self.applyL1(
        classes, count, paragraphLevel, separators: separators,
        get: { copy.isEmpty ? source[$0] : copy[$0] },
        set: { i, level in
          if copy.isEmpty {
            if source[i] == level { return }
            copy = Array(UnsafeBufferPointer(start: source, count: count))
          }
          copy[i] = level
        })
      if copy.isEmpty {
        Self.findRuns(UnsafeBufferPointer(start: source, count: count), start, &runs)
      } else {
        copy.withUnsafeBufferPointer { Self.findRuns($0, start, &runs) }
      }
    }
    hasNoRemoved = !sawRemoved
    levels = copy
    self.runs = runs
  }

  /// L1: segment and paragraph separators, and any sequence of whitespace
  /// and isolate formatting characters before them or at the end of the
  /// line, go back to the paragraph level. Characters removed by X9 do not
  /// interrupt such a sequence (they keep their mark). Without separators,
  /// only the end of the line needs looking at.
  @inline(__always)
  private static func applyL1(
    _ classes: UnsafeMutablePointer<BidiClass>, _ count: Int, _ paragraphLevel: UInt8, separators: Bool,
    get: (Int) -> UInt8, set: (Int, UInt8) -> Void
  ) {
    let removedBit = ParagraphStorage.removedBit
    var trailing = true
    var i = count
    while i > 0 {
      i -= 1
      let c = classes[i]
      if BidiClassSet.trailingWhitespace.contains(c) {
        if trailing { set(i, (get(i) & removedBit) | paragraphLevel) }
      } else if c == .S || c == .B {
        set(i, paragraphLevel)
        trailing = true
      } else if separators {
        trailing = false
      } else {
        break
      }
    }
  }

  /// BD7 and L2: the runs of `levels` in visual order.
  private static func findRuns(_ levels: UnsafeBufferPointer<UInt8>, _ start: Int, _ runs: inout [BidiRun]) {
    let count = levels.count
    var i = 0
    while i < count {
      let runLevel = levels[i] & 0x7F
      var end = i + 1
      while end < count && levels[end] & 0x7F == runLevel { end += 1 }
      runs.append(BidiRun(start: start + i, end: start + end, level: runLevel))
      i = end
    }
    reorder(&runs)
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

  /// Calls `body` with each character of the line in visual order, removed
  /// ones included, and its visual position: runs left to right, each in
  /// logical order if even and reversed if odd. With `reorderMarks` (L3), a
  /// right-to-left base character and the nonspacing marks after it stay in
  /// logical order.
  @inline(__always)
  func forEachVisualCharacter(
    _ storage: ParagraphStorage, reorderMarks: Bool, _ body: (_ character: Int, _ position: Int) -> Void
  ) {
    var p = 0
    for run in runs {
      if run.level & 1 == 0 {
        for i in run.start..<run.end {
          body(i, p)
          p += 1
        }
      } else if !reorderMarks {
        var i = run.end
        while i > run.start {
          i -= 1
          body(i, p)
          p += 1
        }
      } else {
        // L3: clusters (a base and the NSMs after it) right to left, each
        // cluster left to right.
        var end = run.end
        while end > run.start {
          var base = end - 1
          while base > run.start && storage.classes[base] == .NSM { base -= 1 }
          for i in base..<end {
            body(i, p)
            p += 1
          }
          end = base
        }
      }
    }
  }
}
