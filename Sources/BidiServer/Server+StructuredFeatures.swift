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

  /// A structured document's findings by anchor line, the syntax error's
  /// at its line, in line order (none for a plain document). The publish
  /// turns into wire diagnostics only those it publishes.
  func structuredFindings(_ document: Document) -> [StructuredDocument.AnchoredFindings] {
    guard structured[document.uri] != nil else { return [] }
    readStructured(document.uri, text: document.text, through: Int.max)
    refreshSources(document.uri)
    var (anchored, error) = structured[document.uri]!.keptFindings(
      text: document.text, localeSetting: localeSetting)
    if let error {
      let line = error.range.start.line
      let at = anchored.firstIndex { $0.line > line } ?? anchored.count
      anchored.insert(StructuredDocument.AnchoredFindings(line: line, findings: [error]), at: at)
    }
    return anchored
  }

  func diagnostic(_ finding: Finding, _ document: Document, _ codec: inout PositionCodec)
    throws(ResponseError) -> Diagnostic
  {
    Diagnostic(
      range: try lspRange(finding.range, document, &codec), severity: finding.severity, code: finding.code,
      message: finding.message, visualOrder: nil)
  }

  // MARK: Quick fixes

  /// The fixes of the findings touching `range`; none touching anything
  /// after a syntax error.
  func structuredQuickFixes(
    _ params: CodeActionParams, _ document: Document, _ actions: inout ResultStream<CodeActionResult>
  ) throws(ResponseError) {
    guard structured[document.uri] != nil else { return }
    readStructured(document.uri, text: document.text, through: Int.max)
    refreshSources(document.uri)
    let findings = structured[document.uri]!.allFindings(text: document.text, localeSetting: localeSetting)
    let start = try sourcePosition(params.range.start, document)
    let end =
      params.range.end.line < document.text.lineCount
      ? try sourcePosition(params.range.end, document) : SourcePosition(line: Int.max, column: 0)
    let errorPosition = structured[document.uri]!.index.error?.position
    var codec = positions
    for finding in findings where finding.range.end >= start && finding.range.start <= end {
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
    try structuredFixAll(findings, touching: start...end, before: errorPosition, document, &actions)
  }

  /// "Fix all" for the format's own direction rules (`bidi.cueDirection`,
  /// `bidi.blockDirection`…): where a finding of one touches the range and
  /// the file has more than one, the preferred fixes of all of them in one
  /// action (none touching anything after a syntax error).
  private func structuredFixAll(
    _ findings: [Finding], touching range: ClosedRange<SourcePosition>, before errorPosition: SourcePosition?,
    _ document: Document, _ actions: inout ResultStream<CodeActionResult>
  ) throws(ResponseError) {
    let format = structured[document.uri]!.format
    var codec = positions
    for code in format.paragraphRules.map(\.code) {
      let all = findings.filter { $0.code == code }
      guard all.count > 1,
        all.contains(where: { $0.range.end >= range.lowerBound && $0.range.start <= range.upperBound })
      else { continue }
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
