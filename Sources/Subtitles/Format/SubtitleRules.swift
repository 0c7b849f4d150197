import StructuredText
import UnicodeBidi

/// The direction rule of subtitles (contract §8), run by the findings
/// engine on each cue line beside the hazard rules.
enum SubtitleRules {
  /// `bidi.cueDirection`: a cue line holding right-to-left letters whose
  /// visual order differs between a left-to-right and a right-to-left base
  /// direction (UAX #9 at paragraph level 0 and 1), so that a player that
  /// does not take the direction from the text shows its punctuation,
  /// digits or Latin words on the wrong side (`مرحبا!`, `- هل أنت بخير؟`),
  /// unless a mark decides it (the line's first strong character is an
  /// LRM, RLM or ALM; an isolate decides its content, which then looks the
  /// same both ways). Fix: RLM at the start of the line's text, after the
  /// markup that opens it (`{\an8}`, `<i>`), as subtitlers put it; LRM when
  /// the first strong character is Latin and the line is mostly left to
  /// right.
  static let cueDirection = ParagraphRule(code: .cueDirection) { analysis, context in
    guard analysis.hasRightToLeftLetters else { return nil }
    let scalars = analysis.written.scalars
    let facts = analysis.facts()
    if facts.firstStrong != nil, [0x200E, 0x200F, 0x061C].contains(scalars[facts.firstStrongOffset]) { return nil }
    let leftToRight = analysis.filledVisualText(direction: .leftToRight)
    let rightToLeft = analysis.filledVisualText(direction: .rightToLeft)
    guard leftToRight != rightToLeft else { return nil }
    if let reversed = HandReversedLine(analysis), let edits = reversed.edits(analysis, context) {
      return RuleResult(
        message:
          "Written for players that lay it out left to right, its punctuation moved by hand: a player that takes the direction from the text shows \u{201C}\(rightToLeft)\u{201D}. Move it back and start the line with RLM",
        fixes: [Fix(title: reversed.title, edits: edits, isPreferred: true)])
    }
    let mostlyLeftToRight =
      facts.firstStrong == .leftToRight
      && analysis.direction(DirectionPolicy(strategy: .estimate)) == .leftToRight
    let mark: BidiDirection = mostlyLeftToRight ? .leftToRight : .rightToLeft
    let name = mark == .rightToLeft ? "RLM (U+200F RIGHT-TO-LEFT MARK)" : "LRM (U+200E LEFT-TO-RIGHT MARK)"
    let shown = mark == .rightToLeft ? leftToRight : rightToLeft
    let side = mark == .rightToLeft ? "left to right" : "right to left"
    return RuleResult(
      message:
        "A player that lays this line out \(side) shows \u{201C}\(shown)\u{201D}. Start it with \(mark == .rightToLeft ? "RLM" : "LRM")",
      fixes: [Fix(title: "Start the line with \(name)", edits: markEdits(mark, analysis, context), isPreferred: true)])
  }

  /// The mark at the start of the line's text: before its first character
  /// (after the markup that opens the line), spelled as the file writes marks.
  static func markEdits(_ mark: BidiDirection, _ analysis: ParagraphAnalysis, _ context: RuleContext) -> [SourceEdit] {
    guard let first = analysis.written.ranges.first else { return [] }
    let scalar: Unicode.Scalar = mark == .leftToRight ? "\u{200E}" : "\u{200F}"
    let position = analysis.entry.insertionPoint(atDecoded: first.lowerBound)
    return [SourceEdit(range: SourceRange(at: position), newText: context.planner.spelling.spell(scalar))]
  }
}
