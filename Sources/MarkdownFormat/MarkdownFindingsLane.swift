import Markdown
import StructuredText
import UnicodeBidi

/// `check`'s lane for blocks that raise no finding (`ReadSink.findingsOnly`):
/// decided in one pass over the block's rendered text, with no entry,
/// source map or paragraph analysis built. A Markdown block's findings are
/// `bidi.blockDirection` (its rendered text has right-to-left letters and
/// its first strong character and §4's estimate disagree), §5's hazards of
/// its rendered text (only with a bidi control in it), `bidi.inIdentifier`
/// (a control in a link destination) and the line rules' blanking of its
/// source on a line holding a hazard. A block with no hazard byte on its
/// lines (no bidi control, no ill-formed UTF-8), no control or paragraph
/// separator in its rendered text and whose two directions agree (or that
/// has no right-to-left letter) raises none: `check` leaves it out. One
/// whose directions disagree has `bidi.blockDirection` alone: `check`
/// gives that finding (`ReadItem.finding`) unless its fix depends on the
/// markup at its start. Any other block takes the full path, which gives
/// its findings.
///
/// The facts are those `ParagraphAnalysis` finds for the entry (a Markdown
/// entry is one paragraph, its atoms show their text, it has no markup or
/// character reference in the projection's sense): the same scan
/// (`WordFactsFeed`) over the same scalars, decided by the same policies.
/// `MarkdownFindingsLaneTests` and `DecidedFindingTests` compare the
/// findings of reads with and without the lane.
extension MarkdownEntries {
  /// What `check` does with a block: leave it out (it raises no finding),
  /// give its one finding, `bidi.blockDirection` (no hazard byte on its
  /// lines, no control or separator in its rendered text): `decided`, built
  /// where the lane had the rendered text (a skeleton that is the rendered
  /// text, or renders its emphasis) and appended to the items (an enum
  /// carrying a `Finding` costs more to copy than the finding to append);
  /// `blockDirection` wanting `wanted` when
  /// the block must be rendered first (a skeleton with emphasis it cannot
  /// render) — or build its entry (the full path decides).
  enum Verdict {
    case noFinding
    case decided
    case blockDirection(wanted: BidiDirection)
    case fullPath
  }

  /// A block's rendered text, with its delimiter runs' lengths and the run
  /// at its content's first byte when a delimiter byte is there (where the
  /// full path may move a mark: `insertionOverrides`).
  struct RenderedBlock {
    var text: [UInt8]
    var lengths: DelimiterLengths?
    var first: MarkdownDelimiterRun?

    init(text: [UInt8], lengths: DelimiterLengths? = nil, first: MarkdownDelimiterRun? = nil) {
      self.text = text
      self.lengths = lengths
      self.first = first
    }

    /// A one-line block's, from its `skeleton` and the `emphasis` the scan
    /// rendered: what `rendered(_:source:renderer:)` gives (the runs
    /// gathered when the opener starts the content, as there when its
    /// first byte is `*` or `_`), without the inline parser.
    init(_ skeleton: UnsafeBufferPointer<UInt8>, emphasis: SkeletonEmphasis) {
      text = emphasis.renderedText(skeleton)
      guard emphasis.contentStarts.opener == 0 else { return }
      let runs = emphasis.runs
      var lengths = DelimiterLengths()
      for run in runs { lengths.add(emphasis.character, run) }
      self.lengths = lengths
      first = runs[0]
    }
  }

  /// `block` rendered by `renderer`, its runs gathered when its content
  /// starts with `*`, `_` or `~`.
  static func rendered(_ block: MarkdownBlock, source: MarkdownSource, renderer: MarkdownInlineRenderer)
    -> RenderedBlock
  {
    var lengths: DelimiterLengths?
    if let first = block.pieces.first, first.columns.lowerBound < source.length(ofLine: first.line) {
      switch source.bytes[source.lineStarts[first.line] + first.columns.lowerBound] {
      case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"): lengths = DelimiterLengths()
      default: break
      }
    }
    var first: MarkdownDelimiterRun?
    let text = renderer.renderedText(block, runs: &lengths, first: &first)
    return RenderedBlock(text: text, lengths: lengths, first: first)
  }

