import BidiProtocol
import DocumentStore
import JSONRPC
import UnicodeBidi

/// `bidi/naturalDirection` and `bidi/alignment` (specification,
/// "bidi/naturalDirection", "bidi/alignment"): typed params in, entries out,
/// one paragraph at a time.
extension BidiLanguageServer {
  func naturalDirection(
    _ params: NaturalDirectionParams, _ context: RequestContext,
    _ entries: inout ResultStream<NaturalDirectionResult>
  ) throws(ResponseError) {
    let target = params.target
    try withOpenDocument(target.uri) { (document) throws(ResponseError) in
      var lines = try target.selection.lines(lineCount: document.text.lineCount)
      var options = target.options
      if let state = valuesDocument(for: target, text: document.text) {
        try forEachValueParagraph(state, lines, options, document, context) { (resolved) throws(ResponseError) in
          try entries.append(
            DirectionEntry(
              place: resolved.place, direction: resolved.direction, basis: resolved.basis,
              strongCharacter: resolved.strongCharacter))
        }
        lines = plainLines(state, lines)
        options.paragraphs = .line
      }
      var codec = positions
      try forEachParagraphDirection(lines, options, &document, context) {
        (paragraph, document) throws(ResponseError) in
        let strong = try paragraph.strongCharacter.map { (strong) throws(ResponseError) in
          codec.position(line: strong.line, try lineOf(strong.line, document), utf8Offset: strong.utf8Offset)
        }
        try entries.append(
          DirectionEntry(
            place: place(of: paragraph.line, try lineOf(paragraph.line, document), paragraph.utf8Range, &codec),
            direction: paragraph.direction, basis: paragraph.basis, strongCharacter: strong))
      }
    }
  }

  func alignment(
    _ params: AlignmentParams, _ context: RequestContext, _ entries: inout ResultStream<AlignmentResult>
  ) throws(ResponseError) {
    let target = params.target
    try withOpenDocument(target.uri) { (document) throws(ResponseError) in
      var lines = try target.selection.lines(lineCount: document.text.lineCount)
      var options = target.options
      if let state = valuesDocument(for: target, text: document.text) {
        try forEachValueParagraph(state, lines, options, document, context) { (resolved) throws(ResponseError) in
          try entries.append(
            AlignmentEntry(
              place: resolved.place, direction: resolved.direction,
              alignment: ResolvedAlignment(
                params.textAlignment, paragraph: resolved.direction, layout: options.layoutDirection)))
        }
        lines = plainLines(state, lines)
        options.paragraphs = .line
      }
      var codec = positions
      try forEachParagraphDirection(lines, options, &document, context) {
        (paragraph, document) throws(ResponseError) in
        try entries.append(
          AlignmentEntry(
            place: place(of: paragraph.line, try lineOf(paragraph.line, document), paragraph.utf8Range, &codec),
            direction: paragraph.direction,
            alignment: ResolvedAlignment(
              params.textAlignment, paragraph: paragraph.direction, layout: target.options.layoutDirection)))
      }
    }
  }

  // MARK: Shared by the bidi requests

  /// Lines per chunk of direction finding: a chunk keeps block state
  /// across most lines, and a cancel gets through between chunks.
  static let directionChunk = 4096

  /// Calls `body` with the natural direction of each paragraph of `lines`
  /// (and the document, which `body` must read through that argument), in
  /// order, finding them a chunk of lines at a time (so that a whole
  /// document never has its directions in memory at once) and checking for
  /// cancellation between chunks.
  func forEachParagraphDirection(
    _ lines: Range<Int>, _ options: DirectionOptions, _ document: inout Document, _ context: RequestContext,
    _ body: (ParagraphDirection, Document) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let resolver = DirectionResolver(options: options)
    var start = lines.lowerBound
    while start < lines.upperBound {
      if context.isCancelled {
        throw .cancelled(context)
      }
      let end = min(start + Self.directionChunk, lines.upperBound)
      let chunk: [ParagraphDirection]
      do {
        chunk = try resolver.directions(of: start..<end, in: &document.text)
      } catch {
        throw .invalidParams(error.description)
      }
      for paragraph in chunk { try body(paragraph, document) }
      start = end
    }
  }

  /// The natural directions of the paragraphs of `lines`, all at once (for
  /// a few lines).
  func paragraphDirections(
    _ lines: Range<Int>, _ options: DirectionOptions, _ document: inout Document, _ context: RequestContext
  ) throws(ResponseError) -> [ParagraphDirection] {
    var result: [ParagraphDirection] = []
    try forEachParagraphDirection(lines, options, &document, context) { paragraph, _ in result.append(paragraph) }
    return result
  }

  /// `{line, start, end}` of a paragraph entry.
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
}
