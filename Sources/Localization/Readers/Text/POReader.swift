import StructuredText
import UnicodeBidi

/// gettext `.po` / `.pot`: entries of `#` comments (`#,` flags, `#~`
/// obsolete lines skipped), `msgctxt`, `msgid`, `msgid_plural`, and
/// `msgstr` or `msgstr[n]`, each keyword followed by one or more string
/// literals, continued by lines holding only literals. A value is a
/// `msgstr` (`msgstr[n]` has variant `plural:n`), its literals joined; its
/// key is the `msgid` (never edited), its context the `msgctxt`. The header
/// (the entry whose msgid is empty) is no value: its `Language:` field is
/// the file's locale. Escapes: `\n \t \r \\ \" \a \b \f \v`, octal `\NNN`,
/// `\xHH`. Boundaries: the start of each line that begins an entry (or is
/// blank) once the entry before it is complete; the state there is always empty.
enum POReader: FormatReader {
  private enum Field {
    case context, id, idPlural
    case string(index: Int?)
  }

  private struct Entry {
    var flags: [String] = []
    var context: TextBuilder?
    var id: TextBuilder?
    var idPlural: TextBuilder?
    var hasString = false
    /// The msgstr being read.
    var field: Field?
    var value: TextBuilder?
    var valueStart: SourcePosition?
    var valueEnd: SourcePosition?
    var index: Int?
    var idStart: SourcePosition?
    var isEmpty: Bool { flags.isEmpty && context == nil && id == nil }
  }

  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    var entry = Entry()
    while true {
      // At a line start.
      let lineStart = cursor.position
      while cursor.byte == 0x20 || cursor.byte == 0x09 { cursor.advance() }
      if lineStart == SourcePosition(line: 0, column: 0), cursor.matches("\u{FEFF}") { cursor.advance(by: 3) }
      let byte = cursor.byte
      let keyword = word(cursor)
      let blank = byte == nil || byte == 0x0A
      let endsEntry =
        blank || ((keyword == .msgctxt || keyword == .msgid) && entry.id != nil)
        || (byte == UInt8(ascii: "#") && entry.hasString)
      if endsEntry {
        finish(&entry, &sink)
        entry = Entry()
      }
      // A boundary is a line start: not the end of the readable text in the
      // middle of a line (an ill-formed byte, the last line's end), where an
      // edit's re-read would otherwise stop as if the line began an entry.
      if entry.isEmpty, lineStart.column == 0, !sink.boundary(line: lineStart.line, state) { return }
      guard let first = byte else { return }
      switch first {
      case 0x0A:
        cursor.advance()
        continue
      case UInt8(ascii: "#"):
        if cursor.peek(1) == UInt8(ascii: ",") {
          cursor.advance(by: 2)
          var text: [UInt8] = []
          while let current = cursor.byte, current != 0x0A {
            text.append(current)
            cursor.advance()
          }
          for flag in String(decoding: text, as: UTF8.self).split(separator: ",") {
            entry.flags.append(flag.trimmingSpaces)
          }
        }
        cursor.skipLine()
        continue
      case UInt8(ascii: "\""):
        guard entry.field != nil else {
          sink.fail(
            "a string with no keyword before it (msgid, msgstr…): continuation lines follow one", at: cursor.position)
          return
        }
      default:
        cursor.advance(by: keyword.spelling.utf8.count)
        switch keyword {
        case .msgctxt:
          entry.field = .context
          entry.context = TextBuilder(baseLine: cursor.position.line)
        case .msgid:
          entry.field = .id
          entry.id = TextBuilder(baseLine: cursor.position.line)
          entry.idStart = lineStart
        case .msgidPlural:
          guard entry.id != nil else {
            sink.fail("msgid_plural with no msgid before it", at: lineStart)
            return
          }
          entry.field = .idPlural
          entry.idPlural = TextBuilder(baseLine: cursor.position.line)
        case .msgstr:
          guard entry.id != nil else {
            sink.fail("msgstr with no msgid before it", at: lineStart)
            return
          }
          finishString(&entry, &sink)
          var index: Int?
          if cursor.byte == UInt8(ascii: "[") {
            cursor.advance()
            var number = 0
            var digits = 0
            while let digit = cursor.byte, isDigit(digit), digits < 6 {
              number = number * 10 + Int(digit - 0x30)
              digits += 1
              cursor.advance()
            }
            guard digits > 0, cursor.byte == UInt8(ascii: "]") else {
              sink.fail("expected msgstr[N] with a number N", at: cursor.position)
              return
            }
            cursor.advance()
            index = number
          }
          entry.field = .string(index: index)
          entry.index = index
          entry.hasString = true
          entry.value = TextBuilder(baseLine: cursor.position.line)
        case .other(let keyword):
          sink.fail(
            keyword.isEmpty
              ? "expected a keyword (msgid, msgstr…), a comment or a string, found \(describe(first))"
              : "unknown keyword \(keyword) (expected msgctxt, msgid, msgid_plural or msgstr)", at: cursor.position)
          return
        }
      }
      // One or more string literals, then the end of the line.
      var strings = 0
      while true {
        while cursor.byte == 0x20 || cursor.byte == 0x09 { cursor.advance() }
        guard cursor.byte == UInt8(ascii: "\"") else { break }
        guard literal(&cursor, &entry, &sink) else { return }
        strings += 1
      }
      if strings == 0 {
        sink.fail("expected a string literal (\"…\") after the keyword", at: cursor.position)
        return
      }
      if cursor.byte == UInt8(ascii: "#") {
        cursor.skipLine()
      } else if let byte = cursor.byte, byte != 0x0A {
        sink.fail("unexpected \(describe(byte)) after a string literal", at: cursor.position)
        return
      } else {
        cursor.advance()
      }
    }
  }

  /// The keyword at the cursor: ASCII letters, `_` (compared byte by
  /// byte: no string is made for the keywords the format has).
  private static func word(_ cursor: Cursor) -> Keyword {
    var length = 0
    while let byte = cursor.peek(length), (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_") { length += 1 }
    switch length {
    case 5 where cursor.matches("msgid"): return .msgid
    case 6 where cursor.matches("msgstr"): return .msgstr
    case 7 where cursor.matches("msgctxt"): return .msgctxt
    case 12 where cursor.matches("msgid_plural"): return .msgidPlural
    default: break
    }
    var bytes: [UInt8] = []
    for k in 0..<length { bytes.append(cursor.peek(k)!) }
    return .other(String(decoding: bytes, as: UTF8.self))
  }

  private enum Keyword: Equatable {
    case msgctxt, msgid, msgidPlural, msgstr
    case other(String)

    var spelling: String {
      switch self {
      case .msgctxt: "msgctxt"
      case .msgid: "msgid"
      case .msgidPlural: "msgid_plural"
      case .msgstr: "msgstr"
      case .other(let word): word
      }
    }
  }

  /// Reads one literal into the current field.
  private static func literal(_ cursor: inout Cursor, _ entry: inout Entry, _ sink: inout ReadSink) -> Bool {
    let quote = cursor.position
    cursor.advance()
    let start = cursor.position
    // Taken out of the entry while it grows (the entry holding a second
    // reference would copy its bytes and map at the first append).
    var builder: TextBuilder
    switch entry.field {
    case .context: builder = entry.context.take()!
    case .id: builder = entry.id.take()!
    case .idPlural: builder = entry.idPlural.take()!
    case .string: builder = entry.value.take()!
    case nil: return false
    }
    let before = builder.count
    while let byte = cursor.byte, byte != UInt8(ascii: "\""), byte != 0x0A {
      if byte == UInt8(ascii: "\\") {
        escape(&cursor, &builder)
      } else {
        builder.appendLiteralRun(from: &cursor) { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
      }
    }
    let terminated = cursor.byte == UInt8(ascii: "\"")
    let end = cursor.position
    if terminated { cursor.advance() }
    switch entry.field {
    case .context: entry.context = builder
    case .id: entry.id = builder
    case .idPlural: entry.idPlural = builder
    case nil: break
    case .string:
      entry.value = builder
      // The value starts at its first character: `msgstr ""` followed by
      // its text on the next lines starts on the first of those lines.
      if entry.valueStart == nil || (before == 0 && builder.count > 0) { entry.valueStart = start }
      entry.valueEnd = end
    }
    guard terminated else {
      sink.fail("unterminated string: the \" is not closed on its line", at: quote)
      return false
    }
    return true
  }

  /// An escape (`CEscapes`, and `\xHH…`); an escaped line break is
  /// nothing (the next line must start a new string).
  private static func escape(_ cursor: inout Cursor, _ builder: inout TextBuilder) {
    let start = cursor.position
    cursor.advance()
    if CEscapes.decode(&cursor, &builder, from: start, special: { $0 == UInt8(ascii: "x") }) { return }
    guard cursor.byte == UInt8(ascii: "x") else { return }
    cursor.advance()
    var value: UInt32 = 0
    while let byte = cursor.byte, let digit = hexValue(byte), value < 0x100 {
      value = value << 4 | digit
      cursor.advance()
    }
    builder.append(value, from: start, to: cursor.position, spelling: nil)
  }

  /// Emits the msgstr being read, if any.
  private static func finishString(_ entry: inout Entry, _ sink: inout ReadSink) {
    guard let builder = entry.value, let id = entry.id else { return }
    defer {
      entry.value = nil
      entry.valueStart = nil
      entry.valueEnd = nil
    }
    let key = id.string
    if key.isEmpty && entry.context == nil {
      // The header: its Language field names the locale.
      for line in builder.string.split(separator: "\n") {
        let field = line.trimmingSpaces
        if field.lowercased().hasPrefix("language:") {
          let tag = String(field.dropFirst(9)).trimmingSpaces
          if !tag.isEmpty { sink.items.append(.locale(tag, line: builder.baseLine)) }
        }
      }
      return
    }
    let start = entry.valueStart ?? SourcePosition(line: builder.baseLine, column: 0)
    var value = builder.value(key: key, start: start, end: entry.valueEnd ?? start)
    value.context = entry.context?.string
    value.source = (entry.index ?? 0) >= 1 ? entry.idPlural?.string ?? key : key
    if let index = entry.index { value.variant = "plural:\(index)" }
    value.attachKey(id)
    let rules = PlaceholderRules.po(flags: entry.flags)
    // Compared with its msgid (msgid_plural): not when untranslated (the
    // application shows the msgid) or fuzzy (msgfmt leaves it out).
    if let source = value.source, !value.text.isEmpty, !entry.flags.contains("fuzzy") {
      value.sourceTokens = SourceNormalization.tokens(ofSource: source, rules: rules)
    }
    sink.add(value, rules: rules)
  }

  private static func finish(_ entry: inout Entry, _ sink: inout ReadSink) {
    finishString(&entry, &sink)
  }
}
