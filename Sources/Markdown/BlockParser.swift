/// Reads a Markdown document's leaf blocks as Debian 12's cmark-gfm
/// (0.29.0.gfm.6, with the table, strikethrough, tasklist and autolink
/// extensions) reads them, line by line in one pass (cmark's blocks.c:
/// match the open containers, open new blocks, add the line's text).
package struct MarkdownReader: Sendable {
  /// What the reader reads beyond CommonMark and GFM.
  package struct Options: Hashable, Sendable {
    /// `---` … `---` (or `...`) at the very start is front matter.
    package var frontMatter: Bool

    package init(frontMatter: Bool = true) { self.frontMatter = frontMatter }
  }

  package var options: Options

  package init(options: Options = Options()) { self.options = options }

  /// The blocks of `source` from line `startLine`, which must be 0 or one
  /// of a full read's checkpoints; when `stopLine` is given, the read
  /// stops at the first checkpoint after `startLine` at or past it.
  /// `startsDocument` false says that `source` is a stretch of a document
  /// starting at one of its checkpoints: its first line has no BOM and
  /// starts no front matter.
  package func read(
    _ source: MarkdownSource, from startLine: Int = 0, stoppingAtCheckpointFrom stopLine: Int? = nil,
    startsDocument: Bool = true
  ) -> MarkdownBlocks {
    read(source, from: startLine, stoppingAtCheckpointFrom: stopLine, startsDocument: startsDocument, shortcuts: true)
      .blocks
  }

  /// `read(_:from:stoppingAtCheckpointFrom:startsDocument:)`, with or
  /// without the parser's shortcut for top-level lines
  /// (`takeTopLevelLine`), and how many lines took it (for the tests that
  /// compare both reads).
  func read(
    _ source: MarkdownSource, from startLine: Int = 0, stoppingAtCheckpointFrom stopLine: Int? = nil,
    startsDocument: Bool = true, shortcuts: Bool
  ) -> (blocks: MarkdownBlocks, shortcutLines: Int) {
    source.bytes.withUnsafeBufferPointer { bytes in
      var parser = BlockParser(source: source, bytes: bytes)
      parser.startsDocument = startsDocument
      parser.shortcuts = shortcuts
      var line = max(0, min(startLine, source.lineCount))
      // Room for three blocks every four lines of a read to the end (more
      // than prose has; a table has more), as much as the source can hold:
      // the array is not grown and copied as blocks come.
      if stopLine == nil { parser.blocks.reserveCapacity(min((source.lineCount - line) * 3 / 4, bytes.count / 16)) }
      if line == 0 && startsDocument && options.frontMatter, let end = parser.frontMatterEnd() {
        parser.checkpoints.append(0)
        parser.emitFrontMatter(through: end)
        line = end + 1
      }
      while line < source.lineCount {
        if parser.stack.count == 1 {
          if let stopLine, line >= stopLine, line > startLine {
            return (parser.finish(endLine: line), parser.shortcutLines)
          }
          if parser.checkpoints.last != line { parser.checkpoints.append(line) }
        }
        parser.process(line)
        line += 1
      }
      return (parser.finish(endLine: source.lineCount), parser.shortcutLines)
    }
  }
}

/// One pass of the block reader over a source.
struct BlockParser {
  let source: MarkdownSource
  let bytes: UnsafeBufferPointer<UInt8>
  var stack = ContainerStack()
  var blocks: [MarkdownBlock] = []
  var checkpoints: [Int] = []
  /// Whether line 0 is the document's first line (which may start with a BOM).
  var startsDocument = true
  /// The open leaf's lines: a paragraph's pieces, a code or HTML block's.
  var leafPieces: [MarkdownPiece] = []
  var leafFirstLine = 0
  var leafLastLine = 0
  var fenceInfo = ""
  /// How many of the open paragraph's pieces are known to be well-formed
  /// UTF-8, and the first known not to be.
  var checkedPieces = 0
  var illFormedPiece: Int? = nil
  /// The open table's alignments and next row.
  var alignments: [MarkdownAlignment] = []
  var tableRow = 0
  /// The first non-blank byte of the line being read as a row of the open
  /// table, found when matching the table, its cells then in `rowCells`:
  /// the row is emitted from them, not scanned again.
  var matchedRow: Int? = nil
  /// The cells of the last row read (one array for all rows).
  var rowCells: [Range<Int>] = []
  /// Whether `process` may take a top-level line by `takeTopLevelLine`,
  /// and how many it took.
  var shortcuts = true
  var shortcutLines = 0

