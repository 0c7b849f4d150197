import JSONRPC

/// `bidi/naturalDirection` params: the common ones.
public struct NaturalDirectionParams: Sendable {
  public var target: BidiRequestTarget

  public init(decoding value: JSONValue?, defaults: DirectionSettings) throws(ResponseError) {
    target = try BidiRequestTarget(Params(value), defaults: defaults)
  }
}

/// The `bidi/naturalDirection` result: `{paragraphs: [DirectionEntry]}`.
public enum NaturalDirectionResult: ListResult {
  public typealias Entry = DirectionEntry
  public static var member: String? { "paragraphs" }
}

/// One paragraph's natural direction, and why.
public struct DirectionEntry: Sendable, Hashable, JSONEncodable {
  public var place: ParagraphPlace
  public var direction: TextDirection
  public var basis: DirectionBasis
  /// The Position of the character that decided it (firstStrong only).
  public var strongCharacter: LSPPosition?

  public init(place: ParagraphPlace, direction: TextDirection, basis: DirectionBasis, strongCharacter: LSPPosition?) {
    self.place = place
    self.direction = direction
    self.basis = basis
    self.strongCharacter = strongCharacter
  }

  public func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    place.encodeMembers(to: &writer)
    writer.member("direction", direction)
    writer.member("basis", basis)
    writer.member("strongCharacter", ifPresent: strongCharacter)
    writer.endObject()
  }
}
