import StructuredText
import UnicodeBidi

/// Decodes one line of cue text into what a player shows: markup removed,
/// (WebVTT) character references decoded and NUL replaced, invalid UTF-8
/// replaced by U+FFFD; with the map back to source columns. One pass over
/// the line's bytes.
///
/// Markup, by format:
/// - SubRip, as ffmpeg reads it (`libavcodec/htmlsubtitles.c`, used by VLC,
///   mpv and most players): `<` opens a tag when it is not followed by
///   another `<` and a `>` closes it within 127 bytes on the line; `<b>`,
///   `<i>`, `<u>`, `<s>`, `<font …>`, `<br>` and any tag whose name is made
///   of letters, digits, `_` and `/` (an unknown tag, hidden) are markup,
///   anything else (`<<`, `< 3`, `a <b c.d>`) is text. `{\` up to the next
///   `}` on the line is an SSA override block (`{\an8}`, `{\i1}`). SubRip
///   has no character references: `&amp;` is shown as written.
/// - WebVTT, as its cue text tokenizer reads it: every `<` opens a tag (a
///   start tag, an end tag `</…>` or a timestamp `<00:01.000>`) that runs
///   to the next `>`; a tag the line does not close runs to the line's end
///   (players read on to the next `>` in the cue's following lines: a
///   diagnostic says so). `&` starts a character reference when
///   `HTMLCharacterReferences` reads one.
struct CueTextDecoder {
  let bytes: UnsafeBufferPointer<UInt8>
  /// The column of `bytes[0]`.
  let base: Int
  let format: SubtitleFormat
  var decoded: [UInt8] = []
  /// The map back to source columns (positions on line 0: the line itself).
  var map = SourceMap()
  var markup: [SubtitleMarkup] = []
  var escapes: [Range<Int>] = []
  /// Problems found, as (column, message).
  var problems: [(column: Int, message: String)] = []
  /// How the line writes bidi marks: as characters, `&lrm;`/`&rlm;`, numeric references.
  var markSpellings = (character: 0, named: 0, numeric: 0)
  /// Where the text not yet decoded starts (before it: decoded, or markup).
  private var pendingText = 0
  /// A `}` scan that failed from here: none after it either (keeps `{\{\{\…` linear).
  private var noClosingBraceFrom = Int.max

  init(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, format: SubtitleFormat) {
    self.bytes = bytes
    self.base = base
    self.format = format
    // Markup and references make the text shorter: one allocation.
    decoded.reserveCapacity(bytes.count)
  }

  /// Decodes the line into a `SubtitleLine` of cue `cue` on line `line`,
  /// with the problems found and how the line writes marks (the decoder's
  /// `problems` and `markSpellings`, moved out: nothing copied).
  static func line(
    _ bytes: UnsafeBufferPointer<UInt8>, base: Int, format: SubtitleFormat, cue: Int, line: Int
  ) -> (line: SubtitleLine, problems: [(column: Int, message: String)], markSpellings: (Int, Int, Int)) {
    var decoder = CueTextDecoder(bytes, base: base, format: format)
    decoder.run()
    decoder.map.length = decoder.decoded.count
    var start = base
    for item in decoder.markup {
      guard item.columns.lowerBound == start, !item.isOpen else { break }
      start = item.columns.upperBound
    }
    let result = SubtitleLine(
      cue: cue, line: line, columns: base..<base + bytes.count, text: String(decoding: decoder.decoded, as: UTF8.self),
      markup: decoder.markup, escapes: decoder.escapes, textStartColumn: start, map: decoder.map)
    let spellings = decoder.markSpellings
    return (result, decoder.problems, (spellings.character, spellings.named, spellings.numeric))
  }

