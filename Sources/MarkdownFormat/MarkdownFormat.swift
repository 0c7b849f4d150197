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
/// Markdown is read whole: a link reference definition anywhere in the
/// document decides whether `[text][label]` earlier on is a link, so a
/// block's rendered text depends on lines after it.
package struct MarkdownFormat: StructuredFormat {
  package init() {}

  package var name: String { "markdown" }
  package var displayName: String { "a Markdown document" }
  package var entryNoun: String { "block" }
  /// Markdown has no syntax errors: only text that is not UTF-8 stops it.
  package var syntaxCode: RuleCode { .invalidUtf8 }
  package var readsWhole: Bool { true }
  package var paragraphRules: [ParagraphRule] { [MarkdownRules.blockDirection] }

  package func identifierControlMessage(_ control: BidiControl, in entry: TextEntry) -> String {
    "\(control.displayName) in a link destination: the link looks like one without it but goes to a different address"
  }

  /// Marks are written as the characters themselves: an entity (`&rlm;`)
  /// inside a code span or autolink would show as written.
  package func spelling(_ votes: SpellingVotes) -> MarkSpelling { .literal }

  package func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    guard sink.boundary(line: cursor.line, state) else { return }
    let source = MarkdownSource(Self.joinedLines(cursor.lines))
    // The cursor goes to the end of the readable text (or its first byte
    // that is not UTF-8, which `ReadSink.finish(at:)` reports).
    while !cursor.isAtEnd { cursor.skip(toColumn: cursor.bytes.count) }
    let blocks = MarkdownReader().read(source)
    let renderer = MarkdownInlineRenderer(source: source, definitions: blocks.definitions)
    for block in blocks.blocks {
      if block.kind.hasInlineContent {
        sink.add(MarkdownEntries.entry(block, renderer.render(block), source: source))
      } else if let region = Self.region(block) {
        sink.items.append(.region(region))
      }
    }
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

  /// The document's lines joined with `\n`, as `MarkdownSource` splits them.
  static func joinedLines(_ lines: any DocumentLines) -> [UInt8] {
    var bytes: [UInt8] = []
    for line in 0..<lines.lineCount {
      if line > 0 { bytes.append(0x0A) }
      lines.withUTF8(ofLine: line) { bytes.append(contentsOf: $0) }
    }
    return bytes
  }
}
