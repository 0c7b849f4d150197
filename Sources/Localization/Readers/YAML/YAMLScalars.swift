import StructuredText
import UnicodeBidi

/// The scalars of the YAML subset `YAMLReader` reads, scanned as PyYAML's
/// scanner does: plain scalars (folded over continuation lines indented past
/// their parent), single- and double-quoted scalars (folded, with their
/// escapes), and literal `|` and folded `>` block scalars with chomping and
/// indentation indicators. Each is built into a `TextBuilder` with its
/// source map; where it starts and ends is returned with it.
struct YAMLScalar {
  var builder: TextBuilder
  var start: SourcePosition
  var end: SourcePosition
  /// A plain scalar's text decides its type (YAML 1.1): only a string is a value.
  var isPlain: Bool
  /// The white space starting a folded scalar's more-indented lines: text,
  /// and also what keeps their line breaks (`TextEntry.layoutWhiteSpace`).
  var layout: [Range<Int>] = []
}

/// A YAML syntax error, or a construct the subset does not read.
struct YAMLError: Error {
  var message: String
  var position: SourcePosition
}

enum YAMLScalars {
  @inline(__always) static func isBreakOrEnd(_ byte: UInt8?) -> Bool { byte == nil || byte == 0x0A }
  @inline(__always) static func isBlank(_ byte: UInt8?) -> Bool { byte == 0x20 || byte == 0x09 }

  /// Whether the line at the cursor (its start) is `---` or `...` (a document marker).
  static func isDocumentMarker(_ cursor: Cursor) -> Bool {
    guard cursor.column == 0, cursor.matches("---") || cursor.matches("...") else { return false }
    let after = cursor.peek(3)
    return after == nil || after == 0x0A || after == 0x20 || after == 0x09
  }

  /// Whether a plain scalar may start here (PyYAML's `check_plain`).
  static func startsPlain(_ cursor: Cursor, flow: Bool) -> Bool {
    guard let byte = cursor.byte else { return false }
    let next = cursor.peek(1)
    if "-?:,[]{}#&*!|>'\"%@`".utf8.contains(byte) || byte == 0x20 || byte == 0x09 || byte == 0x0A {
      let followed = !(next == nil || next == 0x20 || next == 0x09 || next == 0x0A)
      return followed
        && (byte == UInt8(ascii: "-") || (!flow && (byte == UInt8(ascii: "?") || byte == UInt8(ascii: ":"))))
    }
    return true
  }

  /// Whether the byte after a `:` (or `-`) makes it an indicator.
  static func endsToken(_ next: UInt8?, flow: Bool) -> Bool {
    guard let next else { return true }
    return next == 0x20 || next == 0x09 || next == 0x0A || (flow && ",[]{}".utf8.contains(next))
  }

  /// Whether the plain scalar's current chunk ends at the cursor.
  private static func endsChunk(_ cursor: Cursor, flow: Bool) -> Bool {
    guard let byte = cursor.byte else { return true }
    if byte == 0x20 || byte == 0x09 || byte == 0x0A { return true }
    if byte == UInt8(ascii: ":") {
      let next = cursor.peek(1)
      if next == nil || next == 0x20 || next == 0x09 || next == 0x0A { return true }
      if flow, let next, ",[]{}".utf8.contains(next) { return true }
    }
    return flow && ",?[]{}".utf8.contains(byte)
  }

