import JSONRPC
import UnicodeBidi

/// `bidi/alignment` params: the common ones and `textAlignment`.
package struct AlignmentParams: Sendable {
  package var target: BidiRequestTarget
  package var textAlignment: TextAlignment

  package init(decoding value: JSONValue?, defaults: DirectionSettings) throws(ResponseError) {
    let params = Params(value)
    target = try BidiRequestTarget(params, defaults: defaults)
    textAlignment = try params.optional("textAlignment")?.oneOf(TextAlignment.self) ?? .natural
  }
}

/// The `bidi/alignment` result: `{paragraphs: [AlignmentEntry]}`.
package enum AlignmentResult: ListResult {
  package typealias Entry = AlignmentEntry
  package static var member: String? { "paragraphs" }
}

/// One paragraph's alignment.
package struct AlignmentEntry: Sendable, Hashable, JSONEncodable {
  package var place: ParagraphPlace
  package var direction: BidiDirection
  package var alignment: ResolvedAlignment

  package init(place: ParagraphPlace, direction: BidiDirection, alignment: ResolvedAlignment) {
    self.place = place
    self.direction = direction
    self.alignment = alignment
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    place.encodeMembers(to: &writer)
    writer.member("direction", direction)
    writer.member("alignment", alignment.alignment)
    writer.member("physical", alignment.physical)
    writer.member("lastLinePhysical", ifPresent: alignment.lastLinePhysical)
    writer.endObject()
  }
}
