import BidiHazards
import UnicodeBidi

/// A placeholder of a value: text the application replaces at run time
/// (`%@`, `{name}`, `{count, plural, …}` as a whole, `#`, an XLIFF `<ph/>`).
/// It counts as one neutral character (Bidi_Class ON) for directions as
/// written, and no edit ever splits it.
package struct ValuePlaceholder: Hashable, Sendable {
  /// The syntax it is written in.
  package enum Kind: Hashable, Sendable {
    /// `%@`, `%1$d`, `%.2f`, `%lld`, `%#@name@` (a String Catalog or
    /// `.stringsdict` substitution), `%arg`.
    case printf
    /// Python `%(name)s`.
    case pythonPercent
    /// `{name}`, `{0}`, `{0, number}`: an ICU MessageFormat simple argument;
    /// also Python `{name}` and .NET `{0:N2}`.
    case braces
    /// An ICU `{n, plural|select|selectordinal, …}` as a whole; its branches
    /// are entries of their own.
    case icuComplex
    /// `#` in a plural branch.
    case pound
    /// i18next `{{name}}`, `{{- name}}`, `{{name, number}}`.
    case doubleBraces
    /// i18next nesting `$t(key)`.
    case nesting
    /// An XLIFF inline code (`<x/>`, `<ph>…</ph>`, `<bpt>`…) written as XML.
    case inlineElement
  }

  /// Its UTF-8 range in the value's decoded text.
  package var range: Range<Int>
  package var kind: Kind
  /// Whether it can only become a number (Protocol/localization.md); filled with digits.
  package var isNumeric: Bool
  /// The argument's name for ICU and ARB forms (`count`), used with ARB
  /// metadata types.
  package var name: String?

  package init(range: Range<Int>, kind: Kind, isNumeric: Bool, name: String? = nil) {
    self.range = range
    self.kind = kind
    self.isNumeric = isNumeric
    self.name = name
  }
}

