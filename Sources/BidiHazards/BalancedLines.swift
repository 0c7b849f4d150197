import UnicodeBidi

extension HazardScanner {
  /// Whether a line whose controls all stand in one context (no comment,
  /// string literal or identifier on it) gives no hazard: it holds no
  /// override, every closer closes an opener and no opener is left open.
  /// The pairing rules are those of `HazardScanner`'s; most lines with
  /// controls are such lines, and they need no pairing analysis.
  package static func isBalanced(_ controls: [(offset: Int, control: BidiControl)]) -> Bool {
    // The open scopes, innermost last: true for an isolate.
    withUnsafeTemporaryAllocation(of: Bool.self, capacity: controls.count) { open in
      var depth = 0
      var isolates = 0
      for (_, control) in controls {
        if isOverride(control) { return false }
        if control.isOpener {
          let isolate = control.isIsolateOpener
          open[depth] = isolate
          depth &+= 1
          if isolate { isolates &+= 1 }
        } else if control == .pdf {
          // Closes the innermost scope only if it is an embedding.
          guard depth > 0, !open[depth &- 1] else { return false }
          depth &-= 1
        } else if control == .pdi {
          // Closes the innermost isolate and every scope inside it.
          guard isolates > 0 else { return false }
          repeat { depth &-= 1 } while !open[depth]
          isolates &-= 1
        }
      }
      return depth == 0
    }
  }
}
