/// A block's rendered text up to what a word-level direction scan cannot
/// see, read in one pass over its content without the inline parser, for
/// the common inline markup: emphasis, strikethrough, inline links with a
/// plain destination, reference links to defined labels, code spans.
///
/// The skeleton differs from `MarkdownInlineRenderer.render(block).text`
/// only by characters that are neither White_Space nor letters of a
/// strong direction (here ASCII punctuation: the delimiters `*`, `_`, `~`,
/// a code span's backticks, a link's brackets, an image's `!`) and by the
/// length of runs of white space (a soft or hard break is a space here, a
/// line's leading spaces stay). A link's destination and a reference
/// link's label are left out, as the renderer leaves them out; a code span's
/// content is kept with cmark's one-space trimming at each end (which joins
/// or splits words). So the first strong character, the words whose first
/// strong character is right to left or left to right (§4's estimate), and
/// whether there are right-to-left letters are those of the rendered text.
///
/// Nil (the caller renders) for anything else: an escape, an entity, `<`
/// (raw HTML, angle autolinks), a carriage return, a NUL, a tab the
/// container expands, an extended autolink's `www.` or `://` (it may take
/// markup into its URL), a bracket whose link is not of the forms above
/// (nested brackets, a backtick in a link's text, a destination with
/// spaces, parentheses, angle brackets or a title, an undefined full
/// reference).
extension MarkdownInlineRenderer {
  package func textSkeleton(_ block: MarkdownBlock) -> [UInt8]? {
    readSkeleton(block)?.text
  }

  /// `textSkeleton(block)`, whether it is `renderedText(block)` itself
  /// (`isRendered`): the block is one line with no white space at either
  /// end (no break, nothing trimmed) and no delimiter (`*`, `_`, `~`) or
  /// image (`![`) in it, so that its text differs from its source only by
  /// the markup the scan leaves out — a code span's backticks and trimmed
  /// spaces, a link's brackets and destination or label (a shortcut
  /// reference's brackets when its label is defined); and whether the
  /// block is plain (`isPlain`): no byte the inline parser acts on and no
  /// white space at either end of a piece, so that its rendered text is its
  /// pieces joined by one space — the skeleton then (what
  /// `MarkdownEntries.plainLength` finds: `MarkdownFindingsLaneTests`
  /// compares them). One pass over the content gives the three.
  package func readSkeleton(_ block: MarkdownBlock) -> (text: [UInt8], isRendered: Bool, isPlain: Bool)? {
    var read: (text: [UInt8], isRendered: Bool, isPlain: Bool)?
    readSkeleton(block) { text, isRendered, isPlain, _ in read = (Array(text), isRendered, isPlain) }
    return read
  }

  /// `readSkeleton(block)` given to `body` where it lies, with no copy
  /// made when it is the content itself (a line's source, or the pieces
  /// joined): false, with `body` not called, when the scan refuses it.
  /// `emphasis`: a one-line block's emphasis the scan can render (its
  /// rendered text is the skeleton without it), else nil.
  @discardableResult
  package func readSkeleton(
    _ block: MarkdownBlock,
    _ body: (_ text: UnsafeBufferPointer<UInt8>, _ isRendered: Bool, _ isPlain: Bool, _ emphasis: SkeletonEmphasis?)
      -> Void
  ) -> Bool {
    var scratch = SkeletonScratch()
    return readSkeleton(block, scratch: &scratch, body)
  }

