import BidiMarks
import JSONRPC
import UnicodeBidi

/// `bidi/insertMarks` params: the common ones, `mode`, and the mode's own
/// options.
package struct InsertMarksParams: Sendable {
  package var target: BidiRequestTarget
  package var mode: MarkMode

  package init(decoding value: JSONValue?, defaults: DirectionSettings) throws(ResponseError) {
    let params = Params(value)
    target = try BidiRequestTarget(params, defaults: defaults)
    mode = try MarkMode(params, hasRange: target.selection.range != nil)
  }

  package init(target: BidiRequestTarget, mode: MarkMode) {
    self.target = target
    self.mode = mode
  }
}

/// A mode of `bidi/insertMarks`, with its options.
package enum MarkMode: Sendable, Hashable {
  /// `direction` (required).
  case direction(BidiDirection)
  /// `isolate` (default `auto`); needs a range.
  case isolate(DirectionChoice)
  /// `style` (default `isolate`).
  case placeholders(PlaceholderStyle)
  case runs
  /// `only` (default `all`).
  case strip(StripScope)

  /// The mode's name, as `mode` gives it.
  package enum Name: String, Sendable, CaseIterable {
    case direction, isolate, placeholders, runs, strip
  }

  package var name: Name {
    switch self {
    case .direction: .direction
    case .isolate: .isolate
    case .placeholders: .placeholders
    case .runs: .runs
    case .strip: .strip
    }
  }

  package init(_ params: Params, hasRange: Bool) throws(ResponseError) {
    switch try params["mode"].oneOf(Name.self) {
    case .direction:
      self = .direction(try params["direction"].oneOf(BidiDirection.self))
    case .isolate:
      guard hasRange else { throw params["range"].error("mode isolate needs a range") }
      self = .isolate(try params.optional("isolate")?.oneOf(DirectionChoice.self) ?? .auto)
    case .placeholders:
      self = .placeholders(try params.optional("style")?.oneOf(PlaceholderStyle.self) ?? .isolate)
    case .runs:
      self = .runs
    case .strip:
      self = .strip(try params.optional("only")?.oneOf(StripScope.self) ?? .all)
    }
  }
}

/// The `bidi/insertMarks` result: `{edits: [TextEdit]}`.
package enum InsertMarksResult: ListResult {
  package typealias Entry = TextEdit
  package static var member: String? { "edits" }
}
