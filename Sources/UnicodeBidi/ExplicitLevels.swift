// UAX #9, 3.3.2 Explicit Levels and Directions (X1–X8) and
// 3.3.3 Preparations for Implicit Processing (X9), with the level runs
// (BD7) found as the levels are given out.

extension ParagraphResolver {
  /// BD9: pairs each isolate initiator with its matching PDI, the next PDI
  /// at the same isolate depth before the end of the paragraph.
  func findMatchingPDIs() {
    // The open initiators (`initiatorStack` holds those of
    // `resolveExplicitLevels`).
    let open = pairingStack
    var depth = 0
    for i in 0..<count {
      switch classes[i] {
      case .LRI, .RLI, .FSI:
        matchingPDI[i] = -1
        open[depth] = Int32(i)
        depth += 1
      case .PDI where depth > 0:
        depth -= 1
        matchingPDI[Int(open[depth])] = Int32(i)
      default:
        break
      }
    }
  }

  /// X1–X8: the explicit embedding level of every character, and the
  /// override of its type (X6). Marks the characters that X9 removes,
  /// pairs each isolate initiator with its matching PDI (BD9) and finds the
  /// level runs (BD7) on the way; returns the number of level runs and
  /// whether X9 removes a character.
  func resolveExplicitLevels() -> (runs: Int, removes: Bool) {
    let maxDepth: UInt8 = 125
    return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: Int(maxDepth) + 2) { stack in
      // The arrays and the count in locals: stores through the pointers could
      // otherwise change the resolver's properties for all the compiler
      // knows, and they would be read again for every control.
      let (classes, levels, types, count) = (self.classes, self.levels, self.types, self.count)
      let matchingPDI = self.matchingPDI
      // Set once an FSI needed all the pairs ahead of the pass.
      var pairsFound = false
      // BD9: the open isolate initiators; a PDI matches the innermost one.
      let openInitiators = initiatorStack
      var openCount = 0
      var runs = LevelRuns(self)
      // X1: the directional status stack. An entry holds the embedding level
      // (bits 0–6), the override status (bits 8–9: 0 neutral, 1 L, 2 R) and
      // the isolate status (bit 10). `entry` is the top one, `stack[top]`,
      // kept in a register. (The helpers below are static, given the entry:
      // nested functions capturing `top` would keep it and the counts in
      // memory rather than in registers.)
      var entry = UInt16(paragraphLevel)
      stack[0] = entry
      var top = 0
      var overflowIsolateCount = 0
      var overflowEmbeddingCount = 0
      var validIsolateCount = 0
      let removed = ParagraphStorage.removedBit
      let isolateBit: UInt16 = 1 << 10

      // The classes that X2–X8 handle; all others take the current level
      // and override (X6).
      let handled = BidiClassSet.explicitControls.bits | BidiClass.B.bit | BidiClass.BN.bit
      var i = 0
      while i < count {
        if handled & classes[i].bit == 0 {
          // X6, the common case first: the run of characters up to the next
          // one that X2–X8 handle takes the current level and override.
          let end = ClassScan.nextExplicit(classes, i &+ 1, count)
          let level = Self.level(entry)
          // The levels past `end` are given out later in this pass.
          ByteFill.fillAhead(UnsafeMutableRawPointer(levels + i), level, end &- i)
          runs.add(i, end, level)
          switch entry >> 8 & 3 {
          case 1: ByteFill.fill(UnsafeMutableRawPointer(types + i), BidiClass.L.rawValue, end &- i)
          case 2: ByteFill.fill(UnsafeMutableRawPointer(types + i), BidiClass.R.rawValue, end &- i)
          default: break
          }
          // The character at `end` is one X2–X8 handle.
          i = end
          guard i < count else { break }
        }
        let c = classes[i]
        defer { i &+= 1 }
        switch c {
        case .RLE, .LRE, .RLO, .LRO:
          // X2–X5: push an embedding or override if the level is valid and
          // nothing overflowed; otherwise count the overflow.
          let newLevel = Self.nextLevel(entry, odd: c == .RLE || c == .RLO)
          if newLevel <= maxDepth && overflowIsolateCount | overflowEmbeddingCount == 0 {
            let override: UInt16 = c == .LRO ? 1 : c == .RLO ? 2 : 0
            top &+= 1
            entry = UInt16(newLevel) | override << 8
            stack[top] = entry
          } else if overflowIsolateCount == 0 {
            overflowEmbeddingCount += 1
          }
          // X9: removed.
          levels[i] = removed
          runs.skipRemoved()
        case .RLI, .LRI, .FSI:
          var isRTL = c == .RLI
          if c == .FSI {
            // X5c: P2–P3 on the text up to the matching PDI. A short scan
            // decides most; a long one (nested FSIs could make them
            // quadratic) uses the pairs, found once for the paragraph.
            if let direction = shortIsolateDirection(after: i) {
              isRTL = direction == .rightToLeft
            } else {
              if !pairsFound {
                findMatchingPDIs()
                pairsFound = true
              }
              isRTL = isolateDirection(after: i) == .rightToLeft
            }
          }
          matchingPDI[i] = -1
          openInitiators[openCount] = Int32(truncatingIfNeeded: i)
          openCount &+= 1
          // X5a–X5c: the initiator takes the outer level and override.
          let level = Self.level(entry)
          levels[i] = level
          runs.add(i, i &+ 1, level)
          Self.applyOverride(entry, types, i)
          let newLevel = Self.nextLevel(entry, odd: isRTL)
          if newLevel <= maxDepth && overflowIsolateCount | overflowEmbeddingCount == 0 {
            validIsolateCount += 1
            top &+= 1
            entry = UInt16(newLevel) | isolateBit
            stack[top] = entry
          } else {
            overflowIsolateCount += 1
          }
        case .PDI:
          if openCount > 0 {
            openCount &-= 1
            matchingPDI[Int(openInitiators[openCount])] = Int32(truncatingIfNeeded: i)
          }
          // X6a: close the isolate, popping what it opened.
          if overflowIsolateCount > 0 {
            overflowIsolateCount -= 1
          } else if validIsolateCount > 0 {
            overflowEmbeddingCount = 0
            while stack[top] & isolateBit == 0 { top &-= 1 }
            top &-= 1
            entry = stack[top]
            validIsolateCount -= 1
          }
          let level = Self.level(entry)
          levels[i] = level
          runs.add(i, i &+ 1, level)
          Self.applyOverride(entry, types, i)
        case .PDF:
          // X7: close an embedding or override, never an isolate.
          if overflowIsolateCount > 0 {
          } else if overflowEmbeddingCount > 0 {
            overflowEmbeddingCount -= 1
          } else if entry & isolateBit == 0 && top >= 1 {
            top &-= 1
            entry = stack[top]
          }
          // X9: removed.
          levels[i] = removed
          runs.skipRemoved()
        case .B:
          // X8: a paragraph separator takes the paragraph level.
          levels[i] = paragraphLevel
          runs.add(i, i &+ 1, paragraphLevel)
        case .BN:
          // X9: removed.
          levels[i] = removed
          runs.skipRemoved()
        default:
          // X6: every other character takes the current level and override.
          let level = Self.level(entry)
          levels[i] = level
          runs.add(i, i &+ 1, level)
          Self.applyOverride(entry, types, i)
        }
      }
      return runs.finish()
    }
  }

  /// BD7 as X1–X8 give out the levels: the level runs, each the characters
  /// of one level up to the next character of another level that is not
  /// removed by X9 (removed ones inside make a run's gaps), written to
  /// `runStarts`, `runEnds`, `runLevels` and `runHasGaps`.
  struct LevelRuns {
    let starts: UnsafeMutablePointer<Int32>
    let ends: UnsafeMutablePointer<Int32>
    let levels: UnsafeMutablePointer<UInt8>
    let hasGaps: UnsafeMutablePointer<Bool>
    var count = 0
    /// The level of the current run (0xFF before the first).
    var level: UInt8 = 0xFF
    /// The last character of the current run so far.
    var last = 0
    /// Characters removed by X9 came after `last`.
    var removedSince = false
    /// A character was removed by X9.
    var removes = false

    init(_ resolver: ParagraphResolver) {
      starts = resolver.runStarts
      ends = resolver.runEnds
      levels = resolver.runLevels
      hasGaps = resolver.runHasGaps
    }

    /// The characters `start..<end`, not removed, all at `level`.
    @inline(__always)
    mutating func add(_ start: Int, _ end: Int, _ level: UInt8) {
      if level == self.level {
        if removedSince { hasGaps[count &- 1] = true }
      } else {
        if count > 0 { ends[count &- 1] = Int32(truncatingIfNeeded: last) }
        starts[count] = Int32(truncatingIfNeeded: start)
        levels[count] = level
        hasGaps[count] = false
        count &+= 1
        self.level = level
      }
      last = end &- 1
      removedSince = false
    }

    /// A character removed by X9.
    @inline(__always)
    mutating func skipRemoved() {
      removedSince = true
      removes = true
    }

    /// Ends the last run; returns the number of runs and whether a
    /// character was removed.
    mutating func finish() -> (runs: Int, removes: Bool) {
      if count > 0 { ends[count &- 1] = Int32(truncatingIfNeeded: last) }
      return (count, removes)
    }
  }

  /// The embedding level of a directional status stack entry.
  @inline(__always)
  static func level(_ entry: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: entry & 0x7F) }

  /// X6: the type of character `i` as the override of stack entry `entry`
  /// makes it.
  @inline(__always)
  static func applyOverride(_ entry: UInt16, _ types: UnsafeMutablePointer<BidiClass>, _ i: Int) {
    switch entry >> 8 & 3 {
    case 1: types[i] = .L
    case 2: types[i] = .R
    default: break
    }
  }

  /// X2–X5c: the least odd (`odd`) or even level above that of `entry`.
  @inline(__always)
  static func nextLevel(_ entry: UInt16, odd: Bool) -> UInt8 {
    let current = level(entry)
    return odd ? (current &+ 1) | 1 : (current &+ 2) & ~1
  }

  /// P2–P3 for the text of the isolate that the initiator at `initiator`
  /// opens, as `isolateDirection`, by a scan of at most 256 characters:
  /// `.some(direction)` when that decides it, nil when it does not.
  func shortIsolateDirection(after initiator: Int) -> BidiDirection?? {
    var depth = 0
    for i in (initiator + 1)..<min(count, initiator + 257) {
      switch classes[i] {
      case .L where depth == 0: return .some(.leftToRight)
      case .R where depth == 0, .AL where depth == 0: return .some(.rightToLeft)
      case .LRI, .RLI, .FSI: depth += 1
      case .PDI:
        // The matching PDI ends the isolate.
        if depth == 0 { return .some(nil) }
        depth -= 1
      default: break
      }
    }
    // The end of the paragraph ends it too.
    return initiator + 257 >= count ? .some(nil) : nil
  }

  /// P2–P3 for the text of the isolate that the initiator at `initiator`
  /// opens: up to its matching PDI or the end of the paragraph, jumping over
  /// nested isolates (so that nested FSIs cost linear time). Needs the pairs
  /// of `findMatchingPDIs`.
  func isolateDirection(after initiator: Int) -> BidiDirection? {
    let end = matchingPDI[initiator] >= 0 ? Int(matchingPDI[initiator]) : count
    var i = initiator + 1
    while i < end {
      switch classes[i] {
      case .L: return .leftToRight
      case .R, .AL: return .rightToLeft
      case .LRI, .RLI, .FSI:
        // A nested isolate without a matching PDI runs to the end.
        guard matchingPDI[i] >= 0 else { return nil }
        i = Int(matchingPDI[i])
      default: break
      }
      i += 1
    }
    return nil
  }
}
