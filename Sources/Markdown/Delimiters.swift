/// One run of `*`, `_` or `~` that may open or close emphasis or
/// strikethrough (cmark's delimiter).
struct Delimiter {
  var item: Int
  var character: UInt8
  var canOpen: Bool
  var canClose: Bool
  /// The run's length when it was read (cmark keeps it for the "multiple
  /// of 3" rule even after emphasis used some of it).
  var length: Int
  /// What emphasis has not used yet.
  var remaining: Int
  var previous = -1
  var next = -1
}

/// cmark's doubly linked delimiter list, in an array.
struct DelimiterStack {
  var entries: [Delimiter] = []
  var last = -1

  mutating func push(_ delimiter: Delimiter) {
    var delimiter = delimiter
    delimiter.previous = last
    entries.append(delimiter)
    let index = entries.count - 1
    if last >= 0 { entries[last].next = index }
    last = index
  }

  mutating func remove(_ index: Int) {
    let previous = entries[index].previous
    let next = entries[index].next
    if next < 0 { last = previous } else { entries[next].previous = previous }
    if previous >= 0 { entries[previous].next = next }
    entries[index].previous = -1
    entries[index].next = -1
  }
}

extension InlineParser {
  /// A run of `*` or `_` (cmark's handle_delim and scan_delims): `~` around
  /// it is skipped when finding the characters before and after.
  mutating func handleDelimiter(_ character: UInt8) {
    let start = position
    let run = Self.delimiterRun(character, bytes, from: start, end: end)
    position = run.end
    pushDelimiterItem(character, start, canOpen: run.canOpen, canClose: run.canClose, push: run.canOpen || run.canClose)
  }

  /// The run of `character` (`*` or `_`) at `start` in `bytes` (read up to
  /// `end`): where it ends and whether it can open and close emphasis, as
  /// `handleDelimiter` reads it (the skeleton scan asks it too).
  static func delimiterRun(_ character: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int)
    -> (end: Int, canOpen: Bool, canClose: Bool)
  {
    var before: UInt32 = 10
    if start > 0 {
      var index = start - 1
      while (bytes[index] >> 6 == 2 || bytes[index] == UInt8(ascii: "~")) && index > 0 { index -= 1 }
      if let scalar = CharacterClasses.scalar(bytes, at: index, end: start), scalar != UInt32(UInt8(ascii: "~")) {
        before = scalar
      }
    }
    var position = start
    while position < end && bytes[position] == character { position += 1 }
    var after: UInt32 = 10
    if position < end {
      var index = position
      while index < end && bytes[index] == UInt8(ascii: "~") { index += 1 }
      if let scalar = CharacterClasses.scalar(bytes, at: index, end: end), scalar != UInt32(UInt8(ascii: "~")) {
        after = scalar
      }
    }
    let (canOpen, canClose) = openClose(character, before: before, after: after)
    return (position, canOpen, canClose)
  }

  /// A run of up to 100 `~` (the strikethrough extension): one or two of
  /// them may open or close a strikethrough.
  mutating func handleStrikethrough() {
    let start = position
    var before: UInt32 = 10
    if start > 0 {
      var index = start - 1
      while bytes[index] >> 6 == 2 && index > 0 { index -= 1 }
      before = CharacterClasses.scalar(bytes, at: index, end: start) ?? 10
    }
    while at(position) == UInt8(ascii: "~") && position - start < 100 { position += 1 }
    let after = CharacterClasses.scalar(bytes, at: position, end: end) ?? 10
    let (left, right) = Self.flanking(before: before, after: after)
    let count = position - start
    pushDelimiterItem(UInt8(ascii: "~"), start, canOpen: left, canClose: right, push: (left || right) && count <= 2)
  }

  /// Whether a run of `character` (`*`, `_`, `~`) between `before` and
  /// `after` can open and close emphasis (strikethrough): CommonMark's
  /// flanking rules, with `_`'s extra conditions.
  static func openClose(_ character: UInt8, before: UInt32, after: UInt32) -> (open: Bool, close: Bool) {
    let (left, right) = flanking(before: before, after: after)
    guard character == UInt8(ascii: "_") else { return (left, right) }
    return (
      left && (!right || CharacterClasses.isPunctuation(before)),
      right && (!left || CharacterClasses.isPunctuation(after))
    )
  }

