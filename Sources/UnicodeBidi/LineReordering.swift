// UAX #9, 3.4 Reordering Resolved Levels: L1 (levels of a display line),
// L2 (reversal), L3 (combining marks, optional). L4 is in BidiLine.swift.

/// The levels of one display line after L1, and its runs in visual order.
struct LineLayout: Sendable {
  /// The characters of the line.
  let range: Range<Int>
  /// Levels after L1, one per character of `range`; bit 7 marks characters
  /// removed by X9, which take the level of the character before them (the
  /// paragraph level at the start of the line). Empty for a uniform line.
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
    let mayHaveRemoved = storage.present.intersects(.removedByX9)
    var sawRemoved = false
    var highest: UInt8 = 0
    var lowestOdd: UInt8 = 0xFF
    var runCount = 0
    levels = [UInt8](unsafeUninitializedCapacity: count) { line, initialized in
      guard let line = line.baseAddress else { return }
      line.update(from: storage.levels + start, count: count)
      initialized = count
      // L1: segment and paragraph separators, and any sequence of whitespace
      // and isolate formatting characters before them or at the end of the
      // line, go back to the paragraph level. Characters removed by X9 do
      // not interrupt such a sequence.
      var trailing = true
      var i = count
      while i > 0 {
        i -= 1
        let c = classes[i]
        if c == .S || c == .B {
          line[i] = paragraphLevel
          trailing = true
        } else if BidiClassSet.trailingWhitespace.contains(c) {
          if trailing { line[i] = (line[i] & removedBit) | paragraphLevel }
        } else {
          trailing = false
        }
      }
      // Characters removed by X9 join the run of the character before them
      // (the paragraph level at the start of the line). Count the runs.
      var previous = paragraphLevel
      var runLevel: UInt8 = 0xFF
      for i in 0..<count {
        var level = line[i]
        if mayHaveRemoved && level & removedBit != 0 {
          line[i] = previous | removedBit
          level = previous
          sawRemoved = true
        }
        previous = level
        if level != runLevel {
          runLevel = level
          runCount += 1
          highest = max(highest, level)
          if level & 1 == 1 { lowestOdd = min(lowestOdd, level) }
        }
      }
    }
    hasNoRemoved = !sawRemoved
    runs = Self.visualRuns(levels, start: start, runCount: runCount, highest: highest, lowestOdd: lowestOdd)
  }

  /// BD7 and L2: the runs of `levels`, reversed from the highest level down
  /// to the lowest odd level.
  private static func visualRuns(
    _ levels: [UInt8], start: Int, runCount: Int, highest: UInt8, lowestOdd: UInt8
  ) -> [BidiRun] {
    var runs = [BidiRun](unsafeUninitializedCapacity: runCount) { runs, initialized in
      var k = 0
      var runStart = 0
      let count = levels.count
      levels.withUnsafeBufferPointer { levels in
        for i in 0..<count where i + 1 == count || levels[i + 1] & 0x7F != levels[i] & 0x7F {
          runs.initializeElement(at: k, to: BidiRun(start: start + runStart, end: start + i + 1, level: levels[i] & 0x7F))
          k += 1
          runStart = i + 1
        }
      }
      initialized = k
    }
    guard lowestOdd != 0xFF, runs.count > 1 else { return runs }
    // L2: from the highest level to the lowest odd level, reverse every
    // maximal sequence of runs at that level or higher.
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
    return runs
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
