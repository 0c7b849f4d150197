/// One inline of a block, in content order: what cmark's inline parser
/// makes a node of (text, a code span, raw HTML, a break…) or a piece of
/// syntax that becomes markup (a delimiter run, a bracket, a link's tail).
struct InlineItem {
  enum Kind: UInt8 {
    /// Content bytes shown as they are.
    case text
    /// A backslash escape or an entity: `value` shown for `start..<end`.
    case literal
    /// A run of `*`, `_` or `~`: what emphasis did not use is text.
    case delimiter
    /// `[` or `![`: markup once a link or image closes it, text otherwise.
    case bracket
    /// A code span: `value`'s bytes are content indices (`codeStart..<codeEnd`)
    /// shown with line feeds as spaces.
    case code
    /// `<scheme:…>` or `<mail@host>`: its content, entities decoded.
    case angleAutolink
    /// A GFM autolink (`www.`, `http://`, `ftp://`): content shown as is.
    case extendedAutolink
    case html
    case softBreak
    /// A hard break: its backslash, or the spaces before its line end.
    case hardBreak
    /// A link's or image's `](destination "title")`, `][label]` or `]`.
    case linkTail
  }

  var kind: Kind
  var start: Int
  var end: Int
  /// A delimiter run's characters used by emphasis: as a closer (from its
  /// front) and as an opener (from its back).
  var usedFront = 0
  var usedBack = 0
  /// A bracket: a link or image was made of it.
  var matched = false
  /// Inside a link's text (where cmark-gfm finds no email autolink).
  var inLink = false
  var value: [UInt8] = []
  var codeStart = 0
  var codeEnd = 0

  init(_ kind: Kind, _ start: Int, _ end: Int) {
    self.kind = kind
    self.start = start
    self.end = end
  }
}

/// cmark-gfm's inline parser (inlines.c with the strikethrough and
/// autolink extensions) over one block's content, producing `items`; link
/// destinations go to `destinations` (content ranges).
struct InlineParser {
  let bytes: UnsafeBufferPointer<UInt8>
  /// The content's length without trailing white space (cmark rtrims it).
  let end: Int
  let definitions: Set<String>
  var position = 0
  var items: [InlineItem] = []
  var destinations: [Range<Int>] = []
  /// The normalized labels looked up as references, defined or not.
  var labels: [String] = []
  var delimiters = DelimiterStack()
  var brackets = BracketStack()
  var htmlMemo = HTMLScanMemo()
  var titleMemo = TitleScanMemo()
  /// cmark's backtick memo: where the last run of each length (≤ 80) starts,
  /// valid once a scan reached the end.
  var backticks: [Int] = []
  var scannedForBackticks = false

  init(bytes: UnsafeBufferPointer<UInt8>, definitions: Set<String>) {
    self.bytes = bytes
    var end = bytes.count
    while end > 0 && LinkSyntax.isSpace(bytes[end - 1]) { end -= 1 }
    self.end = end
    self.definitions = definitions
  }

  @inline(__always) func at(_ index: Int) -> UInt8 { index < end ? bytes[index] : 0 }

  /// Parses the whole content, then resolves emphasis.
  mutating func parse() {
    while position < end { parseInline() }
    processEmphasis(bottom: nil)
  }

