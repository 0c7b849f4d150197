import StructuredText
import UnicodeBidi

/// A piece of a cue line's source that counts as nothing in its decoded
/// text: a tag, a WebVTT timestamp, an SSA override block. An edit never
/// goes inside one.
package struct SubtitleMarkup: Hashable, Sendable {
  package enum Kind: String, Hashable, Sendable {
    /// `<i>`, `<font color="red">`, `<v Speaker>`, `<c.yellow>`, `<lang he>`, `<ruby>`.
    case startTag
    /// `</i>`, `</v>`.
    case endTag
    /// A WebVTT timestamp tag `<00:01.000>` (karaoke timing).
    case timestamp
    /// An SSA/ASS override block in SubRip: `{\an8}`, `{\i1}`.
    case override
  }

  /// Its UTF-8 columns on the line.
  package var columns: Range<Int>
  /// Where it sits in the decoded text (the decoded offset before which it stands).
  package var offset: Int
  package var kind: Kind
  /// The tag's name, lowercased (`i`, `font`, `v`, `c`, `lang`, `ruby`, `rt`);
  /// empty for timestamps and override blocks.
  package var name: String
  /// Whether it is a WebVTT tag its line does not close: it runs to the
  /// line's end, so nothing can be inserted after it on the line.
  package var isOpen: Bool

  package init(columns: Range<Int>, offset: Int, kind: Kind, name: String, isOpen: Bool = false) {
    self.columns = columns
    self.offset = offset
    self.kind = kind
    self.name = name
    self.isOpen = isOpen
  }
}

/// One line of a cue's text: a paragraph, as a player lays it out. Its
/// decoded text is what the player shows (markup removed, WebVTT character
/// references decoded); a map leads from every decoded UTF-8 offset back to
/// its source column.
package struct SubtitleLine: Hashable, Sendable {
  /// The 1-based index of its cue in the file.
  package var cue: Int
  /// Its zero-based line in the file.
  package var line: Int
  /// The UTF-8 columns of the whole line, terminator excluded (from 3 on a
  /// first line that starts with a byte order mark).
  package var columns: Range<Int>
  /// The decoded text.
  package var text: String
  /// Its markup, in order.
  package var markup: [SubtitleMarkup]
  /// The source columns of each character reference (`&amp;`, `&#x200F;`)
  /// and of each byte sequence decoding replaced (a WebVTT NUL, invalid
  /// UTF-8), in order: an edit never goes inside one.
  package var escapes: [Range<Int>]
  /// Where an insertion at the start of the line's text goes: after any
  /// markup that opens the line (`{\an8}`, `<i>`, `<v Speaker>`), before its
  /// first character (or that character's reference). A mark put there
  /// decides the paragraph's direction, keeps `{\an8}` first (players that
  /// position a cue only by a leading override code), and keeps a line
  /// that opens with `<v` a voice for readers that look for it there.
  /// Before a WebVTT tag the line leaves open (anything after it is inside it).
  package var textStartColumn: Int
  /// The map from its decoded text back to the line: positions on line 0,
  /// columns of the line. Markup maps to nothing.
  package var map: SourceMap

  /// The line's source range: the whole line.
  package var range: (start: SourcePosition, end: SourcePosition) {
    (SourcePosition(line: line, column: columns.lowerBound), SourcePosition(line: line, column: columns.upperBound))
  }

  /// The source column of the decoded character at `offset` (the start of
  /// its reference when it is one); for the end of the text, the end of the
  /// last character's source; for an empty text, `textStartColumn`.
  package func sourceColumn(ofDecoded offset: Int) -> Int {
    map.sourceStart(ofDecoded: max(0, offset))?.column ?? textStartColumn
  }

  /// `sourceColumn(ofDecoded:)` as a position.
  package func sourcePosition(ofDecoded offset: Int) -> SourcePosition {
    SourcePosition(line: line, column: sourceColumn(ofDecoded: offset))
  }

  /// Where an insertion before decoded offset `offset` goes: just before
  /// that character's source (so after any markup in front of it), at the
  /// end of the last character's source for the end of the text. Offset 0
  /// is `textStartColumn`.
  package func insertionColumn(atDecoded offset: Int) -> Int {
    offset <= 0 ? textStartColumn : sourceColumn(ofDecoded: offset)
  }
}