  /// `readSkeleton(block, body)` with the arrays it copies into (the
  /// joined pieces, the skeleton) taken from `scratch` and left there for
  /// the next block's: a reader of many blocks allocates them once.
  @discardableResult
  package func readSkeleton(
    _ block: MarkdownBlock, scratch: inout SkeletonScratch,
    _ body: (_ text: UnsafeBufferPointer<UInt8>, _ isRendered: Bool, _ isPlain: Bool, _ emphasis: SkeletonEmphasis?)
      -> Void
  ) -> Bool {
    guard block.kind.hasInlineContent, !block.pieces.isEmpty else { return false }
    if block.pieces.count == 1 {
      // One line: its piece is the content, read where it lies.
      let piece = block.pieces[0]
      guard piece.tabSpaces == 0 else { return false }
      let start = source.lineStarts[piece.line] + piece.columns.lowerBound
      return source.bytes.withUnsafeBufferPointer { text in
        let bytes = UnsafeBufferPointer(rebasing: text[start..<(start + piece.columns.count)])
        let trimmed = !bytes.isEmpty && bytes[0] > 0x20 && bytes[bytes.count - 1] > 0x20
        var scan = SkeletonScan(bytes: bytes, isRendered: trimmed, isPlain: trimmed)
        swap(&scan.out, &scratch.skeleton)
        defer { swap(&scan.out, &scratch.skeleton) }
        guard scan.run(definitions: definitions) else { return false }
        // The flags read first: `body` does not capture (and copy) the scan.
        let (isRendered, isPlain, emphasis) = (scan.isRendered, scan.isPlain, scan.emphasis)
        scan.withText { body($0, isRendered, isPlain, emphasis) }
        return true
      }
    }
    // A line end is a space (a soft break) or U+2028 (a hard one) when
    // rendered: white space either way, never a paragraph separator. The
    // scan reads a space and a line feed alike (code span trimming,
    // destinations, labels' white space), so it is written as a space.
    guard joinPieces(block, into: &scratch.content) else { return false }
    let trimmed = source.bytes.withUnsafeBufferPointer { text in
      block.pieces.allSatisfy { piece in
        let start = source.lineStarts[piece.line] + piece.columns.lowerBound
        return !piece.columns.isEmpty && text[start] > 0x20 && text[start + piece.columns.count - 1] > 0x20
      }
    }
    return scratch.content.withUnsafeBufferPointer { bytes in
      var scan = SkeletonScan(bytes: bytes, isRendered: false, isPlain: trimmed)
      swap(&scan.out, &scratch.skeleton)
      defer { swap(&scan.out, &scratch.skeleton) }
      guard scan.run(definitions: definitions) else { return false }
      let isPlain = scan.isPlain
      scan.withText { body($0, false, isPlain, nil) }
      return true
    }
  }

  /// `block`'s pieces joined by one space; nil when a piece starts with
  /// a tab the container expands (`MarkdownPiece.tabSpaces`). A block whose
  /// content holds no byte the inline parser acts on renders as this.
  package func joinedPieces(_ block: MarkdownBlock) -> [UInt8]? {
    var content: [UInt8] = []
    return joinPieces(block, into: &content) ? content : nil
  }

  /// `joinedPieces(block)` written into `content` (emptied first, its
  /// capacity kept): false when it is nil.
  func joinPieces(_ block: MarkdownBlock, into content: inout [UInt8]) -> Bool {
    if !content.isEmpty { content.removeAll(keepingCapacity: true) }
    var total = 0
    for piece in block.pieces { total += piece.columns.count + 1 }
    if content.capacity < total { content.reserveCapacity(total) }
    let joined = source.bytes.withUnsafeBufferPointer { text -> Bool in
      for (index, piece) in block.pieces.enumerated() {
        guard piece.tabSpaces == 0 else { return false }
        if index > 0 { content.append(0x20) }
        let lineStart = source.lineStarts[piece.line]
        content.append(
          contentsOf: UnsafeBufferPointer(
            rebasing: text[(lineStart + piece.columns.lowerBound)..<(lineStart + piece.columns.upperBound)]))
      }
      return true
    }
    return joined
  }
}

/// The arrays `readSkeleton` copies a block's content and skeleton into,
/// kept from one block to the next.
package struct SkeletonScratch {
  var content: [UInt8] = []
  var skeleton: [UInt8] = []

  package init() {}
}

struct SkeletonScan {
  let bytes: UnsafeBufferPointer<UInt8>
  /// (Empty until a first copy: a scan that copies nothing, most, writes
  /// nothing; `readSkeleton` lends it the scratch's array, which may hold
  /// an earlier block's bytes until then.)
  var out: [UInt8] = []
  /// The start of the content not yet copied to `out`.
  var copied = 0
  /// Whether `out` is the rendered text (see `readSkeleton`): cleared at
  /// the first delimiter or image.
  var isRendered: Bool
  /// Whether the content is plain (see `readSkeleton`): cleared at the
  /// first byte the inline parser acts on (cmark's special characters
  /// "\n\\`&_*[]<", the extensions' `~` and `:`, `@` for an email
  /// autolink; `!` alone is text; a NUL, a carriage return and `www.` are
  /// refused).
  var isPlain: Bool
  /// Whether the skeleton is the rendered text but for the delimiter runs
  /// `emphasis` describes: as `isRendered`, but a delimiter run clears it
  /// only when it is a third, a `~`, a pair `SkeletonEmphasis` cannot
  /// render, or in a link's text; a bracket between the two runs clears it.
  var rendersEmphasis: Bool
  /// The delimiter runs read, and the first two's character, length and
  /// starts in the content and the skeleton (`SkeletonEmphasis`).
  var delimiterRuns = 0
  var runCharacter: UInt8 = 0
  var runLength = 0
  var openerStart = 0
  var openerSkeletonStart = 0
  var closerStart = 0
  var closerSkeletonStart = 0
  /// cmark's backtick memo, as the inline parser keeps it: where the last
  /// run of each length (≤ 80) seen starts, and whether a scan reached the
  /// end without a closer.
  var backticks: [Int]? = nil
  var scannedForBackticks = false