  /// A plain scalar; continuation lines need a column of at least
  /// `indent` (the parent's indentation + 1) in block context.
  static func plain(_ cursor: inout Cursor, indent: Int, flow: Bool) -> YAMLScalar {
    let start = cursor.position
    var builder = TextBuilder(baseLine: start.line)
    var end = start
    // What separates the next chunk from the one before: spaces on the
    // line (kept), or a line break (a space) and blank lines (one `\n` each).
    var spaces: Cursor?
    var fold: (lineEnd: SourcePosition, blankLines: [Int])?
    while cursor.byte != UInt8(ascii: "#"), !endsChunk(cursor, flow: flow) {
      if var between = spaces {
        while between.position < cursor.position { builder.appendLiteral(from: &between) }
      } else if let (lineEnd, blankLines) = fold {
        if blankLines.isEmpty { builder.append(0x20, from: lineEnd, to: cursor.position, spelling: nil) }
        for line in blankLines {
          builder.append(
            0x0A, from: SourcePosition(line: line, column: 0), to: SourcePosition(line: line + 1, column: 0),
            spelling: nil)
        }
      }
      spaces = nil
      fold = nil
      while !endsChunk(cursor, flow: flow) { builder.appendLiteral(from: &cursor) }
      end = cursor.position
      let before = cursor
      guard cursor.skipSpaces() > 0 || cursor.byte == 0x0A else { break }
      guard cursor.byte == 0x0A else {
        spaces = before
        continue
      }
      // A line break: the scalar goes on past blank lines on a line
      // indented enough that is no comment and no document marker.
      let lineEnd = cursor.position
      var probe = cursor
      probe.advance()
      var blankLines: [Int] = []
      while !isDocumentMarker(probe) {
        let line = probe.line
        _ = probe.skipSpaces()
        guard probe.byte == 0x0A else { break }
        blankLines.append(line)
        probe.advance()
      }
      guard !isDocumentMarker(probe), probe.byte != nil, probe.byte != UInt8(ascii: "#"),
        flow || probe.column >= indent
      else { break }
      cursor = probe
      fold = (lineEnd, blankLines)
    }
    return YAMLScalar(builder: builder, start: start, end: end, isPlain: true)
  }

  /// A quoted scalar at the cursor (`'` or `"`); the cursor ends after it.
  static func quoted(_ cursor: inout Cursor) throws(YAMLError) -> YAMLScalar {
    let quote = cursor.byte!
    let double = quote == UInt8(ascii: "\"")
    let opening = cursor.position
    cursor.advance()
    let start = cursor.position
    var builder = TextBuilder(baseLine: start.line)
    while true {
      guard let byte = cursor.byte else {
        throw YAMLError(
          message: "unterminated quoted scalar: the \(double ? "\"" : "'") is never closed", position: opening)
      }
      switch byte {
      case quote where !double && cursor.peek(1) == quote:
        let from = cursor.position
        cursor.advance(by: 2)
        builder.append(UInt32(quote), from: from, to: cursor.position, spelling: nil)
      case quote:
        let end = cursor.position
        cursor.advance()
        return YAMLScalar(builder: builder, start: start, end: end, isPlain: false)
      case UInt8(ascii: "\\") where double:
        try escape(&cursor, &builder)
      case 0x20, 0x09, 0x0A:
        // White space: kept inside a line, folded around line breaks.
        let from = cursor.position
        var probe = cursor
        while isBlank(probe.byte) { probe.advance() }
        guard probe.byte == 0x0A else {
          while cursor.position < probe.position { builder.appendLiteral(from: &cursor) }
          continue
        }
        let lineEnd = probe.position
        probe.advance()
        var breaks: [Int] = []
        try lineBreaks(&probe, &breaks, opening)
        cursor = probe
        if breaks.isEmpty {
          builder.append(0x20, from: from.line == lineEnd.line ? from : lineEnd, to: cursor.position, spelling: nil)
        }
        for line in breaks {
          builder.append(
            0x0A, from: SourcePosition(line: line, column: 0), to: SourcePosition(line: line + 1, column: 0),
            spelling: nil)
        }
      default:
        builder.appendLiteralRun(from: &cursor) {
          $0 == quote || $0 == 0x20 || $0 == 0x09 || (double && $0 == UInt8(ascii: "\\"))
        }
      }
    }
  }

  /// Past the line breaks of a quoted scalar at a line start: each blank
  /// line's number, the cursor on the first character of the next line
  /// holding one (its leading white space skipped).
  private static func lineBreaks(_ probe: inout Cursor, _ breaks: inout [Int], _ opening: SourcePosition)
    throws(YAMLError)
  {
    while true {
      if isDocumentMarker(probe) {
        throw YAMLError(message: "a document marker (--- or ...) inside a quoted scalar", position: probe.position)
      }
      let line = probe.line
      while isBlank(probe.byte) { probe.advance() }
      guard probe.byte == 0x0A else { return }
      breaks.append(line)
      probe.advance()
    }
  }

