import BidiHazards
import BidiProtocol
import DocumentStore
import JSONRPC
import UnicodeBidi

/// Editor features on standard LSP methods (Protocol/specification.md, “Editor features on standard LSP methods”): code actions,
/// hover and inlay hints.
extension BidiLanguageServer {
  // MARK: textDocument/codeAction

  /// The `bidi/insertMarks` modes offered on a selection, by title.
  private static let markActions: [(title: String, mode: MarkMode)] = [
    ("Make the paragraphs left-to-right (insert LRM)", .direction(.leftToRight)),
    ("Make the paragraphs right-to-left (insert RLM)", .direction(.rightToLeft)),
    ("Isolate the format placeholders (FSI…PDI)", .placeholders(.isolate)),
    ("Mark the format placeholders (LRM/RLM after each)", .placeholders(.marks)),
    ("Isolate the opposite-direction runs", .runs),
    ("Remove all bidi controls", .strip(.all)),
    ("Remove unpaired bidi controls", .strip(.unpaired)),
  ]

  /// Quick fixes for the hazards in the range, "fix all" for the file, and
  /// the `bidi/insertMarks` modes on the selection, as WorkspaceEdits.
  func codeAction(
    _ params: CodeActionParams, _ context: RequestContext, _ actions: inout ResultStream<CodeActionResult>
  ) throws(ResponseError) {
    let document = try openDocument(params.uri)
    let range = params.range
    let lines = try LineSelection(range: range).lines(lineCount: document.text.lineCount)
    var codec = positions
    // Quick fixes and fix-all, from an up-to-date hazard scan.
    refreshHazards(document.uri)
    // In a structured document the findings engine's findings have their
    // own fixes: the line scan's count only on the lines no entry or region
    // touches.
    let all = hazardDiagnostics(document.uri).filter { isFreeLine($0.line, of: document) }
    if params.wants("quickfix") {
      // The bytes of the range on its first and last line: a diagnostic
      // that touches the range gets its fixes (on a long line with many
      // hazards, only those the editor asks about).
      let startLine = try lineOf(range.start.line, document)
      let startByte = startLine.utf8Offset(ofCharacter: range.start.character, in: encoding)
      let endByte =
        range.end.line < document.text.lineCount
        ? try lineOf(range.end.line, document).utf8Offset(ofCharacter: range.end.character, in: encoding) : Int.max
      try structuredQuickFixes(params, document, &actions)
      for hazard in all where lines.contains(hazard.line) {
        if hazard.line == range.start.line && hazard.range.upperBound < startByte { continue }
        if hazard.line == range.end.line && hazard.range.lowerBound > endByte { continue }
        let line = try lineOf(hazard.line, document)
        for fix in hazard.fixes {
          try actions.append(
            CodeAction(
              title: fix.title, kind: "quickfix", diagnostics: [diagnostic(hazard, line, &codec)],
              isPreferred: fix.isPreferred, edit: try workspaceEdit(document, hazardEdits: fix.edits, &codec)))
        }
      }
    }
    // Fix-all covers the whole document: computed only when asked for by
    // kind (the Source Action menu, fix-all on save), not on every cursor
    // move's request.
    if params.only != nil, params.wants("source.fixAll.bidi"), !all.isEmpty {
      for (strategy, title) in [
        (FixAllStrategy.remove, "Fix all bidi hazards in the file: remove the controls"),
        (FixAllStrategy.close, "Fix all bidi hazards in the file: close the controls on their lines"),
      ] {
        // Fixed lines are rescanned (from the cached start states) until no
        // hazard is left: removing a control can expose another.
        let edits = hazardFixAllEdits(document.uri, strategy: strategy).filter { isFreeLine($0.line, of: document) }
        try actions.append(
          CodeAction(
            title: title, kind: "source.fixAll.bidi",
            edit: try workspaceEdit(document, hazardEdits: edits, &codec)))
      }
    }
    // The insertMarks modes on the selection, planned directly.
    if params.wantsFamily("refactor.rewrite.bidi") {
      var offered = Self.markActions
      if range.start.line == range.end.line && range.start.character != range.end.character {
        offered.insert(("Isolate the selection (FSI…PDI)", .isolate(.auto)), at: 2)
      }
      let target = BidiRequestTarget(
        uri: document.uri, options: DirectionOptions(settings), selection: LineSelection(range: range))
      for (title, mode) in offered {
        let kind = "refactor.rewrite.bidi.\(mode.name.rawValue)"
        guard params.wants(kind) else { continue }
        // A mode that cannot apply to this selection (an isolate that would
        // split a pair, say) is simply not offered.
        var edits: [TextEdit] = []
        do throws(ResponseError) {
          try insertMarks(InsertMarksParams(target: target, mode: mode), context) { edits.append($0) }
        } catch {
          if error.code == .requestCancelled { throw error }
          continue
        }
        guard !edits.isEmpty else { continue }
        try actions.append(CodeAction(title: title, kind: kind, edit: WorkspaceEdit(uri: document.uri, edits: edits)))
      }
    }
  }

