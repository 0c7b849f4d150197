import UnicodeBidi

/// A bidi mark to insert into a cue line.
package enum SubtitleMark: Hashable, Sendable {
  /// U+200E LEFT-TO-RIGHT MARK.
  case leftToRight
  /// U+200F RIGHT-TO-LEFT MARK.
  case rightToLeft

  package var scalar: Unicode.Scalar { self == .leftToRight ? "\u{200E}" : "\u{200F}" }

  /// How the mark is written in a file of `format` that spells marks `spelling`
  /// (SubRip has no character references: always the character).
  package func spelled(_ spelling: SubtitleMarkSpelling, in format: SubtitleFormat) -> String {
    guard format == .webVTT else { return String(scalar) }
    switch spelling {
    case .character: return String(scalar)
    case .namedReference: return self == .leftToRight ? "&lrm;" : "&rlm;"
    case .numericReference: return self == .leftToRight ? "&#x200E;" : "&#x200F;"
    }
  }
}

/// An insertion into a subtitle file: `text` goes at `position`.
package struct SubtitleInsertion: Hashable, Sendable, CustomStringConvertible {
  package var position: SourcePosition
  package var text: String

  package init(position: SourcePosition, text: String) {
    self.position = position
    self.text = text
  }

  package var description: String {
    "\(position) + "
      + text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
  }
}

extension SubtitleDocument {
  /// The insertion of `mark` at the start of `line`'s text
  /// (`SubtitleLine.textStartColumn`: after the markup that opens the line,
  /// before its first character), spelled as the file spells marks. Valid
  /// in both formats: a SubRip line takes the character anywhere outside a
  /// tag, a WebVTT line the character or a reference.
  package func insertion(of mark: SubtitleMark, atStartOf line: SubtitleLine) -> SubtitleInsertion {
    SubtitleInsertion(
      position: SourcePosition(line: line.line, column: line.textStartColumn),
      text: mark.spelled(markSpelling, in: format))
  }
}
