import BidiHazards
import BidiProtocol
import DocumentStore
import JSONRPC
import Localization
import UnicodeBidi

/// The editor features of localization documents (Protocol/localization.md):
/// `bidi.placeholderDirection`, `bidi.valueDirection`,
/// `bidi.localizationSyntax` and the hazard rules per value, published with the
/// document's other diagnostics; their quick fixes; hover on a value.
extension BidiLanguageServer {
  // MARK: Diagnostics

  /// The wire diagnostics of a localization document's findings (none for a
  /// plain document), in document order: every value's, then the syntax
  /// error's.
  func localizationDiagnostics(_ document: Document) -> [Diagnostic] {
    guard localization[document.uri] != nil else { return [] }
    readLocalization(document.uri, text: document.text, through: Int.max)
    let findings = localization[document.uri]!.allFindings(localeSetting: localeSetting)
    var codec = positions
    return findings.compactMap { try? diagnostic($0, document, &codec) }
  }

  func diagnostic(_ finding: LocalizationFinding, _ document: Document, _ codec: inout PositionCodec)
    throws(ResponseError) -> Diagnostic
  {
    Diagnostic(
      range: try lspRange(finding.range, document, &codec), severity: finding.severity,
      code: finding.code, message: finding.message, visualOrder: nil)
  }

  // MARK: Quick fixes

  /// The fixes of the localization findings touching `range`: every edit
  /// inside one value's text, none after a syntax error.
  func localizationQuickFixes(
    _ params: CodeActionParams, _ document: Document, _ actions: inout ResultStream<CodeActionResult>
  ) throws(ResponseError) {
    guard localization[document.uri] != nil else { return }
    readLocalization(document.uri, text: document.text, through: Int.max)
    let findings = localization[document.uri]!.allFindings(localeSetting: localeSetting)
    let start = try sourcePosition(params.range.start, document)
    let end =
      params.range.end.line < document.text.lineCount
      ? try sourcePosition(params.range.end, document) : SourcePosition(line: Int.max, column: 0)
    let errorPosition = localization[document.uri]!.index.error?.position
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
  }

  // MARK: Hover

  /// Hover on a value paragraph: its direction and alignment as written,
  /// its direction and visual text filled; nil off values (the line's hover).
  func valueHover(_ params: HoverParams) throws(ResponseError) -> HoverResult? {
    readLocalization(params.uri, through: params.position.line)
    guard let state = localization[params.uri], let document = documents[params.uri],
      params.position.line < document.text.lineCount
    else { return nil }
    let position = try sourcePosition(params.position, document)
    let line = position.line
    guard line < state.plainLinesStart else { return nil }
    for value in state.index.values(touching: line..<line + 1) {
      for paragraph in value.paragraphs.indices {
        let analysis = ValueParagraphAnalysis(value, paragraph: paragraph)
        let range = analysis.range
        guard range.start <= position && position <= range.end else { continue }
        var codec = positions
        return HoverResult(
          text: valueHoverText(analysis, state, document, &codec), range: try lspRange(range, document, &codec))
      }
    }
    return nil
  }

  private func valueHoverText(
    _ analysis: ValueParagraphAnalysis, _ state: LocalizationDocument, _ document: Document,
    _ codec: inout PositionCodec
  ) -> String {
    let options = DirectionOptions(settings)
    let strategy = valueStrategy(options)
    let value = analysis.value
    var title = "Value \u{201C}\(value.key)\u{201D}"
    if let variant = value.variant { title += " (\(variant))" }
    if value.paragraphs.count > 1 { title += ", paragraph \(analysis.paragraph + 1) of \(value.paragraphs.count)" }
    let fileLocale = state.fileLocale(setting: localeSetting)
    if let locale = state.locale(of: value, fileLocale: fileLocale) {
      title += ", locale \(locale)\(locale.isRightToLeft ? " (right to left)" : "")"
    }
    func describe(_ found: ValueDirection) -> (BidiDirection, String) {
      guard let decided = found.direction else {
        return (options.layoutDirection, "\(options.layoutDirection.rawValue) (no strong character: the layout's)")
      }
      let direction = decided
      var text = direction.rawValue
      if let strong = found.strongCharacter, let wire = try? lspPosition(strong, document, &codec) {
        text += " (first strong character at line \(wire.line + 1), character \(wire.character + 1))"
      } else {
        text += " (\(options.strategy.rawValue))"
      }
      return (direction, text)
    }
    let (written, writtenText) = describe(analysis.direction(strategy))
    let alignment = ResolvedAlignment(.natural, paragraph: written, layout: options.layoutDirection)
    let (filled, filledText) = describe(analysis.direction(strategy, filled: true))
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
