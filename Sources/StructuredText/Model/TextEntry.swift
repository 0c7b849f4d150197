import UnicodeBidi

/// What kind of atom an atom is: a name its format gives it (`printf`,
/// `codeSpan`…). Formats declare theirs as static members. A static string,
/// so that copying an atom copies no reference.
package struct AtomKind: Hashable, Sendable, CustomStringConvertible {
  package let name: StaticString

  package init(_ name: StaticString) {
    self.name = name
  }

  package var description: String { name.description }

  package static func == (a: AtomKind, b: AtomKind) -> Bool {
    a.name.withUTF8Buffer { x in b.name.withUTF8Buffer { y in x.elementsEqual(y) } }
  }

  package func hash(into hasher: inout Hasher) {
    name.withUTF8Buffer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

/// An HTML character reference in an entry's text (`&amp;`, `&#x200F;`,
/// `&rlm;`): the character it stands for, over its UTF-8 range.
package struct CharacterReference: Hashable, Sendable {
  package var range: Range<Int>
  package var scalar: UInt32

  package init(range: Range<Int>, scalar: UInt32) {
    self.range = range
    self.scalar = scalar
  }
}

/// An atom of an entry's text: a span that no edit ever splits and that
/// mode `placeholders` isolates whole. A localization placeholder (`%@`,
/// `{name}`, an ICU plural as a whole, an XLIFF `<ph/>`) stands for text the
/// application puts there: it counts as one neutral character (Bidi_Class
/// ON) as written and as a Latin word or digits filled. A Markdown code
/// span or autolink is shown as it is (`showsText`): its characters count.
package struct TextAtom: Hashable, Sendable {
  /// Its UTF-8 range in the entry's text.
  package var range: Range<Int>
  package var kind: AtomKind
  /// Whether it can only become a number: filled with digits, not a word.
  package var isNumeric: Bool
  /// The argument's name for named forms (`count`), used with facts such
  /// as ARB metadata types.
  package var name: String?
  /// Whether a reader sees its own text (a code span): then its characters
  /// count for directions, as written and filled.
  package var showsText = false

  package init(range: Range<Int>, kind: AtomKind, isNumeric: Bool, name: String? = nil, showsText: Bool = false) {
    self.range = range
    self.kind = kind
    self.isNumeric = isNumeric
    self.name = name
    self.showsText = showsText
  }
}

/// An entry of a structured document: the text a reader of the document is
/// shown as one unit — a translated value (its escapes decoded, its pieces
/// joined), a rendered Markdown block, a subtitle cue line — with where
/// each part of it is in the document, its atoms and markup, and what it is
/// (key, variant, block, cue). Its paragraphs (UAX #9 P1) are what the bidi
/// requests answer in `paragraphs: "document"` mode.
///
/// Positions are stored relative to the entry's first line, so that moving
/// an entry (an edit above it) changes one number: `firstLine`.
package struct TextEntry: Hashable, Sendable {
  /// The fields, shared between copies until one changes (`TextEntryStorage.swift`).
  var storage: Storage

  /// The key the application looks the value up by (a `.po` msgid, an
  /// i18next dotted path, an `.xcstrings` source string…); empty in formats
  /// whose entries have none (`StructuredFormat.entriesHaveKeys`).
  package var key: String {
    _read { yield storage.fields.pointee.key }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.key
    }
  }
  /// A `.po` `msgctxt`, when given.
  package var context: String? {
    _read { yield storage.fields.pointee.context }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.context
    }
  }
  /// The branch this value is, when it is one: `plural:one`, `select:male`,
  /// `selectordinal:few`, `device:iphone`, `plural:2` for `msgstr[2]`,
  /// `item:0` for an Android `<string-array>` item; several joined by `/`
  /// (`device:iphone/plural:one`).
  package var variant: String? {
    _read { yield storage.fields.pointee.variant }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.variant
    }
  }
  /// A Markdown block's kind (`paragraph`, `heading`, `tableCell`).
  package var block: String? {
    _read { yield storage.fields.pointee.block }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.block
    }
  }
  /// A subtitle line's cue, 1-based.
  package var cue: Int? {
    _read { yield storage.fields.pointee.cue }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.cue
    }
  }
  /// Whether this entry is a branch of an ICU `plural`/`select`/`selectordinal`
  /// argument of the entry before it (the message itself is an entry too,
  /// the argument one atom of it).
  package var isBranch: Bool {
    _read { yield storage.fields.pointee.isBranch }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.isBranch
    }
  }
  /// The locale the file's contents give this entry (an `.xcstrings`
  /// localization key, an XLIFF `target-language`), when known.
  package var locale: String? {
    _read { yield storage.fields.pointee.locale }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.locale
    }
  }
  /// The decoded (rendered) text.
  package var text: String {
    _read { yield storage.fields.pointee.text }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.text
    }
  }
  /// Its atoms, in order, never overlapping.
  package var atoms: [TextAtom] {
    _read { yield storage.fields.pointee.atoms }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.atoms
    }
  }
  /// Its markup (`<b>`, `</b>`, `**`, an inline `<g>` tag…), as decoded
  /// ranges, in order: it counts as nothing for directions.
  package var markup: [Range<Int>] {
    _read { yield storage.fields.pointee.markup }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.markup
    }
  }
  /// Decoded ranges no mark may go inside or at either edge of, in order
  /// (Markdown's bare autolinks: a control before `www.` or after a URL
  /// unmakes or changes the link).
  package var sealed: [Range<Int>] {
    _read { yield storage.fields.pointee.sealed }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.sealed
    }
  }
  /// Its paragraphs as decoded ranges (UAX #9 P1): each ends after its
  /// Bidi_Class B separator, the last at the end of the text; an empty
  /// entry has one empty paragraph.
  package var paragraphs: [Range<Int>] {
    _read { yield storage.fields.pointee.paragraphs }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.paragraphs
    }
  }
  /// Decoded ranges whose source reads no escape (XML CDATA sections): a
  /// mark inserted there is written as the character itself.
  package var literalOnly: [Range<Int>] {
    _read { yield storage.fields.pointee.literalOnly }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.literalOnly
    }
  }
  /// Its HTML character references (`&amp;`, `&#1605;`), outside atoms and
  /// markup, in order: each counts as the character it stands for, and no
  /// edit splits it.
  package var characterReferences: [CharacterReference] {
    _read { yield storage.fields.pointee.characterReferences }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.characterReferences
    }
  }
  /// Decoded white space that the format reads as layout as well as text
  /// (the indent of a YAML folded scalar's more-indented line, which keeps
  /// its line breaks): an insertion at its start goes after it instead.
  package var layoutWhiteSpace: [Range<Int>] {
    _read { yield storage.fields.pointee.layoutWhiteSpace }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.layoutWhiteSpace
    }
  }
  /// Where an insertion at a decoded offset goes instead of its character's
  /// source start (lines relative to `firstLine`), where a control written
  /// there would change the markup (Markdown: after a closing `**` that
  /// follows punctuation, before an opening one that precedes it, after
  /// white space that ends a line).
  package var insertionOverrides: [Int: SourcePosition] {
    _read { yield storage.fields.pointee.insertionOverrides }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.insertionOverrides
    }
  }
  /// The source text this entry translates, where the file holds it: an
  /// XLIFF unit's `<source>`, a `.po` `msgid` (`msgid_plural` for
  /// `msgstr[1]` on), a Qt Linguist `<source>` (decoded as the entry is).
  package var source: String? {
    _read { yield storage.fields.pointee.source }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.source
    }
  }
  /// The placeholders and markup of `source` (of the source-language
  /// value, for a String Catalog), normalized as the format compares them
  /// (`bidi.placeholderMismatch`); nil when the file holds no source for
  /// this entry or the entry is not compared (a fuzzy `.po` entry, an
  /// empty translation, an ICU branch).
  package var sourceTokens: SourceTokens? {
    _read { yield storage.fields.pointee.sourceTokens }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.sourceTokens
    }
  }
  /// The first line of the entry's source text.
  package var firstLine: Int {
    _read { yield storage.fields.pointee.firstLine }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.firstLine
    }
  }
  /// The content (delimiters excluded), relative to `firstLine`.
  package var content: SourceRange {
    _read { yield storage.fields.pointee.content }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.content
    }
  }
  package var map: SourceMap {
    _read { yield storage.fields.pointee.map }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.map
    }
  }
  /// The bidi controls written in the entry's identifier (a localization
  /// key, a link destination), with their source ranges relative to
  /// `firstLine`: each is `bidi.inIdentifier`.
  package var identifierControls: [IdentifierControl] {
    _read { yield storage.fields.pointee.identifierControls }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.identifierControls
    }
  }
  /// How this entry writes the bidi controls it holds as escapes, if it does.
  package var controlSpelling: MarkSpelling? {
    _read { yield storage.fields.pointee.controlSpelling }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.controlSpelling
    }
  }
  /// Whether this entry holds a bidi control written as the character.
  package var hasLiteralControl: Bool {
    _read { yield storage.fields.pointee.hasLiteralControl }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.hasLiteralControl
    }
  }
  /// Whether this entry holds a non-ASCII character written as itself (so
  /// the file is UTF-8, not ASCII with escapes).
  package var hasNonASCIILiteral: Bool {
    _read { yield storage.fields.pointee.hasNonASCIILiteral }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.hasNonASCIILiteral
    }
  }
  /// The keys of the document facts this entry's reading looked up, found
  /// or not (a Markdown block's reference labels): an index re-reads the
  /// entry when a fact with one of these keys appears or goes.
  package var factKeys: [String] {
    _read { yield storage.fields.pointee.factKeys }
    _modify {
      makeUnique()
      yield &storage.fields.pointee.factKeys
    }
  }

  /// A bidi control in an entry's identifier.
  package struct IdentifierControl: Hashable, Sendable {
    package var control: BidiControl
    package var range: SourceRange

    package init(control: BidiControl, range: SourceRange) {
      self.control = control
      self.range = range
    }
  }

  package init(key: String, text: String, map: SourceMap, content: SourceRange, firstLine: Int) {
    storage = Storage(Fields(key: key, text: text, firstLine: firstLine, content: content, map: map))
  }

  /// The source range of the entry's content: from the content start of its
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
    if let position = insertionOverrides[offset] { return position.shifted(by: firstLine) }
    if let layout = layoutWhiteSpace.first(where: { $0.lowerBound == offset }) {
      return sourcePosition(ofDecoded: layout.upperBound)
    }
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

  /// The bidi controls written in the identifier, with their document ranges.
  package var controlsInIdentifier: [(control: BidiControl, range: SourceRange)] {
    identifierControls.map { ($0.control, $0.range.shifted(by: firstLine)) }
  }

  /// The entry moved `lines` lines down.
  package func shifted(by lines: Int) -> TextEntry {
    var copy = self
    copy.shift(by: lines)
    return copy
  }

  /// `shifted(by:)` in place (no copy of the entry).
  package mutating func shift(by lines: Int) {
    firstLine += lines
  }

  /// The decoded offset of a document position inside the entry's text: at
  /// the start of a character's source (its escape), or at the end of the
  /// text. Nil inside an escape or outside the entry.
  package func decodedOffset(atSource position: SourcePosition) -> Int? {
    let relative = SourcePosition(line: position.line - firstLine, column: position.column)
    if relative == content.end || (map.segments.last.map { $0.end == relative } ?? false) { return map.length }
    for segment in map.segments {
      if segment.verbatim {
        if relative.line == segment.start.line, relative.column >= segment.start.column,
          relative.column < segment.end.column
        {
          return segment.decoded + relative.column - segment.start.column
        }
      } else if relative == segment.start {
        return segment.decoded
      }
    }
    return text.isEmpty && relative == content.start ? 0 : nil
  }
}

