import StructuredText

/// Apple String Catalog `.xcstrings`: `strings.KEY.localizations.LOCALE`
/// holds a `stringUnit.value` (a value of key KEY and locale LOCALE) and/or
/// `variations.KIND.CASE…` (variant `plural:one`, `device:iphone`, nested
/// joined with `/`) and `substitutions.NAME…` (variant
/// `substitution:NAME/plural:one`), each ending in a `stringUnit.value`.
/// In a substitution's variations `%arg` is its argument, numeric when the
/// substitution's `formatSpecifier` is. The top-level `sourceLanguage` and
/// the values of that language are facts: a translation's source is the
/// source-language value of its key and variant, else of its key, else the
/// key itself (`SourceFacts`).
enum XCStringsReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    JSONScanner.read(&cursor, &state, &sink) { text, _, start, end, state, sink in
      let frames = state.frames
      let count = frames.count
      if count == 1, frames[0].name == "sourceLanguage" {
        state.notes = [text.string]
        sink.items.append(.fact(SourceFacts.language(text.string, line: start.line)))
        return
      }
      guard count >= 4, frames[0].name == "strings", frames[2].name == "localizations" else { return }
      if count >= 2, frames[count - 1].name == "formatSpecifier", count >= 3, frames[count - 3].name == "substitutions"
      {
        state.frames[count - 1].note = text.string
        return
      }
      guard count >= 6, frames[count - 2].name == "stringUnit", frames[count - 1].name == "value" else { return }
      var parts: [String] = []
      var rules = PlaceholderRules.of(.xcstrings)
      var index = 4
      while index < count - 2 {
        let name = frames[index].name
        if name == "variations", index + 2 < count - 1 {
          parts.append(frames[index + 1].name + ":" + frames[index + 2].name)
          index += 3
        } else if name == "substitutions", index + 1 < count - 2 {
          parts.append("substitution:" + frames[index + 1].name)
          let specifier = frames[index + 2].note
          rules.catalogArgument =
            specifier.utf8.last.map { FormatPlaceholders.numericConversions.contains($0) } ?? false
          index += 2
        } else {
          index += 1
        }
      }
      var value = text.value(key: frames[1].name, start: start, end: end)
      value.locale = frames[3].name
      if !parts.isEmpty { value.variant = parts.joined(separator: "/") }
      if value.locale == state.notes.first {
        sink.items.append(.fact(SourceFacts.value(value, line: start.line)))
      }
      sink.add(value, rules: rules)
    }
  }
}
