import BidiProtocol
import DocumentStore
import JSONRPC
import Localization
import UnicodeBidi

/// One value paragraph of a values-mode answer (Protocol/localization.md), its
/// direction found by the request's strategy and fallback.
struct ResolvedValueParagraph {
  var value: LocalizedValue
  var paragraph: Int
  var analysis: ValueParagraphAnalysis
  var direction: BidiDirection
  var basis: DirectionBasis
  var strongCharacter: LSPPosition?
  /// `line`, `start`, `end`, `range`, `key`, `variant`, `locale`.
  var place: ParagraphPlace
}

/// Values mode of `bidi/naturalDirection`, `bidi/alignment` and
/// `bidi/visualOrder` (Protocol/localization.md): each value paragraph whose source
/// touches the request's lines is an entry; the lines after a syntax error
/// are answered as plain lines by the line-mode code.
extension BidiLanguageServer {
  /// The lines of `lines` answered as plain lines in a localization document.
  func plainLines(_ state: LocalizationDocument, _ lines: Range<Int>) -> Range<Int> {
    let start = min(max(lines.lowerBound, state.plainLinesStart), lines.upperBound)
    return start..<lines.upperBound
  }

  /// The strategy of the options, for values.
  func valueStrategy(_ options: DirectionOptions) -> ValueStrategy {
    switch options.strategy {
    case .firstStrong: .firstStrong
    case .estimate: .estimate(rtlThreshold: options.rtlThreshold)
    case .anyRTL: .anyRTL
    }
  }

  /// The value paragraphs of `values` whose source touches `lines`, each
  /// value with the indices of those paragraphs.
  func selectedParagraphs(_ values: [LocalizedValue], _ lines: Range<Int>) -> [(LocalizedValue, Range<Int>)] {
    var result: [(LocalizedValue, Range<Int>)] = []
    result.reserveCapacity(values.count)
    for value in values {
      if value.paragraphs.count == 1 {
        result.append((value, 0..<1))
        continue
      }
      var first: Int?
      var last = 0
      for paragraph in value.paragraphs.indices {
        let range = value.sourceRange(ofParagraph: paragraph)
        guard range.start.line < lines.upperBound && range.end.line >= lines.lowerBound else { continue }
        if first == nil { first = paragraph }
        last = paragraph + 1
      }
      if let first { result.append((value, first..<last)) }
    }
    return result
  }

  /// Calls `body` with each value paragraph touching `lines`, in order.
  func forEachValueParagraph(
    _ state: LocalizationDocument, _ lines: Range<Int>, _ options: DirectionOptions, _ document: Document,
    _ context: RequestContext, _ body: (ResolvedValueParagraph) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let strategy = valueStrategy(options)
    let fileLocale = state.fileLocale(setting: localeSetting)
    let fileLocaleName = fileLocale?.description
    var codec = positions
    var previous: BidiDirection?
    var lookedBack = false
    var count = 0
    for (value, paragraphs) in selectedParagraphs(state.index.values(touching: lines), lines) {
      let locale = value.locale.flatMap { LocaleTag($0)?.description } ?? fileLocaleName
      for paragraph in paragraphs {
        count += 1
        if count & 1023 == 0 && context.isCancelled { throw .cancelled(context) }
        let analysis = ValueParagraphAnalysis(value, paragraph: paragraph)
        let found = analysis.direction(strategy)
        let direction: BidiDirection
        let basis: DirectionBasis
        if let decided = found.direction {
          direction = decided
          basis = DirectionBasis(options.strategy)
        } else {
          basis = .fallback
          switch options.fallback {
          case .ltr: direction = .leftToRight
          case .rtl: direction = .rightToLeft
          case .layout: direction = options.layoutDirection
          case .previous:
            if previous == nil && !lookedBack {
              lookedBack = true
              previous = previousValueDirection(state, before: value, paragraph: paragraph, strategy)
            }
            direction = previous ?? options.layoutDirection
          }
        }
        if basis != .fallback { previous = direction }
        lookedBack = true
        let range = analysis.range
        var place = try paragraphPlace(range, document, &codec)
        place.key = value.key
        place.variant = value.variant
        place.locale = locale
        let strong = try found.strongCharacter.map { (position) throws(ResponseError) in
          try lspPosition(position, document, &codec)
        }
        try body(
          ResolvedValueParagraph(
            value: value, paragraph: paragraph, analysis: analysis, direction: direction, basis: basis,
            strongCharacter: options.strategy == .firstStrong ? strong : nil, place: place))
      }
    }
  }

  /// The direction of the nearest value paragraph before paragraph
  /// `paragraph` of `value` that the strategy decides (for `fallback:
  /// previous`), looking back a growing number of lines at a time.
  private func previousValueDirection(
    _ state: LocalizationDocument, before value: LocalizedValue, paragraph: Int, _ strategy: ValueStrategy
  ) -> BidiDirection? {
    for earlier in stride(from: paragraph - 1, through: 0, by: -1) {
      if let found = ValueParagraphAnalysis(value, paragraph: earlier).direction(strategy).direction {
        return found
      }
    }
    var end = value.firstLine
    var span = 64
    while end > 0 {
      let start = max(0, end - span)
      for earlier in state.index.values(touching: start..<end).reversed() where earlier.firstLine < end {
        guard earlier.firstLine < value.firstLine else { continue }
        for index in earlier.paragraphs.indices.reversed() {
          if let found = ValueParagraphAnalysis(earlier, paragraph: index).direction(strategy).direction {
            return found
          }
        }
      }
      end = start
      span *= 4
    }
    return nil
  }

