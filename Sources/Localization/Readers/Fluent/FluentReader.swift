import StructuredText
import UnicodeBidi

/// Project Fluent `.ftl` (Firefox, Thunderbird): messages `id = pattern`,
/// terms `-id = pattern`, attributes `.name = pattern` after them, `#`,
/// `##`, `###` comments. A value is a message's or term's pattern (key
/// `id`, `-id`) and each attribute's (key `id.name`); each variant of a
/// select expression is a value after it (variant `select:one`, nested
/// ones joined with `/`), the select one placeholder of its message. The
/// text is the pattern as Fluent reads it: continuation lines joined with
/// `\n`, their common indent removed, the white space ending the pattern
/// dropped; a string literal placeable (`{ "{" }`) is its text. Every other
/// placeable is a placeholder, its source kept: numeric for a number,
/// `NUMBER()`, a plural select (over plural categories or numbers) and a
/// `{ $n }` inside a plural on `$n`; text otherwise (`{ $name }`,
/// `{ -brand-name }`, `{ DATETIME($d) }`). Marks are written as characters
/// (a pattern's text has no escapes). Boundaries: lines that start an entry
/// or a comment; the state there is always empty.
enum FluentReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    if cursor.position == SourcePosition(line: 0, column: 0), cursor.matches("\u{FEFF}") { cursor.advance(by: 3) }
    while let byte = cursor.byte {
      if byte == 0x0A {
        cursor.advance()
        continue
      }
      if byte == 0x20 {
        var probe = cursor
        _ = probe.skipSpaces()
        if probe.byte == 0x0A || probe.byte == nil {
          cursor = probe
          continue
        }
        sink.fail(
          "an entry starts at the beginning of a line (a message, a -term or a # comment);"
            + " an indented line continues a pattern", at: cursor.position)
        return
      }
      // Entries and comments start lines; reading can resume at each.
      if cursor.column == 0, !sink.boundary(cursor, state) { return }
      do throws(FluentError) {
        if byte == UInt8(ascii: "#") {
          try comment(&cursor)
        } else {
          try entry(&cursor, &sink)
        }
      } catch {
        sink.fail(error.message, at: error.position)
        cursor.advance(pastLookaheadFor: error.position)
        return
      }
    }
  }

  /// A comment line: `#`, `##` or `###`, then a space or the line's end.
  private static func comment(_ cursor: inout Cursor) throws(FluentError) {
    var level = 0
    while cursor.byte == UInt8(ascii: "#"), level < 3 {
      cursor.advance()
      level += 1
    }
    guard cursor.byte == 0x20 || cursor.byte == 0x0A else {
      throw FluentError(message: "a comment is #, ## or ### followed by a space", position: cursor.position)
    }
    cursor.skipLine()
  }

  /// A message or a term with its attributes; its values go to `sink`.
  private static func entry(_ cursor: inout Cursor, _ sink: inout ReadSink) throws(FluentError) {
    let isTerm = cursor.byte == UInt8(ascii: "-")
    let start = cursor.position
    if isTerm { cursor.advance() }
    guard FluentSyntax.isIdentifierStart(cursor.byte) else {
      throw FluentError(
        message: "expected a message identifier, a -term or a # comment, found \(cursor.byte.map(describe) ?? "")",
        position: cursor.position)
    }
    let id = (isTerm ? "-" : "") + (try FluentSyntax.identifier(&cursor))
    _ = cursor.skipSpaces()
    try FluentSyntax.expect(UInt8(ascii: "="), &cursor, "= after \(id)")
    var syntax = FluentSyntax()
    let value = try syntax.maybePattern(&cursor, depth: 0)
    if isTerm && value == nil { throw FluentError(message: "the term \(id) has no value", position: start) }
    var attributes: [(key: String, pattern: FluentPattern)] = []
    while true {
      var probe = cursor
      FluentSyntax.skipBlank(&probe)
      guard probe.byte == UInt8(ascii: ".") else { break }
      cursor = probe
      cursor.advance()
      let name = try FluentSyntax.identifier(&cursor)
      _ = cursor.skipSpaces()
      try FluentSyntax.expect(UInt8(ascii: "="), &cursor, "= after the attribute .\(name)")
      guard let pattern = try syntax.maybePattern(&cursor, depth: 0) else {
        throw FluentError(message: "the attribute .\(name) has no value", position: cursor.position)
      }
      attributes.append((id + "." + name, pattern))
    }
    if value == nil && attributes.isEmpty {
      throw FluentError(message: "the message \(id) has neither a value nor attributes", position: start)
    }
    guard cursor.byte == 0x0A || cursor.byte == nil else {
      throw FluentError(message: "expected the end of the line", position: cursor.position)
    }
    var builder = FluentValueBuilder(lines: cursor.lines)
    if let value { builder.add(value, key: id, variant: nil, to: &sink) }
    for attribute in attributes { builder.add(attribute.pattern, key: attribute.key, variant: nil, to: &sink) }
  }
}