  /// Whether `block` (with inline content) may raise a finding (`.noFinding`
  /// only when it certainly raises none), and which when the lane knows.
  /// One pass over the block's content (`readSkeleton`) gives its text for
  /// the scan — the rendered text itself for a plain block (its pieces
  /// joined) or a skeleton that says so — and the renderer the rest.
  /// `base`, `withFixes`: as `blockDirectionFinding` takes them; a decided
  /// finding goes to `items`. `scratch`: the skeleton's arrays, kept from
  /// block to block.
  static func verdict(
    _ block: MarkdownBlock, source: MarkdownSource, renderer: MarkdownInlineRenderer, hazards: inout HazardCursor,
    base: Int, withFixes: Bool, scratch: inout SkeletonScratch, items: inout [ReadItem]
  ) -> Verdict {
    let start = source.lineStarts[block.lines.lowerBound]
    let end = source.lineEnds[min(block.lines.upperBound, source.lineCount - 1)]
    if let hazard = hazards.next(from: start), hazard < end { return .fullPath }
    // The common inline markup read in one pass, where it lies (the
    // rendered text itself, copied for the finding's message when there is
    // one, when it has no emphasis); the renderer for the rest.
    var verdict: Verdict?
    // The skeleton's bytes are the block's source's, which holds no
    // control (no hazard byte on its lines).
    // A finding's message is made from the skeleton where it lies when
    // that is the rendered text (no copy).
    renderer.readSkeleton(block, scratch: &scratch) { text, isRendered, isPlain, emphasis in
      verdict = decide(text, controlFree: true) { wanted in
        if isRendered || isPlain {
          return decided(
            blockDirectionFinding(
              block, source: source, wanted: wanted, text: text, lengths: nil, first: nil, base: base,
              withFixes: withFixes), &items)
        }
        guard let emphasis, emphasis.isUsedWhole else { return .blockDirection(wanted: wanted) }
        let rendered = RenderedBlock(text, emphasis: emphasis)
        return decided(
          blockDirectionFinding(
            block, source: source, wanted: wanted, rendered: rendered, base: base, withFixes: withFixes), &items)
      }
    }
    if let verdict { return verdict }
    let rendered = Self.rendered(block, source: source, renderer: renderer)
    return rendered.text.withUnsafeBufferPointer { text in
      decide(text, controlFree: false) { wanted in
        decided(
          blockDirectionFinding(
            block, source: source, wanted: wanted, rendered: rendered, base: base, withFixes: withFixes), &items)
      }
    }
  }

  /// A decided finding appended to `items`; the full path when there is
  /// none.
  private static func decided(_ finding: Finding?, _ items: inout [ReadItem]) -> Verdict {
    guard let finding else { return .fullPath }
    items.append(.finding(finding))
    return .decided
  }

  /// The verdict of a block whose text (rendered, or a skeleton that the
  /// scan sees alike) is `text`; `found` gives it when the block has
  /// `bidi.blockDirection` wanting a direction. `controlFree`: as
  /// `WordFactsFeed.feedText` takes it.
  private static func decide(
    _ text: UnsafeBufferPointer<UInt8>, controlFree: Bool, found: (BidiDirection) -> Verdict
  ) -> Verdict {
    var scan = BlockFactsScan()
    scan.feed(text, controlFree: controlFree)
    if scan.needsFullPath { return .fullPath }
    guard let wanted = scan.wantedDirection else { return .noFinding }
    return found(wanted)
  }

  /// `bidi.blockDirection`'s finding for `block` (lines of `source`),
  /// whose only finding the lane found it to be, its rendered `text`
  /// (well-formed UTF-8) wanting `wanted`: what `MarkdownRules
  /// .blockDirection` gives for its entry, with no entry built. The
  /// entry's content range; the text in visual order; the mark at the content start, where the entry's map
  /// puts decoded offset 0 (its first segment starts there) unless an
  /// insertion override moves it (a delimiter run starting the content
  /// that a mark before it would change, by `MarkupSafety.keepsMarkup` as
  /// `insertionOverrides` asks; white space) or a bare `www.` link starts
  /// the text (sealed: no edit): nil then, and the full path decides. The
  /// severity is the engine's. Its lines are `base` lines down (where the
  /// source starts in the document). `withFixes` false: no fix (none
  /// built: `ReadSink.needsFixes`).
  static func blockDirectionFinding(
    _ block: MarkdownBlock, source: MarkdownSource, wanted: BidiDirection, rendered: RenderedBlock, base: Int,
    withFixes: Bool = true
  ) -> Finding? {
    rendered.text.withUnsafeBufferPointer { text in
      blockDirectionFinding(
        block, source: source, wanted: wanted, text: text, lengths: rendered.lengths, first: rendered.first,
        base: base, withFixes: withFixes)
    }
  }

