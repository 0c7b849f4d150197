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
/// character reference in the projection's sense): the same
/// `DirectionFactsScanner` over the same scalars, decided by the same
/// policies. `MarkdownFindingsLaneTests` compares the findings of reads
/// with and without the lane on generated documents.
extension MarkdownEntries {
  /// Whether `block` (with inline content) may raise a finding; false only
  /// when it certainly raises none.
  static func mayRaiseFinding(_ block: MarkdownBlock, source: MarkdownSource, renderer: MarkdownInlineRenderer)
    -> Bool
  {
    let start = source.lineStarts[block.lines.lowerBound]
    let end = source.lineEnds[min(block.lines.upperBound, source.lineCount - 1)]
    let hazard = source.bytes.withUnsafeBufferPointer { bytes in
      let lines = UnsafeBufferPointer(rebasing: bytes[start..<end])
      return BidiControl.nextControlOrInvalid(lines, from: 0).offset < lines.count
    }
    guard !hazard else { return true }
    var scan = BlockFactsScan()
    if plainLength(block, source: source) != nil {
      // The rendered text is the pieces joined by one space.
      source.bytes.withUnsafeBufferPointer { bytes in
        for (index, piece) in block.pieces.enumerated() {
          if index > 0 { scan.feed(0x20, .WS) }
          let lineStart = source.lineStarts[piece.line]
          scan.feed(UnsafeBufferPointer(rebasing: bytes[(lineStart + piece.columns.lowerBound)..<(lineStart + piece.columns.upperBound)]))
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

/// The facts of a block's rendered text that its findings depend on, fed
/// scalar by scalar. The scanner (`DirectionFactsScanner`, the estimate's
/// one implementation) is fed only the scalars that can change its facts:
/// a White_Space one after a word, a strong one (L, R, AL) that starts a
/// word's strong letters or differs in direction from the word's last one
/// fed. A neutral scalar only joins a word (the next strong one fed does
/// that too), and a strong one of the direction just fed in the same word
/// leaves every fact as it is; with no isolate control (which takes the
/// full path), its facts are those of feeding every scalar.
struct BlockFactsScan {
  var scanner = DirectionFactsScanner()
  /// A right-to-left letter (R or AL, not a bidi control).
  var rightToLeftLetter = false
  /// A bidi control (hazards) or a paragraph separator (where UAX #9 P2
  /// stops but the estimate goes on): the full path decides.
  var needsFullPath = false
  /// What was fed last: 0 white space (or nothing), 1 an L, 2 an R or AL.
  private var last: UInt8 = 0

  /// Feeds UTF-8 text (well-formed: the block's lines have no ill-formed
  /// sequence, and the renderer writes none).
  mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index < bytes.count, !needsFullPath {
      let byte = bytes[index]
      if byte < 0x80 {
        let scalar = UInt32(byte)
        feed(scalar, BidiClass(scalar))
        index += 1
      } else {
        let decoded = UTF8Decoder.decode(bytes, at: index)
        feed(decoded.value, BidiClass(decoded.value))
        index += max(decoded.length, 1)
      }
    }
  }

  @inline(__always)
  mutating func feed(_ scalar: UInt32, _ c: BidiClass) {
    switch c {
    case .L, .R, .AL:
      // LRM, RLM and ALM are bidi controls of these classes.
      if scalar == 0x200E || scalar == 0x200F || scalar == 0x61C {
        needsFullPath = true
        return
      }
      let direction: UInt8 = c == .L ? 1 : 2
      if direction == 2 { rightToLeftLetter = true }
      guard last != direction else { return }
      last = direction
    case .B, .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI:
      needsFullPath = true
      return
    default:
      guard isWhiteSpace(scalar), last != 0 else { return }
      last = 0
    }
    scanner.feed(scalar, c, at: 0)
  }

  /// Whether the block may raise a finding: the full path decides when
  /// the text holds a control or separator; else `bidi.blockDirection`'s
  /// condition (`MarkdownRules.blockDirection`).
  var mayRaiseFinding: Bool {
    if needsFullPath { return true }
    guard rightToLeftLetter, let shown = DirectionPolicy().decide(scanner.facts),
      let wanted = MarkdownRules.estimatePolicy.decide(scanner.facts)
    else { return false }
    return shown != wanted
  }
}