  init(source: MarkdownSource, bytes: UnsafeBufferPointer<UInt8>) {
    self.source = source
    self.bytes = bytes
  }

  mutating func finish(endLine: Int) -> MarkdownBlocks {
    while stack.count > 1 { closeTop() }
    return MarkdownBlocks(blocks: blocks, checkpoints: checkpoints, endLine: endLine)
  }

  // MARK: One line

  mutating func process(_ line: Int) {
    let start = source.lineStarts[line]
    let end = source.lineEnds[line]
    let bom =
      line == 0 && startsDocument && end - start >= 3 && bytes[start] == 0xEF && bytes[start + 1] == 0xBB
      && bytes[start + 2] == 0xBF
    var cursor = LineCursor(bytes: bytes, start: start, end: end, skip: bom ? 3 : 0)
    matchedRow = nil
    cursor.findFirstNonspace()
    if cursor.blank {
      if shortcuts && stack.count <= 2 && takeTopLevelBlankLine(line, end: end) { return }
      processBlankLine(line, cursor)
      return
    }
    if shortcuts && stack.count <= 2 && takeTopLevelLine(line, &cursor) { return }
    guard let matched = matchOpenBlocks(line, &cursor) else { return }
    var container = matched
    let taken = openNewBlocks(line, &cursor, &container, allMatched: matched == stack.top)
    if !taken { addText(line, &cursor, container: container, matched: matched) }
  }

  /// A line of spaces and tabs: it closes what a blank line closes and
  /// adds a line to an open code or HTML block. List items are matched by
  /// their indentation while the line has some left (each match takes two
  /// columns or more); after that, by cmark's blank-line rules, found in
  /// logarithmic time.
  private mutating func processBlankLine(_ line: Int, _ cursor: LineCursor) {
    var cursor = cursor
    var matched = 0
    var index = 1
    while index < stack.count && cursor.indent > 0 {
      switch stack[index].kind {
      case .list:
        break
      case .item(let data) where cursor.indent >= data.markerOffset + data.padding:
        cursor.advance(columns: data.markerOffset + data.padding)
        cursor.findFirstNonspace()
      default:
        cursor.advanceToFirstNonspace()
        cursor.findFirstNonspace()
        continue
      }
      matched = index
      index += 1
    }
    if index < stack.count {
      matched = (stack.firstBlankBreaker(from: index) ?? stack.count) - 1
    }
    while stack.top > matched { closeTop() }
    switch stack[stack.top].kind {
    case .fencedCode, .indentedCode, .html:
      addLeafPiece(line, from: cursor.end, to: cursor.end)
    default:
      break
    }
  }

  /// cmark's check_open_blocks: the last open block whose continuation the
  /// line matches; nil when the line closed a fenced code block.
  private mutating func matchOpenBlocks(_ line: Int, _ cursor: inout LineCursor) -> Int? {
    var matched = 0
    var index = 1
    while index < stack.count {
      cursor.findFirstNonspace()
      let node = stack[index]
      var continues: Bool
      switch node.kind {
      case .document, .list:
        continues = true
      case .blockQuote:
        continues = cursor.indent <= 3 && cursor[cursor.firstNonspace] == UInt8(ascii: ">")
        if continues {
          cursor.advance(columns: cursor.indent + 1)
          if cursor.isSpaceOrTab(cursor.offset) { cursor.advance(columns: 1) }
        }
      case .item(let data):
        if cursor.indent >= data.markerOffset + data.padding {
          cursor.advance(columns: data.markerOffset + data.padding)
          continues = true
        } else {
          continues = cursor.blank && node.children > 0
          if continues { cursor.advanceToFirstNonspace() }
        }
      case .fencedCode(let fence, let length, let fenceOffset):
        if cursor.indent <= 3 && cursor[cursor.firstNonspace] == fence
          && cursor.closeCodeFence(at: cursor.firstNonspace) >= length
        {
          leafLastLine = line
          closeTop()
          return nil
        }
        var spaces = fenceOffset
        while spaces > 0 && cursor.isSpaceOrTab(cursor.offset) {
          cursor.advance(columns: 1)
          spaces -= 1
        }
        continues = true
      case .indentedCode:
        if cursor.indent >= 4 {
          cursor.advance(columns: 4)
          continues = true
        } else {
          continues = cursor.blank
          if continues { cursor.advanceToFirstNonspace() }
        }
      case .html(let kind):
        continues = kind <= 5 || !cursor.blank
      case .paragraph:
        continues = !cursor.blank
      case .table:
        let first = cursor.firstNonspace
        matchedRow = !cursor.blank && Tables.row(cursor, from: first, into: &rowCells) ? first : nil
        continues = matchedRow != nil
      }
      guard continues else { break }
      matched = index
      index += 1
    }
    return matched
  }

