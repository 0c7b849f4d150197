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
/// has no right-to-left letter) raises none: `check` leaves it out. Any
/// other block takes the full path, which gives its findings.
///
/// The facts are those `ParagraphAnalysis` finds for the entry (a Markdown
/// entry is one paragraph, its atoms show their text, it has no markup or
/// character reference in the projection's sense): the same scan
/// (`WordFactsFeed`) over the same scalars, decided by the same policies. `MarkdownFindingsLaneTests` compares the findings of reads
/// with and without the lane on generated documents.
extension MarkdownEntries {
  /// One space (the soft break between a plain block's pieces).
  private static let space: [UInt8] = [0x20]

  /// Whether `block` (with inline content) may raise a finding; false only
  /// when it certainly raises none. `plainLength`: `plainLength(block,
  /// source:)`.
  static func mayRaiseFinding(
    _ block: MarkdownBlock, source: MarkdownSource, plainLength: Int?, renderer: MarkdownInlineRenderer,
    hazards: inout HazardCursor
  ) -> Bool {
    let start = source.lineStarts[block.lines.lowerBound]
    let end = source.lineEnds[min(block.lines.upperBound, source.lineCount - 1)]
    guard hazards.next(from: start, in: source) >= end else { return true }
    var scan = BlockFactsScan()
    if plainLength != nil {
      // The rendered text is the pieces joined by one space.
      source.bytes.withUnsafeBufferPointer { bytes in
        for (index, piece) in block.pieces.enumerated() {
          if index > 0 { Self.space.withUnsafeBufferPointer { scan.feed($0) } }
          let lineStart = source.lineStarts[piece.line]
          scan.feed(
            UnsafeBufferPointer(
              rebasing: bytes[(lineStart + piece.columns.lowerBound)..<(lineStart + piece.columns.upperBound)]))
        }
      }
    } else {
      // The common inline markup read in one pass; the renderer for the rest.
      let text = renderer.textSkeleton(block) ?? renderer.renderedText(block)
      text.withUnsafeBufferPointer { scan.feed($0) }
    }
    return scan.mayRaiseFinding
  }
}

/// Where the next hazard byte of a source is (a bidi control or an
/// ill-formed sequence, by `BidiControl.nextControlOrInvalid`), remembered
/// between blocks: the source is scanned in as few calls as it has hazards
/// (one, for most files), not once per block. `next(from:in:)` is the
/// offset of the first hazard at or after `start`, or the source's length
/// — what a scan of `bytes[start...]` alone finds, since `start` is a line's
/// start (a sequence boundary) and between `scannedFrom` and `found` the
/// scan met only well-formed sequences, none of which spans a line feed.
struct HazardCursor {
  private var scannedFrom = Int.max
  private var found = 0

  init() {}

  /// The first hazard at or after `start` (a line's start in `source`).
  mutating func next(from start: Int, in source: MarkdownSource) -> Int {
    if start < scannedFrom || found < start {
      found = source.bytes.withUnsafeBufferPointer { BidiControl.nextControlOrInvalid($0, from: start).offset }
      scannedFrom = start
    }
    return found
  }
}

/// The facts of a block's rendered text that its findings depend on: the
/// estimate's scanner fed through `WordFactsFeed.feedText`, which stops at
/// a bidi control (hazards) or a paragraph separator (where UAX #9 P2
/// stops but the estimate goes on): the full path decides then.
struct BlockFactsScan {
  var feed = WordFactsFeed()
  var needsFullPath = false

  mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
    if !needsFullPath && !feed.feedText(bytes) { needsFullPath = true }
  }

  /// Whether the block may raise a finding: the full path decides when
  /// the text holds a control or separator; else `bidi.blockDirection`'s
  /// condition (`MarkdownRules.blockDirection`).
  var mayRaiseFinding: Bool {
    if needsFullPath { return true }
    guard feed.rightToLeftLetter, let shown = DirectionPolicy().decide(feed.facts),
      let wanted = MarkdownRules.estimatePolicy.decide(feed.facts)
    else { return false }
    return shown != wanted
  }
}
