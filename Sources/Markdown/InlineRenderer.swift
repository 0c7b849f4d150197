import UnicodeBidi

/// A code span or autolink in rendered text: never split by an edit.
package struct MarkdownAtom: Hashable, Sendable {
  package enum Kind: Hashable, Sendable {
    case codeSpan
    /// `<https://…>`, `<me@example.com>`, and GFM's `www.…`, `https://…`
    /// and bare email addresses.
    case autolink
  }

  package var kind: Kind
  /// Its UTF-8 range in the rendered text.
  package var rendered: Range<Int>
  /// Its whole source: backticks and angle brackets included.
  package var source: SourceRange

  package init(kind: Kind, rendered: Range<Int>, source: SourceRange) {
    self.kind = kind
    self.rendered = rendered
    self.source = source
  }
}

/// A block's inline content as a browser shows it, mapped back to the
/// source.
///
/// The text is what a reader sees: emphasis and strikethrough delimiters,
/// a code span's backticks, a link's brackets, destination and title, and
/// raw HTML tags count as nothing; backslash escapes and entities are
/// decoded; a link's text, an image's alt text, a code span's content and
/// an autolink's URL are text. A soft line break is one space (U+0020, what
/// a browser shows); a hard break is U+2028 LINE SEPARATOR — neither is a
/// UAX #9 paragraph separator, so the block stays one bidi paragraph.
package struct MarkdownInline: Hashable, Sendable {
  /// The rendered text, UTF-8.
  package var text: [UInt8]
  /// Per byte of `text`: where it comes from. A decoded character (escape,
  /// entity, `\|` in a table cell) maps to the escape's or entity's start,
  /// a soft or hard break to its line end, backslash or first trailing
  /// space. Never decreasing.
  package var sourceMap: [SourcePosition]
  /// Code spans and autolinks, in order.
  package var atoms: [MarkdownAtom]
  /// The source that renders as nothing and that an edit must never go
  /// inside: delimiters used by emphasis, brackets, a link's `](…)`, code
  /// span backticks, raw HTML, hard-break backslashes and spaces. In order.
  package var markup: [SourceRange]
  /// Link and image destinations, and autolinks' URLs.
  package var destinations: [SourceRange]
  /// The normalized labels the block looked up as link references, defined
  /// or not: its rendering changes when one of them is defined or no
  /// longer is (an incremental reader re-renders it then).
  package var labels: [String] = []
  /// The runs of `*`, `_` and `~` the inline parser read as delimiters, in
  /// order, and what emphasis or strikethrough used them for: where a
  /// control written next to one could change what it does (`MarkupSafety`).
  package var delimiterRuns: [MarkdownDelimiterRun] = []
}

/// A run of `*`, `_` or `~` read as a delimiter: whether emphasis (or
/// strikethrough) used it to close and to open (both for `*a**b*`'s middle
/// run; neither when it is text).
package struct MarkdownDelimiterRun: Hashable, Sendable {
  /// Its bytes in the document (`MarkdownSource.bytes`).
  package var range: Range<Int>
  package var closes: Bool
  package var opens: Bool

  package init(range: Range<Int>, closes: Bool, opens: Bool) {
    self.range = range
    self.closes = closes
    self.opens = opens
  }
}

/// The lengths of a block's delimiter runs by character, as
/// `MarkupSafety.keepsMarkup` weighs them: all of them, and those read as
/// text (neither closing nor opening).
package struct DelimiterLengths: Sendable {
  package var all: [UInt8: [Int]] = [:]
  package var text: [UInt8: [Int]] = [:]

  package init() {}

  /// Adds `run`, a run of `character`.
  package mutating func add(_ character: UInt8, _ run: MarkdownDelimiterRun) {
    all[character, default: []].append(run.range.count)
    if !run.closes && !run.opens { text[character, default: []].append(run.range.count) }
  }
}

