import BidiMarks
import BidiProtocol
import DocumentStore
import JSONRPC
import StructuredText
import UnicodeBidi

/// Document mode of the bidi requests in structured documents (contract §7,
/// §8): each entry paragraph whose source touches the request's range is a
/// paragraph of the answer, its direction found by the request's policy
/// from its facts as written; the plain lines are answered as lines by
/// `forEachParagraph`.
extension BidiLanguageServer {
  /// The entry paragraphs of `entries` whose source touches `selection`
  /// (nil: every one), each entry with the indices of those paragraphs; a
  /// selection that touches none (on a key, a comment, a marker) selects
  /// those of the lines it covers.
  func selectedParagraphs(_ entries: [TextEntry], _ selection: ClosedRange<SourcePosition>?)
    -> [(TextEntry, Range<Int>)]
  {
    let touched = paragraphs(of: entries, touching: selection)
    guard touched.isEmpty, let selection else { return touched }
    let lines =
      SourcePosition(
        line: selection.lowerBound.line, column: 0)...SourcePosition(
        line: selection.upperBound.line, column: Int.max)
    return paragraphs(of: entries, touching: lines)
  }

  private func paragraphs(of entries: [TextEntry], touching selection: ClosedRange<SourcePosition>?)
    -> [(TextEntry, Range<Int>)]
  {
    var result: [(TextEntry, Range<Int>)] = []
    result.reserveCapacity(entries.count)
    for entry in entries {
      guard let selection else {
        result.append((entry, entry.paragraphs.indices))
        continue
      }
      let range = entry.range
      guard range.start <= selection.upperBound && range.end >= selection.lowerBound else { continue }
      if entry.paragraphs.count == 1 {
        result.append((entry, 0..<1))
        continue
      }
      var first: Int?
      var last = 0
      for paragraph in entry.paragraphs.indices {
        let range = entry.sourceRange(ofParagraph: paragraph)
        guard range.start <= selection.upperBound && range.end >= selection.lowerBound else { continue }
        if first == nil { first = paragraph }
        last = paragraph + 1
      }
      if let first { result.append((entry, first..<last)) }
    }
    return result
  }

  /// Calls `body` with each entry paragraph touching `selection` among the
  /// entries touching `lines`, in order.
  func forEachEntryParagraph(
    _ state: StructuredDocument, _ lines: Range<Int>, _ selection: ClosedRange<SourcePosition>?,
    _ options: DirectionOptions, _ document: inout Document, _ context: RequestContext, forced: BidiDirection?,
    _ body: (TargetParagraph, inout Document) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let policy = options.policy
    let fileLocale = state.fileLocale(setting: localeSetting)?.description
    let keys = state.format.entriesHaveKeys
    var codec = positions
    var previous: BidiDirection?
    var lookedBack = false
    var count = 0
    for (entry, paragraphs) in selectedParagraphs(state.index.entries(touching: lines), selection) {
      let locale = entry.locale.flatMap { LocaleTag($0)?.description } ?? fileLocale
      for paragraph in paragraphs {
        count += 1
        if count & 1023 == 0 && context.isCancelled { throw .cancelled(context) }
        let analysis = ParagraphAnalysis(entry, paragraph: paragraph)
        let direction: BidiDirection
        let basis: DirectionBasis
        if let forced {
          (direction, basis) = (forced, .fallback)
        } else {
          (direction, basis) = policy.resolve(analysis.facts(for: policy)) {
            if previous == nil && !lookedBack {
              lookedBack = true
              previous = previousEntryDirection(state, before: entry, paragraph: paragraph, policy)
            }
            return previous
          }
          if basis != .fallback { previous = direction }
          lookedBack = true
        }
        var place = try paragraphPlace(analysis.range, document, &codec)
        if keys {
          place.key = entry.key
          place.variant = entry.variant
        }
        place.block = entry.block
        place.cue = entry.cue
        place.locale = locale
        try body(
          TargetParagraph(
            place: place, direction: direction, basis: basis,
            strongCharacter: basis == .firstStrong ? analysis.strongCharacter : nil, source: .entry(analysis)),
          &document)
      }
    }
  }

