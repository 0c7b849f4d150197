// UAX #9, 3.3.3 Preparations for Implicit Processing: X10, with BD13
// (isolating run sequences) from the level runs (BD7) that X1–X8 found.

/// A stretch of a gathered isolating run sequence whose characters are
/// contiguous in the paragraph: its first character is at paragraph
/// position `start` and at sequence position `offset`; it ends where the
/// next piece begins (the last where the sequence ends).
struct SequencePiece {
  var start: Int32
  var offset: Int32
}

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
  /// The contiguous stretches of the sequence, in order, or nil when its
  /// characters are contiguous from `offset` (then `types` is the
  /// paragraph's, in place; else it is gathered before W1).
  let pieces: UnsafePointer<SequencePiece>?
  let pieceCount: Int
  let offset: Int
  /// The embedding level of every character of the sequence.
  let level: UInt8
  /// X10: the start-of-sequence and end-of-sequence types, L or R.
  let sos: BidiClass
  let eos: BidiClass

  /// The embedding direction as a strong type: L for even, R for odd levels.
  var embeddingDirection: BidiClass { level & 1 == 0 ? .L : .R }

  /// True when the characters are contiguous from `offset` (one piece).
  var isContiguous: Bool { pieces == nil }

  /// The same sequence, known to be contiguous (`pieces` nil), so that
  /// code specialised for that case drops the test.
  @inline(__always)
  var contiguous: IsolatingRunSequence {
    IsolatingRunSequence(
      count: count, types: types, source: source, pieces: nil, pieceCount: 1, offset: offset, level: level,
      sos: sos, eos: eos)
  }

  /// The end (sequence position) of piece `p`.
  @inline(__always)
  func pieceEnd(_ p: Int) -> Int {
    guard let pieces else { return count }
    return p &+ 1 < pieceCount ? Int(pieces[p &+ 1].offset) : count
  }

  /// True when W1–I2 leave every character of a sequence at `level`
  /// (with `sos` and `eos`, holding the classes `present`), so that it needs
  /// no resolution: its strong types all have the embedding direction (AL
  /// counts as R, W3), it holds no number (EN only at an even level after
  /// sos L, where W7 makes it L) nor an NSM that W1 could give the direction
  /// of sos, and either one of those strong types or sos or eos has the
  /// embedding direction, so that every NI resolves to it (N1–N2, and N0
  /// for brackets). ES, ET and CS without a number become ON (W6).
  @inline(__always)
  static func resolvesToItsLevel(_ present: BidiClassSet, level: UInt8, sos: BidiClass, eos: BidiClass) -> Bool {
    let odd = level & 1 == 1
    let strong = odd ? BidiClass.R.bit | BidiClass.AL.bit : BidiClass.L.bit
    if sos != (odd ? .R : .L) && eos != (odd ? .R : .L) && present.bits & strong == 0 {
      // N1: NIs between sos and eos of the other direction take it.
      return false
    }
    return present.isSubset(of: BidiClassSet(bits: allowedClasses(level: level, sos: sos)))
  }

  /// The classes a sequence at `level` after `sos` may hold and need no
  /// resolution (`resolvesToItsLevel`).
  @inline(__always)
  static func allowedClasses(level: UInt8, sos: BidiClass) -> UInt32 {
    let odd = level & 1 == 1
    let strong = odd ? BidiClass.R.bit | BidiClass.AL.bit : BidiClass.L.bit
    var allowed =
      BidiClassSet.neutralOrIsolate.bits | BidiClass.ES.bit | BidiClass.ET.bit | BidiClass.CS.bit | strong
    if sos == (odd ? .R : .L) { allowed |= BidiClass.NSM.bit | (odd ? 0 : BidiClass.EN.bit) }
    return allowed
  }

  /// `resolvesToItsLevel` for the contiguous types `types[0..<count]`
  /// (`count` > 0): when sos has the embedding direction, a scan that
  /// stops at the first class not allowed (most sequences that need
  /// resolving have one early: a number, a letter of the other direction).
  @inline(__always)
  static func resolvesToItsLevel(
    _ types: UnsafePointer<BidiClass>, _ count: Int, level: UInt8, sos: BidiClass, eos: BidiClass
  ) -> Bool {
    guard sos == (level & 1 == 1 ? .R : .L) else {
      return resolvesToItsLevel(classes(types, count), level: level, sos: sos, eos: eos)
    }
    return !ClassScan.containsAny(types, count, ~allowedClasses(level: level, sos: sos))
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

  /// The paragraph position of the k-th character (by bisection of the
  /// pieces when gathered: only N0 asks, at brackets).
  @inline(__always)
  func position(_ k: Int) -> Int {
    guard let pieces else { return offset + k }
    var low = 0
    var high = pieceCount
    while high - low > 1 {
      let middle = (low + high) >> 1
      if Int(pieces[middle].offset) <= k { low = middle } else { high = middle }
    }
    return Int(pieces[low].start) + k - Int(pieces[low].offset)
  }
}