  /// Left- and right-flanking as CommonMark defines them.
  private static func flanking(before: UInt32, after: UInt32) -> (left: Bool, right: Bool) {
    let spaceBefore = CharacterClasses.isSpace(before)
    let spaceAfter = CharacterClasses.isSpace(after)
    let punctuationBefore = CharacterClasses.isPunctuation(before)
    let punctuationAfter = CharacterClasses.isPunctuation(after)
    let left = !spaceAfter && (!punctuationAfter || spaceBefore || punctuationBefore)
    let right = !spaceBefore && (!punctuationBefore || spaceAfter || punctuationAfter)
    return (left, right)
  }

  private mutating func pushDelimiterItem(_ character: UInt8, _ start: Int, canOpen: Bool, canClose: Bool, push: Bool) {
    items.append(InlineItem(.delimiter, start, position))
    guard push else { return }
    let length = position - start
    delimiters.push(
      Delimiter(
        item: items.count - 1, character: character, canOpen: canOpen, canClose: canClose, length: length,
        remaining: length))
  }

  /// cmark 0.29's process_emphasis over the delimiters above `bottom`
  /// (an index, or -1 for all), with its openers-bottom per closer length
  /// modulo 3 and character; removes them all.
  mutating func processEmphasis(bottom: Int?) {
    let bottom = bottom ?? -1
    // [length % 3][0: *, 1: _, 2: ~]
    var openersBottom = [[Int]](repeating: [bottom, bottom, bottom], count: 3)
    var closer = delimiters.last
    while closer >= 0 && delimiters.entries[closer].previous != bottom { closer = delimiters.entries[closer].previous }
    while closer >= 0 {
      let current = delimiters.entries[closer]
      guard current.canClose else {
        closer = current.next
        continue
      }
      let kind = current.character == UInt8(ascii: "*") ? 0 : current.character == UInt8(ascii: "_") ? 1 : 2
      var opener = current.previous
      var found = false
      while opener >= 0 && opener != bottom && opener != openersBottom[current.length % 3][kind] {
        let candidate = delimiters.entries[opener]
        if candidate.canOpen && candidate.character == current.character {
          if !(current.canOpen || candidate.canClose) || current.length % 3 == 0
            || (candidate.length + current.length) % 3 != 0
          {
            found = true
            break
          }
        }
        opener = candidate.previous
      }
      let oldCloser = closer
      if !found {
        closer = current.next
      } else if kind == 2 {
        closer = insertStrikethrough(opener: opener, closer: closer)
      } else {
        closer = insertEmphasis(opener: opener, closer: closer)
      }
      if !found {
        openersBottom[current.length % 3][kind] = current.previous
        if !current.canOpen { delimiters.remove(oldCloser) }
      }
    }
    while delimiters.last >= 0 && delimiters.last != bottom { delimiters.remove(delimiters.last) }
  }

  /// cmark's S_insert_emph: uses one or two characters of each run.
  private mutating func insertEmphasis(opener: Int, closer: Int) -> Int {
    let openerRemaining = delimiters.entries[opener].remaining
    let closerRemaining = delimiters.entries[closer].remaining
    let use = closerRemaining >= 2 && openerRemaining >= 2 ? 2 : 1
    delimiters.entries[opener].remaining -= use
    delimiters.entries[closer].remaining -= use
    items[delimiters.entries[opener].item].usedBack += use
    items[delimiters.entries[closer].item].usedFront += use
    var between = delimiters.entries[closer].previous
    while between >= 0 && between != opener {
      let previous = delimiters.entries[between].previous
      delimiters.remove(between)
      between = previous
    }
    if delimiters.entries[opener].remaining == 0 { delimiters.remove(opener) }
    if delimiters.entries[closer].remaining == 0 {
      let next = delimiters.entries[closer].next
      delimiters.remove(closer)
      return next
    }
    return closer
  }

  /// The strikethrough extension's insert: runs of equal length make a
  /// strikethrough (both wholly markup); otherwise nothing changes.
  private mutating func insertStrikethrough(opener: Int, closer: Int) -> Int {
    let next = delimiters.entries[closer].next
    let openerItem = delimiters.entries[opener].item
    let closerItem = delimiters.entries[closer].item
    let openerLength = items[openerItem].end - items[openerItem].start
    guard openerLength == items[closerItem].end - items[closerItem].start else { return next }
    items[openerItem].usedBack = openerLength
    items[closerItem].usedFront = openerLength
    var delimiter = closer
    while delimiter >= 0 && delimiter != opener {
      let previous = delimiters.entries[delimiter].previous
      delimiters.remove(delimiter)
      delimiter = previous
    }
    delimiters.remove(opener)
    return next
  }
}

