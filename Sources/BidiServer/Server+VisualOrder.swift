import ArabicShaping
import BidiProtocol
import DocumentStore
import JSONRPC
import UnicodeBidi

/// `bidi/visualOrder` (specification, "bidi/visualOrder"): the Unicode
/// Bidirectional Algorithm for each paragraph, per display line, each
/// paragraph written to the answer as soon as it is reordered.
extension BidiLanguageServer {
  func visualOrder(
    _ params: VisualOrderParams, _ context: RequestContext, _ entries: inout ResultStream<VisualOrderResult>
  ) throws(ResponseError) {
    let target = params.target
    try withOpenDocument(target.uri) { (document) throws(ResponseError) in
      let lines = try target.selection.lines(lineCount: document.text.lineCount)
      if params.lineBreaks != nil && lines.count != 1 {
        throw .invalidParams(
          at: VisualOrderParams.lineBreaksPath, "lineBreaks needs a range of one line, got \(lines.count) lines")
      }
      var lineBreaks: [Int]?
      var codec = positions
      var current: (index: Int, line: Line)?
      try forEachParagraph(target, &document, context, forced: params.direction.direction) {
        (paragraph, document) throws(ResponseError) in
        switch paragraph.source {
        case .entry(let analysis):
          // In document mode, breaks count in each entry paragraph's decoded text.
          try entries.append(entryVisualParagraph(paragraph, analysis, params))
        case .line(let index, let utf8Range):
          if current?.index != index { current = (index, try lineOf(index, document)) }
          if let breaks = params.lineBreaks, lineBreaks == nil {
            lineBreaks = try validatedBreaks(breaks, line: current!.line)
          }
          try entries.append(
            visualParagraph(
              index, current!.line, utf8Range, paragraph.direction, &codec, lineBreaks, params, context))
        }
      }
    }
  }

  /// Paragraphs at least this long check cancellation between the phases
  /// of their entry (shorter ones take well under a millisecond).
  static let cancellationCheckBytes = 64 << 10

  /// `lineBreaks` as byte offsets: increasing, strictly inside the line, on
  /// character boundaries.
  private func validatedBreaks(_ breaks: [Int], line: Line) throws(ResponseError) -> [Int] {
    let length = line.count(in: encoding)
    let units = LineUnits(line, encoding)
    var result: [Int] = []
    var previous = 0
    for (index, offset) in breaks.enumerated() {
      let path = VisualOrderParams.lineBreakPath(index)
      guard offset > previous else {
        throw .invalidParams(
          at: path, offset == 0 ? "a break must be after the line start" : "breaks must be increasing")
      }
      guard offset < length else {
        throw .invalidParams(at: path, "break \(offset) is not inside the line (length \(length))")
      }
      let utf8 = units.utf8Offset(ofCharacter: offset)
      guard units.character(atUTF8Offset: utf8) == offset else {
        throw .invalidParams(at: path, "break \(offset) falls inside a character")
      }
      result.append(utf8)
      previous = offset
    }
    return result
  }

  /// The entry of one paragraph: its display lines reordered. A huge
  /// paragraph checks the request's cancellation while it is resolved
  /// (between the steps of UAX #9), before its lines are reordered, after
  /// each per-unit array, and `ResultStream` while writing them.
  private func visualParagraph(
    _ index: Int, _ line: Line, _ utf8Range: Range<Int>, _ direction: BidiDirection, _ codec: inout PositionCodec,
    _ utf8Breaks: [Int]?, _ params: VisualOrderParams, _ context: RequestContext
  ) throws(ResponseError) -> VisualParagraph {
    let unit = encoding
    let marks = params.combiningMarks
    let place = self.place(of: index, line, utf8Range, &codec)
    let start = place.start
    let checks = utf8Range.count >= Self.cancellationCheckBytes ? context : nil
    let displayLines: [BidiLine] = try line.withUTF8 { (bytes) throws(ResponseError) -> [BidiLine] in
      let slice = UnsafeBufferPointer(rebasing: bytes[utf8Range])
      let analysed: BidiParagraph
      if let checks {
        let resolved = BidiParagraph(utf8: slice, direction: DirectionChoice(direction)) { checks.isCancelled }
        // Checked again before the lines are reordered (L1–L2).
        guard let resolved, !checks.isCancelled else { throw .cancelled(checks) }
        analysed = resolved
      } else {
        analysed = BidiParagraph(utf8: slice, direction: DirectionChoice(direction))
      }
      guard let utf8Breaks else { return [analysed.line(combiningMarks: marks)] }
      let inside = utf8Breaks.filter { utf8Range.contains($0) && $0 > utf8Range.lowerBound }
      let relative = inside.map { codec.character(line: index, line, utf8Offset: $0) - start }
      do {
        return try analysed.lines(breaks: relative, in: unit, combiningMarks: marks)
      } catch {
        throw .invalidParams(at: VisualOrderParams.lineBreaksPath, "\(error)")
      }
    }
    return VisualParagraph(
      place: place, direction: direction,
      lines: try visualLines(displayLines, start: start, params, checking: checks))
  }

  /// The entries of display lines whose offsets count from `start`, with
  /// what `params.include` asks for; with a `context`, its cancellation is
  /// checked after the analysis and after each per-unit array.
  func visualLines(
    _ displayLines: [BidiLine], start: Int, _ params: VisualOrderParams, checking context: RequestContext? = nil
  ) throws(ResponseError) -> [VisualLine] {
    let unit = encoding
    let include = params.include
    func checkCancellation() throws(ResponseError) {
      if let context, context.isCancelled { throw .cancelled(context) }
    }
    try checkCancellation()
    var visualLines: [VisualLine] = []
    visualLines.reserveCapacity(displayLines.count)
    var shaper = params.shape && include.contains(.visualText) ? ArabicShaper() : nil
    for display in displayLines {
      let range = display.range(in: unit)
      var entry = VisualLine(start: start + range.lowerBound, end: start + range.upperBound)
      if include.contains(.runs) {
        entry.runs = display.runs(in: unit).map {
          VisualRun(start: start + $0.start, end: start + $0.end, level: Int($0.level))
        }
        try checkCancellation()
      }
      if include.contains(.levels) {
        entry.levels = display.levels(in: unit).map { $0.value.map { Int8(clamping: $0) } }
        try checkCancellation()
      }
      if include.contains(.visualOrder) {
        // No copy when the offsets need no shift (a paragraph at its line's start).
        let order = display.visualOrder(in: unit)
        entry.visualOrder = start == 0 ? order : order.map { start + $0 }
        try checkCancellation()
      }
      if include.contains(.visualText) {
        let controls = params.controls
        entry.visualText =
          shaper != nil
          ? shaper!.visualText(display, mirrored: params.mirror, controls: controls)
          : display.visualText(mirrored: params.mirror, controls: controls)
        try checkCancellation()
      }
      if include.contains(.logicalToVisual) {
        entry.logicalToVisual = display.logicalToVisual(in: unit)
        try checkCancellation()
      }
      if include.contains(.visualToLogical) {
        // Counted within the display line, so that the two maps are inverse
        // permutations of 0..<count.
        let lineStart = range.lowerBound
        let map = display.visualToLogical(in: unit)
        entry.visualToLogical = lineStart == 0 ? map : map.map { $0 - lineStart }
      }
      visualLines.append(entry)
    }
    return visualLines
  }
}
