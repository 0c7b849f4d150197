import DocumentStore
import JSONRPC
import UnicodeBidi

/// `bidi/visualOrder` (Protocol/specification.md, “`bidi/visualOrder`”): the Unicode Bidirectional Algorithm
/// for each paragraph, per display line.
extension BidiLanguageServer {
  /// What a display line carries in the answer.
  enum VisualInclude: String, CaseIterable {
    case runs, levels, visualOrder, visualText, logicalToVisual, visualToLogical
  }

  func visualOrder(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    try withOpenDocument(params) { (document) throws(ResponseError) in
      let options = try DirectionOptions(params, defaults: settings)
      let lines = try params.lineRange(in: document)
      let forced = try params.optional("direction")?.oneOf(RequestedDirection.self) ?? .auto
      let mirror = try params.optional("mirror")?.bool() ?? true
      var include: Set<VisualInclude> = [.runs]
      if let list = try params.optional("include") {
        include = []
        for item in try list.array() { include.insert(try item.oneOf(VisualInclude.self)) }
      }
      var lineBreaks: [Int]?
      if let breaks = try params.optional("lineBreaks") {
        guard lines.count == 1 else {
          throw breaks.error("lineBreaks needs a range of one line, got \(lines.count) lines")
        }
        lineBreaks = try validatedBreaks(breaks, line: try lineOf(lines.lowerBound, document))
      }

      let paragraphs: [ParagraphDirection]
      switch forced {
      case .auto:
        paragraphs = try paragraphDirections(lines, options, &document, context)
      case .ltr, .rtl:
        paragraphs = try paragraphSpans(lines, &document, context).map {
          ParagraphDirection(
            line: $0.line, utf8Range: $0.range, direction: forced == .ltr ? .ltr : .rtl,
            basis: "request", strongCharacter: nil)
        }
      }

      var entries: [JSONValue] = []
      entries.reserveCapacity(paragraphs.count)
      var units = LineUnitsCache(encoding)
      var currentLine = -1
      var line: Line?
      for (index, paragraph) in paragraphs.enumerated() {
        if index & 1023 == 1023 && context.isCancelled {
          throw ResponseError.cancelled(context)
        }
        if paragraph.line != currentLine {
          currentLine = paragraph.line
          line = try lineOf(paragraph.line, document)
        }
        entries.append(try visualEntry(paragraph, line!, &units, lineBreaks, include, mirror))
      }
      return ["paragraphs": .array(entries)]
    }
  }

  /// `direction` of `bidi/visualOrder`.
  enum RequestedDirection: String, CaseIterable {
    case auto, ltr, rtl
  }

  /// The paragraphs of `lines` without their directions.
  private func paragraphSpans(
    _ lines: Range<Int>, _ document: inout Document, _ context: RequestContext
  ) throws(ResponseError) -> [(line: Int, range: Range<Int>)] {
    var spans: [(line: Int, range: Range<Int>)] = []
    for line in lines {
      if line & 1023 == 1023 && context.isCancelled {
        throw ResponseError.cancelled(context)
      }
      do {
        for p in try document.text.analysis(ofLine: line).paragraphs { spans.append((line, p.utf8Range)) }
      } catch {
        throw .invalidParams(error.description)
      }
    }
    return spans
  }

  /// `lineBreaks` as byte offsets: increasing, strictly inside the line, on
  /// character boundaries.
  private func validatedBreaks(_ breaks: Params, line: Line) throws(ResponseError) -> [Int] {
    let length = line.count(in: encoding)
    let units = LineUnits(line, encoding)
    var result: [Int] = []
    var previous = 0
    for item in try breaks.array() {
      let offset = try item.uint()
      guard offset > previous else {
        throw item.error(offset == 0 ? "a break must be after the line start" : "breaks must be increasing")
      }
      guard offset < length else { throw item.error("break \(offset) is not inside the line (length \(length))") }
      let utf8 = units.utf8Offset(ofCharacter: offset)
      guard units.character(atUTF8Offset: utf8) == offset else {
        throw item.error("break \(offset) falls inside a character")
      }
      result.append(utf8)
      previous = offset
    }
    return result
  }

  private func visualEntry(
    _ paragraph: ParagraphDirection, _ line: Line, _ units: inout LineUnitsCache, _ utf8Breaks: [Int]?,
    _ include: Set<VisualInclude>, _ mirror: Bool
  ) throws(ResponseError) -> JSONValue {
    let unit = encoding
    let whole = paragraph.utf8Range == 0..<line.utf8Count
    let lineUnits = whole && utf8Breaks == nil ? nil : units.units(paragraph.line, line)
    let start = lineUnits?.character(atUTF8Offset: paragraph.utf8Range.lowerBound) ?? 0
    let end = lineUnits?.character(atUTF8Offset: paragraph.utf8Range.upperBound) ?? line.count(in: encoding)
    let direction: BidiParagraph.Direction = paragraph.direction == .rtl ? .rightToLeft : .leftToRight
    let displayLines: [BidiLine] = try line.withUTF8 { (bytes) throws(ResponseError) -> [BidiLine] in
      let slice = UnsafeBufferPointer(rebasing: bytes[paragraph.utf8Range])
      let analysed = BidiParagraph(utf8: slice, direction: direction)
      guard let utf8Breaks else { return [analysed.line()] }
      let inside = utf8Breaks.filter { paragraph.utf8Range.contains($0) && $0 > paragraph.utf8Range.lowerBound }
      let relative = inside.map { (lineUnits?.character(atUTF8Offset: $0) ?? 0) - start }
      do {
        return try analysed.lines(breaks: relative, in: unit)
      } catch {
        throw .invalidParams("params.lineBreaks: \(error)")
      }
    }
    var lineEntries: [JSONValue] = []
    for display in displayLines {
      let range = display.range(in: unit)
      var entry: JSONObject = [
        "start": JSONValue(start + range.lowerBound), "end": JSONValue(start + range.upperBound),
      ]
      if include.contains(.runs) {
        entry["runs"] = .array(
          display.runs(in: unit).map {
            ["start": JSONValue(start + $0.start), "end": JSONValue(start + $0.end), "level": JSONValue(Int($0.level))]
          })
      }
      if include.contains(.levels) {
        entry["levels"] = .array(display.levels(in: unit).map { $0.value.map { JSONValue(Int($0)) } ?? .null })
      }
      if include.contains(.visualOrder) {
        entry["visualOrder"] = .array(display.visualOrder(in: unit).map { JSONValue(start + $0) })
      }
      if include.contains(.visualText) {
        var text = String()
        for scalar in display.visualScalars(mirrored: mirror) {
          text.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}")
        }
        entry["visualText"] = .string(text)
      }
      if include.contains(.logicalToVisual) {
        entry["logicalToVisual"] = .array(display.logicalToVisual(in: unit).map { JSONValue($0) })
      }
      if include.contains(.visualToLogical) {
        // Counted within the display line, so that the two maps are inverse
        // permutations of 0..<count.
        let lineStart = range.lowerBound
        entry["visualToLogical"] = .array(display.visualToLogical(in: unit).map { JSONValue($0 - lineStart) })
      }
      lineEntries.append(.object(entry))
    }
    return [
      "line": JSONValue(paragraph.line),
      "start": JSONValue(start),
      "end": JSONValue(end),
      "paragraphLevel": JSONValue(paragraph.direction == .rtl ? 1 : 0),
      "direction": .string(paragraph.direction.rawValue),
      "lines": .array(lineEntries),
    ]
  }
}
