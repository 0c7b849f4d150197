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
  /// unless marks decide it: its first strong character is an LRM, RLM or
  /// ALM and, when punctuation, digits or symbols follow its last letter, a
  /// mark of that letter's direction (and the start mark's) ends it (an
  /// isolate decides its content, which then looks the same both ways).
  /// Fix: RLM at the start of the line's text, after the markup that opens
  /// it (`{\an8}`, `<i>`), as subtitlers put it, and at its end, before the
  /// markup that closes it, when such characters follow a right-to-left
  /// last letter (a mark at the start does not move `!` in `مرحبا!`: the
  /// end of the line still takes the player's direction); LRM when the
  /// first strong character is Latin and the line is mostly left to right
  /// (at the end too when a Latin letter is followed by punctuation).
  static let cueDirection = ParagraphRule(code: .cueDirection) { analysis, context in
    guard analysis.hasRightToLeftLetters else { return nil }
    let ends = MarkedEnds(analysis.written.scalars)
    if let start = ends.start, !ends.endNeedsMark(start) { return nil }
    let scalars = analysis.filled.scalars
    if CueDisplays.sameBothWays(scalars) { return nil }
    let displays = CueDisplays(scalars)
    guard displays.differ else { return nil }
    return finding(analysis, context, ends, displays)
  }

  /// The finding on a line whose displays differ (`cueDirection`).
  static func finding(
    _ analysis: ParagraphAnalysis, _ context: RuleContext, _ ends: MarkedEnds, _ displays: borrowing CueDisplays
  ) -> RuleResult {
    if ends.start == nil, let reversed = HandReversedLine(analysis), let edits = reversed.edits(analysis, context) {
      return RuleResult(
        message: displays.quoting(
          .rightToLeft, of: analysis,
          after:
            "Written for players that lay it out left to right, its punctuation moved by hand: a player that takes the direction from the text shows \u{201C}",
          before: reversed.endsWithMark
            ? "\u{201D}. Move it back and put RLM at both ends of the line"
            : "\u{201D}. Move it back and start the line with RLM"),
        fixes: [Fix(title: reversed.title, edits: edits, isPreferred: true)])
    }
    let facts = analysis.facts()
    let mostlyLeftToRight =
      facts.firstStrong == .leftToRight
      && analysis.direction(DirectionPolicy(strategy: .estimate)) == .leftToRight
    let mark: BidiDirection = ends.start ?? (mostlyLeftToRight ? .leftToRight : .rightToLeft)
    let end = ends.endNeedsMark(mark)
    let wording = Wording.of(mark, start: ends.start == nil, end: end)
    // Decided on the whole line.
    return RuleResult(
      message: displays.quoting(
        mark == .rightToLeft ? .leftToRight : .rightToLeft, of: analysis, after: wording.shows,
        before: wording.advice),
      fixes: [
        Fix(
          title: wording.title, edits: markEdits(mark, analysis, context, start: ends.start == nil, end: end),
          isPreferred: true)
      ])
  }

  /// The words of a finding that marks fix, by the mark and the ends it
  /// goes to: made once each (`of`), the message then built around its
  /// quote in one string (`CueDisplays.quoting`).
  struct Wording {
    /// The message up to the quote: "A player that lays this line out left to right shows “".
    let shows: String
    /// The message after the quote: "”. Start it with RLM".
    let advice: String
    /// The fix's title.
    let title: String

    init(_ mark: BidiDirection, start: Bool, end: Bool) {
      let abbreviation = mark == .rightToLeft ? "RLM" : "LRM"
      let name = mark == .rightToLeft ? "RLM (U+200F RIGHT-TO-LEFT MARK)" : "LRM (U+200E LEFT-TO-RIGHT MARK)"
      let side = mark == .rightToLeft ? "left to right" : "right to left"
      shows = "A player that lays this line out \(side) shows \u{201C}"
      (advice, title) =
        switch (start, end) {
        case (true, true): ("\u{201D}. Start and end it with \(abbreviation)", "Start and end the line with \(name)")
        case (true, false): ("\u{201D}. Start it with \(abbreviation)", "Start the line with \(name)")
        default: ("\u{201D}. End it with \(abbreviation) too", "End the line with \(name)")
        }
    }

    /// Every wording, in the order `of` reads them.
    static let all: [Wording] = (0..<8).map {
      Wording($0 & 4 == 0 ? .leftToRight : .rightToLeft, start: $0 & 2 != 0, end: $0 & 1 != 0)
    }

    static func of(_ mark: BidiDirection, start: Bool, end: Bool) -> Wording {
      all[(mark == .leftToRight ? 0 : 4) + (start ? 2 : 0) + (end ? 1 : 0)]
    }
  }

  /// The marks at the ends of the line's text: before its first character
  /// (after the markup that opens the line) and after its last (before the
  /// markup that closes it), spelled as the file writes marks.
  static func markEdits(
    _ mark: BidiDirection, _ analysis: ParagraphAnalysis, _ context: RuleContext, start: Bool = true,
    end: Bool = false
  ) -> [SourceEdit] {
    let ranges = analysis.written.ranges
    guard let first = ranges.first, let last = ranges.last else { return [] }
    let spelled = context.planner.spelling.spell(mark == .leftToRight ? "\u{200E}" : "\u{200F}")
    var edits: [SourceEdit] = []
    edits.reserveCapacity(2)
    if start {
      edits.append(
        SourceEdit(range: SourceRange(at: analysis.entry.insertionPoint(atDecoded: first.lowerBound)), newText: spelled)
      )
    }
    if end {
      edits.append(
        SourceEdit(range: SourceRange(at: analysis.entry.sourceRange(ofDecoded: last).end), newText: spelled))
    }
    return edits
  }
}

/// The marks at the ends of a cue line that decide its direction for a
/// player: `start`, the direction of an LRM, RLM or ALM that is the line's
/// first strong character (nil when a letter is); `last`, the direction of
/// its last strong character when that is a letter (nil when it is a mark)
/// and visible characters (punctuation, digits, symbols) follow it: the end
/// of the line then takes the player's direction unless a mark of the same
/// direction as that letter closes the line.
struct MarkedEnds {
  var start: BidiDirection?
  var last: BidiDirection?

  init(_ scalars: [UInt32]) {
    let first = BidiParagraph.firstStrong(scalars: scalars)
    if let offset = first.offset, first.direction != nil { start = Self.mark(scalars[offset]) }
    var visibleAfter = false
    for scalar in scalars.reversed() {
      switch BidiClass(scalar) {
      case .L, .R, .AL:
        if visibleAfter, Self.mark(scalar) == nil { last = BidiClass(scalar) == .L ? .leftToRight : .rightToLeft }
        return
      case .WS, .BN, .S, .B, .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI: continue
      default: visibleAfter = true
      }
    }
  }

  /// Whether the line's end needs a mark of direction `mark`: only one of
  /// its last letter's direction decides what follows that letter.
  func endNeedsMark(_ mark: BidiDirection) -> Bool { last == mark }

  static func mark(_ scalar: UInt32) -> BidiDirection? {
    switch scalar {
    case 0x200E: .leftToRight
    case 0x200F, 0x061C: .rightToLeft
    default: nil
    }
  }
}
