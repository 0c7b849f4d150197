/// An open `[` or `![` (cmark's bracket).
struct Bracket {
  var item: Int
  var image: Bool
  var active = true
  var bracketAfter = false
  /// cmark's in_bracket_image0 and (as pushed) in_bracket_image1.
  var image0: Bool
  var image1: Bool
  var pushTime: Int
  var previousDelimiter: Int
  /// The content index after the bracket.
  var position: Int
  /// The nearest non-image bracket below (-1 for none).
  var previousNonImage: Int
}

/// cmark's bracket stack, with two shortcuts that keep it linear where
/// cmark walks it: deactivating link openers skips image openers, and the
/// image flags cmark rewrites on every image opener after a link are kept
/// as a list of overrides read when asked.
struct BracketStack {
  var entries: [Bracket] = []
  /// "Image openers above `below` now have in_bracket_image1 = `value`",
  /// from time `time`; `below` increases along the list.
  private var overrides: [(below: Int, value: Bool, time: Int)] = []
  private var clock = 0

  /// True inside any open bracket, as cmark-gfm's autolink extension asks.
  var inBracket: Bool {
    guard let top = entries.last else { return false }
    return top.image0 || image1(entries.count - 1)
  }

  /// in_bracket_image1 of bracket `index` as cmark has it now.
  func image1(_ index: Int) -> Bool {
    let bracket = entries[index]
    guard bracket.image else { return bracket.image1 }
    var low = 0
    var high = overrides.count
    while low < high {
      let middle = (low + high) / 2
      if overrides[middle].below < index { low = middle + 1 } else { high = middle }
    }
    guard low > 0, overrides[low - 1].time > bracket.pushTime else { return bracket.image1 }
    return overrides[low - 1].value
  }

  mutating func push(item: Int, image: Bool, previousDelimiter: Int, position: Int) {
    clock += 1
    var image0 = false
    var image1 = false
    var previousNonImage = -1
    if let topIndex = entries.indices.last {
      entries[topIndex].bracketAfter = true
      image0 = entries[topIndex].image0
      image1 = self.image1(topIndex)
      previousNonImage = entries[topIndex].image ? entries[topIndex].previousNonImage : topIndex
    }
    if image { image1 = true } else { image0 = true }
    entries.append(
      Bracket(
        item: item, image: image, image0: image0, image1: image1, pushTime: clock,
        previousDelimiter: previousDelimiter, position: position, previousNonImage: previousNonImage))
  }

  mutating func pop() { entries.removeLast() }

  /// After a link: link openers below are deactivated down to the first
  /// inactive one, and the image openers above that one take its
  /// in_bracket_image1 (or false).
  mutating func deactivateLinkOpeners() {
    guard let topIndex = entries.indices.last else { return }
    var index = entries[topIndex].image ? entries[topIndex].previousNonImage : topIndex
    while index >= 0 && entries[index].active {
      entries[index].active = false
      index = entries[index].previousNonImage
    }
    let value = index >= 0 ? image1(index) : false
    clock += 1
    while let last = overrides.last, last.below >= index { overrides.removeLast() }
    overrides.append((index, value, clock))
  }
}

extension InlineParser {
  mutating func pushBracket(image: Bool) {
    brackets.push(item: items.count - 1, image: image, previousDelimiter: delimiters.last, position: position)
  }

  /// `]`: closes the last bracket into a link or image when an inline
  /// destination or a defined label follows (cmark's handle_close_bracket);
  /// otherwise it is text.
  mutating func handleCloseBracket() {
    let close = position
    position += 1
    let initial = position
    guard let opener = brackets.entries.last else {
      appendText(close, initial)
      return
    }
    guard opener.active else {
      brackets.pop()
      appendText(close, initial)
      return
    }
    let syntax = LinkSyntax(bytes: bytes, end: end)
    if at(position) == UInt8(ascii: "("),
      let destination = syntax.destination(at: syntax.skipSpaceChars(position + 1))
    {
      let startTitle = syntax.skipSpaceChars(destination.end)
      let endTitle =
        startTitle == destination.end ? startTitle : (syntax.title(at: startTitle, memo: &titleMemo) ?? startTitle)
      let endAll = syntax.skipSpaceChars(endTitle)
      if at(endAll) == UInt8(ascii: ")") {
        position = endAll + 1
        destinations.append(destination.url)
        makeLink(opener, tail: close..<position)
        return
      }
      position = initial
    }
    var label: Range<Int>? = nil
    if let found = syntax.label(at: position) {
      label = found.content
      position = found.end
    } else {
      position = initial
    }
    if (label == nil || label!.isEmpty) && !opener.bracketAfter {
      label = opener.position..<(initial - 1)
    }
    if let label, isDefined(label) {
      makeLink(opener, tail: close..<position)
      return
    }
    brackets.pop()
    position = initial
    appendText(close, initial)
  }

  /// True when `label` (content indices) names a definition: 1 to 1000
  /// bytes, normalized as cmark's reference map keys it. The label is
  /// recorded in `labels` either way: the rendering depends on whether it
  /// is defined.
  private mutating func isDefined(_ label: Range<Int>) -> Bool {
    guard !label.isEmpty && label.count <= 1000 else { return false }
    let raw = Array(bytes[label])
    guard let normalized = ReferenceDefinitions.normalizedLabel(raw) else { return false }
    if !labels.contains(normalized) { labels.append(normalized) }
    return definitions.contains(normalized)
  }

  /// The bracket `opener` and everything after it become a link or image
  /// whose syntax ends with `tail`.
  private mutating func makeLink(_ opener: Bracket, tail: Range<Int>) {
    items[opener.item].matched = true
    if !opener.image {
      for index in (opener.item + 1)..<items.count { items[index].inLink = true }
    }
    items.append(InlineItem(.linkTail, tail.lowerBound, tail.upperBound))
    processEmphasis(bottom: opener.previousDelimiter)
    brackets.pop()
    if !opener.image { brackets.deactivateLinkOpeners() }
  }
}
