import UnicodeBidi

/// How a table column's cells are aligned (the delimiter row's colons).
package enum MarkdownAlignment: Hashable, Sendable {
  case none, left, center, right
}

/// What a block is. Paragraphs, headings and table cells have inline
/// content (rendered by `MarkdownInlineRenderer`); the others are regions of
/// whole lines that a renderer does not show as prose.
package enum MarkdownBlockKind: Hashable, Sendable {
  case paragraph
  /// An ATX (`# …`) or setext (underlined) heading of level 1–6.
  case heading(level: Int)
  /// A GFM table cell: its row (0 is the header row), its column, and the
  /// column's alignment.
  case tableCell(row: Int, column: Int, alignment: MarkdownAlignment)
  /// A fenced code block; `info` is its info string, decoded (escapes and
  /// entities) and trimmed as CommonMark defines it.
  case fencedCode(info: String)
  case indentedCode
  case html
  case thematicBreak
  /// A link reference definition: its label (normalized: case-folded, white
  /// space collapsed) and its destination's source range.
  case linkReferenceDefinition(label: String, destination: SourceRange)
  /// `---` … `---` (or `...`) at the very start of the document: YAML front
  /// matter, which CommonMark does not know but static site generators skip.
  case frontMatter

  /// True for the blocks with inline content (paragraph, heading, table cell).
  package var hasInlineContent: Bool {
    switch self {
    case .paragraph, .heading, .tableCell: return true
    default: return false
    }
  }

  /// The fenced code block's language: the first word of its info string
  /// (nil for other blocks and for an empty info string).
  package var language: String? {
    guard case .fencedCode(var info) = self else { return nil }
    // ASCII (most info strings): its bytes are its characters, read as
    // bytes (nil from them: not ASCII; nil inside: no word).
    var whole = false
    let ascii = info.withUTF8 { utf8 -> String?? in
      guard !utf8.contains(where: { $0 >= 0x80 }) else { return nil }
      guard let start = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return .some(nil) }
      let end = utf8[start...].firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) ?? utf8.count
      whole = start == 0 && end == utf8.count
      return whole ? .some(nil) : String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<end]), as: UTF8.self)
    }
    // The whole info string (most often): itself, no copy.
    if whole { return info }
    if let ascii { return ascii }
    let first = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first
    return first.map(String.init)
  }
}

/// One leaf block of a Markdown document, wherever it is nested (block
/// quotes, list items).
package struct MarkdownBlock: Hashable, Sendable {
  package var kind: MarkdownBlockKind
  /// The lines the block occupies, from its first to its last (a setext
  /// heading's underline and a code block's fences included).
  package var lines: ClosedRange<Int>
  /// For blocks with inline content: the source the inline parser reads,
  /// one piece per line, in order — container markers (`>`, list markers,
  /// task boxes), a heading's `#`s and underline, table pipes and the
  /// delimiter row excluded; a line's trailing white space included (it can
  /// make a hard break). For code blocks: each content line after the
  /// container prefix and the code indentation (fences excluded). For HTML
  /// blocks, definitions and front matter: each line after the container
  /// prefix. Thematic breaks have none.
  package var pieces: MarkdownPieces
  /// How the renderer reads the pieces (cmark-gfm's quirks, kept).
  var content: ContentRule = .plain

  /// How a block's pieces become the inline parser's input.
  enum ContentRule: Hashable, Sendable {
    /// Pieces joined with line feeds.
    case plain
    /// Pieces joined with line feeds, then `\|` read as `|` (table cells,
    /// and the paragraph cmark-gfm splits off before a table's header row).
    case pipesUnescaped
  }

  init(kind: MarkdownBlockKind, lines: ClosedRange<Int>, pieces: MarkdownPieces, content: ContentRule = .plain) {
    self.kind = kind
    self.lines = lines
    self.pieces = pieces
    self.content = content
  }
}

/// What reading a Markdown document (or a stretch of it) gives.
package struct MarkdownBlocks: Sendable {
  /// The leaf blocks in document order.
  package var blocks: [MarkdownBlock]
  /// The lines before which the reader's block state was empty: no open
  /// container, no open fence or HTML block, no paragraph that a lazy line
  /// could continue. Reading from any of them gives the same blocks from
  /// there on as a full read. The first line read is always one.
  package var checkpoints: [Int]
  /// The first line not read (the source's line count unless the read
  /// stopped at a checkpoint).
  package var endLine: Int

  /// The normalized labels of the link reference definitions read.
  package var definitions: Set<String> {
    var labels: Set<String> = []
    for block in blocks {
      if case .linkReferenceDefinition(let label, _) = block.kind { labels.insert(label) }
    }
    return labels
  }
}