  mutating func run() {
    let count = bytes.count
    var index = 0
    while index < count {
      let byte = bytes[index]
      var end: Int?
      switch byte {
      case UInt8(ascii: "<"):
        end = format == .subRip ? subRipTag(at: index) : webVTTTag(at: index)
      case UInt8(ascii: "{") where format == .subRip:
        end = overrideBlock(at: index)
      case UInt8(ascii: "&") where format == .webVTT:
        if let reference = HTMLCharacterReferences.match(bytes, from: index) {
          replaced(index..<index + reference.length, by: reference.scalars)
          countMark(reference.scalars, named: bytes[index + 1] != UInt8(ascii: "#"))
          end = index + reference.length
        }
      case 0 where format == .webVTT:
        replaced(index..<index + 1, by: [0xFFFD])
        end = index + 1
      default:
        break
      }
      index = end ?? index + 1
    }
    text(pendingText..<count)
  }

  // MARK: Markup

  /// ffmpeg's SubRip tag rule (see the type's comment); the end of the tag, or nil for text.
  private mutating func subRipTag(at start: Int) -> Int? {
    let count = bytes.count
    guard start + 1 < count, bytes[start + 1] != UInt8(ascii: "<") else { return nil }
    let closing = bytes[start + 1] == UInt8(ascii: "/")
    var likelyTag = closing || start == 0 || bytes[start - 1] != UInt8(ascii: "<")
    let contentStart = start + 1 + (closing ? 1 : 0)
    var end = contentStart
    while end < count, end - contentStart < 127, bytes[end] != UInt8(ascii: "<"), bytes[end] != UInt8(ascii: ">") {
      end += 1
    }
    guard end < count, bytes[end] == UInt8(ascii: ">"), end > contentStart else { return nil }
    var nameStart = contentStart
    while nameStart < end, bytes[nameStart] == UInt8(ascii: " ") {
      nameStart += 1
      likelyTag = false
    }
    var nameEnd = nameStart
    while nameEnd < end, bytes[nameEnd] != UInt8(ascii: " ") { nameEnd += 1 }
    let name = lowercasedASCII(nameStart..<nameEnd)
    // (Lowercasing ASCII keeps what `isTagNameByte` says of each byte.)
    let nameBytes = UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])
    let isTagName =
      nameBytes.allSatisfy { $0 < 0x80 }
      ? nameBytes.allSatisfy(Self.isTagNameByte) : name.utf8.allSatisfy(Self.isTagNameByte)
    if !isTagName { likelyTag = false }
    let known =
      name == "font" || name == "b" || name == "i" || name == "s" || name == "u" || name == "br" || name == "br/"
    guard known || likelyTag else { return nil }
    addMarkup(start..<end + 1, kind: closing ? .endTag : .startTag, name: name)
    return end + 1
  }

  /// `{\` up to the next `}` on the line.
  private mutating func overrideBlock(at start: Int) -> Int? {
    guard start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "\\"), start < noClosingBraceFrom else {
      return nil
    }
    var end = start + 2
    while end < bytes.count, bytes[end] != UInt8(ascii: "}") { end += 1 }
    guard end < bytes.count else {
      noClosingBraceFrom = start
      return nil
    }
    addMarkup(start..<end + 1, kind: .override, name: "")
    return end + 1
  }

  /// A WebVTT tag: to the next `>`, or to the end of the line.
  private mutating func webVTTTag(at start: Int) -> Int {
    let count = bytes.count
    var end = start + 1
    while end < count, bytes[end] != UInt8(ascii: ">") { end += 1 }
    let closed = end < count
    if !closed {
      problems.append(
        (
          base + start,
          "this tag is not closed on its line: players hide the cue's text up to the next '>' (write '<' as &lt;)"
        ))
    }
    var kind = SubtitleMarkup.Kind.startTag
    var nameStart = start + 1
    if nameStart < end, bytes[nameStart] == UInt8(ascii: "/") {
      kind = .endTag
      nameStart += 1
    } else if nameStart < end, bytes[nameStart] >= UInt8(ascii: "0"), bytes[nameStart] <= UInt8(ascii: "9") {
      kind = .timestamp
    }
    var nameEnd = nameStart
    if kind != .timestamp {
      while nameEnd < end, nameEnd - nameStart < 64, !Self.isTagNameEnd(bytes[nameEnd]) { nameEnd += 1 }
    }
    let tagEnd = closed ? end + 1 : end
    addMarkup(start..<tagEnd, kind: kind, name: lowercasedASCII(nameStart..<nameEnd), isOpen: !closed)
    return tagEnd
  }

  private mutating func addMarkup(_ range: Range<Int>, kind: SubtitleMarkup.Kind, name: String, isOpen: Bool = false) {
    text(pendingText..<range.lowerBound)
    pendingText = range.upperBound
    markup.append(
      SubtitleMarkup(
        columns: base + range.lowerBound..<base + range.upperBound, offset: decoded.count, kind: kind, name: name,
        isOpen: isOpen))
  }

  // MARK: Text

  /// Source bytes shown as they are; invalid UTF-8 in them becomes U+FFFD.
  private mutating func text(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    var index = range.lowerBound
    while index < range.upperBound, bytes[index] < 0x80 { index += 1 }
    if index == range.upperBound {
      verbatim(range)
      return
    }
    // Maximal subparts, as Swift's decoder reads them (`UTF8Decoder`).
    let text = UnsafeBufferPointer(rebasing: bytes[..<range.upperBound])
    var validStart = range.lowerBound
    while index < range.upperBound {
      if text[index] < 0x80 {
        index += 1
        continue
      }
      let decoded = UTF8Decoder.decode(text, at: index)
      if decoded.isValid {
        if decoded.value == 0x200E || decoded.value == 0x200F { markSpellings.character += 1 }
      } else {
        verbatim(validStart..<index)
        if !problems.contains(where: { $0.message.hasPrefix("invalid UTF-8") }) {
          problems.append((base + index, "invalid UTF-8: shown as U+FFFD"))
        }
        substitute(index..<index + decoded.length, by: [0xFFFD])
        validStart = index + decoded.length
      }
      index += decoded.length
    }
    verbatim(validStart..<index)
  }

  private mutating func verbatim(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    let column = base + range.lowerBound
    let end = SourcePosition(line: 0, column: base + range.upperBound)
    if let last = map.segments.last, last.verbatim, last.end.column == column,
      last.decoded + (last.end.column - last.start.column) == decoded.count
    {
      map.segments[map.segments.count - 1].end = end
    } else {
      map.segments.append(
        .init(decoded: decoded.count, start: SourcePosition(line: 0, column: column), end: end, verbatim: true))
    }
    decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
  }

  /// Source that decoding replaces by `scalars` (a reference, a NUL), after the text before it.
  private mutating func replaced(_ range: Range<Int>, by scalars: [UInt32]) {
    text(pendingText..<range.lowerBound)
    pendingText = range.upperBound
    substitute(range, by: scalars)
  }

  /// Source replaced by `scalars` (a reference, a NUL, invalid UTF-8).
  private mutating func substitute(_ range: Range<Int>, by scalars: [UInt32]) {
    let columns = base + range.lowerBound..<base + range.upperBound
    map.segments.append(
      .init(
        decoded: decoded.count, start: SourcePosition(line: 0, column: columns.lowerBound),
        end: SourcePosition(line: 0, column: columns.upperBound), verbatim: false))
    escapes.append(columns)
    for value in scalars {
      UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { decoded.append($0) }
    }
  }

  private mutating func countMark(_ scalars: [UInt32], named: Bool) {
    guard scalars == [0x200E] || scalars == [0x200F] else { return }
    if named { markSpellings.named += 1 } else { markSpellings.numeric += 1 }
  }

  // MARK: Bytes

  private func lowercasedASCII(_ range: Range<Int>) -> String {
    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    return name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? name.lowercased() : name
  }

  private static func isTagNameByte(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "/")
  }

  private static func isTagNameEnd(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0C || byte == UInt8(ascii: ".")
  }
}