  /// A WorkspaceEdit for byte-range edits of `document`'s lines.
  private func workspaceEdit(
    _ document: Document, hazardEdits: [HazardTextEdit], _ codec: inout PositionCodec
  ) throws(ResponseError) -> WorkspaceEdit {
    var edits: [TextEdit] = []
    for edit in hazardEdits {
      let line = try lineOf(edit.line, document)
      edits.append(TextEdit(range: codec.range(line: edit.line, line, edit.range), newText: edit.newText))
    }
    return WorkspaceEdit(uri: document.uri, edits: edits)
  }

  // MARK: textDocument/hover

  /// The line's direction (and the basis for it), its alignment in the
  /// configured layout, and its visual order as plain text.
  func hover(_ params: HoverParams, _ context: RequestContext) throws(ResponseError) -> HoverResult {
    let position = params.position
    if let value = try entryHover(params) { return value }
    return try withOpenDocument(params.uri) { (document) throws(ResponseError) in
      guard position.line < document.text.lineCount else {
        throw params.lineError(lineCount: document.text.lineCount)
      }
      let options = DirectionOptions(settings)
      let lineIndex = position.line
      let directions = try lineParagraphs(lineIndex, options, &document, context)
      let line = try lineOf(lineIndex, document)
      var parts: [String] = []
      for paragraph in directions {
        guard case .line(_, let utf8Range) = paragraph.source else { continue }
        var text = "Direction: \(paragraph.direction.rawValue)"
        if let strong = paragraph.strongCharacter {
          let character = try lineOf(strong.line, document).character(atUTF8Offset: strong.column, in: encoding)
          text += " (first strong character at line \(strong.line + 1), character \(character + 1))"
        } else {
          text +=
            paragraph.basis == .fallback
            ? " (no strong character: fallback \(options.fallback.rawValue))" : " (\(paragraph.basis.rawValue))"
        }
        let alignment = ResolvedAlignment(.natural, paragraph: paragraph.direction, layout: options.layoutDirection)
        text +=
          "\nAlignment: \(alignment.alignment) (\(alignment.physical)) in a \(options.layoutDirection.rawValue) layout"
        let visual = line.withUTF8 { bytes -> String? in
          let slice = UnsafeBufferPointer(rebasing: bytes[utf8Range])
          let analysed = BidiParagraph(utf8: slice, direction: DirectionChoice(paragraph.direction)) {
            context.isCancelled
          }
          // What a terminal shows: marks after their base (L3), the
          // controls by name, so that the text cannot be reordered again.
          return analysed?.line(combiningMarks: .afterBase).visualText(controls: .names)
        }
        guard let visual, !context.isCancelled else { throw .cancelled(context) }
        text += Self.hoverVisualOrder(visual)
        parts.append(text)
      }
      let controls = line.withUTF8 { BidiControl.occurrences(in: $0) }
      if !controls.isEmpty {
        let listed = controls.prefix(Self.hoverControls).map { "\($0.control.shortName) (\($0.control.codePointText))" }
        let more = controls.count - listed.count
        parts.append(
          "Bidi controls: " + listed.joined(separator: ", ") + (more > 0 ? ", and \(more) more" : ""))
      }
      var codec = positions
      return HoverResult(
        text: parts.joined(separator: "\n\n"), range: codec.range(line: lineIndex, line, 0..<line.utf8Count))
    }
  }

  /// A hover shows at most this many characters of a paragraph's visual
  /// order (the leftmost), and names at most this many of the line's controls.
  static let hoverCharacters = 2_000
  static let hoverControls = 100

  /// The hover's visual-order line for a paragraph's visual text, cut to
  /// its leftmost `hoverCharacters` characters (saying so), without the
  /// paragraph separator.
  static func hoverVisualOrder(_ visual: String) -> String {
    var shown = String.UnicodeScalarView()
    var count = 0
    for scalar in visual.unicodeScalars where scalar != "\u{2029}" {
      if count < hoverCharacters { shown.append(scalar) }
      count += 1
    }
    guard count > hoverCharacters else { return "\nVisual order (left to right): \(String(shown))" }
    return "\nVisual order (left to right, the first \(hoverCharacters) of \(count) characters): \(String(shown))…"
  }

  // MARK: textDocument/inlayHint

  /// Every invisible bidi control in the range, by its short name.
  func inlayHint(_ params: InlayHintParams, _ hints: inout ResultStream<InlayHintResult>) throws(ResponseError) {
    let document = try openDocument(params.uri)
    let lines = try params.selection.lines(lineCount: document.text.lineCount)
    let range = params.range
    for index in lines {
      if index & 1023 == 1023 { try hints.checkCancellation() }
      let line = try lineOf(index, document)
      let controls = line.withUTF8 { BidiControl.occurrences(in: $0) }
      if controls.isEmpty { continue }
      let units = LineUnits(line, encoding)
      for (offset, control) in controls {
        let character = units.character(atUTF8Offset: offset)
        if index == range.start.line && character < range.start.character { continue }
        if index == range.end.line && character >= range.end.character { continue }
        try hints.append(
          InlayHint(
            position: LSPPosition(line: index, character: character), label: control.shortName,
            tooltip: "\(control.codePointText) \(control.name)"))
      }
    }
  }
}
