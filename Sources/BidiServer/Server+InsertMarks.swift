import BidiMarks
import DocumentStore
import JSONRPC
import UnicodeBidi

/// `bidi/insertMarks` (Protocol/specification.md, “`bidi/insertMarks`”): plans the LRM/RLM and isolate edits
/// with `MarkPlanner` line by line, and answers them as LSP TextEdits
/// against the current version. The document itself is never changed.
extension BidiLanguageServer {
  enum MarkMode: String, CaseIterable {
    case direction, isolate, placeholders, runs, strip
  }
  enum IsolateOption: String, CaseIterable {
    case auto, ltr, rtl
  }
  enum StyleOption: String, CaseIterable {
    case isolate, marks
  }
  enum StripOption: String, CaseIterable {
    case all, unpaired
  }

  func insertMarks(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    try withOpenDocument(params) { (document) throws(ResponseError) in
      var options = try DirectionOptions(params, defaults: settings)
      let mode = try params["mode"].oneOf(MarkMode.self)
      let lines = try params.lineRange(in: document)
      let selection = try params.optional("range").map { (r) throws(ResponseError) in try r.range() }

      /// The bytes of line `index` that the request's range covers.
      func covered(_ index: Int, _ line: Line) -> Range<Int>? {
        guard let selection else { return nil }
        let start =
          index == selection.start.line ? line.utf8Offset(ofCharacter: selection.start.character, in: encoding) : 0
        let end =
          index == selection.end.line
          ? line.utf8Offset(ofCharacter: selection.end.character, in: encoding) : line.utf8Count
        return start == 0 && end == line.utf8Count ? nil : start..<end
      }

      var edits: [JSONValue] = []
      func add(_ planned: [MarkEdit], line index: Int, _ line: Line) {
        guard !planned.isEmpty else { return }
        let units = LineUnits(line, encoding)
        for edit in planned {
          edits.append(["range": rangeJSON(line: index, edit.range, units), "newText": .string(edit.newText)])
        }
      }
      func planner(_ line: Line) -> MarkPlanner { line.withUTF8 { MarkPlanner(utf8: $0) } }
      func checkCancel() throws(ResponseError) {
        if context.isCancelled {
          throw ResponseError.cancelled(context)
        }
      }

      switch mode {
      case .direction:
        let wanted: BidiDirection =
          try params["direction"].oneOf(TextDirection.self) == .rtl ? .rightToLeft : .leftToRight
        switch options.paragraphs {
        case .line:
          for index in lines {
            if index & 1023 == 1023 { try checkCancel() }
            let line = try lineOf(index, document)
            add(planner(line).directionEdits(wanted), line: index, line)
          }
        case .block:
          // Once per block, at the start of its first line, judged by the
          // block's own first strong character.
          options.strategy = .firstStrong
          options.fallback = .ltr
          let directions = try paragraphDirections(lines, options, &document, context)
          var done = Set<Int>()
          for paragraph in directions {
            let analysis = try blockStart(of: paragraph.line, &document)
            guard let start = analysis, done.insert(start).inserted else { continue }
            let resolved: BidiDirection? =
              paragraph.basis == "fallback"
              ? nil
              : (paragraph.direction == .rtl ? .rightToLeft : .leftToRight)
            let line = try lineOf(start, document)
            if let edit = planner(line).directionEdit(wanted, paragraph: 0, resolved: resolved) {
              add([edit], line: start, line)
            }
          }
        }
      case .isolate:
        guard var selection else { throw params["range"].error("mode isolate needs a range") }
        // A selection of one whole line (ending at character 0 of the next)
        // is that line.
        if selection.end.line == selection.start.line + 1 && selection.end.character == 0 {
          let line = try lineOf(selection.start.line, document)
          selection.end = Position(line: selection.start.line, character: line.count(in: encoding))
        }
        guard selection.start.line == selection.end.line else {
          throw params["range"].error(
            "mode isolate needs a range within one line, got lines \(selection.start.line)–\(selection.end.line)")
        }
        let kind: IsolateKind
        switch try params.optional("isolate")?.oneOf(IsolateOption.self) ?? .auto {
        case .auto: kind = .auto
        case .ltr: kind = .ltr
        case .rtl: kind = .rtl
        }
        let index = selection.start.line
        let line = try lineOf(index, document)
        let range =
          line.utf8Offset(
            ofCharacter: selection.start.character, in: encoding)..<line.utf8Offset(
            ofCharacter: selection.end.character, in: encoding)
        do throws(MarkError) {
          add(try planner(line).isolateEdits(range, kind: kind), line: index, line)
        } catch {
          throw params["range"].error(error.description)
        }
      case .placeholders, .runs:
        let style = mode == .placeholders ? try params.optional("style")?.oneOf(StyleOption.self) ?? .isolate : .isolate
        let directions = try paragraphDirections(lines, options, &document, context)
        var next = 0
        for index in lines {
          if index & 1023 == 1023 { try checkCancel() }
          var lineDirections: [BidiDirection] = []
          while next < directions.count && directions[next].line == index {
            lineDirections.append(directions[next].direction == .rtl ? .rightToLeft : .leftToRight)
            next += 1
          }
          let line = try lineOf(index, document)
          let plan = planner(line)
          if mode == .runs {
            add(plan.runEdits(directions: lineDirections, in: covered(index, line)), line: index, line)
          } else {
            add(
              plan.placeholderEdits(
                style: style == .isolate ? .isolate : .marks, directions: lineDirections,
                in: covered(index, line)), line: index, line)
          }
        }
      case .strip:
        let scope: StripScope = try params.optional("only")?.oneOf(StripOption.self) == .unpaired ? .unpaired : .all
        for index in lines {
          if index & 1023 == 1023 { try checkCancel() }
          let line = try lineOf(index, document)
          add(planner(line).stripEdits(scope, in: covered(index, line)), line: index, line)
        }
      }
      return ["edits": .array(edits)]
    }
  }

  /// The first line of the block holding `line`, or nil for a blank line.
  private func blockStart(of line: Int, _ document: inout Document) throws(ResponseError) -> Int? {
    do {
      if try document.text.analysis(ofLine: line).isBlank { return nil }
    } catch {
      throw .invalidParams(error.description)
    }
    return document.text.lastLine(before: line, where: { $0.blankLines > 0 }).map { $0 + 1 } ?? 0
  }
}
