import CUnicodeBidiData

// UAX #9, 3.3.5 Resolving Neutral and Isolate Formatting Types: N0, with
// BD14–BD16 (paired brackets), applied to one isolating run sequence.

/// An entry of the BD16 stack: the pairing key of an opening bracket (see
/// `ubd_bracket_key`) and its position in the sequence.
struct OpeningBracket {
  var key: UInt32
  var position: Int
}

/// A bracket pair (BD14–BD15): positions of its brackets in the sequence.
struct BracketPair {
  var open: Int
  var close: Int
}

extension ParagraphResolver {
  /// BD16: the stack of opening brackets holds at most 63 entries.
  static let bracketStackLimit = 63

  /// N0 for `sequence`, whose types are final after W1–W7: pairs its
  /// brackets (BD16) and resolves each pair. Then, once every pair is
  /// resolved, calls `changed(start, end)` (when given) for each bracket N0
  /// gave a strong type, `start..<end` the bracket and the marks after it
  /// that took its type; returns true when N0 changed a type.
  @discardableResult
  func resolvePairedBrackets(_ sequence: IsolatingRunSequence, changed: (Int, Int) -> Void) -> Bool {
    resolvePairedBrackets(sequence, reporting: true, changed)
  }

  /// N0 for `sequence` (`resolvePairedBrackets(_:changed:)` without the
  /// report of the changed brackets).
  func resolvePairedBrackets(_ sequence: IsolatingRunSequence) {
    resolvePairedBrackets(sequence, reporting: false) { _, _ in }
  }

  /// N0, calling `changed` as `resolvePairedBrackets(_:changed:)` does
  /// when `reporting`. (A non-optional closure: an optional one escapes,
  /// and the state it captures would be boxed and checked for exclusive
  /// access at run time.)
  @inline(__always)
  private func resolvePairedBrackets(
    _ sequence: IsolatingRunSequence, reporting: Bool, _ changed: (Int, Int) -> Void
  ) -> Bool {
    // At most one pair for two brackets of the paragraph; on the stack when
    // there are few.
    withUnsafeTemporaryAllocation(of: BracketPair.self, capacity: bracketPositions.count / 2 + 1) { pairs in
      let found = findBracketPairs(sequence, into: pairs.baseAddress!)
      guard found > 0 else { return false }
      var list = UnsafeMutableBufferPointer(rebasing: pairs[0..<found])
      list.sort { $0.open < $1.open }
      let resolved = resolveBracketPairs(sequence, list)
      guard reporting else { return resolved > 0 }
      for pair in list[0..<resolved] {
        changed(pair.open, markEnd(sequence, after: pair.open))
        changed(pair.close, markEnd(sequence, after: pair.close))
      }
      return resolved > 0
    }
  }

  /// The end of the characters originally NSM right after position `k`
  /// of `sequence`.
  @inline(__always)
  private func markEnd(_ sequence: IsolatingRunSequence, after k: Int) -> Int {
    var end = k + 1
    while end < sequence.count && classes[sequence.position(end)] == .NSM { end += 1 }
    return end
  }

  /// BD16: finds the bracket pairs of `sequence`, as (opening, closing)
  /// positions in the sequence, into `pairs`; returns how many. A bracket
  /// counts only while its current type is ON.
  private func findBracketPairs(_ sequence: IsolatingRunSequence, into pairs: UnsafeMutablePointer<BracketPair>) -> Int
  {
    let t = sequence.types
    let m = sequence.count
    var pairCount = 0
    withUnsafeTemporaryAllocation(of: OpeningBracket.self, capacity: Self.bracketStackLimit) { stack in
      var depth = 0
      /// Handles the character at sequence position k; false to stop.
      @inline(__always) func visit(_ k: Int) -> Bool {
        guard t[k] == .ON else { return true }
        let scalar = scalars[sequence.position(k)]
        switch ubd_bracket_type(scalar) {
        case 1:
          // No room: stop processing BD16 for the rest of the sequence.
          guard depth < Self.bracketStackLimit else { return false }
          stack[depth] = OpeningBracket(key: ubd_bracket_key(scalar), position: k)
          depth += 1
        case 2:
          // Compare with the stack from the top; canonical equivalents
          // (U+2329/U+3008, U+232A/U+3009) share a key.
          let key = ubd_bracket_key(scalar)
          var j = depth - 1
          while j >= 0 && stack[j].key != key { j -= 1 }
          if j >= 0 {
            pairs[pairCount] = BracketPair(open: stack[j].position, close: k)
            pairCount += 1
            depth = j
          }
        default:
          break
        }
        return true
      }
      // Visit only the brackets in the sequence's pieces (the positions
      // of both are sorted).
      guard let pieces = sequence.pieces else {
        let end = sequence.offset + m
        var b = firstBracket(atOrAfter: sequence.offset)
        while b < bracketPositions.count && Int(bracketPositions[b]) < end {
          if !visit(Int(bracketPositions[b]) - sequence.offset) { break }
          b += 1
        }
        return
      }
      var b = firstBracket(atOrAfter: Int(pieces[0].start))
      var p = 0
      while b < bracketPositions.count {
        let position = Int(bracketPositions[b])
        var start = Int(pieces[p].start)
        var offset = Int(pieces[p].offset)
        while position >= start + sequence.pieceEnd(p) - offset {
          p += 1
          guard p < sequence.pieceCount else { return }
          start = Int(pieces[p].start)
          offset = Int(pieces[p].offset)
        }
        if position >= start && !visit(offset + position - start) { return }
        b += 1
      }
    }
    return pairCount
  }

