import UnicodeBidi

extension HazardScanner {
  /// Whether a line whose controls all stand in one context (no comment,
  /// string literal or identifier on it) gives no hazard: it holds no
  /// override, every closer closes an opener and no opener is left open.
  /// The pairing rules are those of `HazardScanner`'s; most lines with
  /// controls are such lines, and they need no pairing analysis.
  package static func isBalanced(_ controls: BidiControlList) -> Bool {
    // The open scopes, innermost last: true for an isolate.
    controls.codePoints.withUnsafeBufferPointer { codePoints in
      withUnsafeTemporaryAllocation(of: Bool.self, capacity: controls.count) { open in
        var depth = 0
        var isolates = 0
        // By code point (LRM…RLM and ALM below U+202A, LRE…RLO, LRI…PDI),
        // not by a switch on the control, whose jump the processor
        // mispredicts in text dense with controls.
        for k in 0..<controls.count {
          let raw = codePoints[k]
          if raw < 0x202A { continue }  // a mark
          if raw >= 0x2066 {
            if raw != 0x2069 {  // LRI, RLI, FSI
              open[depth] = true
              depth &+= 1
              isolates &+= 1
            } else {
              // PDI closes the innermost isolate and every scope inside it.
              guard isolates > 0 else { return false }
              repeat { depth &-= 1 } while !open[depth]
              isolates &-= 1
            }
          } else if raw == 0x202C {
            // PDF closes the innermost scope only if it is an embedding.
            guard depth > 0, !open[depth &- 1] else { return false }
            depth &-= 1
          } else if raw >= 0x202D {
            return false  // LRO, RLO
          } else {  // LRE, RLE
            open[depth] = false
            depth &+= 1
          }
        }
        return depth == 0
      }
    }
  }
}
