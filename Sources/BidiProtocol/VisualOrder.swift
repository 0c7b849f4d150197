import JSONRPC
import UnicodeBidi

/// `bidi/visualOrder` params: the common ones, `direction`, `mirror`,
/// `include`, `lineBreaks`, `combiningMarks`, `controls` and `shape`.
package struct VisualOrderParams: Sendable {
  package var target: BidiRequestTarget
  package var direction: DirectionChoice
  package var mirror: Bool
  package var include: Set<VisualInclude>
  /// The break offsets as given (checked against the line by the server,
  /// with `lineBreakPath(_:)` naming each).
  package var lineBreaks: [Int]?
  /// Whether L3 applies (combining marks displayed after their base).
  package var combiningMarks: CombiningMarkOrder
  /// How `visualText` shows the bidi controls.
  package var controls: ControlDisplay
  /// Whether `visualText` joins Arabic letters into presentation forms.
  package var shape: Bool

  package init(decoding value: JSONValue?, defaults: DirectionSettings) throws(ResponseError) {
    let params = Params(value)
    target = try BidiRequestTarget(params, defaults: defaults)
    direction = try params.optional("direction")?.oneOf(DirectionChoice.self) ?? .auto
    mirror = try params.optional("mirror")?.bool() ?? true
    combiningMarks = try params.optional("combiningMarks")?.oneOf(CombiningMarkOrder.self) ?? .resolved
    controls = try params.optional("controls")?.oneOf(ControlDisplay.self) ?? .keep
    shape = try params.optional("shape")?.bool() ?? false
    include = [.runs]
    if let list = try params.optional("include") {
      include = []
      for item in try list.array() { include.insert(try item.oneOf(VisualInclude.self)) }
    }
    if let breaks = try params.optional("lineBreaks") {
      var offsets: [Int] = []
      for item in try breaks.array() { offsets.append(try item.uint()) }
      lineBreaks = offsets
    }
  }

  /// The field path of break `index`, for errors about it.
  package static func lineBreakPath(_ index: Int) -> String { "params.lineBreaks[\(index)]" }
  package static let lineBreaksPath = "params.lineBreaks"
}

/// What a display line carries in the answer.
package enum VisualInclude: String, Sendable, CaseIterable {
  case runs, levels, visualOrder, visualText, logicalToVisual, visualToLogical
}

/// The `bidi/visualOrder` result: `{paragraphs: [VisualParagraph]}`.
package enum VisualOrderResult: ListResult {
  package typealias Entry = VisualParagraph
  package static var member: String? { "paragraphs" }
}

/// One paragraph reordered, per display line.
package struct VisualParagraph: Sendable, Hashable, JSONEncodable {
  package var place: ParagraphPlace
  package var direction: BidiDirection
  /// Document mode: the entry paragraph's decoded (rendered) text, from whose start the
  /// offsets of `lines` then count.
  package var text: String?
  package var lines: [VisualLine]

  package init(place: ParagraphPlace, direction: BidiDirection, lines: [VisualLine]) {
    self.place = place
    self.direction = direction
    self.lines = lines
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    place.encodeMembers(to: &writer)
    writer.member("paragraphLevel", direction == .rightToLeft ? 1 : 0)
    writer.member("direction", direction)
    writer.member("text", ifPresent: text)
    writer.member("lines", lines)
    writer.endObject()
  }
}

/// One display line: its offsets and what `include` asked for.
package struct VisualLine: Sendable, Hashable, JSONEncodable {
  package var start: Int
  package var end: Int
  package var runs: [VisualRun]?
  /// One per unit; nil for a character that X9 removes.
  package var levels: [Int8?]?
  package var visualOrder: [Int]?
  package var visualText: String?
  package var logicalToVisual: [Int]?
  package var visualToLogical: [Int]?

  package init(start: Int, end: Int) {
    self.start = start
    self.end = end
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("start", start)
    writer.member("end", end)
    writer.member("runs", ifPresent: runs)
    if let levels {
      writer.key("levels")
      writer.beginArray()
      for (index, level) in levels.enumerated() {
        if let level { writer.integer(Int(level)) } else { writer.null() }
        if index & 0xFFFF == 0xFFFF, writer.pollInterruption() { return }
      }
      writer.endArray()
    }
    if let visualOrder {
      writer.key("visualOrder")
      writer.integers(visualOrder)
    }
    writer.member("visualText", ifPresent: visualText)
    if writer.pollInterruption() { return }
    if let logicalToVisual {
      writer.key("logicalToVisual")
      writer.integers(logicalToVisual)
    }
    if let visualToLogical {
      writer.key("visualToLogical")
      writer.integers(visualToLogical)
    }
    writer.endObject()
  }
}

/// A run of one level, in logical offsets.
package struct VisualRun: Sendable, Hashable, JSONEncodable {
  package var start: Int
  package var end: Int
  package var level: Int

  package init(start: Int, end: Int, level: Int) {
    self.start = start
    self.end = end
    self.level = level
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("start", start)
    writer.member("end", end)
    writer.member("level", level)
    writer.endObject()
  }
}