  private mutating func parseInline() {
    let byte = bytes[position]
    switch byte {
    case 0x0A, 0x0D: handleNewline()
    case UInt8(ascii: "`"): handleBackticks()
    case UInt8(ascii: "\\"): handleBackslash()
    case UInt8(ascii: "&"): handleEntity()
    case UInt8(ascii: "<"): handlePointyBrace()
    case UInt8(ascii: "*"), UInt8(ascii: "_"): handleDelimiter(byte)
    case UInt8(ascii: "["):
      items.append(InlineItem(.bracket, position, position + 1))
      position += 1
      pushBracket(image: false)
    case UInt8(ascii: "]"): handleCloseBracket()
    case UInt8(ascii: "!"):
      if at(position + 1) == UInt8(ascii: "[") && at(position + 2) != UInt8(ascii: "^") {
        items.append(InlineItem(.bracket, position, position + 2))
        position += 2
        pushBracket(image: true)
      } else {
        appendText(position, position + 1)
        position += 1
      }
    default:
      if byte == UInt8(ascii: "~") {
        handleStrikethrough()
        return
      }
      if (byte == UInt8(ascii: ":") || byte == UInt8(ascii: "w")) && !brackets.inBracket {
        if byte == UInt8(ascii: ":") ? matchURLAutolink() : matchWWWAutolink() { return }
      }
      var next = position + 1
      while next < end && !Self.isSpecial(bytes[next]) { next += 1 }
      var textEnd = next
      if next < end && (bytes[next] == 0x0A || bytes[next] == 0x0D) {
        while textEnd > position && LinkSyntax.isSpace(bytes[textEnd - 1]) { textEnd -= 1 }
      }
      appendText(position, textEnd)
      position = next
    }
  }