  init(bytes: UnsafeBufferPointer<UInt8>, isRendered: Bool, isPlain: Bool) {
    self.bytes = bytes
    self.isRendered = isRendered
    self.rendersEmphasis = isRendered
    self.isPlain = isPlain
  }

  @inline(__always) func at(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }

  /// A byte the skeleton does not read (see `textSkeleton`) at `index`.
  @inline(__always) func refuses(_ index: Int) -> Bool {
    switch bytes[index] {
    case UInt8(ascii: "\\"), UInt8(ascii: "&"), UInt8(ascii: "<"), 0x0D, 0: return true
    case UInt8(ascii: ":"): return at(index + 1) == UInt8(ascii: "/") && at(index + 2) == UInt8(ascii: "/")
    case UInt8(ascii: "w"):
      return at(index + 1) == UInt8(ascii: "w") && at(index + 2) == UInt8(ascii: "w")
        && at(index + 3) == UInt8(ascii: ".")
    default: return false
    }
  }

  /// Copies the content up to `index`, then goes on from `next`.
  mutating func skip(_ index: Int, to next: Int) {
    if copied == 0 {
      // The first copy: the lent array emptied, room for the content.
      if !out.isEmpty { out.removeAll(keepingCapacity: true) }
      if out.capacity < bytes.count { out.reserveCapacity(bytes.count) }
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
    copied = next
  }

  /// The bytes `run` acts on: the markup it reads, the bytes that make a
  /// block not plain, and the first byte of what it refuses (`refuses`).
  static let acts: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in "`[*_~!]:@\n\\&<\rw".utf8 { table[Int(byte)] = true }
    table[0] = true
    return table
  }()

  /// Whether each of the eight bytes of `word` is past ASCII, a space, a
  /// digit or an ASCII letter other than `w` and `W` — none of them in
  /// `acts` (`SkeletonPlainnessTests` checks every byte). Each lane is
  /// seven bits when tested, so no sum carries into the next.
  @inline(__always)
  static func skips(_ word: UInt64) -> Bool { stops(word) == 0 }

  /// Whether `skips` passes over each of the sixteen bytes of `words`
  /// (two words side by side: `stops`' steps on both at once, which the
  /// compiler keeps in one vector register; `SkeletonWordStepTests`).
  @inline(__always)
  static func skipsAll(_ words: SIMD2<UInt64>) -> Bool {
    @inline(__always) func lanes(_ byte: UInt64) -> SIMD2<UInt64> {
      SIMD2(repeating: byte &* 0x0101_0101_0101_0101)
    }
    let high = lanes(0x80)
    let low = words & ~high
    let folded = low | lanes(0x20)
    let letter = (folded &+ lanes(0x80 - 0x61)) & ~(folded &+ lanes(0x80 - 0x7B))
    let digit = (low &+ lanes(0x80 - 0x30)) & ~(low &+ lanes(0x80 - 0x3A))
    let notSpace = (low ^ lanes(0x20)) &+ lanes(0x7F)
    let notW = (folded ^ lanes(0x77)) &+ lanes(0x7F)
    let stops = ~(words | (letter & notW) | digit | ~notSpace) & high
    return stops[0] | stops[1] == 0
  }

  /// The lanes of `word` that `skips` does not pass over: the high bit of
  /// each such byte (zero when it skips them all).
  @inline(__always)
  static func stops(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let low = word & ~high
    let folded = low | (ones &* 0x20)
    // Lanes at or above a bound have their high bit set by the sum.
    let letter = (folded &+ ones &* (0x80 - 0x61)) & ~(folded &+ ones &* (0x80 - 0x7B))
    let digit = (low &+ ones &* (0x80 - 0x30)) & ~(low &+ ones &* (0x80 - 0x3A))
    let notSpace = (low ^ (ones &* 0x20)) &+ ones &* 0x7F
    let notW = (folded ^ (ones &* 0x77)) &+ ones &* 0x7F
    let skipped = word | (letter & notW) | digit | ~notSpace
    return ~skipped & high
  }