/// Renders the inline content of paragraphs, headings and table cells as
/// cmark-gfm does, against a document's link reference definitions.
package struct MarkdownInlineRenderer: Sendable {
  package let source: MarkdownSource
  /// The document's definitions (normalized labels, as
  /// `MarkdownBlocks.definitions` gives them): a reference link resolves
  /// only to one of these.
  package let definitions: Set<String>

  package init(source: MarkdownSource, definitions: Set<String>) {
    self.source = source
    self.definitions = definitions
  }

  /// `block`'s rendered inline content (empty for blocks without any).
  package func render(_ block: MarkdownBlock) -> MarkdownInline {
    guard block.kind.hasInlineContent, !block.pieces.isEmpty else {
      return MarkdownInline(text: [], sourceMap: [], atoms: [], markup: [], destinations: [])
    }
    let content = InlineContent(block.pieces, in: source, rule: block.content, finalLineFeed: false)
    return content.bytes.withUnsafeBufferPointer { bytes in
      var parser = InlineParser(bytes: bytes, definitions: definitions)
      parser.parse()
      var output = RenderOutput(bytes: bytes)
      output.render(parser.items)
      var inline = output.finish(content, source, destinations: parser.destinations)
      inline.labels = parser.labels
      for item in parser.items where item.kind == .delimiter && item.end > item.start {
        let range = content.origins[item.start]..<content.origins[item.end - 1] + 1
        inline.delimiterRuns.append(
          MarkdownDelimiterRun(range: range, closes: item.usedFront > 0, opens: item.usedBack > 0))
      }
      return inline
    }
  }

  /// `block`'s rendered text alone: the same bytes as `render(block).text`,
  /// without the per-byte source positions, atoms and markup (what a read
  /// for findings alone needs to decide whether a block can raise one).
  package func renderedText(_ block: MarkdownBlock) -> [UInt8] {
    var lengths: DelimiterLengths?
    var first: MarkdownDelimiterRun?
    return renderedText(block, runs: &lengths, first: &first)
  }

  /// `renderedText(block)`, and the lengths of its delimiter runs and the
  /// run at its content's first byte (`first`, its range in content
  /// indices), if one starts there: what `MarkupSafety.keepsMarkup` asks
  /// about a mark at the content's start. `lengths` nil: not gathered.
  package func renderedText(
    _ block: MarkdownBlock, runs lengths: inout DelimiterLengths?, first: inout MarkdownDelimiterRun?
  ) -> [UInt8] {
    guard block.kind.hasInlineContent, !block.pieces.isEmpty else { return [] }
    let content = InlineContent(
      block.pieces, in: source, rule: block.content, finalLineFeed: false, tracksOrigins: false)
    return content.bytes.withUnsafeBufferPointer { bytes in
      var parser = InlineParser(bytes: bytes, definitions: definitions)
      parser.parse()
      var output = RenderOutput(bytes: bytes, tracksSources: false)
      output.render(parser.items)
      if lengths != nil {
        for item in parser.items where item.kind == .delimiter && item.end > item.start {
          let run = MarkdownDelimiterRun(
            range: item.start..<item.end, closes: item.usedFront > 0, opens: item.usedBack > 0)
          lengths!.add(bytes[item.start], run)
          if item.start == 0 { first = run }
        }
      }
      return output.text
    }
  }
}

/// The rendered text of a list of inline items, in content indices.
private struct RenderOutput {
  let bytes: UnsafeBufferPointer<UInt8>
  var text: [UInt8] = []
  /// Per rendered byte: the content index it comes from, and the end of
  /// what it comes from.
  var starts: [Int] = []
  var ends: [Int] = []
  var atoms: [(kind: MarkdownAtom.Kind, rendered: Range<Int>, content: Range<Int>)] = []
  var markup: [Range<Int>] = []
  /// Where the current run of text (where email autolinks are found) began.
  var runStart: Int? = nil
  /// Whether `starts`, `ends`, atoms and markup are kept (not for the text
  /// alone: `MarkdownInlineRenderer.renderedText`).
  let tracksSources: Bool

  init(bytes: UnsafeBufferPointer<UInt8>, tracksSources: Bool = true) {
    self.bytes = bytes
    self.tracksSources = tracksSources
  }

  mutating func render(_ items: [InlineItem]) {
    // The rendered text is about as long as the content (markup left
    // out, escapes and entities shorter than their source).
    text.reserveCapacity(bytes.count)
    if tracksSources {
      starts.reserveCapacity(bytes.count)
      ends.reserveCapacity(bytes.count)
    }
    for item in items {
      switch item.kind {
      case .text:
        text(item.start, item.end, eligible: !item.inLink)
      case .literal:
        textStart(eligible: !item.inLink)
        for byte in item.value { append(byte, item.start, item.end) }
      case .delimiter:
        let keepStart = item.start + item.usedFront
        let keepEnd = item.end - item.usedBack
        if item.usedFront > 0 { syntax(item.start, keepStart) }
        if keepEnd > keepStart { text(keepStart, keepEnd, eligible: !item.inLink) }
        if item.usedBack > 0 { syntax(max(keepStart, keepEnd), item.end) }
      case .bracket:
        if item.matched { syntax(item.start, item.end) } else { text(item.start, item.end, eligible: !item.inLink) }
      case .code:
        boundary()
        markup.append(item.start..<item.codeStart)
        let first = text.count
        for index in item.codeStart..<item.codeEnd {
          append(bytes[index] == 0x0A ? 0x20 : bytes[index], index, index + 1)
        }
        atoms.append((.codeSpan, first..<text.count, item.start..<item.end))
        markup.append(item.codeEnd..<item.end)
      case .angleAutolink:
        boundary()
        markup.append(item.start..<(item.start + 1))
        let first = text.count
        decodeEntities(item.start + 1, item.end - 1)
        atoms.append((.autolink, first..<text.count, item.start..<item.end))
        markup.append((item.end - 1)..<item.end)
      case .extendedAutolink:
        boundary()
        let first = text.count
        text(item.start, item.end, eligible: false)
        atoms.append((.autolink, first..<text.count, item.start..<item.end))
      case .html, .linkTail:
        syntax(item.start, item.end)
      case .softBreak:
        boundary()
        append(0x20, item.start, item.start + 1)
      case .hardBreak:
        boundary()
        if item.end > item.start { markup.append(item.start..<item.end) }
        for byte: UInt8 in [0xE2, 0x80, 0xA8] { append(byte, item.start, max(item.end, item.start + 1)) }
      }
    }
    boundary()
  }