  /// A double-quoted scalar's escape at the cursor (`\`).
  private static func escape(_ cursor: inout Cursor, _ builder: inout TextBuilder) throws(YAMLError) {
    let start = cursor.position
    cursor.advance()
    guard let letter = cursor.byte else {
      throw YAMLError(message: "unterminated quoted scalar", position: start)
    }
    if letter == 0x0A {
      // An escaped line break: the lines join with nothing between them.
      cursor.advance()
      var breaks: [Int] = []
      try lineBreaks(&cursor, &breaks, start)
      for line in breaks {
        builder.append(
          0x0A, from: SourcePosition(line: line, column: 0), to: SourcePosition(line: line + 1, column: 0),
          spelling: nil)
      }
      return
    }
    let simple: [UInt8: UInt32] = [
      0x30: 0, 0x61: 7, 0x62: 8, 0x74: 9, 0x09: 9, 0x6E: 0x0A, 0x76: 0x0B, 0x66: 0x0C, 0x72: 0x0D, 0x65: 0x1B,
      0x20: 0x20, 0x22: 0x22, 0x2F: 0x2F, 0x5C: 0x5C, 0x4E: 0x85, 0x5F: 0xA0, 0x4C: 0x2028, 0x50: 0x2029,
    ]
    if let value = simple[letter] {
      cursor.advance()
      builder.append(value, from: start, to: cursor.position, spelling: nil)
      return
    }
    let digits = letter == UInt8(ascii: "x") ? 2 : letter == UInt8(ascii: "u") ? 4 : letter == UInt8(ascii: "U") ? 8 : 0
    guard digits > 0 else {
      throw YAMLError(message: "unknown escape \\\(describe(letter)) in a double-quoted scalar", position: start)
    }
    cursor.advance()
    var value: UInt32 = 0
    for _ in 0..<digits {
      guard let digit = cursor.byte.flatMap(hexValue) else {
        throw YAMLError(
          message: "a \\\(Character(Unicode.Scalar(letter))) escape takes \(digits) hex digits", position: start)
      }
      value = value &<< 4 | digit
      cursor.advance()
    }
    if value > 0x10FFFF || (0xD800..<0xE000).contains(value) { value = 0xFFFD }
    builder.append(value, from: start, to: cursor.position, spelling: nil)
  }
}