/// Builds the values of a pattern read by `FluentSyntax`: its text (common
/// indent removed, placeables as placeholders), then each variant of its
/// select expressions, in document order.
struct FluentValueBuilder {
  let lines: any DocumentLines

  mutating func add(_ pattern: FluentPattern, key: String, variant: String?, to sink: inout ReadSink) {
    let pieces = trimmed(pattern.pieces)
    if var value = build(pieces, commonIndent: pattern.commonIndent, key: key) {
      value.variant = variant
      value.isBranch = variant != nil
      sink.add(value, rules: .none)
    }
    for piece in pieces {
      guard case .placeable(let placeable) = piece else { continue }
      for select in placeable.selects {
        for branch in select {
          add(branch.pattern, key: key, variant: (variant.map { $0 + "/" } ?? "") + branch.name, to: &sink)
        }
      }
    }
  }

  private func length(ofLine line: Int) -> Int {
    lines.withUTF8(ofLine: line) { $0.count }
  }

  /// The pieces without the white space ending the last text (Fluent drops it).
  private func trimmed(_ pieces: [FluentPattern.Piece]) -> [FluentPattern.Piece] {
    guard case .text(let line, let from, var to) = pieces.last else { return pieces }
    lines.withUTF8(ofLine: line) { bytes in
      while to > from, bytes[to - 1] == 0x20 { to -= 1 }
    }
    var result = pieces
    result.removeLast()
    if to > from { result.append(.text(line: line, from: from, to: to)) }
    return result
  }

  private func build(_ pieces: [FluentPattern.Piece], commonIndent: Int, key: String) -> TextEntry? {
    var start: SourcePosition?
    var end = SourcePosition(line: 0, column: 0)
    for piece in pieces {
      switch piece {
      case .text(let line, let from, let to):
        start = start ?? SourcePosition(line: line, column: from)
        end = SourcePosition(line: line, column: to)
      case .indent(let line, let width) where width > commonIndent:
        start = start ?? SourcePosition(line: line, column: commonIndent)
        end = SourcePosition(line: line, column: width)
      case .placeable(let placeable):
        start = start ?? placeable.start
        end = placeable.end
      case .literal(let from, let to, _):
        start = start ?? from
        end = to
      case .indent, .breaks:
        break
      }
    }
    guard let start else { return nil }
    var builder = TextBuilder(baseLine: start.line)
    var cursor = Cursor(lines, line: start.line)
    func move(to position: SourcePosition) {
      while cursor.position < position, cursor.byte != nil { cursor.advance() }
    }
    for piece in pieces {
      switch piece {
      case .text(let line, let from, let to):
        move(to: SourcePosition(line: line, column: from))
        while cursor.line == line, cursor.column < to, cursor.byte != nil { builder.appendLiteral(from: &cursor) }
      case .breaks(let lines):
        for line in lines {
          builder.append(
            0x0A, from: SourcePosition(line: line, column: length(ofLine: line)),
            to: SourcePosition(line: line + 1, column: 0), spelling: nil)
        }
      case .indent(let line, let width):
        guard width > commonIndent else { continue }
        move(to: SourcePosition(line: line, column: commonIndent))
        while cursor.line == line, cursor.column < width { builder.appendLiteral(from: &cursor) }
      case .placeable(let placeable):
        move(to: placeable.start)
        let first = builder.count
        while cursor.position < placeable.end, cursor.byte != nil { builder.appendLiteral(from: &cursor) }
        builder.atoms.append(
          TextAtom(range: first..<builder.count, kind: .fluent, isNumeric: placeable.isNumeric))
      case .literal(let from, _, let quotes):
        move(to: SourcePosition(line: from.line, column: quotes.lowerBound))
        while cursor.line == from.line, cursor.column < quotes.upperBound, cursor.byte != nil {
          if cursor.byte == UInt8(ascii: "\\") {
            literalEscape(&cursor, &builder)
          } else {
            builder.appendLiteral(from: &cursor)
          }
        }
      }
    }
    return builder.value(key: key, start: start, end: end)
  }

  /// An escape of a string literal: `\\`, `\"`, `\uXXXX`, `\UXXXXXX`
  /// (checked by the syntax already).
  private func literalEscape(_ cursor: inout Cursor, _ builder: inout TextBuilder) {
    let start = cursor.position
    cursor.advance()
    guard let letter = cursor.byte else { return }
    cursor.advance()
    var value = UInt32(letter)
    if letter == UInt8(ascii: "u") || letter == UInt8(ascii: "U") {
      value = 0
      for _ in 0..<(letter == UInt8(ascii: "u") ? 4 : 6) {
        guard let digit = cursor.byte.flatMap(hexValue) else { break }
        value = value << 4 | digit
        cursor.advance()
      }
      if value > 0x10FFFF || (0xD800..<0xE000).contains(value) { value = 0xFFFD }
    }
    builder.append(value, from: start, to: cursor.position, spelling: nil)
  }
}
