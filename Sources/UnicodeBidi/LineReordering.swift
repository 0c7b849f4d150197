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
    let classes = storage.classes
    var sawRemoved = false
    var lineLevels = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
      buffer.baseAddress?.update(from: storage.levels + start, count: range.count)
      initialized = range.count
    }
    lineLevels.withUnsafeMutableBufferPointer { line in
      // L1: segment and paragraph separators, and any sequence of whitespace
      // and isolate formatting characters before them or at the end of the
      // line, go back to the paragraph level. Characters removed by X9 do
      // not interrupt such a sequence.
      var trailing = true
      var i = range.count
      while i > 0 {
        i -= 1
        let c = classes[start + i]
        if c == .S || c == .B {
          line[i] = paragraphLevel
          trailing = true
        } else if BidiClassSet.trailingWhitespace.contains(c) {
          if trailing { line[i] = (line[i] & removedBit) | paragraphLevel }
        } else {
          trailing = false
        }
      }
      // Characters removed by X9 join the run of the character before them.
      var previous = paragraphLevel
      for i in 0..<line.count {
        if line[i] & removedBit != 0 {
          line[i] = previous | removedBit
          sawRemoved = true
        } else {
          previous = line[i]
        }
      }
    }
    levels = lineLevels
    hasNoRemoved = !sawRemoved
    runs = Self.visualRuns(lineLevels, start: start)
  }

  /// BD7 and L2: the runs of `levels`, reversed from the highest level down
  /// to the lowest odd level.
  private static func visualRuns(_ levels: [UInt8], start: Int) -> [BidiRun] {
    var runs: [BidiRun] = []
    var highest: UInt8 = 0
    var lowestOdd: UInt8 = 0xFF
    var runStart = 0
    for i in 0..<levels.count where i + 1 == levels.count || levels[i + 1] & 0x7F != levels[i] & 0x7F {
      let level = levels[i] & 0x7F
      runs.append(BidiRun(start: start + runStart, end: start + i + 1, level: level))
      runStart = i + 1
      highest = max(highest, level)
      if level & 1 == 1 { lowestOdd = min(lowestOdd, level) }
    }
    guard lowestOdd != 0xFF, runs.count > 1 else { return runs }
    // L2: from the highest level to the lowest odd level, reverse every
    // maximal sequence of runs at that level or higher.
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
    return runs
  }

  /// The characters of the line in visual order, removed ones included:
  /// runs left to right, each in logical order if even and reversed if odd.
  /// With `reorderMarks` (L3), a right-to-left base character and the
  /// nonspacing marks after it stay in logical order.
  func visualCharacters(_ storage: ParagraphStorage, reorderMarks: Bool) -> [Int32] {
    [Int32](unsafeUninitializedCapacity: range.count) { buffer, initialized in
      var p = 0
      for run in runs {
        if run.level & 1 == 0 {
          for i in run.start..<run.end {
            buffer[p] = Int32(i)
            p += 1
          }
        } else if !reorderMarks {
          var i = run.end
          while i > run.start {
            i -= 1
            buffer[p] = Int32(i)
            p += 1
          }
        } else {
          // L3: emit clusters (a base and the NSMs after it) right to left,
          // each cluster left to right.
          var end = run.end
          while end > run.start {
            var base = end - 1
            while base > run.start && storage.classes[base] == .NSM { base -= 1 }
            for i in base..<end {
              buffer[p] = Int32(i)
              p += 1
            }
            end = base
          }
        }
      }
      initialized = p
    }
  }
}