extension YAMLScalars {
  /// A block scalar at the cursor (`|` or `>`) of a node whose parent is
  /// indented `parentIndent` columns, read line by line as PyYAML's
  /// `scan_block_scalar` does. The cursor ends at the start of the first
  /// line after it (its trailing blank lines read).
  static func block(_ cursor: inout Cursor, parentIndent: Int) throws(YAMLError) -> YAMLScalar {
    let folded = cursor.byte == UInt8(ascii: ">")
    cursor.advance()
    var chomping: Bool?  // nil: clip, true: keep, false: strip
    var increment: Int?
    for _ in 0..<2 {
      if let byte = cursor.byte, byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"), chomping == nil {
        chomping = byte == UInt8(ascii: "+")
        cursor.advance()
      } else if let byte = cursor.byte, isDigit(byte), increment == nil {
        guard byte != UInt8(ascii: "0") else {
          throw YAMLError(message: "a block scalar's indentation indicator is 1 to 9", position: cursor.position)
        }
        increment = Int(byte - UInt8(ascii: "0"))
        cursor.advance()
      }
    }
    if cursor.skipSpaces() > 0, cursor.byte == UInt8(ascii: "#") { cursor.skip(toColumn: cursor.runEnd { _ in false }) }
    guard isBreakOrEnd(cursor.byte) else {
      throw YAMLError(
        message: "expected the line's end (or a comment) after the block scalar's header", position: cursor.position)
    }
    let headerEnd = cursor.position
    let lines = cursor.lines
    let total = lines.lineCount
    func measure(_ line: Int) -> (spaces: Int, blank: Bool, length: Int) {
      lines.withUTF8(ofLine: line) { bytes in
        var spaces = 0
        while spaces < bytes.count, bytes[spaces] == 0x20 { spaces += 1 }
        return (spaces, spaces == bytes.count, bytes.count)
      }
    }
    var line = headerEnd.line + 1
    let minIndent = max(parentIndent + 1, 1)
    var indent = minIndent + (increment ?? 1) - 1
    if increment == nil {
      // The indentation of the first line holding text; blank lines before
      // it count with their spaces.
      var probe = line
      var maximum = 0
      while probe < total {
        let measured = measure(probe)
        maximum = max(maximum, measured.spaces)
        guard measured.blank else { break }
        probe += 1
      }
      indent = max(minIndent, maximum)
    }
    /// A line that is a line break of the scalar: spaces up to the
    /// indentation, then its terminator (the last line has none).
    func isBreak(_ line: Int) -> Bool {
      guard line < total - 1 else { return false }
      let measured = measure(line)
      return measured.blank && measured.spaces <= indent
    }
    func isText(_ line: Int) -> Bool {
      guard line < total else { return false }
      let measured = measure(line)
      return measured.blank ? measured.spaces > indent : measured.spaces >= indent
    }
    func breaks(from line: inout Int) -> [Int] {
      var found: [Int] = []
      while isBreak(line) {
        found.append(line)
        line += 1
      }
      return found
    }
    var builder = TextBuilder(baseLine: headerEnd.line)
    func appendBreaks(_ lines: [Int]) {
      for line in lines {
        builder.append(
          0x0A, from: SourcePosition(line: line, column: 0), to: SourcePosition(line: line + 1, column: 0),
          spelling: nil)
      }
    }
    var pending = breaks(from: &line)
    var start: SourcePosition?
    var end = headerEnd
    var lastBreak: Int?
    var layout: [Range<Int>] = []
    while isText(line) {
      // Breaks before the first text line are the value's first characters.
      start = start ?? pending.first.map { SourcePosition(line: $0, column: 0) }
      appendBreaks(pending)
      var text = Cursor(lines, line: line)
      text.skip(toColumn: indent)
      let leadingNonSpace = !isBlank(text.byte)
      start = start ?? text.position
      if folded && !leadingNonSpace {
        let first = builder.count
        while isBlank(text.byte) { builder.appendLiteral(from: &text) }
        layout.append(first..<builder.count)
      }
      while let byte = text.byte, byte != 0x0A { builder.appendLiteral(from: &text) }
      let length = measure(line).length
      end = SourcePosition(line: line, column: length)
      lastBreak = line < total - 1 ? line : nil
      let contentLine = line
      line += 1
      pending = breaks(from: &line)
      guard lastBreak != nil, isText(line) else { break }
      let from = SourcePosition(line: contentLine, column: length)
      let to = SourcePosition(line: contentLine + 1, column: 0)
      let next = lines.withUTF8(ofLine: line) { indent < $0.count ? $0[indent] : 0x0A }
      if folded && leadingNonSpace && !isBlank(next) {
        if pending.isEmpty { builder.append(0x20, from: from, to: to, spelling: nil) }
      } else {
        builder.append(0x0A, from: from, to: to, spelling: nil)
      }
    }
    if chomping != false, let last = lastBreak {
      builder.append(
        0x0A, from: SourcePosition(line: last, column: measure(last).length),
        to: SourcePosition(line: last + 1, column: 0), spelling: nil)
    }
    if chomping == true, let first = pending.first, let last = pending.last {
      // Kept breaks with no text before them: the value starts at the first.
      start = start ?? SourcePosition(line: first, column: 0)
      appendBreaks(pending)
      end = SourcePosition(line: last, column: 0)
    }
    if line < total {
      cursor = Cursor(lines, line: line)
    } else {
      cursor = Cursor(lines, line: total - 1)
      cursor.skip(toColumn: Int.max)
    }
    return YAMLScalar(builder: builder, start: start ?? end, end: end, isPlain: false, layout: layout)
  }
}
