import BidiProtocol
import DocumentStore
import JSONRPC
import StructuredText
import UnicodeBidi

/// One paragraph of a bidi request's answer, of any kind: a paragraph of a
/// line (line and block modes, and the plain lines of a structured
/// document), or a paragraph of an entry of a structured document
/// (document mode: a value, a rendered block, a cue line).
struct TargetParagraph {
  /// `line`, `start`, `end`, and in document mode `range`, `key`, `variant`,
  /// `locale`, `block`, `cue`.
  var place: ParagraphPlace
  var direction: BidiDirection
  var basis: DirectionBasis
  /// The document position of the deciding character (firstStrong only).
  var strongCharacter: SourcePosition?
  var source: Source

  enum Source {
    /// Bytes `utf8Range` of line `line`.
    case line(Int, Range<Int>)
    /// A paragraph of an entry, analysed.
    case entry(ParagraphAnalysis)
  }
}

/// The one "for each paragraph in the target" of the four bidi requests
/// (`naturalDirection`, `alignment`, `visualOrder`, `insertMarks`), whatever
/// the document and the mode.
extension BidiLanguageServer {
  /// Lines per chunk of direction finding: a chunk keeps block state
  /// across most lines, and a cancel gets through between chunks.
  static let directionChunk = 4096

  /// Calls `body` with each paragraph of the request's target, in document
  /// order, with its direction (`forced`, when given, instead of the
  /// natural one) and the document (which `body` must read through that
  /// argument). In a structured document in document mode: the entry
  /// paragraphs the request's range touches (by position: a range inside
  /// one branch of an ICU `select` touches that branch and the message, not
  /// its other branches), and the plain lines it covers (after a syntax
  /// error, in a plain region) as lines; elsewhere the paragraphs of its
  /// lines, a chunk of lines at a time, in line or block mode.
  func forEachParagraph(
    _ target: BidiRequestTarget, _ document: inout Document, _ context: RequestContext, forced: BidiDirection? = nil,
    _ body: (TargetParagraph, Document) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let lines = try target.selection.lines(lineCount: document.text.lineCount)
    guard let state = structuredDocument(for: target, text: document.text) else {
      try forEachLineParagraph(lines, target.options, &document, context, forced: forced, body)
      return
    }
    var options = target.options
    options.paragraphs = .line
    var plain = plainLineRanges(state, lines)
    var nextPlain = 0
    /// The plain lines before line `line`, as lines.
    func plainLines(before line: Int, _ document: inout Document) throws(ResponseError) {
      while nextPlain < plain.count, plain[nextPlain].lowerBound < line {
        let range = plain[nextPlain].lowerBound..<min(plain[nextPlain].upperBound, line)
        try forEachLineParagraph(range, options, &document, context, forced: forced, body)
        if range.upperBound < plain[nextPlain].upperBound {
          plain[nextPlain] = range.upperBound..<plain[nextPlain].upperBound
        } else {
          nextPlain += 1
        }
      }
    }
    let selection = try sourceSelection(target.selection, document)
    try forEachEntryParagraph(state, lines, selection, target.options, &document, context, forced: forced) {
      (paragraph, document) throws(ResponseError) in
      try plainLines(before: paragraph.place.line, &document)
      try body(paragraph, document)
    }
    try plainLines(before: Int.max, &document)
  }

  /// The lines of `lines` a structured document answers as plain lines:
  /// from the syntax error's on, and the plain regions (code blocks).
  func plainLineRanges(_ state: StructuredDocument, _ lines: Range<Int>) -> [Range<Int>] {
    var result = state.index.regions(touching: lines).map { $0.lines.clamped(to: lines) }
    let start = min(max(lines.lowerBound, state.plainLinesStart), lines.upperBound)
    if start < lines.upperBound { result.append(start..<lines.upperBound) }
    return result.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
  }