  /// The place of a value paragraph: `line` and `start` at the start of
  /// its source, `end` at its end on that line (the line's end when it
  /// continues on later lines), and its `range`.
  func paragraphPlace(_ range: SourceRange, _ document: Document, _ codec: inout PositionCodec)
    throws(ResponseError) -> ParagraphPlace
  {
    let lspRange = try lspRange(range, document, &codec)
    let end =
      lspRange.end.line == lspRange.start.line
      ? lspRange.end.character : codec.length(try lineOf(lspRange.start.line, document))
    var place = ParagraphPlace(line: lspRange.start.line, start: lspRange.start.character, end: end)
    place.range = lspRange
    return place
  }

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

  // MARK: visualOrder

  /// The `bidi/visualOrder` entry of a value paragraph: its decoded text
  /// reordered, offsets and arrays counting from the start of that text.
  func valueVisualParagraph(
    _ resolved: ResolvedValueParagraph, _ direction: BidiDirection, _ params: VisualOrderParams
  ) throws(ResponseError) -> VisualParagraph {
    let text = resolved.analysis.text
    let unit = encoding
    // The separator ending a paragraph is part of its text, as on a line.
    let analysed = BidiParagraph(utf8: Array(text.utf8), direction: DirectionChoice(direction))
    let displayLines: [BidiLine]
    if let breaks = params.lineBreaks {
      do {
        displayLines = try analysed.lines(breaks: breaks, in: unit, combiningMarks: params.combiningMarks)
      } catch {
        throw .invalidParams(at: VisualOrderParams.lineBreaksPath, "\(error)")
      }
    } else {
      displayLines = [analysed.line(combiningMarks: params.combiningMarks)]
    }
    var entry = VisualParagraph(
      place: resolved.place, direction: direction,
      lines: try visualLines(displayLines, start: 0, params))
    entry.text = text
    return entry
  }
}

/// Values mode of `bidi/insertMarks` (Protocol/localization.md): every mode planned by
/// `ValuePlanner` inside the values whose paragraphs touch the request's
/// lines, marks written as the document writes them. Nothing is ever edited
/// outside a value's text, so nothing after a syntax error either.
extension BidiLanguageServer {
  func valuesInsertMarks(
    _ params: InsertMarksParams, _ state: LocalizationDocument, _ context: RequestContext,
    emit: (TextEdit) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let target = params.target
    let document = try openDocument(target.uri)
    let lines = try target.selection.lines(lineCount: document.text.lineCount)
    let spelling = state.index.spelling
    var codec = positions
    func add(_ edits: [SourceEdit]) throws(ResponseError) {
      for edit in edits {
        try emit(TextEdit(range: try lspRange(edit.range, document, &codec), newText: edit.newText))
      }
    }
    if case .isolate(let choice) = params.mode {
      guard let selection = target.selection.range else {
        throw .invalidParams(at: "params.range", "mode isolate needs a range")
      }
      let range = SourceRange(
        start: try sourcePosition(selection.start, document), end: try sourcePosition(selection.end, document))
      let holding = state.index.values(touching: range.start.line..<range.end.line + 1).first {
        $0.range.start <= range.start && range.end <= $0.range.end
      }
      guard let value = holding else {
        throw .invalidParams(at: "params.range", "range \(selection) is not inside the text of a value")
      }
      let planned: [SourceEdit]
      do throws(ValueEditError) {
        planned = try ValuePlanner(value, spelling: spelling).isolateEdits(range, kind: choice)
      } catch {
        throw .invalidParams(at: "params.range", error.description)
      }
      try add(planned)
      return
    }
    // The selected paragraphs of each value, with their directions.
    var current: (value: LocalizedValue, paragraphs: Range<Int>, directions: [BidiDirection])?
    func plan() throws(ResponseError) {
      guard let (value, paragraphs, directions) = current else { return }
      let planner = ValuePlanner(value, spelling: spelling)
      switch params.mode {
      case .direction(let wanted): try add(planner.directionEdits(wanted, paragraphs: paragraphs))
      case .placeholders(let style):
        try add(
          planner.placeholderEdits(
            style: style, directions: directions, paragraphs: paragraphs))
      case .runs: try add(planner.runEdits(directions: directions, paragraphs: paragraphs))
      case .strip(let only): try add(planner.stripEdits(only, paragraphs: paragraphs))
      case .isolate: break
      }
    }
    try forEachValueParagraph(state, lines, target.options, document, context) { (resolved) throws(ResponseError) in
      let direction = resolved.direction
      if let held = current, held.value.firstLine == resolved.value.firstLine, held.value.range == resolved.value.range
      {
        current!.paragraphs = held.paragraphs.lowerBound..<resolved.paragraph + 1
        current!.directions[resolved.paragraph] = direction
        return
      }
      try plan()
      var directions = Array(repeating: direction, count: resolved.value.paragraphs.count)
      directions[resolved.paragraph] = direction
      current = (resolved.value, resolved.paragraph..<resolved.paragraph + 1, directions)
    }
    try plan()
  }
}
