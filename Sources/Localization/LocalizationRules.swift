import StructuredText
import UnicodeBidi

/// The direction rules of localization documents (contract §7), run by the
/// findings engine on each value paragraph beside the hazard rules.
enum LocalizationRules {
  static let all = [placeholderDirection, valueDirection]

  /// `bidi.placeholderDirection`: right-to-left letters, right to left as
  /// written, left to right filled (the seed case `%@ مدفوعات بدون فوائد من
  /// %@`). Fixes: RLM at the start (preferred); the placeholders isolated.
  static let placeholderDirection = ParagraphRule(code: .placeholderDirection) { analysis, context in
    guard analysis.hasRightToLeftLetters, analysis.direction() == .rightToLeft,
      analysis.direction(filled: true) == .leftToRight
    else { return nil }
    let paragraph = analysis.paragraph..<analysis.paragraph + 1
    return RuleResult(
      message:
        "This value is right to left as written but left to right once its placeholders are filled: it displays as \u{201C}\(analysis.quotedVisualText())\u{201D}. Start it with RLM, or isolate its placeholders",
      fixes: [
        startWithRLM(analysis, context),
        Fix(
          title: "Isolate the placeholders (FSI … PDI)",
          edits: context.planner.placeholderEdits(style: .isolate, paragraphs: paragraph), isPreferred: false),
      ])
  }

  /// `bidi.valueDirection`: in a right-to-left locale, right-to-left letters
  /// in a value that is left to right as written (`iPhone متوفر الآن`).
  static let valueDirection = ParagraphRule(code: .valueDirection) { analysis, context in
    guard context.localeIsRightToLeft, analysis.hasRightToLeftLetters, analysis.direction() == .leftToRight
    else { return nil }
    return RuleResult(
      message:
        "This right-to-left translation starts with a left-to-right character, so it displays left to right: \u{201C}\(analysis.quotedVisualText())\u{201D}. Start it with RLM",
      fixes: [startWithRLM(analysis, context)])
  }

  private static func startWithRLM(_ analysis: ParagraphAnalysis, _ context: RuleContext) -> Fix {
    Fix(
      title: "Start the value with RLM (U+200F RIGHT-TO-LEFT MARK)",
      edits: context.planner.directionEdits(.rightToLeft, paragraphs: analysis.paragraph..<analysis.paragraph + 1),
      isPreferred: true)
  }
}
