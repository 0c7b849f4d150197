import BidiProtocol
import DocumentStore
import JSONRPC
import UnicodeBidi

/// `bidi/naturalDirection` and `bidi/alignment` (specification,
/// "bidi/naturalDirection", "bidi/alignment"): typed params in, entries out,
/// one paragraph at a time (`forEachParagraph`).
extension BidiLanguageServer {
  func naturalDirection(
    _ params: NaturalDirectionParams, _ context: RequestContext,
    _ entries: inout ResultStream<NaturalDirectionResult>
  ) throws(ResponseError) {
    let target = params.target
    try withOpenDocument(target.uri) { (document) throws(ResponseError) in
      var codec = positions
      try forEachParagraph(target, &document, context) { (paragraph, document) throws(ResponseError) in
        let strong = try paragraph.strongCharacter.map { (position) throws(ResponseError) in
          try lspPosition(position, document, &codec)
        }
        try entries.append(
          DirectionEntry(
            place: paragraph.place, direction: paragraph.direction, basis: paragraph.basis, strongCharacter: strong))
      }
    }
  }

  func alignment(
    _ params: AlignmentParams, _ context: RequestContext, _ entries: inout ResultStream<AlignmentResult>
  ) throws(ResponseError) {
    let target = params.target
    try withOpenDocument(target.uri) { (document) throws(ResponseError) in
      try forEachParagraph(target, &document, context) { (paragraph, _) throws(ResponseError) in
        try entries.append(
          AlignmentEntry(
            place: paragraph.place, direction: paragraph.direction,
            alignment: ResolvedAlignment(
              params.textAlignment, paragraph: paragraph.direction, layout: target.options.layoutDirection)))
      }
    }
  }

  /// The natural directions of the paragraphs of one line (hover), in
  /// line or block mode (document mode's lines are lines).
  func lineParagraphs(
    _ line: Int, _ options: DirectionOptions, _ document: inout Document, _ context: RequestContext
  ) throws(ResponseError) -> [TargetParagraph] {
    var result: [TargetParagraph] = []
    try forEachLineParagraph(line..<line + 1, options, &document, context) { paragraph, _ in result.append(paragraph) }
    return result
  }
}
