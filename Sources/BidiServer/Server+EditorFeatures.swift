import BidiHazards
import DocumentStore
import JSONRPC
import UnicodeBidi

/// Editor features on standard LSP methods (Protocol/specification.md, “Editor features on standard LSP methods”): code actions,
/// hover and inlay hints.
extension BidiLanguageServer {
  // MARK: textDocument/codeAction

  /// Quick fixes for the hazards in the range, "fix all" for the file, and
  /// the `bidi/insertMarks` modes on the selection, as WorkspaceEdits.
  func codeAction(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    let document = try openDocument(params)
    let range = try params["range"].range()
    let lines = try params.lineRange(in: document)
    var only: [String]?
    if let actionContext = try params.optional("context"), let kinds = try actionContext.optional("only") {
      only = []
      for kind in try kinds.array() { only!.append(try kind.string()) }
    }
    /// Whether `context.only` lets an action of `kind` through (a kind
    /// matches itself and its sub-kinds: `refactor` lets `refactor.rewrite.bidi.runs` through).
    func wanted(_ kind: String) -> Bool {
      guard let only else { return true }
      return only.contains { kind == $0 || kind.hasPrefix($0 + ".") }
    }
    /// Whether some action of `family` or of its sub-kinds may be wanted.
    func wantedFamily(_ family: String) -> Bool {
      guard let only else { return true }
      return only.contains { family == $0 || family.hasPrefix($0 + ".") || $0.hasPrefix(family + ".") }
    }

    var actions: [JSONValue] = []
    var units = LineUnitsCache(encoding)
    // Quick fixes and fix-all, from an up-to-date hazard scan.
    refreshHazards(document.uri)
    let all = hazardDiagnostics(document.uri)
    if wanted("quickfix") {
      // The bytes of the range on its first and last line: a diagnostic
      // that touches the range gets its fixes (on a long line with many
      // hazards, only those the editor asks about).
      let startLine = try lineOf(range.start.line, document)
      let startByte = startLine.utf8Offset(ofCharacter: range.start.character, in: encoding)
      let endByte =
        range.end.line < document.text.lineCount
        ? try lineOf(range.end.line, document).utf8Offset(ofCharacter: range.end.character, in: encoding) : Int.max
      for diagnostic in all where lines.contains(diagnostic.line) {
        if diagnostic.line == range.start.line && diagnostic.range.upperBound < startByte { continue }
        if diagnostic.line == range.end.line && diagnostic.range.lowerBound > endByte { continue }
        let line = try lineOf(diagnostic.line, document)
        for fix in diagnostic.fixes {
          actions.append([
            "title": .string(fix.title),
            "kind": "quickfix",
            "diagnostics": [diagnosticJSON(diagnostic, units.units(diagnostic.line, line))],
            "isPreferred": .bool(fix.isPreferred),
            "edit": try workspaceEdit(document, hazardEdits: fix.edits, &units),
          ])
        }
      }
    }
    // Fix-all covers the whole document: computed only when asked for by
    // kind (the Source Action menu, fix-all on save), not on every cursor
    // move's request.
    if only != nil, wanted("source.fixAll.bidi"), !all.isEmpty {
      for (strategy, title) in [
        (FixAllStrategy.remove, "Fix all bidi hazards in the file: remove the controls"),
        (FixAllStrategy.close, "Fix all bidi hazards in the file: close the controls on their lines"),
      ] {
        // Fixed lines are rescanned (from the cached start states) until no
        // hazard is left: removing a control can expose another.
        let edits = hazardFixAllEdits(document.uri, strategy: strategy)
        actions.append([
          "title": .string(title),
          "kind": "source.fixAll.bidi",
          "edit": try workspaceEdit(document, hazardEdits: edits, &units),
        ])
      }
    }
    // The insertMarks modes on the selection.
    if wantedFamily("refactor.rewrite.bidi") {
      let selection: JSONValue = params["range"].value ?? .null
      var modes: [(String, JSONObject)] = [
        ("Make the paragraphs left-to-right (insert LRM)", ["mode": "direction", "direction": "ltr"]),
        ("Make the paragraphs right-to-left (insert RLM)", ["mode": "direction", "direction": "rtl"]),
        ("Isolate the format placeholders (FSI…PDI)", ["mode": "placeholders"]),
        ("Mark the format placeholders (LRM/RLM after each)", ["mode": "placeholders", "style": "marks"]),
        ("Isolate the opposite-direction runs", ["mode": "runs"]),
        ("Remove all bidi controls", ["mode": "strip"]),
        ("Remove unpaired bidi controls", ["mode": "strip", "only": "unpaired"]),
      ]
      if range.start.line == range.end.line && range.start.character != range.end.character {
        modes.insert(("Isolate the selection (FSI…PDI)", ["mode": "isolate"]), at: 2)
      }
      for (title, options) in modes {
        let kind = "refactor.rewrite.bidi.\(options["mode"]?.stringValue ?? "")"
        guard wanted(kind) else { continue }
        var object = options
        object["textDocument"] = ["uri": .string(document.uri)]
        object["range"] = selection
        // A mode that cannot apply to this selection (an isolate that would
        // split a pair, say) is simply not offered.
        guard case .object(let answer)? = try? insertMarks(Params(.object(object)), context),
          let edits = answer["edits"]?.arrayValue, !edits.isEmpty
        else { continue }
        actions.append([
          "title": .string(title),
          "kind": .string(kind),
          "edit": ["changes": .object([document.uri: .array(edits)])],
        ])
      }
    }
    return .array(actions)
  }

