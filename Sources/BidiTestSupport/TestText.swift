import JSONRPC
import UnicodeBidi

/// The tests' own model of a document, independent of the server's code:
/// the text as Unicode scalars split into LSP lines (at `\r\n`, `\r` and
/// `\n`) from scratch, LSP positions in any `PositionEncoding` counted with
/// Swift's own `UTF8`/`UTF16` widths, and TextEdits applied as an editor
/// applies a WorkspaceEdit.
///
/// Test texts may carry position markers in the manner of sourcekit-lsp's
/// `LocationMarkers`: a keycap digit (`1️⃣`, `2️⃣` …) stands for the point
/// where it is written and is not part of the text:
///
///     let text = TestText(marked: "abc 1️⃣שלום2️⃣ def")
///     text.text                                  // "abc שלום def"
///     text.position("1️⃣", in: .utf16)            // {line: 0, character: 4}
///     text.range("1️⃣", "2️⃣", in: .utf16)        // characters 4..<8 of line 0
package struct TestText: Equatable, Sendable {
  /// The text, scalar by scalar.
  package private(set) var scalars: [Unicode.Scalar]
  /// The scalar index where each line starts.
  package private(set) var lineStarts: [Int] = []
  /// The scalar index where each line's content ends (its terminator starts).
  package private(set) var lineEnds: [Int] = []
  /// The scalar index each marker of `init(marked:)` stands for.
  package private(set) var markers: [String: Int] = [:]

  package init(_ text: String) {
    scalars = Array(text.unicodeScalars)
    reindex()
  }

  /// The text of `marked` without its markers, each marker remembered at
  /// the point it stands for. A marker is a digit followed by U+FE0F and
  /// U+20E3 (several digits make one name: `10️⃣`); a name used twice is a
  /// programming error.
  package init(marked: String) {
    let source = Array(marked.unicodeScalars)
    scalars = []
    var index = 0
    while index < source.count {
      var end = index
      while end < source.count, ("0"..."9").contains(source[end]) { end += 1 }
      if end > index, end + 1 < source.count, source[end] == "\u{FE0F}", source[end + 1] == "\u{20E3}" {
        var name = ""
        name.unicodeScalars.append(contentsOf: source[index..<(end + 2)])
        precondition(markers[name] == nil, "marker \(name) is used twice")
        markers[name] = scalars.count
        index = end + 2
      } else {
        scalars.append(source[index])
        index += 1
      }
    }
    reindex()
  }

  package var text: String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }

  /// Line terminators plus one.
  package var lineCount: Int { lineStarts.count }

  package var utf8Length: Int { scalars.reduce(0) { $0 + UTF8.width($1) } }

  /// Each line's content as a scalar range of the text (terminators left out).
  package var lineRanges: [Range<Int>] { zip(lineStarts, lineEnds).map { $0..<$1 } }

  /// Each line's content.
  package var lines: [[Unicode.Scalar]] { lineRanges.map { Array(scalars[$0]) } }

  /// Line `index`'s content as a string.
  package func line(_ index: Int) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars[lineStarts[index]..<lineEnds[index]])
    return String(view)
  }

  /// Each line's terminator (`""` for the last line).
  package var terminators: [String] {
    (0..<lineCount).map { index in
      let end = index + 1 < lineCount ? lineStarts[index + 1] : scalars.count
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[lineEnds[index]..<end])
      return String(view)
    }
  }

  private mutating func reindex() {
    lineStarts = [0]
    lineEnds = []
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\r" || scalar == "\n" {
        lineEnds.append(index)
        index += (scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n") ? 2 : 1
        lineStarts.append(index)
      } else {
        index += 1
      }
    }
    lineEnds.append(scalars.count)
  }

  // MARK: Positions

  /// The scalar index an LSP position designates, with the specification's
  /// rules: a character past the line's end is clamped to it; one inside a
  /// character's encoding moves back to that character's start. Nil for a
  /// line outside the text.
  package func index(line: Int, character: Int, in encoding: PositionEncoding) -> Int? {
    guard line >= 0, line < lineCount else { return nil }
    var index = lineStarts[line]
    var units = 0
    while index < lineEnds[line] {
      let width = encoding.units(of: scalars[index])
      if units + width > character { break }
      units += width
      index += 1
    }
    return index
  }

  /// The scalar index of an LSP Position (JSON); nil when it is not one or
  /// its line is outside the text.
  package func index(_ position: JSONValue, in encoding: PositionEncoding) -> Int? {
    guard let line = position["line"]?.intValue, let character = position["character"]?.intValue else { return nil }
    return index(line: line, character: character, in: encoding)
  }

  /// The LSP position of a scalar index; nil between the `\r` and `\n` of
  /// a CRLF (no position designates that point).
  package func position(of index: Int, in encoding: PositionEncoding) -> (line: Int, character: Int)? {
    let line = self.line(containing: index)
    guard index <= lineEnds[line] else { return nil }  // inside the terminator
    return (line, Self.length(scalars[lineStarts[line]..<index], in: encoding))
  }

  /// The LSP Position (JSON) of a scalar index, a point inside a terminator
  /// taken as its line's end.
  package func lspPosition(of index: Int, in encoding: PositionEncoding) -> JSONValue {
    let line = self.line(containing: index)
    let character = Self.length(
      scalars[lineStarts[line]..<min(max(index, lineStarts[line]), lineEnds[line])], in: encoding)
    return BidiTestSupport.position(line, character)
  }

  /// The last line starting at or before scalar index `index`.
  private func line(containing index: Int) -> Int {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The width of line `line`'s content in `encoding`.
  package func lineWidth(_ line: Int, in encoding: PositionEncoding) -> Int {
    Self.length(scalars[lineStarts[line]..<lineEnds[line]], in: encoding)
  }

  /// The character offset (in `encoding`) of byte `utf8Offset` of line `line`.
  package func character(line: Int, utf8Offset: Int, in encoding: PositionEncoding) -> Int {
    var bytes = 0
    var units = 0
    for scalar in scalars[lineStarts[line]..<lineEnds[line]] {
      bytes += UTF8.width(scalar)
      if bytes > utf8Offset { break }
      units += encoding.units(of: scalar)
    }
    return units
  }

  /// The byte offset within line `line` of LSP character `character`
  /// (clamped, moved back to a character's start as `index` does).
  package func utf8Offset(line: Int, character: Int, in encoding: PositionEncoding) -> Int {
    let end = index(line: line, character: character, in: encoding) ?? lineStarts[line]
    return Self.length(scalars[lineStarts[line]..<end], in: .utf8)
  }

  /// The scalar at byte `utf8Offset` of line `line`.
  package func scalar(line: Int, utf8Offset: Int) -> Unicode.Scalar? {
    var bytes = 0
    for scalar in scalars[lineStarts[line]..<lineEnds[line]] {
      if bytes == utf8Offset { return scalar }
      bytes += UTF8.width(scalar)
      if bytes > utf8Offset { return nil }
    }
    return nil
  }

  /// The scalar at an LSP position (nil at or past the line's end).
  package func scalar(line: Int, character: Int, in encoding: PositionEncoding) -> Unicode.Scalar? {
    guard let index = index(line: line, character: character, in: encoding), index < lineEnds[line] else { return nil }
    return scalars[index]
  }

  // MARK: Markers

  /// The LSP Position (JSON) of marker `name`.
  package func position(_ name: String, in encoding: PositionEncoding) -> JSONValue {
    guard let index = markers[name] else { preconditionFailure("no marker \(name) in the text") }
    return lspPosition(of: index, in: encoding)
  }

  /// The LSP Range (JSON) from marker `start` to marker `end`.
  package func range(_ start: String, _ end: String, in encoding: PositionEncoding) -> JSONValue {
    ["start": position(start, in: encoding), "end": position(end, in: encoding)]
  }

  // MARK: Edits

  /// Replaces scalars `range` with `text`.
  package mutating func replace(_ range: Range<Int>, with text: String) {
    scalars.replaceSubrange(range, with: Array(text.unicodeScalars))
    reindex()
  }

  package mutating func replaceAll(with text: String) {
    scalars = Array(text.unicodeScalars)
    reindex()
  }

  /// A TextEdit's scalar range in this text and the scalar count of its new
  /// text; nil when it is not one.
  package func span(of edit: JSONValue, in encoding: PositionEncoding) -> (range: Range<Int>, inserted: Int)? {
    guard let range = edit["range"], let newText = edit["newText"]?.stringValue,
      let start = range["start"].flatMap({ index($0, in: encoding) }),
      let end = range["end"].flatMap({ index($0, in: encoding) }), start <= end
    else { return nil }
    return (start..<end, newText.unicodeScalars.count)
  }

  /// The text after LSP TextEdits, all made against this text (as a
  /// WorkspaceEdit's are); inserts at one position keep their order. Throws
  /// on edits that are malformed, lie outside the text or overlap.
  package func applying(_ edits: [JSONValue], in encoding: PositionEncoding) throws(HarnessError) -> TestText {
    var located: [(range: Range<Int>, order: Int, text: String)] = []
    for (order, edit) in edits.enumerated() {
      guard let span = span(of: edit, in: encoding), let newText = edit["newText"]?.stringValue else {
        throw HarnessError("a TextEdit that cannot apply: \(edit)")
      }
      located.append((span.range, order, newText))
    }
    // From the end backwards; at one position, the later-listed edit first.
    located.sort { ($0.range.lowerBound, $0.order) > ($1.range.lowerBound, $1.order) }
    var result = scalars
    var limit = scalars.count
    for edit in located {
      guard edit.range.upperBound <= limit else { throw HarnessError("TextEdits overlap: \(edits)") }
      result.replaceSubrange(edit.range, with: Array(edit.text.unicodeScalars))
      limit = edit.range.lowerBound
    }
    var after = self
    after.scalars = result
    after.markers = [:]
    after.reindex()
    return after
  }

  /// Applies LSP TextEdits in place (see `applying(_:in:)`).
  package mutating func apply(_ edits: [JSONValue], in encoding: PositionEncoding) throws(HarnessError) {
    self = try applying(edits, in: encoding)
  }

  /// `range` (an LSP Range in this text) grown by what `edits` insert in it
  /// or at its ends, as a Range in the text after the edits.
  package func grown(_ range: JSONValue, by edits: [JSONValue], in encoding: PositionEncoding) -> JSONValue? {
    guard var lower = range["start"].flatMap({ index($0, in: encoding) }),
      var upper = range["end"].flatMap({ index($0, in: encoding) })
    else { return nil }
    let originalLower = lower
    let originalUpper = upper
    for edit in edits {
      guard let (span, inserted) = span(of: edit, in: encoding) else { return nil }
      let delta = inserted - span.count
      if span.lowerBound < originalLower && span.upperBound <= originalLower {
        lower += delta
        upper += delta
      } else if span.lowerBound <= originalUpper {
        upper += delta
      }
    }
    guard let after = try? applying(edits, in: encoding) else { return nil }
    return ["start": after.lspPosition(of: lower, in: encoding), "end": after.lspPosition(of: upper, in: encoding)]
  }

  /// TextEdits as `didChange` content changes: applied one after the other,
  /// from the end of the document backwards, they give `applying(edits)`.
  package static func contentChanges(for edits: [JSONValue]) -> [JSONValue] {
    func key(_ edit: JSONValue) -> (Int, Int) {
      (edit["range"]?["start"]?["line"]?.intValue ?? 0, edit["range"]?["start"]?["character"]?.intValue ?? 0)
    }
    let ordered = edits.enumerated().sorted { a, b in
      let ka = key(a.element)
      let kb = key(b.element)
      return ka != kb ? ka > kb : a.offset > b.offset
    }
    return ordered.map { ["range": $0.element["range"] ?? .null, "text": $0.element["newText"] ?? ""] }
  }

  // MARK: Units of scalars

  /// The units of `scalars` in `encoding`.
  package static func length(_ scalars: some Sequence<Unicode.Scalar>, in encoding: PositionEncoding) -> Int {
    scalars.reduce(0) { $0 + encoding.units(of: $1) }
  }

  /// The unit offset of every scalar of `line`, and the line's length.
  package static func offsets(_ line: [Unicode.Scalar], in encoding: PositionEncoding) -> [Int] {
    var result = [0]
    for scalar in line { result.append(result[result.count - 1] + encoding.units(of: scalar)) }
    return result
  }

  /// The scalar index at unit offset `character` of `line`: clamped to the
  /// line, moved back to the start of a character it falls inside.
  package static func scalarIndex(_ line: [Unicode.Scalar], character: Int, in encoding: PositionEncoding) -> Int {
    var units = 0
    for (index, scalar) in line.enumerated() {
      units += encoding.units(of: scalar)
      if units > character { return index }
    }
    return line.count
  }

  /// For a unit-offset array from the server (`visualOrder` and friends):
  /// the scalar index of each unit of `line`.
  package static func scalarOfUnit(_ line: [Unicode.Scalar], in encoding: PositionEncoding) -> [Int] {
    var result: [Int] = []
    for (index, scalar) in line.enumerated() {
      result += Array(repeating: index, count: encoding.units(of: scalar))
    }
    return result
  }
}

/// A failure of a test's own machinery (a TextEdit the model cannot apply, a
/// corpus file that cannot be read), not of an assertion.
package struct HarnessError: Error, CustomStringConvertible, Sendable {
  package var description: String
  package init(_ description: String) { self.description = description }
}

extension PositionEncoding {
  /// The units of `scalar`, by Swift's own UTF-8 and UTF-16 views (not by
  /// the code under test).
  package func units(of scalar: Unicode.Scalar) -> Int {
    switch self {
    case .utf8: UTF8.width(scalar)
    case .utf16: UTF16.width(scalar)
    case .utf32: 1
    }
  }

  /// The units of `text`.
  package func units(of text: some StringProtocol) -> Int {
    switch self {
    case .utf8: text.utf8.count
    case .utf16: text.utf16.count
    case .utf32: text.unicodeScalars.count
    }
  }
}