extension ParagraphResolver {
  /// X10: computes the isolating run sequences of the paragraph from its
  /// `runCount` level runs, ignoring the characters removed by X9, and
  /// calls `body` with each in turn that needs W1–I2: not those whose
  /// characters all keep the level X1–X8 gave them
  /// (`IsolatingRunSequence.resolvesToItsLevel`; without explicit controls
  /// X1–X8 did not run, and the one sequence is always handed on). Returns
  /// false when one of those it did not hand on is not at the paragraph
  /// level. A
  /// sequence of one level run without removed characters is resolved in
  /// place in `types`; others are described by their pieces in
  /// `sequencePieces`, their types gathered into `sequenceTypes` as the
  /// pieces are found (whether the sequence needs resolving is then one
  /// scan of them, which stops at the first class that decides it).
  func forEachIsolatingRunSequence(runCount: Int, _ body: (IsolatingRunSequence) -> Void) -> Bool {
    guard count > 0 else { return true }
    guard hasExplicit else {
      // One level run at the paragraph level, nothing removed: the whole
      // paragraph is one sequence, with sos and eos from the paragraph level,
      // read from the classes.
      let edge: BidiClass = paragraphLevel & 1 == 0 ? .L : .R
      body(
        IsolatingRunSequence(
          count: count, types: sequenceTypes, source: classes, pieces: nil, pieceCount: 1, offset: 0,
          level: paragraphLevel,
          sos: edge, eos: edge))
      return true
    }
    // BD7: the level runs, as X1–X8 found them (`resolveExplicitLevels`),
    // as the first and last (not removed) character and the level (kept
    // apart: resolving a sequence rewrites `levels`).
    let removed = ParagraphStorage.removedBit
    let (levels, classes, types) = (self.levels, self.classes, self.types)
    let (runStarts, runEnds, runLevels) = (self.runStarts, self.runEnds, self.runLevels)
    let (runHasGaps, sequencePieces, gathered) = (self.runHasGaps, self.sequencePieces, self.sequenceTypes)
    let hasIsolates = present.intersects(.isolateControls)
    // BD13: a run that starts with the matching PDI of an isolate initiator
    // that ends an earlier run continues that run's sequence; such runs are
    // marked by setting the top bit of their level.
    let continuation: UInt8 = 0x80
    var skippedAtParagraphLevel = true

    for first in 0..<runCount where runLevels[first] & continuation == 0 {
      var m = 0
      var pieceCount = 0
      var run = first
      let start = Int(runStarts[first])
      let end = Int(runEnds[first])
      let chained = hasIsolates && classes[end].isIsolateInitiator && matchingPDI[end] >= 0
      let contiguous = !runHasGaps[first] && !chained
      while !contiguous {
        let runStart = Int(runStarts[run])
        let runEnd = Int(runEnds[run]) + 1
        // The run's stretches between removed characters (its first and
        // last characters are not removed).
        var i = runStart
        while i < runEnd {
          let stretchEnd = runHasGaps[run] ? LevelScan.runEnd(exactly: levels, from: i, runEnd) : runEnd
          sequencePieces[pieceCount] = SequencePiece(
            start: Int32(truncatingIfNeeded: i), offset: Int32(truncatingIfNeeded: m))
          pieceCount += 1
          ByteCopy.copyWithSlack(gathered + m, types + i, stretchEnd - i)
          m += stretchEnd - i
          i = stretchEnd
          while i < runEnd && levels[i] & removed != 0 { i += 1 }
        }
        guard hasIsolates, classes[runEnd - 1].isIsolateInitiator, matchingPDI[runEnd - 1] >= 0,
          let next = runIndex(startingAt: matchingPDI[runEnd - 1], after: run, count: runCount)
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
      let sequenceTypes = contiguous ? types + start : gathered
      let sequenceCount = contiguous ? end - start + 1 : m
      let sos: BidiClass = max(level, before) & 1 == 0 ? .L : .R
      let eos: BidiClass = max(level, after) & 1 == 0 ? .L : .R
      // Decided before the sequence is made: most sequences (the text of an
      // isolate or an embedding) need nothing more.
      if IsolatingRunSequence.resolvesToItsLevel(sequenceTypes, sequenceCount, level: level, sos: sos, eos: eos) {
        if level != paragraphLevel { skippedAtParagraphLevel = false }
        continue
      }
      body(
        IsolatingRunSequence(
          count: sequenceCount,
          types: sequenceTypes,
          source: sequenceTypes,
          pieces: contiguous ? nil : UnsafePointer(sequencePieces),
          pieceCount: contiguous ? 1 : pieceCount,
          offset: start,
          level: level,
          sos: sos, eos: eos))
    }
    return skippedAtParagraphLevel
  }

  /// Copies the levels of a gathered sequence, resolved in
  /// `sequenceLevels`, to the paragraph's levels, piece by piece.
  func scatterLevels(_ sequence: IsolatingRunSequence) {
    guard let pieces = sequence.pieces else { return }
    for p in 0..<sequence.pieceCount {
      let offset = Int(pieces[p].offset)
      ByteCopy.copyWithSlack(levels + Int(pieces[p].start), sequenceLevels + offset, sequence.pieceEnd(p) &- offset)
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