  /// The direction of the nearest entry paragraph before paragraph
  /// `paragraph` of `entry` that the policy's strategy decides (for
  /// `fallback: previous`), looking back a growing number of lines at a time.
  private func previousEntryDirection(
    _ state: StructuredDocument, before entry: TextEntry, paragraph: Int, _ policy: DirectionPolicy
  ) -> BidiDirection? {
    for earlier in stride(from: paragraph - 1, through: 0, by: -1) {
      if let found = ParagraphAnalysis(entry, paragraph: earlier).direction(policy) { return found }
    }
    var end = entry.firstLine
    var span = 64
    while end > 0 {
      let start = max(0, end - span)
      for earlier in state.index.entries(touching: start..<end).reversed() where earlier.firstLine < end {
        guard earlier.firstLine < entry.firstLine else { continue }
        for index in earlier.paragraphs.indices.reversed() {
          if let found = ParagraphAnalysis(earlier, paragraph: index).direction(policy) { return found }
        }
      }
      end = start
      span *= 4
    }
    return nil
  }

  /// The place of an entry paragraph: `line` and `start` at the start of
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

  // MARK: visualOrder

  /// The `bidi/visualOrder` entry of an entry paragraph: its decoded text
  /// reordered, offsets and arrays counting from the start of that text.
  func entryVisualParagraph(
    _ paragraph: TargetParagraph, _ analysis: ParagraphAnalysis, _ params: VisualOrderParams
  ) throws(ResponseError) -> VisualParagraph {
    let direction = paragraph.direction
    let text = analysis.text
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
      place: paragraph.place, direction: direction,
      lines: try visualLines(displayLines, start: 0, params))
    entry.text = text
    return entry
  }
}

/// Document mode of `bidi/insertMarks` (contract §7, §8): every mode planned
/// by `EntryPlanner` inside the entries whose paragraphs touch the request's
/// range, marks written as the document writes them. Nothing is ever edited
/// outside an entry's text: not a plain line, nothing after a syntax error.
extension BidiLanguageServer {
  func documentInsertMarks(
    _ params: InsertMarksParams, _ state: StructuredDocument, _ context: RequestContext,
    emit: (TextEdit) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let target = params.target
    var document = try openDocument(target.uri)
    let lines = try target.selection.lines(lineCount: document.text.lineCount)
    let spelling = state.index.spelling
    var codec = positions
    func add(_ edits: [SourceEdit], _ document: Document) throws(ResponseError) {
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
      let holding = state.index.entries(touching: range.start.line..<range.end.line + 1).first {
        $0.range.start <= range.start && range.end <= $0.range.end
      }
      guard let entry = holding else {
        throw .invalidParams(at: "params.range", "range \(selection) is not inside the text of an entry")
      }
      let planned: [SourceEdit]
      do throws(EntryEditError) {
        planned = try EntryPlanner(entry, spelling: spelling).isolateEdits(range, kind: choice)
      } catch {
        throw .invalidParams(at: "params.range", error.description)
      }
      try add(planned, document)
      return
    }
    // The selected paragraphs of each entry, with their directions.
    var current: (entry: TextEntry, paragraphs: Range<Int>, directions: [BidiDirection])?
    func plan(_ document: Document) throws(ResponseError) {
      guard let (entry, paragraphs, directions) = current else { return }
      let planner = EntryPlanner(entry, spelling: spelling)
      switch params.mode {
      case .direction(let wanted): try add(planner.directionEdits(wanted, paragraphs: paragraphs), document)
      case .placeholders(let style):
        try add(planner.placeholderEdits(style: style, directions: directions, paragraphs: paragraphs), document)
      case .runs: try add(planner.runEdits(directions: directions, paragraphs: paragraphs), document)
      case .strip(let only): try add(planner.stripEdits(only, paragraphs: paragraphs), document)
      case .isolate: break
      }
    }
    let selection = try sourceSelection(target.selection, document)
    try forEachEntryParagraph(state, lines, selection, target.options, &document, context, forced: nil) {
      (paragraph, document) throws(ResponseError) in
      guard case .entry(let analysis) = paragraph.source else { return }
      let entry = analysis.entry
      if let held = current, held.entry.firstLine == entry.firstLine, held.entry.range == entry.range {
        current!.paragraphs = held.paragraphs.lowerBound..<analysis.paragraph + 1
        current!.directions[analysis.paragraph] = paragraph.direction
        return
      }
      try plan(document)
      var directions = Array(repeating: paragraph.direction, count: entry.paragraphs.count)
      directions[analysis.paragraph] = paragraph.direction
      current = (entry, analysis.paragraph..<analysis.paragraph + 1, directions)
    }
    try plan(document)
  }
}
