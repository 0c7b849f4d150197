/// CommonMark 0.29's HTML syntax as cmark scans it (scanners.re): the
/// starts and ends of the seven kinds of HTML block, and the raw HTML tags
/// of inline content. Scans read `bytes[index]` for `index < end`; past the
/// end there is nothing (cmark's NUL terminator).
struct HTMLSyntax {
  let bytes: UnsafeBufferPointer<UInt8>
  let end: Int

  @inline(__always) private func at(_ index: Int) -> UInt8 { index < end ? bytes[index] : 0 }

  // MARK: HTML blocks

  /// The kind (1–6) of HTML block that starts at `index` (a `<`), or 0.
  /// Kind 7 is `blockStart7`. The line's end reads as a line feed.
  func blockStart(at index: Int) -> Int {
    guard at(index) == UInt8(ascii: "<") else { return 0 }
    let next = index + 1
    if let name = nameEnd(next, among: Self.rawTextTags), isSpaceCharOrEnd(name) || at(name) == UInt8(ascii: ">") {
      return 1
    }
    if matchesCaseInsensitive("!--", at: next) { return 2 }
    if at(next) == UInt8(ascii: "?") { return 3 }
    if at(next) == UInt8(ascii: "!") && isUpper(at(next + 1)) { return 4 }
    if matchesCaseInsensitive("![CDATA[", at: next) { return 5 }
    let nameStart = at(next) == UInt8(ascii: "/") ? next + 1 : next
    if let name = nameEnd(nameStart, among: Self.blockTags) {
      if isSpaceCharOrEnd(name) || at(name) == UInt8(ascii: ">") { return 6 }
      if at(name) == UInt8(ascii: "/") && at(name + 1) == UInt8(ascii: ">") { return 6 }
    }
    return 0
  }

  /// True when an open or closing tag, then only spaces, tabs or form
  /// feeds, fill the rest of the line from `index` (HTML block kind 7).
  func blockStart7(at index: Int) -> Bool {
    guard at(index) == UInt8(ascii: "<") else { return false }
    guard var after = openTag(at: index + 1) ?? closingTag(at: index + 1) else { return false }
    while after < end, bytes[after] == 0x20 || bytes[after] == 0x09 || bytes[after] == 0x0C { after += 1 }
    return after >= end
  }

  /// True when the line from `index` holds the end of an HTML block of
  /// kind `kind` (1–5), after well-formed UTF-8 only (cmark's
  /// `[^\n\x00]*` matches characters).
  func blockEnds(_ kind: Int, from index: Int) -> Bool {
    var index = index
    while index < end {
      switch kind {
      case 1:
        if bytes[index] == UInt8(ascii: "<") && at(index + 1) == UInt8(ascii: "/"),
          let name = nameEnd(index + 2, among: Self.rawTextTags), at(name) == UInt8(ascii: ">")
        {
          return true
        }
      case 2: if matches("-->", at: index) { return true }
      case 3: if matches("?>", at: index) { return true }
      case 4: if bytes[index] == UInt8(ascii: ">") { return true }
      case 5: if matches("]]>", at: index) { return true }
      default: return false
      }
      guard let step = CharacterClasses.sequenceLength(bytes, at: index, end: end) else { return false }
      index += step
    }
    return false
  }

  // MARK: Inline raw HTML

  /// A raw HTML tag after the `<` at `index - 1`: an open or closing tag, a
  /// comment, a processing instruction, a declaration or a CDATA section.
  /// Returns the index after its `>`.
  func tag(at index: Int, memo: inout HTMLScanMemo) -> Int? {
    switch at(index) {
    case UInt8(ascii: "/"):
      return closingTag(at: index)
    case UInt8(ascii: "?"):
      return processingInstruction(from: index + 1, memo: &memo)
    case UInt8(ascii: "!"):
      if matches("!--", at: index) { return comment(at: index + 3, memo: &memo) }
      if matchesCaseInsensitive("![CDATA[", at: index) { return cdata(from: index + 8, memo: &memo) }
      guard isUpper(at(index + 1)) else { return nil }
      var cursor = index + 1
      while isUpper(at(cursor)) { cursor += 1 }
      guard isSpaceChar(at(cursor)) else { return nil }
      return memo.find(.greaterThan, in: self, from: cursor).map { $0 + 1 }
    default:
      return openTag(at: index, memo: &memo)
    }
  }

