import JSONRPC
import UnicodeBidi

/// What every bidi request names: the document, the common options over the
/// server's settings, and the lines.
package struct BidiRequestTarget: Sendable {
  package var uri: String
  package var options: DirectionOptions
  package var selection: LineSelection

  package init(uri: String, options: DirectionOptions, selection: LineSelection) {
    self.uri = uri
    self.options = options
    self.selection = selection
  }

  package init(_ params: Params, defaults: DirectionSettings) throws(ResponseError) {
    uri = try documentURI(params)
    options = try DirectionOptions(params, defaults: defaults)
    selection = LineSelection(range: try params.optional("range").map { (r) throws(ResponseError) in try LSPRange(r) })
  }
}

/// Where a paragraph entry of `naturalDirection`, `alignment` or
/// `visualOrder` lies, and what it is: the members every per-paragraph
/// entry starts with, encoded here once for the three.
///
/// `range`, `key`, `variant`, `locale`, `block` and `cue` are the members
/// of a paragraph of a structured document in `document` mode (a value, a
/// rendered block, a cue line); they are written only when set, so the
/// line modes are unchanged by them.
package struct ParagraphPlace: Sendable, Hashable {
  /// The LSP line (of the paragraph's first character).
  package var line: Int
  /// The paragraph's offsets within the line, in the negotiated encoding.
  package var start: Int
  package var end: Int
  /// Document mode: the Range of the paragraph's source text.
  package var range: LSPRange?
  /// Document mode, localization: the value's key.
  package var key: String?
  /// Document mode, localization: the plural/select/device branch (`"plural:one"`).
  package var variant: String?
  /// Document mode: the entry's locale, when known.
  package var locale: String?
  /// Document mode, Markdown: the block's kind (`"paragraph"`, `"heading"`, `"tableCell"`).
  package var block: String?
  /// Document mode, subtitles: the cue's 1-based index.
  package var cue: Int?

  package init(line: Int, start: Int, end: Int) {
    self.line = line
    self.start = start
    self.end = end
  }

  /// Writes the members (the caller has opened the entry's object).
  package func encodeMembers(to writer: inout JSONWriter) {
    writer.member("line", line)
    writer.member("start", start)
    writer.member("end", end)
    writer.member("range", ifPresent: range)
    writer.member("key", ifPresent: key)
    writer.member("variant", ifPresent: variant)
    writer.member("locale", ifPresent: locale)
    writer.member("block", ifPresent: block)
    writer.member("cue", ifPresent: cue)
  }
}

extension BidiDirection: JSONEncodable {
  package func encode(to writer: inout JSONWriter) { writer.string(rawValue) }
}

extension DirectionBasis: JSONEncodable {
  package func encode(to writer: inout JSONWriter) { writer.string(rawValue) }
}
