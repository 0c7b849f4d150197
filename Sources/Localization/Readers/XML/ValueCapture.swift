import StructuredText
import UnicodeBidi

/// A value being read from XML character data: its builder, where its
/// content starts, and the inline elements kept in it as placeholders or
/// markup (their tags' source text, so that the value's text shows them and
/// no edit splits them).
struct ValueCapture {
  var builder: TextBuilder
  var key: String
  var variant: String?
  var locale: String?
  var contentStart: SourcePosition
  /// Open inline elements kept whole, as one placeholder or one markup
  /// span: where each started in the decoded text (their content is part
  /// of the span).
  var wholeStarts: [(start: Int, isMarkup: Bool)] = []

  /// Whether an element kept whole is open (its content is not text).
  var isInsideWhole: Bool { !wholeStarts.isEmpty }

  init(key: String, after tag: XMLTag, at position: SourcePosition) {
    self.key = key
    self.contentStart = position
    self.builder = TextBuilder(baseLine: position.line)
  }

  /// An inline start tag kept as markup (`<b>`, `<g>`, `<xliff:g>`).
  mutating func markupTag(_ tag: XMLTag) {
    let start = builder.count
    builder.appendRaw(tag.raw, from: tag.start)
    if wholeStarts.isEmpty { builder.markup.append(start..<builder.count) }
  }

  /// An inline element kept whole (`<x/>`, `<ph>…</ph>` as a placeholder,
  /// `<bpt>…</bpt>` as markup): its start tag; `closeWhole` ends it unless
  /// it is self-closing.
  mutating func openWhole(_ tag: XMLTag, isMarkup: Bool) {
    let start = builder.count
    builder.appendRaw(tag.raw, from: tag.start)
    if tag.isSelfClosing {
      if wholeStarts.isEmpty { record(start..<builder.count, isMarkup: isMarkup) }
    } else {
      wholeStarts.append((start, isMarkup))
    }
  }

  mutating func closeWhole(_ tag: XMLTag) {
    builder.appendRaw(tag.raw, from: tag.start)
    guard let (start, isMarkup) = wholeStarts.popLast() else { return }
    if wholeStarts.isEmpty { record(start..<builder.count, isMarkup: isMarkup) }
  }

  private mutating func record(_ range: Range<Int>, isMarkup: Bool) {
    if isMarkup {
      builder.markup.append(range)
    } else {
      builder.atoms.append(TextAtom(range: range, kind: .inlineElement, isNumeric: false))
    }
  }

  /// The value, its content ending where the end tag `tag` starts.
  func value(endingAt tag: XMLTag) -> TextEntry {
    var value = builder.value(key: key, start: contentStart, end: tag.isSelfClosing ? contentStart : tag.start)
    value.variant = variant
    value.locale = locale
    return value
  }
}

extension XMLTag {
  /// Where the content after this start tag begins.
  var end: SourcePosition {
    var position = start
    for byte in raw {
      if byte == 0x0A {
        position = SourcePosition(line: position.line + 1, column: 0)
      } else {
        position.column += 1
      }
    }
    return position
  }
}
