import Markdown
import StructuredText
import UnicodeBidi

/// Turns a rendered block (`MarkdownInline`) into a `TextEntry`: its text,
/// a `SourceMap` built from the renderer's per-byte source positions, its
/// atoms, and the bidi controls written in its link destinations.
enum MarkdownEntries {
  static let codeSpan = AtomKind("codeSpan")
  static let autolink = AtomKind("autolink")

  static func entry(_ block: MarkdownBlock, _ inline: MarkdownInline, source: MarkdownSource) -> TextEntry {
    let firstLine = block.pieces.first?.line ?? block.lines.lowerBound
    let contentStart = SourcePosition(line: firstLine, column: block.pieces.first?.columns.lowerBound ?? 0)
    let start =
      block.pieces.first.map { SourcePosition(line: 0, column: $0.columns.lowerBound) }
      ?? SourcePosition(line: 0, column: 0)
    let end =
      block.pieces.last.map { SourcePosition(line: $0.line - firstLine, column: $0.columns.upperBound) } ?? start
    let text = String(decoding: inline.text, as: UTF8.self)
    var entry = TextEntry(
      key: "", text: text, map: map(inline, source: source, firstLine: firstLine, contentStart: contentStart),
      content: SourceRange(start: start, end: end), firstLine: firstLine)
    entry.block = blockName(block.kind)
    entry.atoms = atoms(inline, source: source).map { atom in
      TextAtom(
        range: atom.rendered, kind: atom.kind == .codeSpan ? codeSpan : autolink, isNumeric: false, showsText: true)
    }
    entry.sealed = sealed(inline, source: source)
    entry.insertionOverrides = insertionOverrides(
      entry.map, inline, source: source, firstLine: firstLine, contentEnd: end)
    entry.paragraphs = [0..<inline.text.count]
    entry.hasNonASCIILiteral = inline.text.contains { $0 >= 0x80 }
    entry.hasLiteralControl = hasControl(inline.text)
    for destination in inline.destinations {
      entry.identifierControls += controls(in: destination, source: source, firstLine: firstLine)
    }
    return entry
  }

  /// Whether UTF-8 `text` holds a bidi control: the C scan of
  /// `BidiControl.nextControlOrInvalid` (sixteen bytes at a time past ASCII
  /// and two-byte letters), an ill-formed byte passed over.
  static func hasControl(_ text: [UInt8]) -> Bool {
    text.withUnsafeBufferPointer { bytes in
      var index = 0
      while index < bytes.count {
        let found = BidiControl.nextControlOrInvalid(bytes, from: index)
        if found.offset >= bytes.count { return false }
        if found.control != nil { return true }
        index = found.offset + 1
      }
      return false
    }
  }

  /// The atoms: code spans and `<…>` autolinks. GFM's bare autolinks
  /// (`www.…`, `https://…`, `a@b.c`) are text: a control put before one
  /// (`www.` must follow white space or a delimiter) or after one (a URL
  /// runs to the next white space) would unmake or change the link, so they
  /// cannot be isolated.
  static func atoms(_ inline: MarkdownInline, source: MarkdownSource) -> [MarkdownAtom] {
    inline.atoms.filter { atom in
      atom.kind == .codeSpan || source.bytes[source.offset(of: atom.source.start)] == UInt8(ascii: "<")
    }
  }