  /// `blockDirectionFinding(_:source:wanted:rendered:base:withFixes:)` of
  /// the rendered block `text`, `lengths`, `first` (read where it lies).
  static func blockDirectionFinding(
    _ block: MarkdownBlock, source: MarkdownSource, wanted: BidiDirection, text: UnsafeBufferPointer<UInt8>,
    lengths: DelimiterLengths?, first firstRun: MarkdownDelimiterRun?, base: Int, withFixes: Bool
  ) -> Finding? {
    guard let first = block.pieces.first, let last = block.pieces.last, first.tabSpaces == 0,
      first.columns.lowerBound < source.length(ofLine: first.line), !text.isEmpty
    else { return nil }
    let lineStart = source.lineStarts[first.line]
    let offset = lineStart + first.columns.lowerBound
    switch source.bytes[offset] {
    case 0...0x20: return nil
    case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
      guard let lengths,
        MarkupSafety.keepsMarkup(
          source.bytes, at: offset, lineStart: lineStart, lineEnd: source.lineEnds[first.line], ending: nil,
          starting: firstRun, lengths: lengths.all, textLengths: lengths.text)
      else { return nil }
    default: break
    }
    // (Four bytes compared: no generic comparison with a string's UTF-8.)
    if text.count >= 4 && text[0] == 0x77 && text[1] == 0x77 && text[2] == 0x77 && text[3] == 0x2E { return nil }
    let range = SourceRange(
      start: SourcePosition(line: base + first.line, column: first.columns.lowerBound),
      end: SourcePosition(line: base + last.line, column: last.columns.upperBound))
    let message = MarkdownRules.blockDirectionMessage(
      wanted: wanted, visualBound: BidiLine.visualUTF8Bound(utf8Length: text.count)
    ) { ParagraphAnalysis.writeVisualText(utf8: text, to: $0) }
    guard withFixes else { return Finding(code: .blockDirection, severity: .warning, range: range, message: message) }
    let mark = wanted == .rightToLeft ? "\u{200F}" : "\u{200E}"
    let fix = MarkdownRules.blockDirectionFix(
      wanted: wanted, edits: [SourceEdit(range: SourceRange(at: range.start), newText: mark)])
    return Finding(code: .blockDirection, severity: .warning, range: range, message: message, fixes: [fix])
  }
}

/// Where the next hazard byte of a source is (a bidi control or an
/// ill-formed sequence), from its hazard lines (`HazardLines`: the text's
/// own, shared with the other whole-file passes, or one scan of the
/// source), remembered between blocks: blocks asked in order move it
/// forward. `next(from:)` is the offset of the first hazard at or after
/// `start`, or nil — what `BidiControl.nextControlOrInvalid` over
/// `bytes[start...]` finds, since `start` is a line's start and a line's
/// hazards lie before the next line's start.
struct HazardCursor {
  private let hazards: HazardLines
  private var next = 0

  init(_ hazards: HazardLines) {
    self.hazards = hazards
  }

  /// The first hazard at or after `start` (a line's start in the source).
  mutating func next(from start: Int) -> Int? {
    let lines = hazards.lines
    // Asked before a line passed already (or first): found anew (not
    // when there is none).
    if !lines.isEmpty && (next == 0 || lines[next - 1].firstHazard >= start) {
      next = hazards.index { $0.firstHazard >= start }
    }
    while next < lines.count && lines[next].firstHazard < start { next += 1 }
    return next < lines.count ? lines[next].firstHazard : nil
  }
}

/// The facts of a block's rendered text that its findings depend on: the
/// estimate's scanner fed through `WordFactsFeed.feedText`, which stops at
/// a bidi control (hazards) or a paragraph separator (where UAX #9 P2
/// stops but the estimate goes on): the full path decides then.
struct BlockFactsScan {
  var feed = WordFactsFeed()
  var needsFullPath = false

  mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, controlFree: Bool) {
    if !needsFullPath && !feed.feedText(bytes, controlFree: controlFree) { needsFullPath = true }
  }

  /// The direction the words want when `bidi.blockDirection`'s condition
  /// holds (right-to-left letters, the first strong character deciding
  /// the other direction); nil when it does not. Meaningful only without
  /// `needsFullPath`.
  var wantedDirection: BidiDirection? {
    guard feed.rightToLeftLetter, let shown = DirectionPolicy().decide(feed.facts),
      let wanted = MarkdownRules.estimatePolicy.decide(feed.facts), shown != wanted
    else { return nil }
    return wanted
  }
}
