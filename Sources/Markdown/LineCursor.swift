/// The block parser's place in one line, as cmark keeps it: a byte offset,
/// a virtual column (tabs advance to the next multiple of 4), whether the
/// last advance stopped inside a tab, and the first non-blank character
/// after the offset. Offsets are absolute (into the document); reading past
/// the line's end gives a line feed, as cmark's lines all end with one.
struct LineCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  /// The line: `start..<end`, its terminator excluded.
  let start: Int
  let end: Int
  var offset: Int
  var column = 0
  var partiallyConsumedTab = false
  var firstNonspace: Int
  var firstNonspaceColumn = 0
  var indent = 0
  var blank = false
  /// Where a thematic break scan failed (cmark's thematic_break_kill_pos):
  /// a later scan from before it fails too.
  var thematicBreakKill: Int

  init(bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, skip: Int = 0) {
    self.bytes = bytes
    self.start = start
    self.end = end
    offset = start + skip
    firstNonspace = start
    thematicBreakKill = start
  }

  /// The byte at absolute offset `index`, or a line feed at and past the end.
  @inline(__always) subscript(index: Int) -> UInt8 { index < end ? bytes[index] : 0x0A }

  /// Finds the first character that is not a space or tab at or after the
  /// offset, and the indentation (in columns) up to it.
  mutating func findFirstNonspace() {
    if firstNonspace <= offset {
      firstNonspace = offset
      firstNonspaceColumn = column
      var charsToTab = 4 - column % 4
      while firstNonspace < end {
        let byte = bytes[firstNonspace]
        if byte == 0x20 {
          firstNonspace += 1
          firstNonspaceColumn += 1
          charsToTab -= 1
          if charsToTab == 0 { charsToTab = 4 }
        } else if byte == 0x09 {
          firstNonspace += 1
          firstNonspaceColumn += charsToTab
          charsToTab = 4
        } else {
          break
        }
      }
    }
    indent = firstNonspaceColumn - column
    blank = firstNonspace >= end
  }

  /// Advances by `count` bytes (tabs moving to their tab stop).
  mutating func advance(bytes count: Int) {
    var count = count
    while count > 0 && offset < end {
      if bytes[offset] == 0x09 {
        column += 4 - column % 4
      } else {
        column += 1
      }
      partiallyConsumedTab = false
      offset += 1
      count -= 1
    }
  }

  /// Advances by `count` columns; a tab wider than what is left is
  /// partially consumed (the offset stays on it).
  mutating func advance(columns count: Int) {
    var count = count
    while count > 0 && offset < end {
      if bytes[offset] == 0x09 {
        let charsToTab = 4 - column % 4
        partiallyConsumedTab = charsToTab > count
        let step = min(count, charsToTab)
        column += step
        if !partiallyConsumedTab { offset += 1 }
        count -= step
      } else {
        partiallyConsumedTab = false
        offset += 1
        column += 1
        count -= 1
      }
    }
  }

  /// Advances to the first non-blank character.
  mutating func advanceToFirstNonspace() { advance(bytes: firstNonspace - offset) }

  /// Advances to the end of the line.
  mutating func advanceToEnd() { advance(bytes: end - offset) }

  /// True when `index` holds a space or a tab.
  @inline(__always) func isSpaceOrTab(_ index: Int) -> Bool {
    let byte = self[index]
    return byte == 0x20 || byte == 0x09
  }
}