  private mutating func append(_ byte: UInt8, _ start: Int, _ end: Int) {
    text.append(byte)
    guard tracksSources else { return }
    starts.append(start)
    ends.append(end)
  }

  /// Content bytes shown as they are.
  private mutating func text(_ start: Int, _ end: Int, eligible: Bool) {
    textStart(eligible: eligible)
    guard end > start else { return }
    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    guard tracksSources else { return }
    starts.append(contentsOf: start..<end)
    ends.append(contentsOf: (start + 1)...end)
  }

  private mutating func textStart(eligible: Bool) {
    if !eligible {
      boundary()
    } else if runStart == nil {
      runStart = text.count
    }
  }

  /// Markup, which also ends a run of text (an emphasis, link or HTML
  /// boundary in cmark's tree).
  private mutating func syntax(_ start: Int, _ end: Int) {
    boundary()
    if end > start { markup.append(start..<end) }
  }

  /// Ends the current run of text, finding its email autolinks.
  private mutating func boundary() {
    guard let start = runStart else { return }
    runStart = nil
    // Email autolinks are atoms: the text is the same without them.
    guard tracksSources else { return }
    let found = text.withUnsafeBufferPointer { all in
      EmailAutolinks.find(in: UnsafeBufferPointer(rebasing: all[start..<all.count]))
    }
    for range in found {
      let rendered = (start + range.lowerBound)..<(start + range.upperBound)
      atoms.append((.autolink, rendered, starts[rendered.lowerBound]..<ends[rendered.upperBound - 1]))
    }
  }

  /// An angle autolink's content with entities decoded.
  private mutating func decodeEntities(_ start: Int, _ end: Int) {
    var index = start
    while index < end {
      if bytes[index] == UInt8(ascii: "&"), let (value, length) = Entities.decode(bytes, at: index + 1, end: end) {
        for byte in value { append(byte, index, index + 1 + length) }
        index += 1 + length
      } else {
        append(bytes[index], index, index + 1)
        index += 1
      }
    }
  }

  /// Converts content indices to source positions.
  func finish(_ content: InlineContent, _ source: MarkdownSource, destinations: [Range<Int>]) -> MarkdownInline {
    var converter = PositionConverter(source: source)
    // A byte from the source byte after the last one's, on its line, is
    // one column on; one from the same byte, at the same place.
    var sourceMap: [SourcePosition] = []
    sourceMap.reserveCapacity(starts.count)
    var lastOffset = -2
    var last = SourcePosition(line: 0, column: 0)
    var lineEnd = -1
    for start in starts {
      let offset = content.origins[start]
      if offset == lastOffset + 1 && offset < lineEnd {
        last.column += 1
      } else if offset != lastOffset {
        last = converter.position(offset)
        lineEnd = source.lineEnds[last.line]
      }
      lastOffset = offset
      sourceMap.append(last)
    }
    func range(_ range: Range<Int>) -> SourceRange {
      let start = source.position(ofOffset: content.origins[range.lowerBound])
      guard !range.isEmpty else { return SourceRange(start: start, end: start) }
      return SourceRange(start: start, end: source.position(ofOffset: content.origins[range.upperBound - 1] + 1))
    }
    return MarkdownInline(
      text: text, sourceMap: sourceMap,
      atoms: atoms.map { MarkdownAtom(kind: $0.kind, rendered: $0.rendered, source: range($0.content)) },
      markup: markup.map(range), destinations: destinations.map(range))
  }
}

/// Source offsets to positions, for offsets that never decrease.
private struct PositionConverter {
  let source: MarkdownSource
  var line = -1

  mutating func position(_ offset: Int) -> SourcePosition {
    if line < 0 || offset < source.lineStarts[line] {
      let found = source.position(ofOffset: offset)
      line = found.line
      return found
    }
    while line + 1 < source.lineCount && source.lineStarts[line + 1] <= offset { line += 1 }
    return SourcePosition(line: line, column: min(offset, source.lineEnds[line]) - source.lineStarts[line])
  }
}
