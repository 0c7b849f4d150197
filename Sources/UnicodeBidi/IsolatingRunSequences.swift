// UAX #9, 3.3.3 Preparations for Implicit Processing: X10, with BD7 (level
// runs) and BD13 (isolating run sequences).

/// One isolating run sequence (BD13): its characters are at paragraph
/// positions `position(0..<count)`, their current types `types[0..<count]`.
struct IsolatingRunSequence {
  let count: Int
  /// The current types, contiguous: the rules of W1–N0 rewrite them.
  let types: UnsafeMutablePointer<BidiClass>
  /// Where the first rule applied reads the types from: `types`, or the
  /// paragraph's classes when the whole paragraph is one sequence (so that
  /// they are not copied first).
  let source: UnsafePointer<BidiClass>
  /// The positions of the characters, or nil when they are contiguous from
  /// `offset`.
  let indices: UnsafeMutablePointer<Int32>?
  let offset: Int
  /// The embedding level of every character of the sequence.
  let level: UInt8
  /// X10: the start-of-sequence and end-of-sequence types, L or R.
  let sos: BidiClass
  let eos: BidiClass

  /// The embedding direction as a strong type: L for even, R for odd levels.
  var embeddingDirection: BidiClass { level & 1 == 0 ? .L : .R }

  /// The same sequence, known to be contiguous (`indices` nil), so that
  /// code specialised for that case drops the test.
  @inline(__always)
  var contiguous: IsolatingRunSequence {
    IsolatingRunSequence(
      count: count, types: types, source: source, indices: nil, offset: offset, level: level, sos: sos, eos: eos)
  }

  /// The paragraph position of the k-th character.
  @inline(__always)
  func position(_ k: Int) -> Int {
    if let indices { return Int(indices[k]) }
    return offset + k
  }
}

extension ParagraphResolver {
  /// X10: computes the isolating run sequences of the paragraph, ignoring
  /// the characters removed by X9, and calls `body` with each in turn. A
  /// sequence of one level run without removed characters is resolved in
  /// place in `types`; others are gathered into `sequenceIndices` and
  /// `sequenceTypes`.
  func forEachIsolatingRunSequence(_ body: (IsolatingRunSequence) -> Void) {
    guard count > 0 else { return }
    guard hasExplicit else {
      // One level run at the paragraph level, nothing removed: the whole
      // paragraph is one sequence, with sos and eos from the paragraph level,
      // read from the classes.
      let edge: BidiClass = paragraphLevel & 1 == 0 ? .L : .R
      body(
        IsolatingRunSequence(
          count: count, types: sequenceTypes, source: classes, indices: nil, offset: 0, level: paragraphLevel,
          sos: edge, eos: edge))
      return
    }
    let removed = ParagraphStorage.removedBit

    // BD7: the level runs, as the first and last (not removed) character
    // and the level (kept apart: resolving a sequence rewrites `levels`).
    let (levels, classes, types) = (self.levels, self.classes, self.types)
    let (runStarts, runEnds, runLevels) = (self.runStarts, self.runEnds, self.runLevels)
    let (runHasGaps, sequenceIndices) = (self.runHasGaps, self.sequenceIndices)
    var runCount = 0
    var i = 0
    while i < count {
      let level = levels[i]
      if level & removed != 0 {
        i += 1
        continue
      }
      var last = i
      var skipped = false
      var gaps = false
      var j = i + 1
      while j < count {
        let next = levels[j]
        if next == level {
          last = j
          gaps = gaps || skipped
        } else if next & removed == 0 {
          break
        } else {
          skipped = true
        }
        j += 1
      }
      runStarts[runCount] = Int32(i)
      runEnds[runCount] = Int32(last)
      runLevels[runCount] = level
      runHasGaps[runCount] = gaps
      runCount += 1
      i = j
    }
    let hasIsolates = present.intersects(.isolateControls)
    // BD13: a run that starts with the matching PDI of an isolate initiator
    // that ends an earlier run continues that run's sequence; such runs are
    // marked by setting the top bit of their level.
    let continuation: UInt8 = 0x80

    for first in 0..<runCount where runLevels[first] & continuation == 0 {
      var m = 0
      var run = first
      let start = Int(runStarts[first])
      let end = Int(runEnds[first])
      let chained = hasIsolates && classes[end].isIsolateInitiator && matchingPDI[end] >= 0
      let contiguous = !runHasGaps[first] && !chained
      while !contiguous {
        let runEnd = Int(runEnds[run])
        let sequenceTypes = self.sequenceTypes
        for i in Int(runStarts[run])...runEnd where levels[i] & removed == 0 {
          sequenceIndices[m] = Int32(i)
          sequenceTypes[m] = types[i]
          m += 1
        }
        guard hasIsolates, classes[runEnd].isIsolateInitiator, matchingPDI[runEnd] >= 0,
          let next = runIndex(startingAt: matchingPDI[runEnd], count: runCount)
        else { break }
        runLevels[next] |= continuation
        run = next
      }
      let level = runLevels[first] & ~continuation
      // X10: sos from the higher of this level and the level before the
      // sequence (or the paragraph level); eos likewise with the level after
      // it, or the paragraph level when the sequence ends with an isolate
      // initiator (which then lacks a matching PDI) or the paragraph ends.
      let before = first > 0 ? runLevels[first - 1] & ~continuation : paragraphLevel
      let last = Int(runEnds[run])
      let after: UInt8
      if classes[last].isIsolateInitiator || run + 1 == runCount {
        after = paragraphLevel
      } else {
        after = runLevels[run + 1] & ~continuation
      }
      let sequenceTypes = contiguous ? types + start : self.sequenceTypes
      body(
        IsolatingRunSequence(
          count: contiguous ? end - start + 1 : m,
          types: sequenceTypes,
          source: sequenceTypes,
          indices: contiguous ? nil : sequenceIndices,
          offset: start,
          level: level,
          sos: max(level, before) & 1 == 0 ? .L : .R,
          eos: max(level, after) & 1 == 0 ? .L : .R))
    }
  }

  /// The level run that starts at `position`, by bisection.
  private func runIndex(startingAt position: Int32, count: Int) -> Int? {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if runStarts[middle] < position { low = middle + 1 } else { high = middle }
    }
    return low < count && runStarts[low] == position ? low : nil
  }
}