/// A translated value of a localization file: one message as the
/// application receives it (escapes decoded, pieces joined), with where
/// each part of it is in the document.
///
/// Positions are stored relative to the value's first line, so that moving
/// a value (an edit above it) changes one number: `firstLine`.
package struct LocalizedValue: Hashable, Sendable {
  /// The key the application looks the value up by (a `.po` msgid, an
  /// i18next dotted path, an `.xcstrings` source string…).
  package var key: String
  /// A `.po` `msgctxt`, when given.
  package var context: String?
  /// The branch this value is, when it is one: `plural:one`, `select:male`,
  /// `selectordinal:few`, `device:iphone`, `plural:2` for `msgstr[2]`,
  /// `item:0` for an Android `<string-array>` item; several joined by `/`
  /// (`device:iphone/plural:one`).
  package var variant: String?
  /// Whether this value is a branch of an ICU `plural`/`select`/`selectordinal`
  /// argument of the value before it (the message itself is an entry too,
  /// the argument one placeholder of it).
  package internal(set) var isBranch = false
  /// The locale the file's contents give this value (an `.xcstrings`
  /// localization key, an XLIFF `target-language`), when known.
  package var locale: String?
  /// The decoded text.
  package var text: String
  /// Its placeholders, in order, never overlapping.
  package var placeholders: [ValuePlaceholder] = []
  /// Its markup (`<b>`, `</b>`, `**`, an inline `<g>` tag…), as decoded
  /// ranges, in order: it counts as nothing for directions.
  package var markup: [Range<Int>] = []
  /// Its paragraphs as decoded ranges (UAX #9 P1): each ends after its
  /// Bidi_Class B separator, the last at the end of the text; an empty
  /// value has one empty paragraph.
  package var paragraphs: [Range<Int>] = []
  /// Decoded ranges whose source reads no escape (XML CDATA sections): a
  /// mark inserted there is written as the character itself.
  var literalOnly: [Range<Int>] = []
  /// The first line of the value's source text.
  package internal(set) var firstLine: Int
  /// The content (delimiters excluded), relative to `firstLine`.
  var content: SourceRange
  var map: SourceMap
  /// The bidi controls written in the key, with their source ranges
  /// relative to `firstLine` (for `bidi.inIdentifier`).
  var keyControls: [KeyControl] = []
  /// How this value writes the bidi controls it holds as escapes, if it does.
  package var controlSpelling: MarkSpelling?
  /// Whether this value holds a bidi control written as the character.
  package var hasLiteralControl = false
  /// Whether this value holds a non-ASCII character written as itself (so
  /// the file is UTF-8, not ASCII with escapes).
  package var hasNonASCIILiteral = false

  struct KeyControl: Hashable, Sendable {
    var control: BidiControl
    var range: SourceRange
  }

  init(key: String, text: String, map: SourceMap, content: SourceRange, firstLine: Int) {
    self.key = key
    self.text = text
    self.map = map
    self.content = content
    self.firstLine = firstLine
  }

  /// The source range of the value's content: from the content start of its
  /// first piece to the content end of its last, delimiters excluded.
  package var range: SourceRange { content.shifted(by: firstLine) }

  /// The source position of the decoded character at `offset` (the start of
  /// its escape when escaped); the content end for the end of the text.
  package func sourcePosition(ofDecoded offset: Int) -> SourcePosition {
    guard offset < text.utf8.count, let position = map.sourceStart(ofDecoded: offset) else {
      return range.end
    }
    return position.shifted(by: firstLine)
  }

  /// Where an insertion at decoded offset `offset` goes in the source: before
  /// the escape of the character at `offset`, or at the content end.
  package func insertionPoint(atDecoded offset: Int) -> SourcePosition {
    if offset == 0 && text.isEmpty { return range.start }
    return sourcePosition(ofDecoded: offset)
  }

  /// The source ranges that hold a decoded range (several when decoding
  /// joined pieces inside it).
  package func sourceRanges(ofDecoded range: Range<Int>) -> [SourceRange] {
    map.sourceRanges(ofDecoded: range).map { $0.shifted(by: firstLine) }
  }

  /// The source range of a decoded range, from the start of its first
  /// character's source to the end of its last's.
  package func sourceRange(ofDecoded range: Range<Int>) -> SourceRange {
    let parts = sourceRanges(ofDecoded: range)
    guard let first = parts.first, let last = parts.last else {
      return SourceRange(at: insertionPoint(atDecoded: range.lowerBound))
    }
    return SourceRange(start: first.start, end: last.end)
  }

  /// The source range of paragraph `index`: the first starts at the
  /// content start, the last ends at the content end.
  package func sourceRange(ofParagraph index: Int) -> SourceRange {
    let paragraph = paragraphs[index]
    let start = index == 0 ? range.start : sourcePosition(ofDecoded: paragraph.lowerBound)
    let end =
      index == paragraphs.count - 1
      ? range.end : (map.sourceEnd(ofDecoded: paragraph.upperBound)?.shifted(by: firstLine) ?? range.end)
    return SourceRange(start: start, end: max(start, end))
  }

  /// The bidi controls written in the key, with their document ranges.
  package var controlsInKey: [(control: BidiControl, range: SourceRange)] {
    keyControls.map { ($0.control, $0.range.shifted(by: firstLine)) }
  }

  /// The value moved `lines` lines down.
  func shifted(by lines: Int) -> LocalizedValue {
    var copy = self
    copy.firstLine += lines
    return copy
  }
}

/// What a reader finds, in document order: values, and facts about the
/// document that decide something about values elsewhere.
package enum LocalizationItem: Hashable, Sendable {
  case value(LocalizedValue)
  /// The locale the file's contents name (`.po` `Language:`, XLIFF
  /// `target-language`/`trgLang`, ARB `@@locale`), at the line it is on.
  case locale(String, line: Int)
  /// ARB metadata: the type of a placeholder of a key (`@count` →
  /// `placeholders.count.type: "int"`).
  case argumentType(key: String, name: String, type: String, line: Int)

  /// The line the item starts on.
  package var line: Int {
    switch self {
    case .value(let value): value.firstLine
    case .locale(_, let line), .argumentType(_, _, _, let line): line
    }
  }

  func shifted(by lines: Int) -> LocalizationItem {
    switch self {
    case .value(let value): .value(value.shifted(by: lines))
    case .locale(let tag, let line): .locale(tag, line: line + lines)
    case .argumentType(let key, let name, let type, let line):
      .argumentType(key: key, name: name, type: type, line: line + lines)
    }
  }
}
