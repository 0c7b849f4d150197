import JSONRPC

/// `bidi/alignment` params: the common ones and `textAlignment`.
public struct AlignmentParams: Sendable {
  public var target: BidiRequestTarget
  public var textAlignment: TextAlignment

  public init(decoding value: JSONValue?, defaults: DirectionSettings) throws(ResponseError) {
    let params = Params(value)
    target = try BidiRequestTarget(params, defaults: defaults)
    textAlignment = try params.optional("textAlignment")?.oneOf(TextAlignment.self) ?? .natural
  }
}

/// The `bidi/alignment` result: `{paragraphs: [AlignmentEntry]}`.
public enum AlignmentResult: ListResult {
  public typealias Entry = AlignmentEntry
  public static var member: String? { "paragraphs" }
}

/// One paragraph's alignment.
public struct AlignmentEntry: Sendable, Hashable, JSONEncodable {
  public var place: ParagraphPlace
  public var direction: TextDirection
  public var alignment: ResolvedAlignment

  public init(place: ParagraphPlace, direction: TextDirection, alignment: ResolvedAlignment) {
    self.place = place
    self.direction = direction
    self.alignment = alignment
  }

  public func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    place.encodeMembers(to: &writer)
    writer.member("direction", direction)
    writer.member("alignment", alignment.alignment)
    writer.member("physical", alignment.physical)
    writer.member("lastLinePhysical", ifPresent: alignment.lastLinePhysical)
    writer.endObject()
  }
}
