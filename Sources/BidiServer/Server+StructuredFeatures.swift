import BidiHazards
import BidiProtocol
import DocumentStore
import JSONRPC
import StructuredText
import UnicodeBidi

/// The editor features of structured documents (contract §7, §8): the
/// `FindingsEngine`'s findings published with the document's other
/// diagnostics, their quick fixes, hover on an entry paragraph.
extension BidiLanguageServer {
  // MARK: Diagnostics

  /// A structured document's findings by anchor line and the syntax
  /// error's (nil for a plain document). The publish turns into wire
  /// diagnostics only those it publishes.
  func structuredFindings(_ document: Document) -> (store: FindingsStore, error: Finding?)? {
    guard structured[document.uri] != nil else { return nil }
    if structured[document.uri]!.isQuiet { return (FindingsStore(), nil) }
    readStructured(document.uri, text: document.text, through: Int.max)
    refreshSources(document.uri)
    return structured[document.uri]!.keptFindings(text: document.text, localeSetting: localeSetting)
  }

  func diagnostic(_ finding: Finding, _ document: Document, _ codec: inout PositionCodec)
    throws(ResponseError) -> Diagnostic
  {
    Diagnostic(
      range: try lspRange(finding.range, document, &codec), severity: finding.severity, code: finding.code,
      message: finding.message, visualOrder: nil)
  }

  // MARK: Quick fixes

  /// The fixes of the findings touching `range` (looked up by line, not
  /// among every finding); none touching anything after a syntax error.
  func structuredQuickFixes(
    _ params: CodeActionParams, _ document: Document, _ actions: inout ResultStream<CodeActionResult>
  ) throws(ResponseError) {
    guard structured[document.uri] != nil else { return }
    readStructured(document.uri, text: document.text, through: Int.max)
    refreshSources(document.uri)
    let (store, error) = structured[document.uri]!.keptFindings(text: document.text, localeSetting: localeSetting)
    let start = try sourcePosition(params.range.start, document)
    let end =
      params.range.end.line < document.text.lineCount
      ? try sourcePosition(params.range.end, document) : SourcePosition(line: Int.max, column: 0)
    let errorPosition = structured[document.uri]!.index.error?.position
    var codec = positions
    var touching = store.findings(touching: start.line...max(end.line, start.line))
    if let error { touching.append(error) }
    touching.removeAll { !($0.range.end >= start && $0.range.start <= end) }
    for finding in touching {
      for fix in finding.fixes where !fix.edits.isEmpty {
        if let errorPosition, fix.edits.contains(where: { $0.range.end > errorPosition }) { continue }
        var edits: [TextEdit] = []
        for edit in fix.edits {
          edits.append(TextEdit(range: try lspRange(edit.range, document, &codec), newText: edit.newText))
        }
        try actions.append(
          CodeAction(
            title: fix.title, kind: "quickfix", diagnostics: [try diagnostic(finding, document, &codec)],
            isPreferred: fix.isPreferred, edit: WorkspaceEdit(uri: document.uri, edits: edits)))
      }
    }
    try structuredFixAll(store, touching: touching, before: errorPosition, document, &actions)
  }

  /// "Fix all" for the format's own direction rules (`bidi.cueDirection`,
  /// `bidi.blockDirection`…): where a finding of one touches the range and
  /// the file has more than one, the preferred fixes of all of them in one
  /// action (none touching anything after a syntax error). Every finding
  /// of a rule is gathered only when one of them touches the range.
  private func structuredFixAll(
    _ store: FindingsStore, touching: [Finding], before errorPosition: SourcePosition?,
    _ document: Document, _ actions: inout ResultStream<CodeActionResult>
  ) throws(ResponseError) {
    let format = structured[document.uri]!.format
    var codec = positions
    for code in format.paragraphRules.map(\.code) where touching.contains(where: { $0.code == code }) {
      let all = store.findings(code: code)
      guard all.count > 1 else { continue }
      var edits: [TextEdit] = []
      for finding in all {
        guard let fix = finding.fixes.first(where: \.isPreferred) ?? finding.fixes.first else { continue }
        if let errorPosition, fix.edits.contains(where: { $0.range.end > errorPosition }) { continue }
        for edit in fix.edits {
          edits.append(TextEdit(range: try lspRange(edit.range, document, &codec), newText: edit.newText))
        }
      }
      guard !edits.isEmpty else { continue }
      try actions.append(
        CodeAction(
          title: "Fix all \(code.rawValue) in the file (\(all.count) \(format.entryNoun)s)", kind: "quickfix",
          isPreferred: false, edit: WorkspaceEdit(uri: document.uri, edits: edits)))
    }
  }

