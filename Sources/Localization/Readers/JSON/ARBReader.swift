import StructuredText

/// Flutter `.arb`: a JSON object whose members are messages (ICU
/// MessageFormat), except those whose key starts with `@`: metadata.
/// `@@locale` is the file's locale, and `@key.placeholders.name.type` the
/// type of a placeholder of `key` (`int`, `num`, `double` make it numeric).
enum ARBReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    let rules = PlaceholderRules.of(.arb)
    JSONScanner.read(&cursor, &state, &sink) { text, key, start, end, state, sink in
      let frames = state.frames
      guard let first = frames.first, first.kind == JSONScanner.object else { return }
      if frames.count == 1 {
        if first.name == "@@locale" {
          sink.items.append(.locale(text.string, line: start.line))
        } else if !first.name.hasPrefix("@") {
          var value = text.value(key: first.name, start: start, end: end)
          if let key { value.attachKey(key) }
          sink.add(value, rules: rules)
        }
      } else if frames.count == 4, first.name.hasPrefix("@"), !first.name.hasPrefix("@@"),
        frames[1].name == "placeholders", frames[3].name == "type"
      {
        sink.items.append(
          .argumentType(key: String(first.name.dropFirst()), name: frames[2].name, type: text.string, line: start.line))
      }
    }
  }
}
