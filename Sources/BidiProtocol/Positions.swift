import JSONRPC
import UnicodeBidi

// The one codec of positions and ranges: every params field and result
// member that is a Position or a Range is read and written here. The types
// are UnicodeBidi's (`LSPPosition`, `LSPRange`: a line and a `character` in
// the negotiated position encoding's units).

extension LSPPosition: JSONEncodable {
  /// Decodes `{line, character}`, both non-negative integers.
  package init(_ params: Params) throws(ResponseError) {
    try params.requireObject()
    self.init(line: try params["line"].uint(), character: try params["character"].uint())
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("line", line)
    writer.member("character", character)
    writer.endObject()
  }
}

extension LSPRange: JSONEncodable {
  /// Decodes `{start, end}`; a range whose start is after its end is -32602.
  package init(_ params: Params) throws(ResponseError) {
    try params.requireObject()
    self.init(start: try LSPPosition(params["start"]), end: try LSPPosition(params["end"]))
    guard start <= end else { throw params.error("start \(start) is after end \(end)") }
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("start", start)
    writer.member("end", end)
    writer.endObject()
  }
}

/// The lines a request covers: its `range` (a range ending at character 0
/// of a later line leaves that line out, as a selection of whole lines
/// does), or the whole document.
package struct LineSelection: Hashable, Sendable {
  /// The request's `range`, if it had one.
  package var range: LSPRange?

  package init(range: LSPRange?) {
    self.range = range
  }

  /// The lines of a document of `lineCount` lines, or -32602 when the range
  /// starts or ends past the document's end (`{lineCount, 0}` as the end
  /// means "to the end of the document").
  package func lines(lineCount: Int) throws(ResponseError) -> Range<Int> {
    guard let range else { return 0..<lineCount }
    let endIsDocumentEnd = range.end.line == lineCount && range.end.character == 0 && range.start.line < lineCount
    for (position, name) in [(range.start, "start"), (range.end, "end")]
    where position.line >= lineCount && !(name == "end" && endIsDocumentEnd) {
      throw .invalidParams(
        at: "params.range.\(name).line",
        "line \(position.line) is past the end of the document, which has \(lineCount) "
          + (lineCount == 1 ? "line" : "lines"))
    }
    var last = range.end.line
    if range.end.character == 0 && last > range.start.line { last -= 1 }
    return range.start.line..<(last + 1)
  }
}

/// `textDocument.uri` of a request or notification.
package func documentURI(_ params: Params) throws(ResponseError) -> String {
  let document = params["textDocument"]
  try document.requireObject()
  return try document["uri"].string()
}

/// An LSP TextEdit.
package struct TextEdit: Hashable, Sendable, JSONEncodable {
  package var range: LSPRange
  package var newText: String

  package init(range: LSPRange, newText: String) {
    self.range = range
    self.newText = newText
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("newText", newText)
    writer.endObject()
  }
}

/// An LSP WorkspaceEdit of one document: `{changes: {uri: TextEdit[]}}`.
package struct WorkspaceEdit: Hashable, Sendable, JSONEncodable {
  package var uri: String
  package var edits: [TextEdit]

  package init(uri: String, edits: [TextEdit]) {
    self.uri = uri
    self.edits = edits
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("changes")
    writer.beginObject()
    writer.member(uri, edits)
    writer.endObject()
    writer.endObject()
  }
}