  /// cmark's open_new_blocks. Returns true when the line is taken whole (a
  /// heading, a thematic break, a setext underline, a table row, a fence).
  private mutating func openNewBlocks(
    _ line: Int, _ cursor: inout LineCursor, _ container: inout Int, allMatched: Bool
  ) -> Bool {
    var maybeLazy = stack[stack.top].kind.isParagraph
    var kind = stack[container].kind
    while !kind.isCode {
      cursor.findFirstNonspace()
      let indented = cursor.indent >= 4
      let first = cursor.firstNonspace
      // A line whose text starts with a byte that opens no block (most:
      // letters, digits aside) goes straight to its text.
      if !indented && !Self.mayOpenBlock(cursor[first]) {
        return continueLine(line, &cursor, kind: kind, first: first, indented: indented)
      }
      let html = HTMLSyntax(bytes: bytes, end: cursor.end)
      if !indented && cursor[first] == UInt8(ascii: ">") {
        cursor.advance(bytes: first + 1 - cursor.offset)
        if cursor.isSpaceOrTab(cursor.offset) { cursor.advance(columns: 1) }
        container = addChild(.blockQuote, to: container, line: line)
      } else if !indented, case let matched = cursor.atxHeadingStart(at: first), matched > 0 {
        cursor.advance(bytes: first + matched - cursor.offset)
        var level = 0
        while cursor[first + level] == UInt8(ascii: "#") { level += 1 }
        emitATXHeading(line, &cursor, level: level, under: container)
        return true
      } else if !indented, case let matched = cursor.openCodeFence(at: first), matched > 0 {
        let fence = cursor[first]
        let fenceOffset = first - cursor.offset
        container = addChild(
          .fencedCode(fence: fence, length: min(matched, 255), offset: fenceOffset), to: container, line: line)
        cursor.advance(bytes: first + matched - cursor.offset)
        leafFirstLine = line
        leafLastLine = line
        fenceInfo = Entities.infoString(bytes, cursor.offset..<cursor.end)
        return true
      } else if !indented,
        case let htmlKind = html.blockStart(at: first),
        htmlKind > 0 || (!kind.isParagraph && html.blockStart7(at: first))
      {
        container = addChild(.html(htmlKind > 0 ? htmlKind : 7), to: container, line: line)
        leafFirstLine = line
      } else if !indented && kind.isParagraph, case let level = cursor.setextHeadingLine(at: first), level > 0 {
        resolveDefinitions()
        if !leafPieces.isEmpty {
          let pieces = leafBlockPieces
          clearLeaf()
          blocks.append(MarkdownBlock(kind: .heading(level: level), lines: pieces[0].line...line, pieces: pieces))
          stack.pop()
          cursor.advanceToEnd()
          return true
        }
      } else if !indented && !(kind.isParagraph && !allMatched) && cursor.thematicBreak(at: first) {
        _ = prepareClosedLeaf(under: container)
        blocks.append(MarkdownBlock(kind: .thematicBreak, lines: line...line, pieces: []))
        stack.addClosedChild()
        return true
      } else if cursor.indent < 4, !indented || isList(kind),
        let (length, found) = cursor.listMarker(at: first, interruptsParagraph: kind.isParagraph)
      {
        var data = found
        data.markerOffset = cursor.indent
        cursor.advance(bytes: first + length - cursor.offset)
        let saved = (cursor.offset, cursor.column, cursor.partiallyConsumedTab)
        while cursor.column - saved.1 <= 5 && cursor.isSpaceOrTab(cursor.offset) { cursor.advance(columns: 1) }
        let spaces = cursor.column - saved.1
        if spaces >= 5 || spaces < 1 || cursor.offset >= cursor.end {
          data.padding = length + 1
          (cursor.offset, cursor.column, cursor.partiallyConsumedTab) = saved
          if spaces > 0 { cursor.advance(columns: 1) }
        } else {
          data.padding = length + spaces
        }
        if case .list(let list) = kind, list.matches(data) {
        } else {
          container = addChild(.list(data), to: container, line: line)
        }
        container = addChild(.item(data), to: container, line: line)
      } else if indented && !maybeLazy && !cursor.blank {
        cursor.advance(columns: 4)
        container = addChild(.indentedCode, to: container, line: line)
        leafFirstLine = line
      } else {
        return continueLine(line, &cursor, kind: kind, first: first, indented: indented)
      }
      kind = stack[container].kind
      if kind.acceptsLines { break }
      maybeLazy = false
    }
    return false
  }

