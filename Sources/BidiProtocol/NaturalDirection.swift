import JSONRPC
import UnicodeBidi

/// `bidi/naturalDirection` params: the common ones.
package struct NaturalDirectionParams: Sendable {
  package var target: BidiRequestTarget

  package init(decoding value: JSONValue?, defaults: DirectionSettings) throws(ResponseError) {
    target = try BidiRequestTarget(Params(value), defaults: defaults)
  }
}

/// The `bidi/naturalDirection` result: `{paragraphs: [DirectionEntry]}`.
package enum NaturalDirectionResult: ListResult {
  package typealias Entry = DirectionEntry
  package static var member: String? { "paragraphs" }
}

/// One paragraph's natural direction, and why.
package struct DirectionEntry: Sendable, Hashable, JSONEncodable {
  package var place: ParagraphPlace
  package var direction: BidiDirection
  package var basis: DirectionBasis
  /// The Position of the character that decided it (firstStrong only).
  package var strongCharacter: LSPPosition?

  package init(place: ParagraphPlace, direction: BidiDirection, basis: DirectionBasis, strongCharacter: LSPPosition?) {
    self.place = place
    self.direction = direction
    self.basis = basis
    self.strongCharacter = strongCharacter
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    place.encodeMembers(to: &writer)
    writer.member("direction", direction)
    writer.member("basis", basis)
    writer.member("strongCharacter", ifPresent: strongCharacter)
    writer.endObject()
  }
}
