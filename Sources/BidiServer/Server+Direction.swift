import DocumentStore
import JSONRPC
import UnicodeBidi

/// `bidi/naturalDirection` and `bidi/alignment` (Protocol/specification.md,
/// “`bidi/naturalDirection`”, “`bidi/alignment`”).
extension BidiLanguageServer {
  func naturalDirection(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    try withOpenDocument(params) { (document) throws(ResponseError) in
      let options = try DirectionOptions(params, defaults: settings)
      let lines = try params.lineRange(in: document)
      let directions = try paragraphDirections(lines, options, &document, context)
      var units = LineUnitsCache(encoding)
      var entries: [JSONValue] = []
      entries.reserveCapacity(directions.count)
      for paragraph in directions {
        var entry = try paragraphEntry(paragraph, document, &units)
        entry["direction"] = .string(paragraph.direction.rawValue)
        entry["basis"] = .string(paragraph.basis)
        if let strong = paragraph.strongCharacter {
          entry["strongCharacter"] = try positionJSON(line: strong.line, utf8Offset: strong.utf8Offset, document)
        }
        entries.append(.object(entry))
      }
      return ["paragraphs": .array(entries)]
    }
  }

  func alignment(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    try withOpenDocument(params) { (document) throws(ResponseError) in
      let options = try DirectionOptions(params, defaults: settings)
      let requested = try params.optional("textAlignment")?.oneOf(TextAlignment.self) ?? .natural
      let lines = try params.lineRange(in: document)
      let directions = try paragraphDirections(lines, options, &document, context)
      var units = LineUnitsCache(encoding)
      var entries: [JSONValue] = []
      entries.reserveCapacity(directions.count)
      for paragraph in directions {
        let resolved = ResolvedAlignment(requested, paragraph: paragraph.direction, layout: options.layoutDirection)
        var entry = try paragraphEntry(paragraph, document, &units)
        entry["direction"] = .string(paragraph.direction.rawValue)
        entry["alignment"] = .string(resolved.alignment)
        entry["physical"] = .string(resolved.physical)
        if let last = resolved.lastLinePhysical { entry["lastLinePhysical"] = .string(last) }
        entries.append(.object(entry))
      }
      return ["paragraphs": .array(entries)]
    }
  }

  // MARK: Shared by the bidi requests

  /// Runs `body` on the stored document named by the params, so that the
  /// analysis caches it fills are kept.
  func withOpenDocument<R>(
    _ params: Params, _ body: (inout Document) throws(ResponseError) -> R
  ) throws(ResponseError) -> R {
    let uri = try params.documentURI()
    do {
      return try documents.withDocument(uri) { (document) throws -> R in try body(&document) }
    } catch let error as ResponseError {
      throw error
    } catch let error as DocumentError {
      if case .unknownDocument = error { throw params["textDocument"]["uri"].error("document \(uri) is not open") }
      throw .invalidParams(error.description)
    } catch {
      throw ResponseError(code: .internalError, message: "\(error)")
    }
  }

  /// The natural directions of the paragraphs of `lines`, checking for
  /// cancellation between lines.
  func paragraphDirections(
    _ lines: Range<Int>, _ options: DirectionOptions, _ document: inout Document, _ context: RequestContext
  ) throws(ResponseError) -> [ParagraphDirection] {
    let resolver = DirectionResolver(options: options)
    var result: [ParagraphDirection] = []
    var start = lines.lowerBound
    // Chunks keep block state across most lines and let a cancel through.
    let chunk = 4096
    while start < lines.upperBound {
      if context.isCancelled {
        throw ResponseError.cancelled(context)
      }
      let end = min(start + chunk, lines.upperBound)
      do {
        result += try resolver.directions(of: start..<end, in: &document.text)
      } catch {
        throw .invalidParams(error.description)
      }
      start = end
    }
    return result
  }

  /// `{line, start, end}` of a paragraph entry.
  func paragraphEntry(
    _ paragraph: ParagraphDirection, _ document: Document, _ units: inout LineUnitsCache
  ) throws(ResponseError) -> JSONObject {
    // Most lines are one paragraph: their bounds need no counting.
    let line = try lineOf(paragraph.line, document)
    if paragraph.utf8Range == 0..<line.utf8Count {
      return ["line": JSONValue(paragraph.line), "start": 0, "end": JSONValue(line.count(in: encoding))]
    }
    let lineUnits = units.units(paragraph.line, line)
    return [
      "line": JSONValue(paragraph.line),
      "start": JSONValue(lineUnits.character(atUTF8Offset: paragraph.utf8Range.lowerBound)),
      "end": JSONValue(lineUnits.character(atUTF8Offset: paragraph.utf8Range.upperBound)),
    ]
  }

  func lineOf(_ index: Int, _ document: Document) throws(ResponseError) -> Line {
    do {
      return try document.text.line(index)
    } catch {
      throw .invalidParams(error.description)
    }
  }

  func positionJSON(line index: Int, utf8Offset: Int, _ document: Document) throws(ResponseError) -> JSONValue {
    let line = try lineOf(index, document)
    return ["line": JSONValue(index), "character": JSONValue(line.character(atUTF8Offset: utf8Offset, in: encoding))]
  }
}
