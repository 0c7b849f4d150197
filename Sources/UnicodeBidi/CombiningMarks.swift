import CUnicodeBidiData

// UAX #9, 3.4 Reordering Resolved Levels: L3, combining marks (optional).

/// Where a display line puts the combining marks of right-to-left text (on
/// the wire, `combiningMarks`: `"resolved"` or `"afterBase"`).
public enum CombiningMarkOrder: String, Sendable, Hashable, CaseIterable {
  /// As L2 leaves them: in a right-to-left run a mark is shown before (left
  /// of) its base, reversed with the rest of the run. BidiTest.txt and
  /// BidiCharacterTest.txt expect this.
  case resolved
  /// L3: in a right-to-left run a base character and the combining marks
  /// that follow it (General_Category Mn, Mc or Me; characters removed by
  /// X9 between them go along) keep their logical order, so that each mark
  /// follows its base in the visual order, the maps and the visual text, as
  /// a renderer expecting marks after their base needs. Levels and runs do
  /// not change. A mark with no base before it in its run (at the start of
  /// the run or of the line) stays where L2 puts it.
  case afterBase
}

enum CombiningMarks {
  /// Calls `body` with the items of the right-to-left run `run`, right to
  /// left: each base character with the combining marks after it (and the
  /// removed characters among them) as one span in logical order, every
  /// other character alone.
  @inline(__always)
  static func forEachCluster(_ storage: ParagraphStorage, _ run: BidiRun, _ body: (_ start: Int, _ end: Int) -> Void) {
    var end = run.end
    while end > run.start {
      let item = itemBefore(end, storage, runStart: run.start)
      if item.alone {
        var i = end
        while i > item.first {
          body(i - 1, i)
          i -= 1
        }
      } else {
        body(item.first, end)
      }
      end = item.first
    }
  }

  /// The items of a right-to-left run that end at `end` (`> runStart`),
  /// from `first` on: one item, a character or a base with its marks
  /// (`alone` false), or marks with no base before them in the run, each an
  /// item of its own where L2 put it (`alone` true).
  @inline(__always)
  static func itemBefore(_ end: Int, _ storage: ParagraphStorage, runStart: Int) -> (first: Int, alone: Bool) {
    let last = end - 1
    guard isMark(storage, last) else { return (last, false) }
    // Back over the marks (and removed characters) to the base.
    var first = last
    while first > runStart && (isMark(storage, first - 1) || storage.isRemoved(first - 1)) { first -= 1 }
    // The base at first - 1 and everything after it up to `end`; or no
    // base in the run.
    return first > runStart ? (first - 1, false) : (first, true)
  }

  /// True when character `i` is a combining mark: class NSM (each of which
  /// is one), or one of the marks of class L (spacing marks) the table
  /// lists. Only marks of those two classes exist (the generator checks).
  @inline(__always)
  static func isMark(_ storage: ParagraphStorage, _ i: Int) -> Bool {
    switch storage.classes[i] {
    case .NSM: return true
    case .L: return ubd_is_combining_mark(storage.scalars[i]) != 0
    default: return false
    }
  }
}