  /// The bare autolinks as `TextEntry.sealed` ranges, as cmark-gfm reads
  /// them: `www.…` must follow white space, a delimiter or the block's
  /// start, so nothing may go at either edge; a URL (`https://…`) takes
  /// everything up to the next white space, so nothing may go at its end;
  /// an email address ends at a character a domain cannot hold, so only its
  /// inside is sealed.
  static func sealed(_ inline: MarkdownInline, source: MarkdownSource) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for atom in inline.atoms where atom.kind == .autolink && !atom.rendered.isEmpty {
      guard source.bytes[source.offset(of: atom.source.start)] != UInt8(ascii: "<") else { continue }
      let text = inline.text[atom.rendered]
      let range = atom.rendered
      if text.starts(with: "www.".utf8) {
        result.append(range)
      } else if text.contains(UInt8(ascii: ":")) {
        result.append(range.lowerBound + 1..<range.upperBound)
      } else if range.count > 2 {
        result.append(range.lowerBound + 1..<range.upperBound - 1)
      }
    }
    return result
  }

  static func blockName(_ kind: MarkdownBlockKind) -> String {
    switch kind {
    case .heading: "heading"
    case .tableCell: "tableCell"
    default: "paragraph"
    }
  }

  /// The source map: runs of bytes copied as they are (consecutive source
  /// columns on one line holding the same bytes) are verbatim segments; a
  /// decoded character (an escape, an entity, a line break) is a segment of
  /// its own standing for the source it decodes.
  ///
  /// The first character stands for the source from the content's start,
  /// an atom's first character from the atom's start and its last up to the
  /// atom's end: the markup before them (`**`, `[`, a code span's backticks,
  /// an autolink's `<`…`>`) is then outside every edit's reach — a mark
  /// inserted at the start of the rendered text or around an atom goes
  /// before the opening markup and after the closing one, never inside a
  /// delimiter run or a code span (contract §8).
  static func map(_ inline: MarkdownInline, source: MarkdownSource, firstLine: Int, contentStart: SourcePosition)
    -> SourceMap
  {
    var map = SourceMap()
    map.length = inline.text.count
    let text = inline.text
    let positions = inline.sourceMap
    var opening: [Int: SourcePosition] = [:]
    var closing: [Int: SourcePosition] = [:]
    // Per rendered byte: whether an atom opens or closes there (the
    // dictionaries are asked only there).
    var marked = [Bool](repeating: false, count: text.count)
    for atom in atoms(inline, source: source) where !atom.rendered.isEmpty {
      opening[atom.rendered.lowerBound] = atom.source.start
      var last = atom.rendered.upperBound - 1
      while last > atom.rendered.lowerBound && text[last] & 0xC0 == 0x80 { last -= 1 }
      closing[last] = atom.source.end
      marked[atom.rendered.lowerBound] = true
      marked[last] = true
    }
    if !text.isEmpty {
      opening[0] = min(opening[0] ?? positions[0], contentStart)
      marked[0] = true
    }
    var index = 0
    while index < text.count {
      let position = positions[index]
      var next = index + 1
      if marked[index] {
        while next < text.count, text[next] & 0xC0 == 0x80 { next += 1 }
        let verbatim = isVerbatim(text[index], at: position, source: source)
        let end =
          closing[index]
          ?? (verbatim
            ? SourcePosition(line: position.line, column: position.column + next - index)
            : decodedEnd(at: position, source: source))
        map.segments.append(
          .init(
            decoded: index, start: (opening[index] ?? position).shifted(by: -firstLine),
            end: end.shifted(by: -firstLine), verbatim: false))
      } else if isVerbatim(text[index], at: position, source: source) {
        // The run on this line: the next bytes at the next columns, the
        // same as the source's there.
        let lineStart = source.lineStarts[position.line]
        let lineLength = source.length(ofLine: position.line)
        source.bytes.withUnsafeBufferPointer { sourceBytes in
          while next < text.count, !marked[next], positions[next].line == position.line,
            positions[next].column == position.column + (next - index),
            positions[next].column < lineLength, sourceBytes[lineStart + positions[next].column] == text[next]
          {
            next += 1
          }
        }
        let start = position.shifted(by: -firstLine)
        let end = SourcePosition(line: start.line, column: start.column + next - index)
        map.segments.append(.init(decoded: index, start: start, end: end, verbatim: true))
      } else {
        while next < text.count, positions[next] == position, !marked[next] { next += 1 }
        map.segments.append(
          .init(
            decoded: index, start: position.shifted(by: -firstLine),
            end: decodedEnd(at: position, source: source).shifted(by: -firstLine),
            verbatim: false))
      }
      index = next
    }
    return map
  }

  /// Where an insertion goes when the map's place for it would change the
  /// markup (`MarkupSafety`): at each place where markup lies between two
  /// rendered characters, a control goes after that markup (the map's
  /// place) unless it would follow a closing delimiter run that needs what
  /// comes after it (`` **`code`**⁩ ``, `**(a)**⁩ b`) or white space that
  /// ends the line: then before the markup, where the previous character
  /// ends (`` **`code`⁩** ``). At the block's start a mark goes before the
  /// opening markup unless it would change an opening run
  /// (`‏**/start**`): then after it (`**‏/start**`); at its end likewise
  /// before the closing markup (`` **`code`⁩** ``).
  static func insertionOverrides(
    _ map: SourceMap, _ inline: MarkdownInline, source: MarkdownSource, firstLine: Int, contentEnd: SourcePosition
  ) -> [Int: SourcePosition] {
    guard !map.segments.isEmpty, !inline.text.isEmpty else { return [:] }
    var ending: [Int: MarkdownDelimiterRun] = [:]
    var starting: [Int: MarkdownDelimiterRun] = [:]
    var lengths = DelimiterLengths()
    for run in inline.delimiterRuns {
      ending[run.range.upperBound] = run
      starting[run.range.lowerBound] = run
      lengths.add(source.bytes[run.range.lowerBound], run)
    }
    func keepsMarkup(_ position: SourcePosition) -> Bool {
      let line = position.line + firstLine
      guard line >= 0, line < source.lineCount else { return true }
      let start = source.lineStarts[line]
      let end = source.lineEnds[line]
      let offset = min(start + position.column, end)
      return MarkupSafety.keepsMarkup(
        source.bytes, at: offset, lineStart: start, lineEnd: end, ending: ending[offset], starting: starting[offset],
        lengths: lengths.all, textLengths: lengths.text)
    }
    var overrides: [Int: SourcePosition] = [:]
    for (index, segment) in map.segments.enumerated() {
      let offset = segment.decoded
      let current = segment.start
      if keepsMarkup(current) { continue }
      let alternative: SourcePosition
      if index == 0 {
        let firstAtom = atoms(inline, source: source).first { $0.rendered.lowerBound == 0 && !$0.rendered.isEmpty }
        let start = firstAtom?.source.start ?? inline.sourceMap[0]
        alternative = SourcePosition(line: start.line - firstLine, column: start.column)
      } else {
        guard let end = map.sourceEnd(ofDecoded: offset) else { continue }
        alternative = end
      }
      guard alternative != current, keepsMarkup(alternative) else { continue }
      overrides[offset] = alternative
    }
    // The end: after the closing markup and any trailing white space,
    // unless a control there would change them (`` **`code`**⁩ ``).
    if !keepsMarkup(contentEnd), let end = map.sourceEnd(ofDecoded: map.length), end != contentEnd, keepsMarkup(end) {
      overrides[map.length] = end
    }
    return overrides
  }

  static func isVerbatim(_ byte: UInt8, at position: SourcePosition, source: MarkdownSource) -> Bool {
    guard position.line < source.lineCount, position.column < source.length(ofLine: position.line) else { return false }
    return source.bytes[source.offset(of: position)] == byte
  }

  /// The end of the source a decoded character stands for: an entity up to
  /// its `;`, a backslash escape's two bytes, a line end up to the next
  /// line, else one byte.
  static func decodedEnd(at position: SourcePosition, source: MarkdownSource) -> SourcePosition {
    let length = position.line < source.lineCount ? source.length(ofLine: position.line) : 0
    guard position.column < length else { return SourcePosition(line: position.line + 1, column: 0) }
    let offset = source.offset(of: position)
    let lineEnd = offset - position.column + length
    switch source.bytes[offset] {
    case UInt8(ascii: "&"):
      var end = offset + 1
      while end < lineEnd, end - offset < 40, source.bytes[end] != UInt8(ascii: ";") { end += 1 }
      return SourcePosition(line: position.line, column: position.column + min(end + 1, lineEnd) - offset)
    case UInt8(ascii: "\\"):
      return SourcePosition(line: position.line, column: min(position.column + 2, length))
    default:
      return SourcePosition(line: position.line, column: position.column + 1)
    }
  }

  /// The bidi controls written in a link destination (`bidi.inIdentifier`).
  static func controls(in range: SourceRange, source: MarkdownSource, firstLine: Int) -> [TextEntry.IdentifierControl] {
    var found: [TextEntry.IdentifierControl] = []
    let startOffset = source.offset(of: range.start)
    let endOffset = source.offset(of: range.end)
    source.bytes.withUnsafeBufferPointer { bytes in
      var offset = startOffset
      while offset < endOffset {
        let scalar = UTF8Decoder.decode(bytes, at: offset)
        if let control = BidiControl(scalar: scalar.value) {
          let position = source.position(ofOffset: offset)
          let start = SourcePosition(line: position.line - firstLine, column: position.column)
          let end = SourcePosition(line: start.line, column: start.column + scalar.length)
          found.append(.init(control: control, range: SourceRange(start: start, end: end)))
        }
        offset += max(scalar.length, 1)
      }
    }
    return found
  }
}
