import UnicodeBidi

/// Link reference definitions at the start of a paragraph (cmark's
/// resolve_reference_link_definitions and cmark_parse_reference_inline):
/// each is read off the front of the paragraph's content while one parses;
/// each ends at a line end, so each takes whole lines.
enum ReferenceDefinitions {
  /// One definition: its normalized label (nil when it is only white space:
  /// cmark consumes such a definition but registers nothing), its
  /// destination's source range, and how many of the paragraph's lines it
  /// takes.
  struct Definition {
    var label: String?
    var destination: SourceRange
    var lineCount: Int
  }

  /// The definitions at the start of the paragraph made of `pieces`.
  /// `filtered` false (tests): without `labelEndsWithColon`'s test first.
  static func read(_ pieces: [MarkdownPiece], in source: MarkdownSource, filtered: Bool = true) -> [Definition] {
    guard let first = pieces.first, source.bytes(of: first).first == UInt8(ascii: "[") else { return [] }
    // A definition's label ends at the first `]` not escaped (no `[`
    // before it), with `:` right after it: a paragraph without that has
    // none (most that start with `[` are links).
    guard !filtered || labelEndsWithColon(pieces, in: source) else { return [] }
    let content = InlineContent(pieces, in: source, rule: .plain, finalLineFeed: true)
    var definitions: [Definition] = []
    content.bytes.withUnsafeBufferPointer { buffer in
      let syntax = LinkSyntax(bytes: buffer, end: buffer.count)
      var memo = TitleScanMemo()
      var position = 0
      var line = 0
      while position < buffer.count && buffer[position] == UInt8(ascii: "[") {
        guard let (label, destination, end) = parse(syntax, at: position, memo: &memo) else { break }
        let lastLine = content.piece(containing: max(position, end - 1))
        let range = SourceRange(
          start: source.position(ofOffset: content.origins[destination.lowerBound]),
          end: source.position(
            ofOffset: destination.isEmpty
              ? content.origins[destination.lowerBound] : content.origins[destination.upperBound - 1] + 1))
        definitions.append(Definition(label: label, destination: range, lineCount: lastLine - line + 1))
        line = lastLine + 1
        position = end
      }
    }
    return definitions
  }

  /// Whether the label that `pieces` start with (at `[`) ends with `]:`
  /// as `LinkSyntax.label` reads it (the pieces joined by line feeds): the
  /// first `]` not escaped, before any `[`, followed by `:`. A backslash
  /// takes the byte after it (cmark takes it only when it is punctuation:
  /// the others are neither bracket nor backslash, read alike either way).
  static func labelEndsWithColon(_ pieces: [MarkdownPiece], in source: MarkdownSource) -> Bool {
    source.bytes.withUnsafeBufferPointer { bytes in
      var escaped = false
      for (index, piece) in pieces.enumerated() {
        let start = source.lineStarts[piece.line]
        var offset = start + piece.columns.lowerBound + (index == 0 ? 1 : 0)
        let end = start + piece.columns.upperBound
        // The line feed before this piece, taken by a backslash ending the last.
        if index > 0 && escaped { escaped = false }
        while offset < end {
          let byte = bytes[offset]
          offset += 1
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "[") {
            return false
          } else if byte == UInt8(ascii: "]") {
            return offset < end && bytes[offset] == UInt8(ascii: ":")
          }
        }
      }
      return false
    }
  }

  /// One definition at `start`: its normalized label, destination (content
  /// indices) and end (after its line feed).
  private static func parse(_ syntax: LinkSyntax, at start: Int, memo: inout TitleScanMemo)
    -> (String?, Range<Int>, Int)?
  {
    guard let label = syntax.label(at: start), !label.content.isEmpty else { return nil }
    guard syntax.at(label.end) == UInt8(ascii: ":") else { return nil }
    var position = skipSpacesAndOneLineEnd(syntax, label.end + 1)
    guard let destination = syntax.destination(at: position) else { return nil }
    position = destination.end
    let beforeTitle = position
    position = skipSpacesAndOneLineEnd(syntax, position)
    var titled = false
    if position != beforeTitle, let end = syntax.title(at: position, memo: &memo) {
      position = end
      titled = true
    } else {
      position = beforeTitle
    }
    position = skipSpaces(syntax, position)
    if let end = lineEnd(syntax, position) {
      position = end
    } else {
      guard titled, let end = lineEnd(syntax, skipSpaces(syntax, beforeTitle)) else { return nil }
      position = end
    }
    let raw = Array(UnsafeBufferPointer(rebasing: syntax.bytes[label.content]))
    return (normalizedLabel(raw), destination.url, position)
  }

  private static func skipSpaces(_ syntax: LinkSyntax, _ index: Int) -> Int {
    var index = index
    while syntax.at(index) == 0x20 || syntax.at(index) == 0x09 { index += 1 }
    return index
  }

  /// cmark's spnl: spaces, at most one line end, spaces.
  private static func skipSpacesAndOneLineEnd(_ syntax: LinkSyntax, _ index: Int) -> Int {
    let index = skipSpaces(syntax, index)
    guard let after = lineEnd(syntax, index), after > index else { return index }
    return skipSpaces(syntax, after)
  }

  /// cmark's skip_line_end: past a CR, LF or CR LF at `index`; the end of
  /// the input counts as one.
  private static func lineEnd(_ syntax: LinkSyntax, _ index: Int) -> Int? {
    var index = index
    var seen = false
    if syntax.at(index) == 0x0D {
      index += 1
      seen = true
    }
    if syntax.at(index) == 0x0A {
      index += 1
      seen = true
    }
    return seen || index >= syntax.end ? index : nil
  }

  /// A label as cmark's reference map keys it: case-folded, trimmed, inner
  /// white space (space, tab, CR, LF) collapsed to one space; nil when
  /// nothing is left.
  static func normalizedLabel(_ raw: [UInt8]) -> String? {
    raw.withUnsafeBufferPointer { normalizedLabel($0) }
  }

  /// `normalizedLabel` of the bytes `raw`: a label of ASCII without capital
  /// letters or white space (most) is itself, not folded nor collapsed.
  static func normalizedLabel(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
    if !raw.isEmpty && !raw.contains(where: { $0 >= 0x80 || ($0 >= 0x41 && $0 <= 0x5A) || LinkSyntax.isSpace($0) }) {
      return String(decoding: raw, as: UTF8.self)
    }
    return foldedLabel(Array(raw))
  }

  /// `normalizedLabel` the long way (any label).
  static func foldedLabel(_ raw: [UInt8]) -> String? {
    let folded = Array(caseFolded(String(decoding: raw, as: UTF8.self)).utf8)
    var result: [UInt8] = []
    result.reserveCapacity(folded.count)
    var pendingSpace = false
    for byte in folded {
      if LinkSyntax.isSpace(byte) {
        pendingSpace = !result.isEmpty
      } else {
        if pendingSpace { result.append(0x20) }
        pendingSpace = false
        result.append(byte)
      }
    }
    return result.isEmpty ? nil : String(decoding: result, as: UTF8.self)
  }

  /// Unicode case folding as the standard library allows it: lowercase,
  /// uppercase, lowercase again (so `ß`, `ẞ` and `SS` all fold to `ss`, `ς`
  /// to `σ`; the dotless `ı` folds to `i`, which full case folding keeps).
  static func caseFolded(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    return text.lowercased().uppercased().lowercased()
  }
}
