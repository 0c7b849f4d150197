import DocumentStore
import JSONRPC

/// The common options of the four bidi requests (Protocol/specification.md, “Common parameters”), read from a
/// request's params over the server's settings.
struct DirectionOptions {
  var strategy: DirectionStrategy
  var rtlThreshold: Double
  var fallback: DirectionFallback
  var paragraphs: ParagraphMode
  var layoutDirection: TextDirection

  init(_ params: Params, defaults: DirectionSettings) throws(ResponseError) {
    strategy = try params.optional("strategy")?.oneOf(DirectionStrategy.self) ?? defaults.strategy
    rtlThreshold = try params.optional("rtlThreshold").map(BidiLanguageServer.threshold) ?? defaults.rtlThreshold
    fallback = try params.optional("fallback")?.oneOf(DirectionFallback.self) ?? defaults.fallback
    paragraphs = try params.optional("paragraphs")?.oneOf(ParagraphMode.self) ?? defaults.paragraphs
    layoutDirection = try params.optional("layoutDirection")?.oneOf(TextDirection.self) ?? defaults.layoutDirection
  }

  init(
    strategy: DirectionStrategy = .firstStrong, rtlThreshold: Double = 0.4,
    fallback: DirectionFallback = .previous, paragraphs: ParagraphMode = .line,
    layoutDirection: TextDirection = .ltr
  ) {
    self.strategy = strategy
    self.rtlThreshold = rtlThreshold
    self.fallback = fallback
    self.paragraphs = paragraphs
    self.layoutDirection = layoutDirection
  }
}

extension Params {
  /// The lines a request covers: `range` (a range ending at character 0 of a
  /// later line leaves that line out), or the whole document.
  func lineRange(in document: Document) throws(ResponseError) -> Range<Int> {
    let lineCount = document.text.lineCount
    guard let rangeParam = try optional("range") else { return 0..<lineCount }
    let range = try rangeParam.range()
    // `{lineCount, 0}` as the end means "to the end of the document".
    let endIsDocumentEnd = range.end.line == lineCount && range.end.character == 0 && range.start.line < lineCount
    for (position, name) in [(range.start, "start"), (range.end, "end")]
    where position.line >= lineCount && !(name == "end" && endIsDocumentEnd) {
      throw rangeParam[name]["line"].error(
        "line \(position.line) is past the end of the document, which has \(lineCount) "
          + (lineCount == 1 ? "line" : "lines"))
    }
    var last = range.end.line
    if range.end.character == 0 && last > range.start.line { last -= 1 }
    return range.start.line..<(last + 1)
  }
}