  /// Whether a block can open at a line's first non-blank byte `byte`
  /// (not indented): a block quote's `>`, an ATX heading's `#`, a fence's
  /// `` ` `` or `~`, HTML's `<`, a setext underline's `=` or `-`, a
  /// thematic break's `*`, `-` or `_`, a list marker's `*`, `-`, `+` or
  /// digit. `openNewBlocks` tries none for another byte.
  @inline(__always) static func mayOpenBlock(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ">"), UInt8(ascii: "#"), UInt8(ascii: "`"), UInt8(ascii: "~"), UInt8(ascii: "<"),
      UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "+"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return false
    }
  }

  /// The end of `openNewBlocks` when no block opens at `first`: a table's
  /// delimiter row under a paragraph, a row of an open table, a task box.
  /// Returns true when the line is taken whole.
  private mutating func continueLine(
    _ line: Int, _ cursor: inout LineCursor, kind: ContainerStack.Kind, first: Int, indented: Bool
  ) -> Bool {
    if !indented && kind.isParagraph {
      return openTable(line, cursor)
    } else if !indented, case .table = kind,
      matchedRow == first || Tables.row(cursor, from: first, into: &rowCells)
    {
      emitRow(line, rowCells)
      return true
    } else if case .item = kind, cursor.taskListItem() {
      cursor.advance(bytes: 3)
    }
    return false
  }

  /// cmark's add_text_to_container: a lazy continuation line, a line of a
  /// code, HTML or paragraph block, or a new paragraph.
  private mutating func addText(_ line: Int, _ cursor: inout LineCursor, container: Int, matched: Int) {
    cursor.findFirstNonspace()
    if stack.top != matched && container == matched && !cursor.blank && stack[stack.top].kind.isParagraph {
      addLeafPiece(line, from: cursor.offset, to: cursor.end)
      if cursor.partiallyConsumedTab { leafPieces[leafPieces.count - 1].tabSpaces = 4 - cursor.column % 4 }
      return
    }
    if container == matched {
      while stack.top > matched { closeTop() }
    }
    switch stack[stack.top].kind {
    case .fencedCode, .indentedCode:
      addLeafPiece(line, from: cursor.offset, to: cursor.end)
    case .html(let kind):
      addLeafPiece(line, from: cursor.offset, to: cursor.end)
      if kind <= 5 && HTMLSyntax(bytes: bytes, end: cursor.end).blockEnds(kind, from: cursor.firstNonspace) {
        closeTop()
      }
    case .paragraph:
      if !cursor.blank {
        cursor.advanceToFirstNonspace()
        addLeafPiece(line, from: cursor.offset, to: cursor.end)
      }
    default:
      guard !cursor.blank else { return }
      _ = addChild(.paragraph, to: stack.top, line: line)
      leafFirstLine = line
      cursor.advanceToFirstNonspace()
      addLeafPiece(line, from: cursor.offset, to: cursor.end)
    }
  }

  // MARK: Opening and closing

  /// cmark's add_child: closes what is open above `parent`, then what
  /// cannot contain a block of `kind`, and opens it.
  mutating func addChild(_ kind: ContainerStack.Kind, to parent: Int, line: Int) -> Int {
    while stack.top > parent { closeTop() }
    while !stack[stack.top].kind.canContain(kind) { closeTop() }
    stack.push(kind, line: line)
    clearLeaf()
    return stack.top
  }

  /// Closes what is open above `parent` and what cannot hold a leaf block;
  /// returns the node the leaf goes in.
  mutating func prepareClosedLeaf(under parent: Int) -> Int {
    while stack.top > parent { closeTop() }
    while !stack[stack.top].kind.canContain(.paragraph) { closeTop() }
    return stack.top
  }

  /// Closes the top block (cmark's finalize), emitting it if it is a leaf.
  mutating func closeTop() {
    let node = stack[stack.top]
    switch node.kind {
    case .paragraph:
      resolveDefinitions()
      stack.pop()
      if leafPieces.isEmpty {
        stack.removeChild()
      } else {
        let pieces = leafBlockPieces
        blocks.append(
          MarkdownBlock(kind: .paragraph, lines: pieces[0].line...pieces[pieces.count - 1].line, pieces: pieces))
      }
      clearLeaf()
      return
    case .fencedCode:
      blocks.append(
        MarkdownBlock(
          kind: .fencedCode(info: fenceInfo), lines: leafFirstLine...leafLastLine,
          pieces: leafBlockPieces))
    case .indentedCode:
      while let last = leafPieces.last, isBlank(last) { leafPieces.removeLast() }
      if let last = leafPieces.last {
        blocks.append(
          MarkdownBlock(kind: .indentedCode, lines: leafFirstLine...last.line, pieces: leafBlockPieces))
      }
    case .html:
      blocks.append(
        MarkdownBlock(kind: .html, lines: leafFirstLine...leafLastLine, pieces: leafBlockPieces))
    default:
      break
    }
    clearLeaf()
    stack.pop()
  }

  /// Forgets the open leaf's pieces. Their buffer is kept for the next
  /// leaf's: a block copies its pieces (`MarkdownPieces`, no array for one
  /// piece), so the buffer stays the reader's alone.
  mutating func clearLeaf() {
    // (Array's removal of all, kept or not, is a call even for none, and
    // a generic one: a leaf's one or two pieces are removed one by one.)
    switch leafPieces.count {
    case 0: break
    case 1: leafPieces.removeLast()
    case 2:
      leafPieces.removeLast()
      leafPieces.removeLast()
    default: leafPieces.removeAll(keepingCapacity: true)
    }
    checkedPieces = 0
    illFormedPiece = nil
  }

  /// The open leaf's pieces, copied for its block. One piece (most
  /// blocks) is passed alone: the array is not retained and released.
  private var leafBlockPieces: MarkdownPieces {
    leafPieces.count == 1 ? MarkdownPieces(leafPieces[0]) : MarkdownPieces(leafPieces)
  }

  mutating func addLeafPiece(_ line: Int, from start: Int, to end: Int) {
    let lineStart = source.lineStarts[line]
    let low = min(start, end) - lineStart
    leafPieces.append(MarkdownPiece(line: line, columns: low..<(end - lineStart)))
    leafLastLine = line
  }

  private func isBlank(_ piece: MarkdownPiece) -> Bool {
    source.bytes(of: piece).allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  private func isList(_ kind: ContainerStack.Kind) -> Bool {
    if case .list = kind { return true }
    return false
  }

  /// Reads the link reference definitions off the front of the open
  /// paragraph (`leafPieces`), emitting them.
  private mutating func resolveDefinitions() {
    // A paragraph that does not start with `[` holds none (most): no read.
    guard let first = leafPieces.first, !first.columns.isEmpty,
      bytes[source.lineStarts[first.line] + first.columns.lowerBound] == UInt8(ascii: "[")
    else { return }
    let definitions = ReferenceDefinitions.read(leafPieces, in: source)
    var used = 0
    for definition in definitions {
      let pieces = MarkdownPieces(leafPieces[used..<(used + definition.lineCount)])
      used += definition.lineCount
      guard let label = definition.label else { continue }
      blocks.append(
        MarkdownBlock(
          kind: .linkReferenceDefinition(label: label, destination: definition.destination),
          lines: pieces[0].line...pieces[pieces.count - 1].line, pieces: pieces))
    }
    leafPieces.removeFirst(used)
    checkedPieces = max(0, checkedPieces - used)
    illFormedPiece = illFormedPiece.flatMap { $0 >= used ? $0 - used : nil }
  }
}