  /// Reads the content, against the document's `definitions` (lent to
  /// the scan, not kept: a block's scan holds no reference): false when
  /// the scan refuses it. After it, `withText` gives the skeleton.
  mutating func run(definitions: Set<String>) -> Bool {
    let found = Self.acts.withUnsafeBufferPointer { acts in scan(acts, definitions) }
    guard found else { return false }
    if copied > 0 { skip(bytes.count, to: bytes.count) }
    return true
  }

  /// The skeleton `run` read, given to `body`: the content itself when the
  /// scan left nothing out, else what it copied (`out`).
  func withText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    if copied == 0 { body(bytes) } else { out.withUnsafeBufferPointer(body) }
  }

  /// `run`'s pass over the content, `acts` its table: false when it refuses.
  private mutating func scan(_ acts: UnsafeBufferPointer<Bool>, _ definitions: Set<String>) -> Bool {
    var index = 0
    let end = bytes.count
    while index < end {
      // Sixteen or eight bytes at a time while they are letters, digits,
      // spaces or past ASCII (most of the text), else straight to the
      // first that is not; the last seven one by one.
      if end - index >= 16,
        Self.skipsAll(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: SIMD2<UInt64>.self))
      {
        index += 16
        continue
      }
      if end - index >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
        let stops = Self.stops(word)
        if stops == 0 {
          index += 8
          continue
        }
        // The first byte not skipped (the lowest lane: the first in
        // memory), at which the scan acts or goes on.
        index += stops.trailingZeroBitCount >> 3
        if !acts[Int(bytes[index])] {
          index += 1
          continue
        }
      } else {
        while index < end && !acts[Int(bytes[index])] { index += 1 }
        guard index < end else { break }
      }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "`"):
        isPlain = false
        guard let next = codeSpan(at: index) else { return false }
        index = next
      case UInt8(ascii: "["):
        isPlain = false
        if delimiterRuns == 1 { rendersEmphasis = false }
        guard let next = bracket(at: index, definitions) else { return false }
        index = next
      case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
        isRendered = false
        isPlain = false
        // The whole run (its other bytes would only set the same flags).
        index = delimiterRun(at: index)
      case UInt8(ascii: "!"):
        if at(index + 1) == UInt8(ascii: "[") {
          isRendered = false
          rendersEmphasis = false
        }
        index += 1
      case UInt8(ascii: "]"), UInt8(ascii: ":"), UInt8(ascii: "@"), 0x0A:
        isPlain = false
        if byte == UInt8(ascii: "]") && delimiterRuns == 1 { rendersEmphasis = false }
        if refuses(index) { return false }
        index += 1
      default:
        if refuses(index) { return false }
        index += 1
      }
    }
    return true
  }

  /// A run of backticks at `open`: a code span when a run of as many
  /// follows (cmark's scan_to_closing_backticks; runs over 80 never close),
  /// its content kept with one space trimmed at each end when both ends are
  /// a space or line end and it is not all of them; else text. Returns the
  /// index after it, nil for a span holding a NUL (U+FFFD when rendered:
  /// the renderer's to write).
  mutating func codeSpan(at open: Int) -> Int? {
    var index = open
    while at(index) == UInt8(ascii: "`") { index += 1 }
    let ticks = index - open
    let contentStart = index
    guard ticks <= 80 else { return contentStart }
    // cmark's memo (`InlineParser.closingBackticks`): after a scan that
    // found no closer, a run of this length starting at or before here
    // was the last one seen, and none closes. Runs seen before that scan
    // lie before it and it saw every later one: the memo is kept from it on.
    if scannedForBackticks && backticks![ticks] <= contentStart { return contentStart }
    while true {
      while index < bytes.count && bytes[index] != UInt8(ascii: "`") { index += 1 }
      guard index < bytes.count else {
        if !scannedForBackticks { rememberRuns(from: contentStart) }
        return contentStart
      }
      let run = index
      while at(index) == UInt8(ascii: "`") { index += 1 }
      if scannedForBackticks && index - run <= 80 { backticks![index - run] = run }
      guard index - run == ticks else { continue }
      var start = contentStart
      var stop = run
      var nonSpace = false
      for k in start..<stop {
        if bytes[k] == 0 { return nil }
        if bytes[k] != 0x20 && bytes[k] != 0x0A { nonSpace = true }
      }
      if nonSpace && (bytes[start] == 0x20 || bytes[start] == 0x0A)
        && (bytes[stop - 1] == 0x20 || bytes[stop - 1] == 0x0A)
      {
        start += 1
        stop -= 1
      }
      // The content alone, between spaces only where the text has them.
      skip(open, to: start)
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<stop]))
      copied = index
      return index
    }
  }

  /// The memo of a scan from `start` to the end that found no closer: the
  /// last run of each length in it.
  mutating func rememberRuns(from start: Int) {
    var backticks = [Int](repeating: 0, count: 81)
    defer { self.backticks = backticks }
    var index = start
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "`") else {
        index += 1
        continue
      }
      let run = index
      while at(index) == UInt8(ascii: "`") { index += 1 }
      if index - run <= 80 { backticks[index - run] = run }
    }
    scannedForBackticks = true
  }

  /// A `[` at `open`: its text up to `]` with no bracket, backtick or
  /// refused byte in it, then an inline link with a plain destination
  /// (left out), a full reference to a defined label (left out), or
  /// anything a shortcut or failed reference leaves as text. Returns where
  /// to go on (the parser goes on there too), nil when the skeleton cannot
  /// tell.
  mutating func bracket(at open: Int, _ definitions: Set<String>) -> Int? {
    var close = open + 1
    while close < bytes.count {
      let byte = bytes[close]
      if byte == UInt8(ascii: "]") { break }
      if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "`") || refuses(close) { return nil }
      switch byte {
      case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"):
        isRendered = false
        rendersEmphasis = false
      default: break
      }
      close += 1
    }
    guard close < bytes.count else { return nil }
    let after = close + 1
    if at(after) == UInt8(ascii: "(") {
      var cursor = after + 1
      while cursor < bytes.count, Self.isPlainDestinationByte(bytes[cursor]) { cursor += 1 }
      guard cursor > after + 1, at(cursor) == UInt8(ascii: ")") else { return nil }
      // The link's text alone.
      skip(open, to: open + 1)
      skip(close, to: cursor + 1)
      return cursor + 1
    }
    guard at(after) == UInt8(ascii: "[") else {
      // A shortcut reference (its text alone) or text.
      if rendersEmphasis && isDefined(open + 1..<close, in: definitions) {
        skip(open, to: open + 1)
        skip(close, to: after)
      }
      return after
    }
    // A full or collapsed reference (cmark's link_label: at most 1000
    // bytes, no bracket inside), else the opener's text as a shortcut.
    var labelEnd = after + 1
    while labelEnd < bytes.count, bytes[labelEnd] != UInt8(ascii: "["), bytes[labelEnd] != UInt8(ascii: "]") {
      labelEnd += 1
    }
    let found = labelEnd < bytes.count && bytes[labelEnd] == UInt8(ascii: "]") && labelEnd - after - 1 <= 1000
    var label = found ? trimmed(after + 1..<labelEnd) : nil
    if label == nil || label!.isEmpty { label = open + 1..<close }
    guard let label, isDefined(label, in: definitions) else {
      // Not a link: `]` is text and the parser goes on at the next `[`.
      return after
    }
    guard found else {
      // A shortcut reference: its text alone.
      skip(open, to: open + 1)
      skip(close, to: after)
      return after
    }
    for k in after + 1..<labelEnd where refuses(k) { return nil }
    // The link's text alone.
    skip(open, to: open + 1)
    skip(close, to: labelEnd + 1)
    return labelEnd + 1
  }

  /// A bare destination's bytes that need nothing of cmark's rules beyond
  /// "up to `)`": printable ASCII without white space, parentheses, angle
  /// brackets, brackets, backticks, quotes, escapes or entities.
  static func isPlainDestinationByte(_ byte: UInt8) -> Bool {
    guard byte > 0x20 && byte < 0x7F else { return false }
    switch byte {
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["),
      UInt8(ascii: "]"), UInt8(ascii: "`"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"),
      UInt8(ascii: "&"):
      return false
    default: return true
    }
  }

  func trimmed(_ range: Range<Int>) -> Range<Int> {
    var low = range.lowerBound
    var high = range.upperBound
    while low < high && LinkSyntax.isSpace(bytes[low]) { low += 1 }
    while high > low && LinkSyntax.isSpace(bytes[high - 1]) { high -= 1 }
    return low..<high
  }

  /// Whether a label names one of `definitions`, as the inline parser asks
  /// it.
  func isDefined(_ label: Range<Int>, in definitions: Set<String>) -> Bool {
    guard !label.isEmpty && label.count <= 1000 else { return false }
    guard let normalized = ReferenceDefinitions.normalizedLabel(UnsafeBufferPointer(rebasing: bytes[label])) else {
      return false
    }
    return definitions.contains(normalized)
  }
}