/// A fact a reader finds that decides something about entries elsewhere in
/// the document (an ARB placeholder's type, a Markdown link reference
/// definition): what `kind` means, and its fields, are the format's.
package struct DocumentFact: Hashable, Sendable {
  package var kind: String
  package var key: String
  package var name: String
  package var value: String
  /// The line the fact is on.
  package var line: Int

  package init(kind: String, key: String, name: String, value: String, line: Int) {
    self.kind = kind
    self.key = key
    self.name = name
    self.value = value
    self.line = line
  }
}

/// Lines of a structured document that are answered as plain lines, not as
/// entries: a Markdown code block, HTML block or front matter. The hazard
/// rules of §5 apply to them with `language` (a fenced block's info string
/// as an LSP languageId; nil for plain text). The lines after a syntax
/// error are plain lines too, without being a region.
package struct PlainRegion: Hashable, Sendable {
  /// The lines, `start` and `end` (excluded).
  package var lines: Range<Int>
  package var language: String?

  package init(lines: Range<Int>, language: String? = nil) {
    self.lines = lines
    self.language = language
  }
}

/// What a reader finds, in document order.
package enum ReadItem: Hashable, Sendable {
  case entry(TextEntry)
  /// The locale the file's contents name (`.po` `Language:`, XLIFF
  /// `target-language`/`trgLang`, ARB `@@locale`, WebVTT `Language:`), at
  /// the line it is on.
  case locale(String, line: Int)
  case fact(DocumentFact)
  case region(PlainRegion)
  /// The finding of a paragraph rule that a read for findings alone
  /// (`ReadSink.findingsOnly`) decided without building its entry: the
  /// entry's only finding, with the rule's message and fixes. The findings
  /// engine gives it the rule's configured severity (the reader's is not
  /// used) and puts it where the entry's findings would be.
  case finding(Finding)

  /// The line the item starts on.
  package var line: Int {
    switch self {
    case .entry(let entry): entry.firstLine
    case .finding(let finding): finding.range.start.line
    case .locale(_, let line): line
    case .fact(let fact): fact.line
    case .region(let region): region.lines.lowerBound
    }
  }

  /// The item moved `lines` lines down.
  package func shifted(by lines: Int) -> ReadItem {
    switch self {
    case .entry(let entry): return .entry(entry.shifted(by: lines))
    case .finding(let finding): return .finding(finding.shifted(by: lines))
    case .locale(let tag, let line): return .locale(tag, line: line + lines)
    case .fact(var fact):
      fact.line += lines
      return .fact(fact)
    case .region(var region):
      region.lines = (region.lines.lowerBound + lines)..<(region.lines.upperBound + lines)
      return .region(region)
    }
  }

  /// The entry, if the item is one.
  package var entry: TextEntry? {
    if case .entry(let entry) = self { return entry }
    return nil
  }
}
