import Markdown
import StructuredText
import UnicodeBidi

/// Markdown as a structured document (contract §8): each leaf block with
/// inline content (paragraph, heading, table cell — inside block quotes and
/// list items too) is an entry holding its rendered text, mapped back to the
/// source; code spans and autolinks are atoms; fenced and indented code
/// blocks, HTML blocks and front matter are plain regions (a fenced block
/// with its info string's language, for §5's hazard rules).
///
/// Markdown is read from checkpoints (`MarkdownBlocks.checkpoints`: lines
/// before which no container, fence, HTML block or paragraph is open), a
/// stretch of lines at a time, so an index re-reads only the blocks an edit
/// touches. A link reference definition anywhere in the document decides
/// whether `[text][label]` elsewhere is a link: each definition is a fact
/// (`definitionFact`, keyed by its normalized label) and each entry names
/// the labels it looked up (`TextEntry.factKeys`); a read renders with the
/// labels the index knew before it (`ReadSink.factKeys`) and those it finds,
/// and the index re-reads the entries that looked up a label whose
/// definition appeared or went.
package struct MarkdownFormat: StructuredFormat {
  package init() {}

  package var name: String { "markdown" }
  package var displayName: String { "a Markdown document" }
  package var entryNoun: String { "block" }
  /// Markdown has no syntax errors: only text that is not UTF-8 stops it.
  package var syntaxCode: RuleCode { .invalidUtf8 }
  package var paragraphRules: [ParagraphRule] { [MarkdownRules.blockDirection] }

  package func identifierControlMessage(_ control: BidiControl, in entry: TextEntry) -> String {
    "\(control.displayName) in a link destination: the link looks like one without it but goes to a different address"
  }

  /// The kind of the facts that are link reference definitions.
  package static let definitionFact = "markdown.definition"

  /// Marks are written as the characters themselves: an entity (`&rlm;`)
  /// inside a code span or autolink would show as written.
  package func spelling(_ votes: SpellingVotes) -> MarkSpelling { .literal }

  /// How many lines the first stretch holds; each next one holds twice as
  /// many, up to `longestStretch` (a re-read after an edit stops in the
  /// first one, a whole read goes through in few).
  static let firstStretch = 128
  static let longestStretch = 1 << 15

  /// Lines read as one Markdown source, from a checkpoint (`base`), and the
  /// blocks kept from them: those before the last checkpoint in them (all,
  /// at the end of the document). `hazards`: the source's hazard lines when
  /// the text has them already (a whole text that is its own source).
  private struct Stretch {
    var base: Int
    var source: MarkdownSource
    var hazards: HazardLines?
    var blocks: ArraySlice<MarkdownBlock>
  }

  package func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    let lines = cursor.lines
    let first = cursor.line
    var stretches: [Stretch] = []
    var start = first
    // A whole read reads everything as one stretch.
    var length = sink.mayStop ? Self.firstStretch : lines.lineCount
    var stopLine: Int?
    reading: while start < lines.lineCount {
      let end = min(lines.lineCount, start + length)
      let (source, hazards) = Self.source(lines, start..<end)
      let read = MarkdownReader().read(source, startsDocument: start == 0)
      let atEnd = end == lines.lineCount
      // A checkpoint at a line says the blocks before it are closed: all
      // blocks starting before the last checkpoint are final; past it, the
      // stretch's end may have cut one.
      let last = atEnd ? source.lineCount : (read.checkpoints.last ?? 0)
      // An empty text at its end has no line to keep: it is read, not
      // retried (doubling the stretch would never reach a line).
      guard last > 0 || atEnd else {
        length *= 2
        continue
      }
      var keptThrough = last
      // Room for the stretch's checkpoints at once.
      if sink.keepsCheckpoints { Self.reserve(&sink.checkpoints, more: read.checkpoints.count) }
      for checkpoint in read.checkpoints where checkpoint <= last {
        guard sink.boundary(line: start + checkpoint, state) else {
          keptThrough = checkpoint
          stopLine = start + checkpoint
          break
        }
      }
      let kept = read.blocks.prefix { $0.lines.lowerBound < keptThrough }
      stretches.append(Stretch(base: start, source: source, hazards: hazards, blocks: kept))
      if stopLine != nil || atEnd { break reading }
      start += last
      length = min(length * 2, Self.longestStretch)
    }
    if let stopLine {
      cursor = Cursor(lines, line: stopLine)
    } else {
      // To the end of the readable text (or its first byte that is not
      // UTF-8, which `ReadSink.finish(at:)` reports).
      cursor.skipToEnd()
    }
    emit(stretches, &sink)
  }

  /// The link reference definitions from line `line` on, by the block
  /// reader alone (no inline content is rendered): what a lazily read index
  /// needs to render the blocks it has read.
  package func facts(_ lines: any DocumentLines, from line: Int) -> [DocumentFact]? {
    guard line < lines.lineCount else { return [] }
    let source = MarkdownSource(Self.joinedLines(lines, line..<lines.lineCount))
    return MarkdownReader().read(source, startsDocument: line == 0).blocks.compactMap { block in
      guard case .linkReferenceDefinition(let label, _) = block.kind else { return nil }
      return Self.definition(label, line: line + block.lines.lowerBound)
    }
  }

  static func definition(_ label: String, line: Int) -> DocumentFact {
    DocumentFact(kind: definitionFact, key: label, name: "", value: "", line: line)
  }

  /// Renders the blocks read, against the labels defined before the read
  /// and in it, and hands them to the sink: a stretch's blocks in parts
  /// (`ReadSink.runner`), their items kept in order.
  private func emit(_ stretches: [Stretch], _ sink: inout ReadSink) {
    var labels = Set(sink.factKeys.keys)
    for stretch in stretches {
      for block in stretch.blocks {
        if case .linkReferenceDefinition(let label, _) = block.kind { labels.insert(label) }
      }
    }
    let findingsOnly = sink.findingsOnly
    let withFixes = sink.needsFixes
    for stretch in stretches {
      let renderer = MarkdownInlineRenderer(source: stretch.source, definitions: labels)
      let (blocks, base, source) = (stretch.blocks, stretch.base, stretch.source)
      // The lane's hazard lines: the text's, or one scan of the source.
      let hazards = findingsOnly ? stretch.hazards ?? HazardLines(source.bytes, lineStarts: source.lineStarts) : nil
      let parts = sink.runner.parts(blocks.count).map { range in
        (blocks.startIndex + range.lowerBound)..<(blocks.startIndex + range.upperBound)
      }
      let results = sink.runner.map(parts) { range in
        Self.items(
          blocks[range], base: base, source: source, renderer: renderer, hazards: hazards, withFixes: withFixes)
      }
      // One part's items into no items (a whole read at one job): taken
      // as they are, not copied.
      if sink.items.isEmpty && results.count == 1 {
        sink.items = results[0]
        continue
      }
      Self.reserve(&sink.items, more: results.reduce(0) { $0 + $1.count })
      for items in results { sink.items += items }
    }
  }

  /// The items of `blocks` (of a stretch from line `base`): an entry per
  /// block with inline content (not those `check` leaves out, for the
  /// findings alone: given the source's `hazards`), a fact per link
  /// reference definition, a plain region per code or HTML block.
  /// `withFixes` false: a decided finding comes without its fix.
  private static func items(
    _ blocks: ArraySlice<MarkdownBlock>, base: Int, source: MarkdownSource, renderer: MarkdownInlineRenderer,
    hazards: HazardLines?, withFixes: Bool
  ) -> [ReadItem] {
    var items: [ReadItem] = []
    // At most an item a block: not grown and copied as they come.
    items.reserveCapacity(blocks.count)
    let findingsOnly = hazards != nil
    var cursor = HazardCursor(hazards ?? HazardLines([], lineStarts: [0]))
    var scratch = SkeletonScratch()
    // By index: the blocks are read where they are, not copied one by one.
    for index in blocks.indices {
      let block = blocks[index]
      if block.kind.hasInlineContent {
        if findingsOnly && MarkdownEntries.raisesNoFinding(block, source: source) { continue }
        if findingsOnly {
          switch MarkdownEntries.verdict(
            block, source: source, renderer: renderer, hazards: &cursor, base: base, withFixes: withFixes,
            scratch: &scratch, items: &items)
          {
          // Its one finding, with no entry built (`ReadItem.finding`),
          // appended.
          case .noFinding, .decided: continue
          case .blockDirection(let wanted):
            // The same, once rendered.
            let rendered = MarkdownEntries.rendered(block, source: source, renderer: renderer)
            if let finding = MarkdownEntries.blockDirectionFinding(
              block, source: source, wanted: wanted, rendered: rendered, base: base, withFixes: withFixes)
            {
              items.append(.finding(finding))
              continue
            }
          case .fullPath: break
          }
        }
        // A block whose rendered text is its source is not rendered.
        if var entry = MarkdownEntries.plainEntry(block, source: source) {
          entry.shift(by: base)
          items.append(.entry(entry))
          continue
        }
        let inline = renderer.render(block)
        var entry = MarkdownEntries.entry(block, inline, source: source)
        entry.shift(by: base)
        entry.factKeys = inline.labels
        items.append(.entry(entry))
      } else if case .linkReferenceDefinition(let label, _) = block.kind {
        items.append(.fact(Self.definition(label, line: base + block.lines.lowerBound)))
      } else if let region = Self.region(block) {
        items.append(.region(region.shifted(by: base)))
      }
    }
    return items
  }

  /// Room in `array` for `more` elements, its capacity at least doubled
  /// when it grows: reserved stretch by stretch, it is copied as often as
  /// appended to one element at a time (not once a stretch).
  static func reserve<Element>(_ array: inout [Element], more: Int) {
    let needed = array.count + more
    if array.capacity < needed { array.reserveCapacity(max(needed, 2 * array.capacity)) }
  }

  /// The lines answered as plain lines: code blocks (a fenced one with its
  /// language), HTML blocks and front matter.
  static func region(_ block: MarkdownBlock) -> PlainRegion? {
    let lines = block.lines.lowerBound..<block.lines.upperBound + 1
    switch block.kind {
    case .fencedCode: return PlainRegion(lines: lines, language: block.kind.language?.lowercased())
    case .indentedCode, .html, .frontMatter: return PlainRegion(lines: lines)
    default: return nil
    }
  }

  /// Lines `range` of the document as one Markdown source, and its hazard
  /// lines when the text has them. A whole text is its own source:
  /// `TextLines` splits it where `MarkdownSource` does (at LF, CR LF and a
  /// lone CR) but for the empty line a final terminator ends (`check` reads
  /// whole files: not copied, not split again), and its hazard lines are
  /// the text's. Other lines are joined with line feeds.
  static func source(_ lines: any DocumentLines, _ range: Range<Int>) -> (MarkdownSource, HazardLines?) {
    guard range == 0..<lines.lineCount, let text = lines as? TextLines else {
      return (MarkdownSource(joinedLines(lines, range)), nil)
    }
    var starts = text.lineStarts
    var ends = text.lineEnds
    if starts.last == text.bytes.count {
      starts.removeLast()
      ends.removeLast()
    }
    return (MarkdownSource(text.bytes, lineStarts: starts, lineEnds: ends), text.hazards)
  }

  /// Lines `range` of the document joined with `\n`, as `MarkdownSource`
  /// splits them.
  static func joinedLines(_ lines: any DocumentLines, _ range: Range<Int>) -> [UInt8] {
    var bytes: [UInt8] = []
    var total = range.count
    for line in range { total += lines.withUTF8(ofLine: line) { $0.count } }
    bytes.reserveCapacity(total)
    for line in range {
      if line > range.lowerBound { bytes.append(0x0A) }
      lines.withUTF8(ofLine: line) { bytes.append(contentsOf: $0) }
    }
    return bytes
  }
}

extension PlainRegion {
  func shifted(by lines: Int) -> PlainRegion {
    PlainRegion(lines: self.lines.lowerBound + lines..<self.lines.upperBound + lines, language: language)
  }
}
