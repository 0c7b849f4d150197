/// A one-line block's emphasis that the skeleton scan can render: its only
/// delimiter runs are one pair of `*` (or of `_`) of one length, the first
/// able to open and not to close, the second the reverse, with no bracket
/// or image between them. cmark's process_emphasis matches them and uses
/// them whole (the "multiple of 3" rule does not apply: neither can both
/// open and close), so the rendered text is the skeleton without the two
/// runs — when the skeleton is otherwise the rendered text (one line, no
/// white space at either end, no image, no delimiter in a link's text).
/// `check` builds a decided finding's message from it instead of rendering
/// the block again (`SkeletonEmphasisTests` compares the two).
package struct SkeletonEmphasis: Sendable {
  /// `*` or `_`.
  package var character: UInt8
  /// Each run's length.
  package var length: Int
  /// Where each run starts in the content (the line's piece).
  package var contentStarts: (opener: Int, closer: Int)
  /// Where each run starts in the skeleton.
  package var skeletonStarts: (opener: Int, closer: Int)

  /// The rendered text: `skeleton` (the one the scan gave) without the
  /// two runs.
  package func renderedText(_ skeleton: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    let (opener, closer) = skeletonStarts
    var text: [UInt8] = []
    text.reserveCapacity(skeleton.count - 2 * length)
    text.append(contentsOf: UnsafeBufferPointer(rebasing: skeleton[..<opener]))
    text.append(contentsOf: UnsafeBufferPointer(rebasing: skeleton[(opener + length)..<closer]))
    text.append(contentsOf: UnsafeBufferPointer(rebasing: skeleton[(closer + length)...]))
    return text
  }

  /// The two runs as `MarkdownInlineRenderer.renderedText(_:runs:first:)`
  /// gives them (content indices): the opener opens, the closer closes.
  package var runs: [MarkdownDelimiterRun] {
    [
      MarkdownDelimiterRun(
        range: contentStarts.opener..<(contentStarts.opener + length), closes: false, opens: true),
      MarkdownDelimiterRun(range: contentStarts.closer..<(contentStarts.closer + length), closes: true, opens: false),
    ]
  }
}

extension SkeletonScan {
  /// The scan's emphasis when it can render it (see `SkeletonEmphasis`).
  var emphasis: SkeletonEmphasis? {
    guard rendersEmphasis && delimiterRuns == 2 else { return nil }
    return SkeletonEmphasis(
      character: runCharacter, length: runLength, contentStarts: (openerStart, closerStart),
      skeletonStarts: (openerSkeletonStart, closerSkeletonStart))
  }

  /// A run of `*`, `_` or `~` at `start`: returns where it ends, noting it
  /// for `emphasis` (which it gives up at a third run, a `~`, or a pair it
  /// cannot render).
  mutating func delimiterRun(at start: Int) -> Int {
    let character = bytes[start]
    delimiterRuns += 1
    guard rendersEmphasis, character != UInt8(ascii: "~"), delimiterRuns <= 2 else {
      rendersEmphasis = false
      var end = start
      while end < bytes.count && bytes[end] == character { end += 1 }
      return end
    }
    // (The content has no white space at its end: the parser's end.)
    let run = InlineParser.delimiterRun(character, bytes, from: start, end: bytes.count)
    // Where the run lands in the skeleton (the content before it not
    // copied yet goes there as it is).
    let skeletonStart = (copied == 0 ? 0 : out.count) + (start - copied)
    if delimiterRuns == 1 {
      guard run.canOpen && !run.canClose else {
        rendersEmphasis = false
        return run.end
      }
      (runCharacter, runLength, openerStart, openerSkeletonStart) = (character, run.end - start, start, skeletonStart)
    } else {
      guard run.canClose && !run.canOpen, character == runCharacter, run.end - start == runLength else {
        rendersEmphasis = false
        return run.end
      }
      (closerStart, closerSkeletonStart) = (start, skeletonStart)
    }
    return run.end
  }
}
