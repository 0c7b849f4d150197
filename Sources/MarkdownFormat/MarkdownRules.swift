import StructuredText
import UnicodeBidi

/// The direction rule of Markdown documents (contract §8), run by the
/// findings engine on each rendered block beside the hazard rules.
enum MarkdownRules {
  /// The word-count estimate of §4, with its default threshold.
  static let estimatePolicy = DirectionPolicy(strategy: .estimate)

  /// `bidi.blockDirection`: a block a renderer shows with `dir="auto"` (its
  /// first strong character decides) in the direction its words do not
  /// want: mostly right to left but starting with a Latin letter (`[Apple
  /// Pay](…) متاح الآن`), or the mirror case. Fix: RLM (LRM) at the start
  /// of the rendered text.
  static let blockDirection = ParagraphRule(code: .blockDirection) { analysis, context in
    guard analysis.hasRightToLeftLetters, let shown = analysis.direction(),
      let wanted = analysis.direction(estimatePolicy), shown != wanted
    else { return nil }
    var visual = analysis.quotedVisualText()
    let message = visual.withUTF8 { visual in
      blockDirectionMessage(wanted: wanted, visualBound: visual.count) { output in
        output.initialize(from: visual.baseAddress!, count: visual.count)
        return visual.count
      }
    }
    return RuleResult(
      message: message,
      fixes: [blockDirectionFix(wanted: wanted, edits: context.planner.directionEdits(wanted, analysis: analysis))])
  }

  /// `bidi.blockDirection`'s message for a block whose words want `wanted`
  /// (its first strong character the other direction), quoting what it
  /// shows: `writeVisual` writes it (at most `visualBound` bytes of
  /// well-formed UTF-8) and says how many bytes it wrote. The message is
  /// put together in a scratch buffer (on the stack when small) and copied
  /// once into its string, not validated again (`String(wellFormedUTF8:)`).
  static func blockDirectionMessage(
    wanted: BidiDirection, visualBound: Int, writeVisual: (UnsafeMutablePointer<UInt8>) -> Int
  ) -> String {
    var head = wanted == .rightToLeft ? toRightToLeft : toLeftToRight
    var tail = wanted == .rightToLeft ? "\u{201D}. Start it with RLM" : "\u{201D}. Start it with LRM"
    return head.withUTF8 { head in
      tail.withUTF8 { tail in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: head.count + visualBound + tail.count) { buffer in
          let start = buffer.baseAddress!
          start.initialize(from: head.baseAddress!, count: head.count)
          let written = head.count + writeVisual(start + head.count)
          (start + written).initialize(from: tail.baseAddress!, count: tail.count)
          return String(wellFormedUTF8: UnsafeBufferPointer(start: start, count: written + tail.count))
        }
      }
    }
  }

  private static let toRightToLeft =
    "This block is mostly right to left but its first strong character makes it render left to right (dir=auto): \u{201C}"
  private static let toLeftToRight =
    "This block is mostly left to right but its first strong character makes it render right to left (dir=auto): \u{201C}"

  /// `bidi.blockDirection`'s fix: `edits` put the mark of `wanted` at the
  /// block's start.
  static func blockDirectionFix(wanted: BidiDirection, edits: [SourceEdit]) -> Fix {
    Fix(
      title: wanted == .rightToLeft
        ? "Start the block with RLM (U+200F RIGHT-TO-LEFT MARK)"
        : "Start the block with LRM (U+200E LEFT-TO-RIGHT MARK)",
      edits: edits, isPreferred: true)
  }
}
