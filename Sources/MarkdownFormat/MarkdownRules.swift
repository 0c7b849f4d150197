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
    return blockDirectionResult(
      wanted: wanted, visualText: analysis.filledVisualText(),
      edits: context.planner.directionEdits(wanted, analysis: analysis))
  }

  /// `bidi.blockDirection`'s message and fix for a block whose words want
  /// `wanted` (its first strong character the other direction), shown as
  /// `visualText`, the fix's `edits` putting the mark at its start.
  static func blockDirectionResult(wanted: BidiDirection, visualText: String, edits: [SourceEdit]) -> RuleResult {
    let mark = wanted == .rightToLeft ? "RLM (U+200F RIGHT-TO-LEFT MARK)" : "LRM (U+200E LEFT-TO-RIGHT MARK)"
    let (shownName, wantedName) =
      wanted == .rightToLeft ? ("left to right", "right to left") : ("right to left", "left to right")
    return RuleResult(
      message:
        "This block is mostly \(wantedName) but its first strong character makes it render \(shownName) (dir=auto): \u{201C}\(visualText)\u{201D}. Start it with \(wanted == .rightToLeft ? "RLM" : "LRM")",
      fixes: [Fix(title: "Start the block with \(mark)", edits: edits, isPreferred: true)])
  }
}