  /// `?` was read: `([^?>]+ | ?[^>] | >)* ?>` — the first `?>` whose `?`
  /// is not the second character of a `?X` pair.
  private func processingInstruction(from start: Int, memo: inout HTMLScanMemo) -> Int? {
    var index = start
    while index < end {
      if bytes[index] == UInt8(ascii: "?") {
        guard index + 1 < end else { return nil }
        if bytes[index + 1] == UInt8(ascii: ">") { return index + 2 }
        guard let step = CharacterClasses.sequenceLength(bytes, at: index + 1, end: end) else { return nil }
        index += 1 + step
        continue
      }
      // Past a run of `?`, every scan that reaches this character reads on
      // the same way: a known answer from before it is this one's.
      if let known = memo.instruction, known.from <= index, index < known.stop {
        return known.found ? known.stop + 2 : nil
      }
      guard let step = CharacterClasses.sequenceLength(bytes, at: index, end: end) else { break }
      index += step
    }
    let found = index + 1 < end && bytes[index] == UInt8(ascii: "?") && bytes[index + 1] == UInt8(ascii: ">")
    memo.instruction = (start, index, found)
    return found ? index + 2 : nil
  }

  /// `![CDATA[` was read: `([^\]]+ | ]X | ]]Y)* ]]>` with X not `]` and Y
  /// not `>` — the first `]]>` whose `]` starts a token.
  private func cdata(from start: Int, memo: inout HTMLScanMemo) -> Int? {
    var index = start
    while index < end {
      if bytes[index] == UInt8(ascii: "]") {
        let second = index + 1
        guard second < end else { return nil }
        if bytes[second] != UInt8(ascii: "]") {
          guard let step = CharacterClasses.sequenceLength(bytes, at: second, end: end) else { return nil }
          index = second + step
          continue
        }
        guard second + 1 < end else { return nil }
        if bytes[second + 1] == UInt8(ascii: ">") { return second + 2 }
        guard let step = CharacterClasses.sequenceLength(bytes, at: second + 1, end: end) else { return nil }
        index = second + 1 + step
        continue
      }
      if let known = memo.cdata, known.from <= index, index < known.stop { return nil }
      guard let step = CharacterClasses.sequenceLength(bytes, at: index, end: end) else { break }
      index += step
    }
    memo.cdata = (start, index)
    return nil
  }

  /// `!--` was read: `>` and `->` cannot open the comment, `--` cannot be
  /// in it, and it ends at `-->` (or is `<!---->`).
  private func comment(at index: Int, memo: inout HTMLScanMemo) -> Int? {
    if at(index) == UInt8(ascii: "-") && at(index + 1) == UInt8(ascii: "-") && at(index + 2) == UInt8(ascii: ">") {
      return index + 3
    }
    if at(index) == UInt8(ascii: ">") { return nil }
    if at(index) == UInt8(ascii: "-") && at(index + 1) == UInt8(ascii: ">") { return nil }
    guard index < end, let dashes = memo.find(.dashes, in: self, from: index) else { return nil }
    guard at(dashes + 2) == UInt8(ascii: ">") else { return nil }
    // "<!--->" never reaches here; "<!-- a --->" has "--" before the "-->".
    return dashes + 3
  }

  /// `tagname attribute* spacechar* /? >` from `index`.
  func openTag(at index: Int) -> Int? {
    var memo = HTMLScanMemo()
    return openTag(at: index, memo: &memo)
  }

  private func openTag(at index: Int, memo: inout HTMLScanMemo) -> Int? {
    guard var cursor = tagNameEnd(index) else { return nil }
    while true {
      var spaced = cursor
      while isSpaceChar(at(spaced)) { spaced += 1 }
      guard spaced > cursor, isAttributeNameStart(at(spaced)) else { break }
      cursor = spaced + 1
      while isAttributeNameCharacter(at(cursor)) { cursor += 1 }
      if let value = attributeValueSpec(at: cursor, memo: &memo) { cursor = value }
    }
    while isSpaceChar(at(cursor)) { cursor += 1 }
    if at(cursor) == UInt8(ascii: "/") { cursor += 1 }
    return at(cursor) == UInt8(ascii: ">") ? cursor + 1 : nil
  }