/// Where a bidi control may be written in a line of inline content without
/// changing how cmark-gfm reads the markup around it. A control is neither
/// white space nor punctuation, so written next to a delimiter run (`*`,
/// `_`, `~`) in place of white space or punctuation it can change whether
/// the run can open or close: `**/start**` with RLM before it is no longer
/// strong, nor `` **`code`** `` with PDI after it; a run that can both open
/// and close falls under CommonMark's "multiple of 3" rule (`*foo *bar**`
/// with RLM before it pairs differently). Written after white space that
/// ends a line it keeps that white space, which cmark strips (or reads, two
/// spaces or more, as a hard break).
package enum MarkupSafety {
  /// Whether a control written at byte `offset` of `bytes`, in the line
  /// `lineStart..<lineEnd`, follows no line-ending white space and leaves
  /// the delimiter run ending there (`ending`) and the one starting there
  /// (`starting`) doing what they did: a run used to close (open) still
  /// able to, a run used as text gaining no ability, and no run gaining or
  /// losing the ability to do both where the "multiple of 3" rule could
  /// then pair it otherwise: gaining it, with a run of `lengths` (the
  /// lengths of the block's runs, by character); losing it, with one of
  /// `textLengths` (those of its runs read as text). The line's edges count as white space,
  /// as at the start and end of a block's inline content.
  package static func keepsMarkup(
    _ bytes: [UInt8], at offset: Int, lineStart: Int, lineEnd: Int, ending: MarkdownDelimiterRun?,
    starting: MarkdownDelimiterRun?, lengths: [UInt8: [Int]], textLengths: [UInt8: [Int]] = [:]
  ) -> Bool {
    guard lineStart <= offset, offset <= lineEnd, lineEnd <= bytes.count else { return true }
    let control: UInt32 = 0x2068
    return bytes.withUnsafeBufferPointer { buffer -> Bool in
      func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
      func scalar(before index: Int) -> UInt32 {
        guard index > lineStart else { return 10 }
        var start = index - 1
        while start > lineStart && buffer[start] & 0xC0 == 0x80 { start -= 1 }
        return CharacterClasses.scalar(buffer, at: start, end: index) ?? 10
      }
      func scalar(at index: Int) -> UInt32 {
        index < lineEnd ? CharacterClasses.scalar(buffer, at: index, end: lineEnd) ?? 10 : 10
      }
      /// Whether a run of `length` `character`s that did `old` and can do
      /// `new` beside the control still does what `run` says it did.
      func keeps(
        _ run: MarkdownDelimiterRun, _ character: UInt8, _ length: Int, _ old: (open: Bool, close: Bool),
        _ new: (open: Bool, close: Bool)
      ) -> Bool {
        if run.closes && !new.close || run.opens && !new.open { return false }
        if !run.closes && !run.opens && (new.open && !old.open || new.close && !old.close) { return false }
        // Able to do both, it may no longer pair as it did; no longer able
        // to, it may pair with a run left as text.
        let both = (old: old.open && old.close, new: new.open && new.close)
        if both.old != both.new {
          let others = both.new ? lengths[character] : textLengths[character]
          let risky = (others ?? []).contains { other in
            (length + other) % 3 == 0 && !(length % 3 == 0 && other % 3 == 0)
          }
          if risky { return false }
        }
        return true
      }
      if offset > lineStart && isBlank(buffer[offset - 1]) {
        var index = offset
        while index < lineEnd && isBlank(buffer[index]) { index += 1 }
        if index == lineEnd { return false }
      }
      if let run = ending, offset > lineStart {
        let character = buffer[offset - 1]
        var start = offset - 1
        while start > lineStart && buffer[start - 1] == character { start -= 1 }
        let before = scalar(before: start)
        let old = InlineParser.openClose(character, before: before, after: scalar(at: offset))
        let new = InlineParser.openClose(character, before: before, after: control)
        if !keeps(run, character, offset - start, old, new) { return false }
      }
      if let run = starting, offset < lineEnd {
        let character = buffer[offset]
        var end = offset + 1
        while end < lineEnd && buffer[end] == character { end += 1 }
        let after = scalar(at: end)
        let old = InlineParser.openClose(character, before: scalar(before: offset), after: after)
        let new = InlineParser.openClose(character, before: control, after: after)
        if !keeps(run, character, end - offset, old, new) { return false }
      }
      return true
    }
  }
}
