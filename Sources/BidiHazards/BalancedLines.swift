import UnicodeBidi

extension HazardScanner {
  /// Whether a line whose controls all stand in one context (no comment,
  /// string literal or identifier on it) gives no hazard: it holds no
  /// override, every closer closes an opener and no opener is left open.
  /// The pairing rules are those of `HazardScanner`'s; most lines with
  /// controls are such lines, and they need no pairing analysis.
  package static func isBalanced(_ controls: BidiControlList) -> Bool {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: controls.count) { open in
      let (end, depth) = balancedPrefix(controls, open: open.baseAddress!)
      return end == controls.count && depth == 0
    }
  }

  /// The pairing of a line's controls in one context, as far as it gives
  /// no hazard: stops at the first override or closer that closes nothing
  /// (its index is `end`; `controls.count` when there is none). The scopes
  /// open there are in `open[0..<depth]`, outermost first, as
  /// `index << 1 | 1` for an isolate and `index << 1` for an embedding
  /// (`open` has room for one per control). The line is balanced when
  /// `end` is the count and `depth` 0; otherwise the pairing analysis goes
  /// on from there (`LineAnalysis.runInOneContext`), with nothing before
  /// `end` to report.
  package static func balancedPrefix(_ controls: BidiControlList, open: UnsafeMutablePointer<Int>) -> (
    end: Int, depth: Int
  ) {
    controls.codePoints.withUnsafeBufferPointer {
      balancedPrefix(UnsafeBufferPointer(rebasing: $0[..<controls.count]), open: open)
    }
  }

  /// `balancedPrefix` of the controls of code points `codePoints`.
  package static func balancedPrefix(_ codePoints: UnsafeBufferPointer<UInt32>, open: UnsafeMutablePointer<Int>) -> (
    end: Int, depth: Int
  ) {
    var depth = 0
    var isolates = 0
    var k = 0
    let count = codePoints.count
    // By code point (LRM…RLM and ALM below U+202A, LRE…RLO, LRI…PDI),
    // not by a switch on the control, whose jump the processor
    // mispredicts in text dense with controls.
    while k < count {
      let raw = codePoints[k]
      if raw >= 0x202A {
        if raw >= 0x2066 {
          if raw != 0x2069 {  // LRI, RLI, FSI
            open[depth] = k &<< 1 | 1
            depth &+= 1
            isolates &+= 1
          } else {
            // PDI closes the innermost isolate and every scope inside it.
            guard isolates > 0 else { break }
            repeat { depth &-= 1 } while open[depth] & 1 == 0
            isolates &-= 1
          }
        } else if raw == 0x202C {
          // PDF closes the innermost scope only if it is an embedding.
          guard depth > 0, open[depth &- 1] & 1 == 0 else { break }
          depth &-= 1
        } else if raw >= 0x202D {
          break  // LRO, RLO
        } else {  // LRE, RLE
          open[depth] = k &<< 1
          depth &+= 1
        }
      }
      k &+= 1
    }
    return (k, depth)
  }
}