  /// A WorkspaceEdit for byte-range edits of `document`'s lines.
  private func workspaceEdit(
    _ document: Document, hazardEdits: [HazardTextEdit], _ lines: inout LineUnitsCache
  ) throws(ResponseError) -> JSONValue {
    var edits: [JSONValue] = []
    for edit in hazardEdits {
      let line = try lineOf(edit.line, document)
      edits.append([
        "range": rangeJSON(line: edit.line, edit.range, lines.units(edit.line, line)), "newText": .string(edit.newText),
      ])
    }
    return ["changes": .object([document.uri: .array(edits)])]
  }

  // MARK: textDocument/hover

  /// The line's direction (and the basis for it), its alignment in the
  /// configured layout, and its visual order as plain text.
  func hover(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    let position = try params["position"].position()
    return try withOpenDocument(params) { (document) throws(ResponseError) in
      guard position.line < document.text.lineCount else {
        throw params["position"]["line"].error(
          "line \(position.line) is past the end of the document, which has \(document.text.lineCount) lines")
      }
      let options = DirectionOptions(
        strategy: settings.strategy, rtlThreshold: settings.rtlThreshold, fallback: settings.fallback,
        paragraphs: settings.paragraphs, layoutDirection: settings.layoutDirection)
      let lineIndex = position.line
      let directions = try paragraphDirections(lineIndex..<(lineIndex + 1), options, &document, context)
      let line = try lineOf(lineIndex, document)
      var parts: [String] = []
      for paragraph in directions {
        var text = "Direction: \(paragraph.direction.rawValue)"
        if let strong = paragraph.strongCharacter {
          let character = try lineOf(strong.line, document).character(atUTF8Offset: strong.utf8Offset, in: encoding)
          text += " (first strong character at line \(strong.line + 1), character \(character + 1))"
        } else {
          text +=
            paragraph.basis == "fallback"
            ? " (no strong character: fallback \(options.fallback.rawValue))" : " (\(paragraph.basis))"
        }
        let alignment = ResolvedAlignment(.natural, paragraph: paragraph.direction, layout: options.layoutDirection)
        text +=
          "\nAlignment: \(alignment.alignment) (\(alignment.physical)) in a \(options.layoutDirection.rawValue) layout"
        let visual = line.withUTF8 { bytes -> String in
          let slice = UnsafeBufferPointer(rebasing: bytes[paragraph.utf8Range])
          let analysed = BidiParagraph(
            utf8: slice, direction: paragraph.direction == .rtl ? .rightToLeft : .leftToRight)
          var result = String()
          for scalar in analysed.line().visualScalars() where scalar != 0x2029 {
            result.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}")
          }
          return result
        }
        text += "\nVisual order (left to right): \(visual)"
        parts.append(text)
      }
      let controls = line.withUTF8 { BidiControl.occurrences(in: $0) }
      if !controls.isEmpty {
        parts.append(
          "Bidi controls: "
            + controls.map { "\($0.control.shortName) (\($0.control.codePointText))" }.joined(separator: ", "))
      }
      return [
        "contents": ["kind": "plaintext", "value": .string(parts.joined(separator: "\n\n"))],
        "range": rangeJSON(line: lineIndex, 0..<line.utf8Count, LineUnits(line, encoding)),
      ]
    }
  }

  // MARK: textDocument/inlayHint

  /// Every invisible bidi control in the range, by its short name.
  func inlayHint(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    let document = try openDocument(params)
    let lines = try params.lineRange(in: document)
    let range = try params["range"].range()
    var hints: [JSONValue] = []
    for index in lines {
      if index & 1023 == 1023 && context.isCancelled {
        throw ResponseError.cancelled(context)
      }
      let line = try lineOf(index, document)
      let controls = line.withUTF8 { BidiControl.occurrences(in: $0) }
      if controls.isEmpty { continue }
      let units = LineUnits(line, encoding)
      for (offset, control) in controls {
        let character = units.character(atUTF8Offset: offset)
        if index == range.start.line && character < range.start.character { continue }
        if index == range.end.line && character >= range.end.character { continue }
        hints.append([
          "position": ["line": JSONValue(index), "character": JSONValue(character)],
          "label": .string(control.shortName),
          "tooltip": .string("\(control.codePointText) \(control.name)"),
          "paddingLeft": false,
          "paddingRight": false,
        ])
      }
    }
    return .array(hints)
  }
}