  /// N0: resolves each pair, in the logical order of the opening brackets.
  /// Moves the pairs it gave a strong type to the front of `pairs`, in
  /// order; returns how many.
  private func resolveBracketPairs(_ sequence: IsolatingRunSequence, _ pairs: UnsafeMutableBufferPointer<BracketPair>)
    -> Int
  {
    let t = sequence.types
    let embedding = sequence.embeddingDirection
    var resolvedCount = 0
    for pair in pairs {
      // N0 b/c: look for strong types inside the pair (EN and AN count as R).
      var foundEmbedding = false
      var foundOpposite = false
      for k in (pair.open + 1)..<pair.close {
        guard let direction = strongDirection(t[k]) else { continue }
        if direction == embedding {
          foundEmbedding = true
          break
        }
        foundOpposite = true
      }
      let resolved: BidiClass
      if foundEmbedding {
        // N0 b: a strong type matching the embedding direction.
        resolved = embedding
      } else if foundOpposite {
        // N0 c: only the opposite direction inside; the context before the
        // opening bracket (back to sos) decides.
        var context = sequence.sos
        var k = pair.open - 1
        while k >= 0 {
          if let direction = strongDirection(t[k]) {
            context = direction
            break
          }
          k -= 1
        }
        // N0 c1 takes the opposite direction when the context has it; c2
        // the embedding direction otherwise.
        resolved = context != embedding ? context : embedding
      } else {
        // N0 d: no strong type inside; leave the brackets alone.
        continue
      }
      t[pair.open] = resolved
      t[pair.close] = resolved
      // N0, last paragraph: characters originally NSM right after a bracket
      // that changed take its type.
      for k in (pair.open + 1)..<markEnd(sequence, after: pair.open) { t[k] = resolved }
      for k in (pair.close + 1)..<markEnd(sequence, after: pair.close) { t[k] = resolved }
      pairs[resolvedCount] = pair
      resolvedCount += 1
    }
    return resolvedCount
  }

  /// The index of the first recorded bracket at or after `position`.
  /// Whether a paired bracket of the paragraph lies in `sequence`: N0 has
  /// nothing to do in a sequence without one, which is then resolved as in
  /// a paragraph without brackets (W1–I2 in one pass).
  func holdsBrackets(_ sequence: IsolatingRunSequence) -> Bool {
    guard let pieces = sequence.pieces else {
      let b = firstBracket(atOrAfter: sequence.offset)
      return b < bracketPositions.count && Int(bracketPositions[b]) < sequence.offset + sequence.count
    }
    // One search, then the brackets and the pieces in step (both in order).
    var b = firstBracket(atOrAfter: Int(pieces[0].start))
    var p = 0
    while b < bracketPositions.count {
      let position = Int(bracketPositions[b])
      while position >= Int(pieces[p].start) &+ sequence.pieceEnd(p) &- Int(pieces[p].offset) {
        p &+= 1
        guard p < sequence.pieceCount else { return false }
      }
      if position >= Int(pieces[p].start) { return true }
      // Between two pieces: in a sequence nested in this one.
      b &+= 1
    }
    return false
  }

  func firstBracket(atOrAfter position: Int) -> Int {
    var low = 0
    var high = bracketPositions.count
    while low < high {
      let middle = (low + high) / 2
      if Int(bracketPositions[middle]) < position { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The direction of a current type for N0: L, or R for R, EN and AN.
  @inline(__always)
  private func strongDirection(_ c: BidiClass) -> BidiClass? {
    switch c {
    case .L: return .L
    case .R, .AL, .EN, .AN: return .R
    default: return nil
    }
  }
}