  /// `spacechar* = spacechar* value` from `index`.
  private func attributeValueSpec(at index: Int, memo: inout HTMLScanMemo) -> Int? {
    var cursor = index
    while isSpaceChar(at(cursor)) { cursor += 1 }
    guard at(cursor) == UInt8(ascii: "=") else { return nil }
    cursor += 1
    while isSpaceChar(at(cursor)) { cursor += 1 }
    let quote = at(cursor)
    if quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") {
      return memo.find(quote == UInt8(ascii: "'") ? .apostrophe : .quote, in: self, from: cursor + 1).map { $0 + 1 }
    }
    let start = cursor
    while cursor < end && !Self.unquotedStop(bytes[cursor]),
      let step = CharacterClasses.sequenceLength(bytes, at: cursor, end: end)
    {
      cursor += step
    }
    return cursor > start ? cursor : nil
  }

  /// `/ tagname spacechar* >` from `index`.
  func closingTag(at index: Int) -> Int? {
    guard at(index) == UInt8(ascii: "/"), var cursor = tagNameEnd(index + 1) else { return nil }
    while isSpaceChar(at(cursor)) { cursor += 1 }
    return at(cursor) == UInt8(ascii: ">") ? cursor + 1 : nil
  }

  // MARK: Pieces

  /// `[A-Za-z][A-Za-z0-9-]*` from `index`: its end.
  private func tagNameEnd(_ index: Int) -> Int? {
    guard isLetter(at(index)) else { return nil }
    var cursor = index + 1
    while isLetter(at(cursor)) || isDigit(at(cursor)) || at(cursor) == UInt8(ascii: "-") { cursor += 1 }
    return cursor
  }

  /// The end of the longest of `names` (lowercase) that `index` starts
  /// with, case-insensitively.
  private func nameEnd(_ index: Int, among names: [[UInt8]]) -> Int? {
    var best: Int? = nil
    for name in names where matchesCaseInsensitive(name, at: index) {
      if best == nil || index + name.count > best! { best = index + name.count }
    }
    return best
  }

  private func matches(_ literal: StaticString, at index: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= end else { return false }
    for k in 0..<count where bytes[index + k] != literal.utf8Start[k] { return false }
    return true
  }

  private func matchesCaseInsensitive(_ literal: StaticString, at index: Int) -> Bool {
    matchesCaseInsensitive(
      Array(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)), at: index)
  }

  private func matchesCaseInsensitive(_ name: [UInt8], at index: Int) -> Bool {
    guard index + name.count <= end else { return false }
    for k in 0..<name.count where Self.lower(bytes[index + k]) != Self.lower(name[k]) { return false }
    return true
  }

  /// re2c's spacechar: space, tab, vertical tab, form feed, CR, LF.
  private func isSpaceChar(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
  /// A spacechar, or the end of the line (its line feed) in a block scan.
  private func isSpaceCharOrEnd(_ index: Int) -> Bool { index >= end || isSpaceChar(bytes[index]) }
  private func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }
  private func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
  private func isAttributeNameStart(_ byte: UInt8) -> Bool {
    isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
  }
  private func isAttributeNameCharacter(_ byte: UInt8) -> Bool {
    isAttributeNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
  }
  private static func unquotedStop(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x22, 0x27, 0x3D, 0x3C, 0x3E, 0x60: return true
    default: return false
    }
  }
  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  /// Kind 1's tags.
  static let rawTextTags: [[UInt8]] = ["script", "pre", "style"].map { Array($0.utf8) }
  /// Kind 6's tags (CommonMark 0.29's list).
  static let blockTags: [[UInt8]] = [
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
    "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
    "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend",
    "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param",
    "section", "title", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "track", "ul",
  ].map { Array($0.utf8) }
}

/// Remembers where the inline HTML scans found (or did not find) what they
/// look for, so that many `<` in one paragraph, each opening a comment or a
/// quoted attribute that never ends, are scanned in linear time. A search
/// stops at ill-formed UTF-8, which no character class of cmark matches.
struct HTMLScanMemo {
  /// What the scans look for.
  enum Needle: Int, CaseIterable {
    case apostrophe, quote, greaterThan, dashes

    var bytes: [UInt8] {
      switch self {
      case .apostrophe: return [0x27]
      case .quote: return [0x22]
      case .greaterThan: return [0x3E]
      case .dashes: return [0x2D, 0x2D]
      }
    }
  }

  /// The last processing instruction scanned: its start, where it stopped
  /// (on its `?>` when `found`).
  var instruction: (from: Int, stop: Int, found: Bool)? = nil
  /// The last CDATA section that did not close: its start and where the
  /// scan stopped.
  var cdata: (from: Int, stop: Int)? = nil

  /// Per needle: the last search's start, and where it stopped: on the
  /// needle (`found`) or on ill-formed UTF-8 or the end (not found).
  private var known: [(from: Int, stop: Int, found: Bool)?] = Array(repeating: nil, count: Needle.allCases.count)

  /// The first index at or after `from` where `needle` starts, with only
  /// well-formed UTF-8 before it; or nil.
  mutating func find(_ needle: Needle, in syntax: HTMLSyntax, from: Int) -> Int? {
    if let last = known[needle.rawValue], last.from <= from, from <= last.stop {
      return last.found ? last.stop : nil
    }
    let pattern = needle.bytes
    var index = from
    var found = false
    search: while index < syntax.end {
      if index + pattern.count <= syntax.end {
        var hit = true
        for k in 0..<pattern.count where syntax.bytes[index + k] != pattern[k] {
          hit = false
          break
        }
        if hit {
          found = true
          break search
        }
      }
      guard let step = CharacterClasses.sequenceLength(syntax.bytes, at: index, end: syntax.end) else { break }
      index += step
    }
    known[needle.rawValue] = (from, index, found)
    return found ? index : nil
  }
}