  /// The characters that end a run of text: cmark's "\r\n\\`&_*[]<!", and
  /// the extensions' `~`, `:` and `w`.
  private static func isSpecial(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x0A, 0x0D, 0x5C, 0x60, 0x26, 0x5F, 0x2A, 0x5B, 0x5D, 0x3C, 0x21, 0x7E, 0x3A, 0x77: return true
    default: return false
    }
  }

  mutating func appendText(_ start: Int, _ end: Int) {
    items.append(InlineItem(.text, start, end))
  }

  /// A line end: a hard break after two spaces, else a soft break; the next
  /// line's leading spaces and tabs are skipped.
  private mutating func handleNewline() {
    let newline = position
    if bytes[position] == 0x0D { position += 1 }
    if at(position) == 0x0A { position += 1 }
    while at(position) == 0x20 || at(position) == 0x09 { position += 1 }
    if newline > 1 && bytes[newline - 1] == 0x20 && bytes[newline - 2] == 0x20 {
      var spaces = newline
      while spaces > 0 && (bytes[spaces - 1] == 0x20 || bytes[spaces - 1] == 0x09) { spaces -= 1 }
      items.append(InlineItem(.hardBreak, spaces, newline))
    } else {
      items.append(InlineItem(.softBreak, newline, newline + 1))
    }
  }

  /// A code span, or its opening backticks as text when no run of as many
  /// closes it.
  private mutating func handleBackticks() {
    let open = position
    while at(position) == UInt8(ascii: "`") { position += 1 }
    let ticks = position - open
    let contentStart = position
    guard let close = closingBackticks(ticks) else {
      position = contentStart
      appendText(open, contentStart)
      return
    }
    var start = contentStart
    var stop = close - ticks
    var nonSpace = false
    for index in start..<stop where bytes[index] != 0x20 && bytes[index] != 0x0A { nonSpace = true }
    let first = bytes[start] == 0x20 || bytes[start] == 0x0A
    if nonSpace && first && (bytes[stop - 1] == 0x20 || bytes[stop - 1] == 0x0A) {
      start += 1
      stop -= 1
    }
    var item = InlineItem(.code, open, close)
    item.codeStart = start
    item.codeEnd = stop
    items.append(item)
    position = close
  }

  /// cmark's scan_to_closing_backticks: the index after a run of exactly
  /// `ticks` backticks, or nil (runs over 80 never close).
  private mutating func closingBackticks(_ ticks: Int) -> Int? {
    guard ticks <= 80 else { return nil }
    if scannedForBackticks && backticks[ticks] <= position { return nil }
    if backticks.isEmpty { backticks = [Int](repeating: 0, count: 81) }
    var index = position
    while true {
      while index < end && bytes[index] != UInt8(ascii: "`") { index += 1 }
      guard index < end else { break }
      let run = index
      while index < end && bytes[index] == UInt8(ascii: "`") { index += 1 }
      let count = index - run
      if count <= 80 { backticks[count] = run }
      if count == ticks { return index }
    }
    scannedForBackticks = true
    return nil
  }

  /// `\` before ASCII punctuation shows that character; before a line end
  /// it is a hard break; else it is itself.
  private mutating func handleBackslash() {
    let slash = position
    position += 1
    let next = at(position)
    if LinkSyntax.isPunctuation(next) {
      position += 1
      var item = InlineItem(.literal, slash, position)
      item.value = [next]
      items.append(item)
    } else if position < end && (next == 0x0A || next == 0x0D) {
      if next == 0x0D { position += 1 }
      if at(position) == 0x0A { position += 1 }
      items.append(InlineItem(.hardBreak, slash, slash + 1))
    } else {
      appendText(slash, slash + 1)
    }
  }

  private mutating func handleEntity() {
    let ampersand = position
    position += 1
    guard let (value, length) = Entities.decode(bytes, at: position, end: end) else {
      appendText(ampersand, position)
      return
    }
    position += length
    var item = InlineItem(.literal, ampersand, position)
    item.value = value
    items.append(item)
  }

  /// `<`: an autolink, a raw HTML tag, or text.
  private mutating func handlePointyBrace() {
    let open = position
    position += 1
    if let close = angleAutolinkEnd(at: position) {
      items.append(InlineItem(.angleAutolink, open, close + 1))
      destinations.append(position..<close)
      position = close + 1
      return
    }
    let syntax = HTMLSyntax(bytes: bytes, end: end)
    if let after = syntax.tag(at: position, memo: &htmlMemo) {
      items.append(InlineItem(.html, open, after))
      position = after
      return
    }
    appendText(open, position)
  }

  /// The index of the `>` ending a URI or email autolink opened just before
  /// `index`.
  private func angleAutolinkEnd(at index: Int) -> Int? {
    // scheme: [A-Za-z][A-Za-z0-9.+-]{1,31} ':' [^\x00-\x20<>]* '>'
    if CharacterClasses.isAlpha(at(index)) {
      var cursor = index + 1
      while cursor - index < 33,
        CharacterClasses.isAlphanumeric(at(cursor)) || at(cursor) == 0x2E || at(cursor) == 0x2B
          || at(cursor) == 0x2D
      {
        cursor += 1
      }
      let length = cursor - index
      if length >= 2 && length <= 32 && at(cursor) == UInt8(ascii: ":") {
        cursor += 1
        while cursor < end, bytes[cursor] > 0x20, bytes[cursor] != UInt8(ascii: "<"),
          bytes[cursor] != UInt8(ascii: ">"), let step = CharacterClasses.sequenceLength(bytes, at: cursor, end: end)
        {
          cursor += step
        }
        if at(cursor) == UInt8(ascii: ">") { return cursor }
      }
    }
    // email: [a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+ '@' label ('.' label)* '>'
    var cursor = index
    while cursor < end && Self.isEmailLocal(bytes[cursor]) { cursor += 1 }
    guard cursor > index, at(cursor) == UInt8(ascii: "@") else { return nil }
    cursor += 1
    while true {
      let label = cursor
      while cursor < end && (CharacterClasses.isAlphanumeric(bytes[cursor]) || bytes[cursor] == 0x2D) { cursor += 1 }
      let length = cursor - label
      guard length >= 1 && length <= 63, bytes[label] != 0x2D, bytes[cursor - 1] != 0x2D else { return nil }
      if at(cursor) == UInt8(ascii: ">") { return cursor }
      guard at(cursor) == UInt8(ascii: ".") else { return nil }
      cursor += 1
    }
  }

  private static func isEmailLocal(_ byte: UInt8) -> Bool {
    if CharacterClasses.isAlphanumeric(byte) { return true }
    switch byte {
    case 0x2E, 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2F, 0x3D, 0x3F, 0x5E, 0x5F, 0x60, 0x7B, 0x7C, 0x7D,
      0x7E, 0x2D:
      return true
    default:
      return false
    }
  }
}
