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
  /// The current types that occur in the sequence.
  let present: BidiClassSet

  /// The embedding direction as a strong type: L for even, R for odd levels.
  var embeddingDirection: BidiClass { level & 1 == 0 ? .L : .R }

  /// The same sequence, known to be contiguous (`indices` nil), so that
  /// code specialised for that case drops the test.
  @inline(__always)
  var contiguous: IsolatingRunSequence {
    IsolatingRunSequence(
      count: count, types: types, source: source, indices: nil, offset: offset, level: level, sos: sos, eos: eos,
      present: present)
  }

  /// True when W1–I2 leave every character at the sequence's level, so
  /// that the sequence needs no resolution: its strong types all have the
  /// embedding direction (AL counts as R, W3), it holds no number (EN only
  /// at an even level after sos L, where W7 makes it L) nor an NSM that W1
  /// could give the direction of sos, and either one of those strong types
  /// or sos or eos has the embedding direction, so that every NI resolves
  /// to it (N1–N2, and N0 for brackets). ES, ET and CS without a number
  /// become ON (W6).
  @inline(__always)
  var needsNoResolution: Bool {
    let odd = level & 1 == 1
    let embedding = embeddingDirection
    let strong = odd ? BidiClass.R.bit | BidiClass.AL.bit : BidiClass.L.bit
    var allowed =
      BidiClassSet.neutralOrIsolate.bits | BidiClass.ES.bit | BidiClass.ET.bit | BidiClass.CS.bit | strong
    if sos == embedding {
      allowed |= BidiClass.NSM.bit | (odd ? 0 : BidiClass.EN.bit)
    } else if eos != embedding && present.bits & strong == 0 {
      // N1: NIs between sos and eos of the other direction take it.
      return false
    }
    return present.isSubset(of: BidiClassSet(bits: allowed))
  }

  /// The classes in `types[0..<count]`.
  @inline(__always)
  static func classes(_ types: UnsafePointer<BidiClass>, _ count: Int) -> BidiClassSet {
    let bytes = UnsafeRawPointer(types).assumingMemoryBound(to: UInt8.self)
    var a: UInt32 = 0
    var b: UInt32 = 0
    var i = 0
    while i &+ 4 <= count {
      a |= 1 &<< UInt32(bytes[i])
      b |= 1 &<< UInt32(bytes[i &+ 1])
      a |= 1 &<< UInt32(bytes[i &+ 2])
      b |= 1 &<< UInt32(bytes[i &+ 3])
      i &+= 4
    }
    if i < count {
      // The last one to three, without a branch each: reading the last
      // byte again changes nothing.
      let last = count &- 1
      a |= 1 &<< UInt32(bytes[i])
      b |= 1 &<< UInt32(bytes[min(i &+ 1, last)])
      a |= 1 &<< UInt32(bytes[min(i &+ 2, last)])
    }
    return BidiClassSet(bits: a | b)
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
          sos: edge, eos: edge, present: present))
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
      // The run goes on over characters at its level and removed ones
      // (eight level bytes at a time); `gaps` when removed ones lie inside.
      var last = i
      var gaps = false
      var j = i + 1
      while true {
        let end = LevelScan.runEnd(exactly: levels, from: j - 1, count)
        if end > j { last = end - 1 }
        j = end
        guard j < count, levels[j] & removed != 0 else { break }
        // Removed characters: the run continues if its level comes next.
        var k = j + 1
        while k < count && levels[k] & removed != 0 { k += 1 }
        guard k < count && levels[k] == level else {
          j = k
          break
        }
        gaps = true
        last = k
        j = k + 1
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
        let runStart = Int(runStarts[run])
        let runEnd = Int(runEnds[run])
        let sequenceTypes = self.sequenceTypes
        if runHasGaps[run] {
          for i in runStart...runEnd where levels[i] & removed == 0 {
            sequenceIndices[m] = Int32(truncatingIfNeeded: i)
            sequenceTypes[m] = types[i]
            m += 1
          }
        } else {
          let length = runEnd - runStart + 1
          (sequenceTypes + m).update(from: types + runStart, count: length)
          let indices = sequenceIndices + m
          let first = Int32(truncatingIfNeeded: runStart)
          for k in 0..<length { indices[k] = first &+ Int32(truncatingIfNeeded: k) }
          m += length
        }
        guard hasIsolates, classes[runEnd].isIsolateInitiator, matchingPDI[runEnd] >= 0,
          let next = runIndex(startingAt: matchingPDI[runEnd], after: run, count: runCount)
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
      let sequenceCount = contiguous ? end - start + 1 : m
      body(
        IsolatingRunSequence(
          count: sequenceCount,
          types: sequenceTypes,
          source: sequenceTypes,
          indices: contiguous ? nil : sequenceIndices,
          offset: start,
          level: level,
          sos: max(level, before) & 1 == 0 ? .L : .R,
          eos: max(level, after) & 1 == 0 ? .L : .R,
          present: IsolatingRunSequence.classes(sequenceTypes, sequenceCount)))
    }
  }

  /// The level run after run `run` that starts at `position`: one of the
  /// next few as a rule (the runs of the isolate in between), found by a
  /// look at them, then by bisection (which mispredicts at every step).
  private func runIndex(startingAt position: Int32, after run: Int, count: Int) -> Int? {
    var low = run &+ 1
    let near = min(count, low &+ 8)
    while low < near && runStarts[low] < position { low &+= 1 }
    if low < near { return runStarts[low] == position ? low : nil }
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if runStarts[middle] < position { low = middle + 1 } else { high = middle }
    }
    return low < count && runStarts[low] == position ? low : nil
  }
}
