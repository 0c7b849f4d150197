import StructuredText

/// i18next / ICU message JSON: nested objects (and arrays) whose string
/// leaves are values, each keyed by its dotted path (`home.title`,
/// `items.0`); i18next's `_one`/`_other` suffixes stay part of the key.
/// Placeholders: i18next's `{{name}}`, `{{- name}}`, `{{name, number}}`,
/// `$t(key)`, and ICU MessageFormat.
enum I18nextReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    let rules = PlaceholderRules.of(.i18next)
    JSONScanner.read(&cursor, &state, &sink) { text, key, start, end, state, sink in
      var path = ""
      for (index, frame) in state.frames.enumerated() {
        if index > 0 { path += "." }
        path += frame.kind == JSONScanner.object ? frame.name : String(frame.index)
      }
      var value = text.value(key: path, start: start, end: end)
      if let key { value.attachKey(key) }
      sink.add(value, rules: rules)
    }
  }
}
