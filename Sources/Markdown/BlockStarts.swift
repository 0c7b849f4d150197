/// The line openings that start a block (cmark's scanners.re and the block
/// scans of blocks.c): ATX headings, code fences, setext underlines,
/// thematic breaks, list markers, HTML block starts and ends, GFM task
/// boxes. Each reads a `LineCursor` line from an absolute offset.
extension LineCursor {
  /// `#{1,6}` followed by spaces/tabs or the line end: the length matched
  /// (spaces included), or 0.
  func atxHeadingStart(at position: Int) -> Int {
    var index = position
    while index < end && bytes[index] == UInt8(ascii: "#") && index - position < 7 { index += 1 }
    let hashes = index - position
    guard hashes >= 1 && hashes <= 6 else { return 0 }
    if index >= end { return hashes + 1 }  // the line end ("\n") is matched too
    guard isSpaceOrTab(index) else { return 0 }
    while index < end && isSpaceOrTab(index) { index += 1 }
    return index - position
  }

  /// Three or more backticks (no backtick after them on the line) or
  /// tildes: the fence's length, or 0.
  func openCodeFence(at position: Int) -> Int {
    let fence = self[position]
    guard fence == UInt8(ascii: "`") || fence == UInt8(ascii: "~") else { return 0 }
    var index = position
    while index < end && bytes[index] == fence { index += 1 }
    let length = index - position
    guard length >= 3 else { return 0 }
    // The info string: no backtick after backticks, and well-formed UTF-8
    // (cmark's scanner matches characters, not bytes).
    while index < end {
      if fence == UInt8(ascii: "`") && bytes[index] == UInt8(ascii: "`") { return 0 }
      guard let step = CharacterClasses.sequenceLength(bytes, at: index, end: end) else { return 0 }
      index += step
    }
    return length
  }

  /// A closing fence: three or more of one fence character, then only
  /// spaces and tabs. Its length, or 0.
  func closeCodeFence(at position: Int) -> Int {
    let fence = self[position]
    guard fence == UInt8(ascii: "`") || fence == UInt8(ascii: "~") else { return 0 }
    var index = position
    while index < end && bytes[index] == fence { index += 1 }
    let length = index - position
    guard length >= 3 else { return 0 }
    while index < end && isSpaceOrTab(index) { index += 1 }
    return index >= end ? length : 0
  }

  /// A setext underline: 1 for `=`, 2 for `-`, 0 for none.
  func setextHeadingLine(at position: Int) -> Int {
    let marker = self[position]
    guard marker == UInt8(ascii: "=") || marker == UInt8(ascii: "-") else { return 0 }
    var index = position
    while index < end && bytes[index] == marker { index += 1 }
    while index < end && isSpaceOrTab(index) { index += 1 }
    guard index >= end else { return 0 }
    return marker == UInt8(ascii: "=") ? 1 : 2
  }

  /// A thematic break from `position` (three or more `*`, `-` or `_`, with
  /// spaces and tabs between). Remembers where a failed scan stopped, as
  /// cmark does, so that the nested openings of one line scan it once.
  mutating func thematicBreak(at position: Int) -> Bool {
    guard thematicBreakKill <= position else { return false }
    let marker = self[position]
    guard marker == UInt8(ascii: "*") || marker == UInt8(ascii: "-") || marker == UInt8(ascii: "_") else {
      thematicBreakKill = position
      return false
    }
    var count = 1
    var index = position + 1
    while index < end {
      let byte = bytes[index]
      if byte == marker {
        count += 1
      } else if byte != 0x20 && byte != 0x09 {
        break
      }
      index += 1
    }
    if count >= 3 && index >= end { return true }
    thematicBreakKill = index
    return false
  }

  /// A list marker at `position`: `-`, `+`, `*`, or up to nine digits and
  /// `.` or `)`, followed by a space, a tab or the line end. When it would
  /// interrupt a paragraph, it must be followed by text, and an ordered one
  /// must start at 1. Returns the marker's length and its data (offset and
  /// padding are set by the caller).
  func listMarker(at position: Int, interruptsParagraph: Bool) -> (length: Int, data: ListData)? {
    var index = position
    let first = self[index]
    var data: ListData
    if first == UInt8(ascii: "*") || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      index += 1
      guard isMarkerFollower(index) else { return nil }
      data = ListData(ordered: false, bulletChar: first, delimiter: 0)
    } else if isDigit(first) {
      var digits = 0
      var start = 0
      repeat {
        start = start * 10 + Int(self[index] - UInt8(ascii: "0"))
        index += 1
        digits += 1
      } while digits < 9 && isDigit(self[index])
      if interruptsParagraph && start != 1 { return nil }
      let delimiter = self[index]
      guard delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")") else { return nil }
      index += 1
      guard isMarkerFollower(index) else { return nil }
      data = ListData(ordered: true, bulletChar: 0, delimiter: delimiter)
    } else {
      return nil
    }
    if interruptsParagraph {
      var next = index
      while next < end && isSpaceOrTab(next) { next += 1 }
      if next >= end { return nil }
    }
    return (index - position, data)
  }

  /// cmark_isspace: space, tab, CR or LF (the line end).
  private func isMarkerFollower(_ index: Int) -> Bool {
    let byte = self[index]
    return byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// GFM's task box, scanned as cmark-gfm does from the start of the whole
  /// line: spaces, a list marker (`-`, `+`, `*`, or digits and any one
  /// character), spaces, `[ ]`, `[x]` or `[X]`, and at least one space.
  func taskListItem() -> Bool {
    var index = start
    while index < end && isSpace(bytes[index]) { index += 1 }
    let marker = self[index]
    if marker == UInt8(ascii: "-") || marker == UInt8(ascii: "+") || marker == UInt8(ascii: "*") {
      return taskBox(after: index + 1)
    }
    guard isDigit(marker) else { return false }
    var digitsEnd = index
    while isDigit(self[digitsEnd]) { digitsEnd += 1 }
    // `[0-9]+.`: the "any character" (one well-formed UTF-8 character) is
    // the one after the digits, or the last digit itself.
    if digitsEnd < end, let step = CharacterClasses.sequenceLength(bytes, at: digitsEnd, end: end),
      taskBox(after: digitsEnd + step)
    {
      return true
    }
    return digitsEnd - index >= 2 && taskBox(after: digitsEnd)
  }

  /// `spacechar+ ("[ ]"|"[x]") spacechar+` from `index`.
  private func taskBox(after index: Int) -> Bool {
    var index = index
    guard index < end && isSpace(bytes[index]) else { return false }
    while index < end && isSpace(bytes[index]) { index += 1 }
    // cmark-gfm builds its scanners case-insensitively: `[X]` is a box too.
    guard index + 3 <= end, bytes[index] == UInt8(ascii: "["), bytes[index + 2] == UInt8(ascii: "]"),
      bytes[index + 1] == 0x20 || bytes[index + 1] | 0x20 == UInt8(ascii: "x")
    else { return false }
    index += 3
    return index < end && isSpace(bytes[index])
  }

  /// The extension scanners' spacechar: space, tab, vertical tab, form feed.
  private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// A list's or list item's marker data (cmark's cmark_list).
struct ListData: Hashable {
  var ordered: Bool
  var bulletChar: UInt8
  var delimiter: UInt8
  var markerOffset = 0
  var padding = 0

  /// True when an item with `other`'s marker continues this list.
  func matches(_ other: ListData) -> Bool {
    ordered == other.ordered && delimiter == other.delimiter && bulletChar == other.bulletChar
  }
}
