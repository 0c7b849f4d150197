import BidiMarks
import BidiProtocol
import DocumentStore
import JSONRPC
import UnicodeBidi

/// `bidi/insertMarks` (specification, "bidi/insertMarks"): plans the
/// LRM/RLM and isolate edits with `MarkPlanner` line by line, and hands them
/// out as LSP TextEdits against the current version, one at a time (to the
/// answer, or to a code action). The document itself is never changed.
extension BidiLanguageServer {
  func insertMarks(
    _ params: InsertMarksParams, _ context: RequestContext, emit: (TextEdit) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    let target = params.target
    if let state = structuredDocument(for: target, whole: true) {
      try documentInsertMarks(params, state, context, emit: emit)
      return
    }
    try withOpenDocument(target.uri) { (document) throws(ResponseError) in
      var options = target.options
      let lines = try target.selection.lines(lineCount: document.text.lineCount)
      let selection = target.selection.range
      var codec = positions

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
      func add(_ planned: [MarkEdit], line index: Int, _ line: Line) throws(ResponseError) {
        for edit in planned {
          try emit(TextEdit(range: codec.range(line: index, line, edit.range), newText: edit.newText))
        }
      }
      func planner(_ line: Line) -> MarkPlanner { line.withUTF8 { MarkPlanner(utf8: $0) } }
      func checkCancel(_ index: Int) throws(ResponseError) {
        if index & 1023 == 1023 && context.isCancelled {
          throw .cancelled(context)
        }
      }

      switch params.mode {
      case .direction(let wanted):
        switch options.paragraphs {
        case .line, .document:
          for index in lines {
            try checkCancel(index)
            let line = try lineOf(index, document)
            try add(planner(line).directionEdits(wanted), line: index, line)
          }
        case .block:
          // Once per block, at the start of its first line, judged by the
          // block's own first strong character.
          options.strategy = .firstStrong
          options.fallback = .ltr
          var done = Set<Int>()
          var starts: [(start: Int, resolved: BidiDirection?)] = []
          try forEachLineParagraph(lines, options, &document, context) { paragraph, _ in
            starts.append((paragraph.place.line, paragraph.basis == .fallback ? nil : paragraph.direction))
          }
          for (line, resolved) in starts {
            guard let start = try blockStart(of: line, &document), done.insert(start).inserted else { continue }
            let startLine = try lineOf(start, document)
            if let edit = planner(startLine).directionEdit(wanted, paragraph: 0, resolved: resolved) {
              try add([edit], line: start, startLine)
            }
          }
        }
      case .isolate(let choice):
        guard var selection else { throw .invalidParams(at: "params.range", "mode isolate needs a range") }
        // A selection of one whole line (ending at character 0 of the next)
        // is that line.
        if selection.end.line == selection.start.line + 1 && selection.end.character == 0 {
          let line = try lineOf(selection.start.line, document)
          selection.end = LSPPosition(line: selection.start.line, character: line.count(in: encoding))
        }
        guard selection.start.line == selection.end.line else {
          throw .invalidParams(
            at: "params.range",
            "mode isolate needs a range within one line, got lines \(selection.start.line)–\(selection.end.line)")
        }
        let index = selection.start.line
        let line = try lineOf(index, document)
        let range =
          line.utf8Offset(
            ofCharacter: selection.start.character, in: encoding)..<line.utf8Offset(
            ofCharacter: selection.end.character, in: encoding)
        let planned: [MarkEdit]
        do throws(MarkError) {
          planned = try planner(line).isolateEdits(range, kind: choice)
        } catch {
          throw .invalidParams(at: "params.range", error.description)
        }
        try add(planned, line: index, line)
      case .placeholders, .runs:
        var next = lines.lowerBound
        var lineDirections: [BidiDirection] = []
        /// Plans line `next` with the directions gathered for it.
        func planLine(_ document: Document) throws(ResponseError) {
          try checkCancel(next)
          let line = try lineOf(next, document)
          let plan = planner(line)
          switch params.mode {
          case .placeholders(let style):
            try add(
              plan.placeholderEdits(
                style: style, directions: lineDirections, in: covered(next, line)),
              line: next, line)
          default:
            try add(plan.runEdits(directions: lineDirections, in: covered(next, line)), line: next, line)
          }
          lineDirections.removeAll(keepingCapacity: true)
          next += 1
        }
        try forEachLineParagraph(lines, options, &document, context) {
          (paragraph, document) throws(ResponseError) in
          while next < paragraph.place.line { try planLine(document) }
          lineDirections.append(paragraph.direction)
        }
        while next < lines.upperBound { try planLine(document) }
      case .strip(let only):
        let scope = only
        for index in lines {
          try checkCancel(index)
          let line = try lineOf(index, document)
          try add(planner(line).stripEdits(scope, in: covered(index, line)), line: index, line)
        }
      }
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