  /// The request's range in lines and UTF-8 columns, both ends included
  /// (a range ending at character 0 of a later line ends with the line
  /// before, as a selection of whole lines does); nil for none.
  func sourceSelection(_ selection: LineSelection, _ document: Document) throws(ResponseError) -> ClosedRange<
    SourcePosition
  >? {
    guard let range = selection.range else { return nil }
    let start = try sourcePosition(range.start, document)
    let end: SourcePosition
    if range.end.line >= document.text.lineCount {
      end = SourcePosition(line: document.text.lineCount - 1, column: Int.max)
    } else if range.end.character == 0 && range.end.line > range.start.line {
      end = SourcePosition(line: range.end.line - 1, column: Int.max)
    } else {
      end = try sourcePosition(range.end, document)
    }
    return start...max(start, end)
  }

  // MARK: Lines

  /// Calls `body` with the paragraph of each line of `lines` (line or block
  /// mode), finding directions a chunk of lines at a time (so that a whole
  /// document never has its directions in memory at once) and checking for
  /// cancellation between chunks; with `forced`, none is resolved.
  func forEachLineParagraph(
    _ lines: Range<Int>, _ options: DirectionOptions, _ document: inout Document, _ context: RequestContext,
    forced: BidiDirection? = nil, _ body: (TargetParagraph, Document) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let resolver = LineDirections(options)
    var codec = positions
    var start = lines.lowerBound
    while start < lines.upperBound {
      if context.isCancelled { throw .cancelled(context) }
      let end = min(start + Self.directionChunk, lines.upperBound)
      let chunk: [LineParagraphDirection]
      do {
        if let forced {
          var found: [LineParagraphDirection] = []
          for index in start..<end {
            for p in try document.text.analysis(ofLine: index).paragraphs {
              found.append(
                LineParagraphDirection(
                  line: index, utf8Range: p.utf8Range, direction: forced, basis: .fallback, strongCharacter: nil))
            }
          }
          chunk = found
        } else {
          chunk = try resolver.directions(of: start..<end, in: &document.text)
        }
      } catch {
        throw .invalidParams(error.description)
      }
      var current: (index: Int, line: Line)?
      for paragraph in chunk {
        if current?.index != paragraph.line { current = (paragraph.line, try lineOf(paragraph.line, document)) }
        try body(
          TargetParagraph(
            place: place(of: paragraph.line, current!.line, paragraph.utf8Range, &codec),
            direction: paragraph.direction, basis: paragraph.basis, strongCharacter: paragraph.strongCharacter,
            source: .line(paragraph.line, paragraph.utf8Range)), document)
      }
      start = end
    }
  }

  /// `{line, start, end}` of a paragraph of a line.
  func place(of index: Int, _ line: Line, _ utf8Range: Range<Int>, _ codec: inout PositionCodec) -> ParagraphPlace {
    // Most lines are one paragraph: their bounds need no counting.
    if utf8Range == 0..<line.utf8Count {
      return ParagraphPlace(line: index, start: 0, end: codec.length(line))
    }
    return ParagraphPlace(
      line: index, start: codec.character(line: index, line, utf8Offset: utf8Range.lowerBound),
      end: codec.character(line: index, line, utf8Offset: utf8Range.upperBound))
  }

  func lineOf(_ index: Int, _ document: Document) throws(ResponseError) -> Line {
    do {
      return try document.text.line(index)
    } catch {
      throw .invalidParams(error.description)
    }
  }

  // MARK: Positions

  /// A document position (line, UTF-8 column) on the wire.
  func lspPosition(_ position: SourcePosition, _ document: Document, _ codec: inout PositionCodec)
    throws(ResponseError) -> LSPPosition
  {
    let line = try lineOf(position.line, document)
    return codec.position(line: position.line, line, utf8Offset: min(position.column, line.utf8Count))
  }

  func lspRange(_ range: SourceRange, _ document: Document, _ codec: inout PositionCodec)
    throws(ResponseError) -> LSPRange
  {
    LSPRange(start: try lspPosition(range.start, document, &codec), end: try lspPosition(range.end, document, &codec))
  }

  /// A document position from the wire, as a line and UTF-8 column.
  func sourcePosition(_ position: LSPPosition, _ document: Document) throws(ResponseError) -> SourcePosition {
    let line = try lineOf(position.line, document)
    return SourcePosition(line: position.line, column: line.utf8Offset(ofCharacter: position.character, in: encoding))
  }
}