  // MARK: Hover

  /// Hover on an entry paragraph: its direction and alignment as written,
  /// its direction and visual text filled; nil off entries (the line's hover).
  func entryHover(_ params: HoverParams) throws(ResponseError) -> HoverResult? {
    readStructured(params.uri, through: params.position.line)
    guard let state = structured[params.uri], let document = documents[params.uri],
      params.position.line < document.text.lineCount
    else { return nil }
    let position = try sourcePosition(params.position, document)
    let line = position.line
    guard line < state.plainLinesStart else { return nil }
    for entry in state.index.entries(touching: line..<line + 1) {
      for paragraph in entry.paragraphs.indices {
        let analysis = ParagraphAnalysis(entry, paragraph: paragraph)
        let range = analysis.range
        guard range.start <= position && position <= range.end else { continue }
        var codec = positions
        return HoverResult(
          text: entryHoverText(analysis, state, document, &codec), range: try lspRange(range, document, &codec))
      }
    }
    return nil
  }

  private func entryHoverText(
    _ analysis: ParagraphAnalysis, _ state: StructuredDocument, _ document: Document, _ codec: inout PositionCodec
  ) -> String {
    let options = DirectionOptions(settings)
    let policy = options.policy
    let entry = analysis.entry
    let noun = state.format.entryNoun
    var title = noun.prefix(1).uppercased() + noun.dropFirst()
    if state.format.entriesHaveKeys {
      title += " \u{201C}\(entry.key)\u{201D}"
      if let variant = entry.variant { title += " (\(variant))" }
    }
    if let block = entry.block { title += " (\(block))" }
    if let cue = entry.cue { title += " (cue \(cue))" }
    if entry.paragraphs.count > 1 { title += ", paragraph \(analysis.paragraph + 1) of \(entry.paragraphs.count)" }
    let fileLocale = state.fileLocale(setting: localeSetting)
    if let locale = state.locale(of: entry, fileLocale: fileLocale) {
      title += ", locale \(locale)\(locale.isRightToLeft ? " (right to left)" : "")"
    }
    func describe(filled: Bool) -> (BidiDirection, String) {
      guard let direction = analysis.direction(policy, filled: filled) else {
        return (options.layoutDirection, "\(options.layoutDirection.rawValue) (no strong character: the layout's)")
      }
      var text = direction.rawValue
      if options.strategy == .firstStrong, let strong = analysis.strongCharacter(filled: filled),
        let wire = try? lspPosition(strong, document, &codec)
      {
        text += " (first strong character at line \(wire.line + 1), character \(wire.character + 1))"
      } else {
        text += " (\(options.strategy.rawValue))"
      }
      return (direction, text)
    }
    let (written, writtenText) = describe(filled: false)
    let alignment = ResolvedAlignment(.natural, paragraph: written, layout: options.layoutDirection)
    let (filled, filledText) = describe(filled: true)
    let filledAlignment = ResolvedAlignment(.natural, paragraph: filled, layout: options.layoutDirection)
    return [
      title,
      "As written: \(writtenText)\nAlignment: \(alignment.alignment) (\(alignment.physical)) in a "
        + "\(options.layoutDirection.rawValue) layout",
      "Filled (text placeholders as \u{201C}Apple Pay\u{201D}, numbers as 42): \(filledText)\n"
        + "Alignment: \(filledAlignment.alignment) (\(filledAlignment.physical))\n"
        + "Displays as (left to right): \(analysis.filledVisualText())",
    ].joined(separator: "\n\n")
  }
}
