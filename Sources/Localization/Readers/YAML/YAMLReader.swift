import StructuredText
import UnicodeBidi

/// Rails and Symfony YAML (`config/locales/ar.yml`,
/// `translations/messages.fa.yaml`): a subset of YAML read line by line,
/// as PyYAML reads it: block mappings and sequences (a sequence may sit at
/// its key's indentation), plain, single- and double-quoted and block
/// (`|`, `>`) scalars, flow sequences and mappings of scalars, comments,
/// one document (`---`, `...`). Anchors, aliases, tags, complex keys and
/// collections inside sequence items are refused with a
/// `bidi.localizationSyntax` that says so.
///
/// A value is a string scalar (a plain one only when YAML 1.1 reads it as a
/// string); its key is its mapping keys' path joined with `.` (a sequence
/// item's variant is `item:0`…; `one:`/`other:` plural keys stay keys). A
/// top-level key that is a locale tag holding a mapping (Rails' `ar:`) is
/// the locale of what it holds, not part of the keys. Placeholders: Rails
/// `%{name}` and `%<name>d`, Symfony `%name%`, `{{ name }}` and ICU
/// MessageFormat. Marks are written as characters. Boundaries: lines that
/// start an entry or hold a comment; the state is the open collections
/// (kind, indentation, key, item count) and a key waiting for its value.
enum YAMLReader: FormatReader {
  static let mapping: UInt8 = 0
  static let sequence: UInt8 = 1
  /// A top-level mapping under a locale key (`ar:`).
  static let localeMapping: UInt8 = 2

  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    if cursor.position == SourcePosition(line: 0, column: 0), cursor.matches("\u{FEFF}") { cursor.advance(by: 3) }
    do throws(YAMLError) {
      while try line(&cursor, &state, &sink) {}
    } catch {
      sink.fail(error.message, at: error.position)
      cursor.advance(pastLookaheadFor: error.position)
    }
  }

  /// Reads one line from its start (a multi-line scalar's lines with it);
  /// false at the end of the document or when the sink says stop.
  private static func line(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink)
    throws(YAMLError) -> Bool
  {
    guard cursor.byte != nil else { return false }
    var probe = cursor
    let indent = probe.skipSpaces()
    switch probe.byte {
    case nil:
      cursor = probe
      return false
    case 0x0A:
      cursor.skipLine()
      return true
    case UInt8(ascii: "#"):
      if cursor.column == 0, !sink.boundary(cursor, state) { return false }
      cursor.skipLine()
      return true
    case 0x09:
      throw YAMLError(message: "a tab in indentation (YAML indents with spaces)", position: probe.position)
    default:
      break
    }
    if cursor.column == 0, !sink.boundary(cursor, state) { return false }
    if indent == 0, YAMLScalars.isDocumentMarker(cursor) {
      try documentMarker(&cursor, &state)
      return true
    }
    guard state.phase != 2 else {
      throw YAMLError(message: "text after the end of the document (...)", position: probe.position)
    }
    if indent == 0, cursor.byte == UInt8(ascii: "%") {
      throw YAMLError(message: "YAML directives (%YAML, %TAG) are not read by bidi-lsp", position: cursor.position)
    }
    state.phase = 1
    cursor = probe
    let item = isSequenceItem(cursor)
    try open(indent: indent, item: item, &state, &sink, line: cursor.line)
    guard let top = state.frames.last, top.index == indent else {
      throw YAMLError(
        message: "this line's indentation (\(indent)) matches no mapping or sequence around it",
        position: cursor.position)
    }
    if top.kind == sequence {
      try sequenceItem(&cursor, &state, &sink, indent: indent)
    } else {
      guard !item else {
        throw YAMLError(message: "a sequence item (- …) where a mapping key is expected", position: cursor.position)
      }
      try mappingEntry(&cursor, &state, &sink, indent: indent)
    }
    return true
  }

  /// `---` (the document's start, once, before its content) or `...` (its end).
  private static func documentMarker(_ cursor: inout Cursor, _ state: inout ReaderState) throws(YAMLError) {
    let start = cursor.position
    let end = cursor.matches("...")
    if !end && state.phase != 0 {
      throw YAMLError(message: "a second YAML document (---): bidi-lsp reads one document a file", position: start)
    }
    cursor.advance(by: 3)
    if cursor.skipSpaces() > 0 || YAMLScalars.isBreakOrEnd(cursor.byte) {
      try finishLine(&cursor)
    } else {
      throw YAMLError(message: "expected the line's end after \(end ? "..." : "---")", position: cursor.position)
    }
    state.phase = end ? 2 : 1
    if end { state.frames = [] }
  }

  static func isSequenceItem(_ cursor: Cursor) -> Bool {
    cursor.byte == UInt8(ascii: "-")
      && (cursor.peek(1) == nil || cursor.peek(1) == 0x20 || cursor.peek(1) == 0x0A || cursor.peek(1) == 0x09)
  }

  /// Before a line at `indent`: gives a key waiting for its value the
  /// collection this line opens (or leaves it null), and closes the
  /// collections indented deeper.
  private static func open(
    indent: Int, item: Bool, _ state: inout ReaderState, _ sink: inout ReadSink, line: Int
  ) throws(YAMLError) {
    if let key = state.notes.first {
      state.notes = []
      let parent = state.frames.last
      let parentIndent = parent?.index ?? -1
      if indent > parentIndent {
        var kind = item ? sequence : mapping
        if !item, state.frames.count == 1, LocaleTag(key) != nil {
          kind = localeMapping
          sink.items.append(.locale(key, line: line))
        }
        state.frames.append(.init(kind: kind, name: key, index: indent, note: "0"))
        return
      }
      if indent == parentIndent, item, parent?.kind != sequence {
        state.frames.append(.init(kind: sequence, name: key, index: indent, note: "0"))
        return
      }
    }
    if state.frames.isEmpty {
      state.frames.append(.init(kind: item ? sequence : mapping, name: "", index: indent, note: "0"))
      return
    }
    while let top = state.frames.last, top.index > indent { state.frames.removeLast() }
    // An indentless sequence ends at its key's next sibling.
    if !item, let top = state.frames.last, top.kind == sequence, top.index == indent, state.frames.count >= 2,
      state.frames[state.frames.count - 2].index == indent
    {
      state.frames.removeLast()
    }
  }

  /// The key path of a value in the current collections, and the locale a locale key gives it.
  private static func path(_ state: ReaderState, _ key: String?) -> (key: String, locale: String?) {
    var parts: [String] = []
    var locale: String?
    for frame in state.frames.dropFirst() {
      if frame.kind == localeMapping {
        locale = frame.name
      } else {
        parts.append(frame.name)
      }
    }
    if let key { parts.append(key) }
    return (parts.joined(separator: "."), locale)
  }

  /// `key: value`, `key:` (its value on the next lines) at the cursor.
  private static func mappingEntry(
    _ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink, indent: Int
  ) throws(YAMLError) {
    let keyStart = cursor.position
    let key: TextBuilder
    switch cursor.byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      let scalar = try YAMLScalars.quoted(&cursor)
      guard scalar.start.line == scalar.end.line else {
        throw YAMLError(message: "a quoted key spans lines", position: keyStart)
      }
      key = scalar.builder
      _ = cursor.skipSpaces()
    case UInt8(ascii: "?"):
      throw YAMLError(message: "complex keys (? …) are not read by bidi-lsp", position: keyStart)
    default:
      try checkPlain(cursor, flow: false)
      // A key is one line: no continuation line is indented past Int.max.
      key = YAMLScalars.plain(&cursor, indent: Int.max, flow: false).builder
    }
    guard cursor.byte == UInt8(ascii: ":"), YAMLScalars.endsToken(cursor.peek(1), flow: false) else {
      throw YAMLError(message: "expected : after the key (key: value)", position: cursor.position)
    }
    if key.string == "<<" {
      throw YAMLError(message: "merge keys (<<: *alias) are not read by bidi-lsp", position: keyStart)
    }
    cursor.advance()
    _ = cursor.skipSpaces()
    if YAMLScalars.isBreakOrEnd(cursor.byte) || cursor.byte == UInt8(ascii: "#") {
      // The value, if any, is on the next lines.
      state.notes = [key.string]
      try finishLine(&cursor)
      return
    }
    var (path, locale) = path(state, key.string)
    if state.frames.count == 1, LocaleTag(key.string) != nil, cursor.byte == UInt8(ascii: "{") {
      locale = key.string
      path = ""
    }
    try node(&cursor, &sink, indent: indent, key: path, variant: nil, locale: locale, keyBuilder: key)
  }

  /// `- value` at the cursor.
  private static func sequenceItem(
    _ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink, indent: Int
  ) throws(YAMLError) {
    guard isSequenceItem(cursor) else {
      throw YAMLError(message: "expected a sequence item (- …)", position: cursor.position)
    }
    let top = state.frames.count - 1
    let number = Int(state.frames[top].note) ?? 0
    state.frames[top].note = String(number + 1)
    cursor.advance()
    _ = cursor.skipSpaces()
    if YAMLScalars.isBreakOrEnd(cursor.byte) || cursor.byte == UInt8(ascii: "#") {
      try finishLine(&cursor)
      return
    }
    if isSequenceItem(cursor) {
      throw YAMLError(
        message: "a sequence inside a sequence item (- - …) is not read by bidi-lsp", position: cursor.position)
    }
    if isMappingEntry(cursor) {
      throw YAMLError(
        message: "a mapping inside a sequence item (- key: value) is not read by bidi-lsp", position: cursor.position)
    }
    let (key, locale) = path(state, nil)
    try node(&cursor, &sink, indent: indent, key: key, variant: "item:\(number)", locale: locale, keyBuilder: nil)
  }

  /// Whether the line at the cursor holds `key: …` (a key and its `:`).
  private static func isMappingEntry(_ cursor: Cursor) -> Bool {
    var probe = cursor
    if probe.byte == UInt8(ascii: "\"") || probe.byte == UInt8(ascii: "'") {
      guard (try? YAMLScalars.quoted(&probe)) != nil else { return false }
    } else if YAMLScalars.startsPlain(probe, flow: false) {
      _ = YAMLScalars.plain(&probe, indent: Int.max, flow: false)
    } else {
      return false
    }
    _ = probe.skipSpaces()
    return probe.byte == UInt8(ascii: ":") && YAMLScalars.endsToken(probe.peek(1), flow: false)
  }

  /// The rest of a line: spaces, maybe a comment, then its end; the cursor
  /// moves to the next line's start.
  static func finishLine(_ cursor: inout Cursor) throws(YAMLError) {
    let spaces = cursor.skipSpaces()
    if cursor.byte == UInt8(ascii: "#") {
      _ = spaces
      cursor.skipLine()
      return
    }
    guard YAMLScalars.isBreakOrEnd(cursor.byte) else {
      throw YAMLError(
        message: cursor.byte == UInt8(ascii: ":")
          ? "a second : on the line (mapping values are not allowed here; quote the text)"
          : "unexpected \(describe(cursor.byte!)) after the value", position: cursor.position)
    }
    if cursor.byte == 0x0A { cursor.advance() }
  }
}
