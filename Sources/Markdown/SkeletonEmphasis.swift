/// A one-line block's emphasis that the skeleton scan may render: its only
/// delimiter runs are one pair of `*` (or of `_`) of one length, with no
/// bracket or image between them. When the first can open and not close
/// and the second the reverse (`isUsedWhole`, asked only of the blocks that
/// need their rendered text), cmark's process_emphasis matches them and
/// uses them whole (the "multiple of 3" rule does not apply: neither can
/// both open and close), so the rendered text is the skeleton without the
/// two runs — when the skeleton is otherwise the rendered text (one line,
/// no white space at either end, no image, no delimiter in a link's text).
/// `check` builds a decided finding's message from it instead of rendering
/// the block again (`SkeletonEmphasisTests` compares the two).
package struct SkeletonEmphasis {
  /// `*` or `_`.
  package var character: UInt8
  /// Each run's length.
  package var length: Int
  /// Where each run starts in the content (the line's piece).
  package var contentStarts: (opener: Int, closer: Int)
  /// Where each run starts in the skeleton.
  package var skeletonStarts: (opener: Int, closer: Int)
  /// The content the scan read: valid only while `readSkeleton`'s body
  /// runs.
  let content: UnsafeBufferPointer<UInt8>

  /// Whether cmark uses the pair whole: the opener can open and not close,
  /// the closer the reverse (their flanking read as the inline parser reads
  /// it, `InlineParser.delimiterRun`). Only then are `renderedText` and
  /// `runs` the renderer's. (Asked in `readSkeleton`'s body.)
  package var isUsedWhole: Bool {
    // (The content has no white space at its end: the parser's end.)
    let opener = InlineParser.delimiterRun(character, content, from: contentStarts.opener, end: content.count)
    guard opener.canOpen && !opener.canClose else { return false }
    let closer = InlineParser.delimiterRun(character, content, from: contentStarts.closer, end: content.count)
    return closer.canClose && !closer.canOpen
  }

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
  /// The scan's emphasis when it may render it (see `SkeletonEmphasis`).
  var emphasis: SkeletonEmphasis? {
    guard rendersEmphasis && delimiterRuns == 2 else { return nil }
    return SkeletonEmphasis(
      character: runCharacter, length: runLength, contentStarts: (openerStart, closerStart),
      skeletonStarts: (openerSkeletonStart, closerSkeletonStart), content: bytes)
  }

  /// A run of `*`, `_` or `~` at `start`: returns where it ends, noting it
  /// for `emphasis` (which it gives up at a third run, a `~`, or a second
  /// run of another character or length).
  mutating func delimiterRun(at start: Int) -> Int {
    let character = bytes[start]
    var end = start + 1
    while end < bytes.count && bytes[end] == character { end += 1 }
    delimiterRuns += 1
    guard rendersEmphasis, character != UInt8(ascii: "~"), delimiterRuns <= 2 else {
      rendersEmphasis = false
      return end
    }
    // Where the run lands in the skeleton (the content before it not
    // copied yet goes there as it is).
    let skeletonStart = (copied == 0 ? 0 : out.count) + (start - copied)
    if delimiterRuns == 1 {
      (runCharacter, runLength, openerStart, openerSkeletonStart) = (character, end - start, start, skeletonStart)
    } else if character == runCharacter && end - start == runLength {
      (closerStart, closerSkeletonStart) = (start, skeletonStart)
    } else {
      rendersEmphasis = false
    }
    return end
  }
}
