/// How the marks a plan inserts are written in a document (Protocol/localization.md): the
/// character itself in a UTF-8 file; the file's own escape style where it
/// already writes bidi controls as escapes (the most frequent one when it
/// mixes styles); a `.properties` file with no character beyond ASCII
/// written as itself gets `\u200F` escapes (Java before 9 reads the file as
/// Latin-1); `.po`, Fluent and YAML always the character (`writesMarksAsCharacters`).
package struct SpellingVotes: Hashable, Sendable {
  var escaped: [MarkSpelling: Int] = [:]
  var nonASCIILiterals = 0

  package init() {}

  /// Counts a value in (`by: 1`) or out (`by: -1`).
  package mutating func count(_ value: LocalizedValue, by delta: Int) {
    if let spelling = value.controlSpelling { escaped[spelling, default: 0] += delta }
    if value.hasNonASCIILiteral { nonASCIILiterals += delta }
  }

  package init(_ values: some Sequence<LocalizedValue>) {
    for value in values { count(value, by: 1) }
  }

  /// The spelling for a document of `format`.
  package func spelling(for format: LocalizationFormat) -> MarkSpelling {
    if format.writesMarksAsCharacters { return .literal }
    let best = escaped.filter { $0.value > 0 }.max { a, b in
      a.value != b.value ? a.value < b.value : String(describing: a.key) > String(describing: b.key)
    }
    if let best { return best.key }
    if format == .properties && nonASCIILiterals == 0 { return .backslashLowerU(uppercaseHex: true) }
    return .literal
  }
}

/// The locale that applies to a value (Protocol/localization.md): a forced locale
/// (`check --locale`), else the value's own (an `.xcstrings` localization,
/// an XLIFF target language), else the file's contents (`.po` `Language:`,
/// XLIFF, ARB `@@locale`), else its path, else the `locale` setting.
package func resolveLocale(
  forced: String? = nil, value: String?, contents: String?, path: String?, setting: String?
) -> LocaleTag? {
  for candidate in [forced, value, contents] {
    if let candidate, let tag = LocaleTag(candidate) { return tag }
  }
  if let path, let tag = LocaleTag.fromPath(path) { return tag }
  return setting.flatMap { LocaleTag($0) }
}
