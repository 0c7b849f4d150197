import UnicodeBidi

// Mode `runs`: isolate the runs of a paragraph whose direction is opposite to
// the paragraph's.

extension MarkPlanner {
  /// Mode `runs`: the edits that isolate every run of text whose direction
  /// is opposite to its paragraph's, and in RTL paragraphs every number
  /// sequence joined by separators (phone numbers, dates, times, ranges).
  ///
  /// `directions` holds the direction of each paragraph of the line (as in
  /// `paragraphs`); missing entries repeat the last one, and an empty list
  /// means left to right. Only runs that lie wholly inside `range` (UTF-8
  /// offsets, nil for the whole line) are isolated.
  ///
  /// The rules, for a paragraph of direction D (the other direction is O):
  ///
  /// 1. Text inside an isolate (initiator to matching PDI, or to the end of
  ///    the paragraph when unmatched), an embedding or an override (opener to
  ///    its PDF, or to the end of the paragraph) is never looked into: such a
  ///    unit counts as one neutral character. A PDF or PDI with no opener,
  ///    and a segment separator (Bidi_Class S, such as TAB), are barriers
  ///    that no run crosses. Combining marks (NSM) and boundary neutrals (BN,
  ///    such as ZWJ) belong to the character before them.
  /// 2. An *opposite run* starts at a strong character of direction O (L
  ///    when D is right to left; R or AL when D is left to right) and ends at
  ///    the last such character before the next strong character of
  ///    direction D, barrier or paragraph end. Everything between its first
  ///    and last O character belongs to it: numbers, spaces, punctuation,
  ///    symbols, units. Neutrals at its edges stay outside. The marks LRM,
  ///    RLM and ALM count as strong characters of direction D when they have
  ///    it (they end a run), and as neutrals otherwise (they never start or
  ///    end a run).
  /// 3. Its edges then grow, in this order, over:
  ///    - digits stuck to it: after its last character, a sequence of digits
  ///      (EN, AN) and joiners (ES, CS, ET characters and `_`) that starts
  ///      right there, up to its last digit, plus the ET characters right
  ///      after that digit (`COVID-19`, `v2.0`, `MP3`, `x86_64`); before its
  ///      first character, a sequence of digits and joiners that ends right
  ///      there and starts with a digit, with the ES and ET characters right
  ///      before that digit (`3D`, `+1a`), the ES ones only when no letter
  ///      or digit comes before them;
  ///    - `@` and ET characters (`#`, `$`…) right before it (`@handle`,
  ///      `#tag`, `$AAPL`);
  ///    - paired brackets (Bidi_Paired_Bracket) it would otherwise split:
  ///      when it holds an opening bracket whose closing bracket comes after
  ///      it (or the reverse), it grows up to that bracket, provided no
  ///      strong character of direction D or barrier lies in between
  ///      (`Apple (US) Pay`, `Pay (Apple)`, `f(x[1])`).
  /// 4. In a right-to-left paragraph only, a *number sequence* outside the
  ///    runs above is a left-to-right run of its own. It is digit groups
  ///    (EN, AN) joined by separators. A separator is, in this order, an
  ///    optional `)`, an optional space (U+0020, U+00A0 or U+202F), an
  ///    optional punctuation character, an optional space and an optional
  ///    `(`, at least one of them and followed by a digit. The punctuation is
  ///    an ES or CS character or a dash (U+2010–U+2013); when a space stands
  ///    next to it, it must be a dash (`-`, U+2010–U+2013 or U+2212), so
  ///    `1, 2, 3` is a list of three numbers while `10 – 20` is one range.
  ///    Parentheses balance and do not nest within a sequence; a `(` right
  ///    before its first digit belongs to it when its `)` does. The ES and
  ///    ET characters right before the sequence (a sign or a currency: `+1`,
  ///    `-5`, `$5`) and the ET characters right after it (`50%`) belong to
  ///    it, except that an ES after a letter or digit is a hyphen, not a sign
  ///    (`ב-2024`). The sequence is isolated when it has two digit groups or
  ///    more (`+1 (555) 123-4567`, `2024/01/15`, `10:30`, `10–20`,
  ///    `2024/01/15 10:30`, `1,234.56`) or a sign (`-5`); a lone number such
  ///    as `42`, `$5` or `50%` is left as it is.
  /// 5. Each run becomes LRI … PDI in a right-to-left paragraph and RLI … PDI
  ///    in a left-to-right one. What a plan wraps is inside an isolate
  ///    afterwards, and isolates are not looked into, so a second plan finds
  ///    nothing left to do.
  ///
  /// `isolating` may leave a run out: it is given the run's UTF-8 range (a
  /// caller whose text has spans an isolate must not touch, such as a
  /// Markdown bare autolink, says no to a run with an edge there).
  package func runEdits(
    directions: [BidiDirection], in range: Range<Int>? = nil, isolating: (Range<Int>) -> Bool = { _ in true }
  ) -> [MarkEdit] {
    let limit = scalarRange(leniently: range)
    var list = EditList()
    for paragraph in paragraphIndices.indices {
      let bounds = content(ofParagraph: paragraph)
      guard bounds.overlaps(limit) else { continue }
      let direction = direction(ofParagraph: paragraph, in: directions)
      for run in oppositeRuns(in: bounds, direction: direction)
      where run.lowerBound >= limit.lowerBound && run.upperBound <= limit.upperBound
        && isolating(offsets[run.lowerBound]..<offsets[run.upperBound])
      {
        list.insert(direction.opposite.isolateInitiator, at: run.lowerBound)
        list.insert(Controls.pdi, at: run.upperBound)
      }
    }
    return list.edits(offsets: offsets)
  }

  /// The runs to isolate in a paragraph's content, as scalar ranges, in order.
  func oppositeRuns(in bounds: Range<Int>, direction: BidiDirection) -> [Range<Int>] {
    RunItems(planner: self, bounds: bounds, direction: direction).runs()
  }
}

/// A paragraph cut into the items the run rules work on: a character with
/// its combining marks, or a whole isolate, embedding or override.
private struct RunItems {
  enum Kind {
    /// A strong character of the paragraph's direction (or its mark).
    case own
    /// A strong character of the opposite direction (not a mark).
    case opposite
    /// EN or AN.
    case digit
    /// ES, CS or ET, or `_`.
    case separator
    /// Any other character, including marks of the opposite direction.
    case neutral
    /// An isolate, embedding or override, which is not looked into.
    case unit
    /// An unmatched PDF or PDI, or a segment separator.
    case barrier
  }

  struct Item {
    var start: Int
    var end: Int
    var kind: Kind
  }

  let planner: MarkPlanner
  let direction: BidiDirection
  var items: [Item] = []

  init(planner: MarkPlanner, bounds: Range<Int>, direction: BidiDirection) {
    self.planner = planner
    self.direction = direction
    let classes = planner.classes
    var index = bounds.lowerBound
    while index < bounds.upperBound {
      let bidiClass = classes[index]
      let kind: Kind
      var end = index + 1
      switch bidiClass {
      case .L, .R, .AL:
        let isLTR = bidiClass == .L
        let ownDirection = isLTR == (direction == .leftToRight)
        if ownDirection {
          kind = .own
        } else {
          kind = Controls.isMark(planner.scalars[index]) ? .neutral : .opposite
        }
      case .EN, .AN:
        kind = .digit
      case .ES, .CS, .ET:
        kind = .separator
      case .ON where planner.scalars[index] == "_":
        kind = .separator
      case .NSM, .BN:
        if let last = items.last, last.end == index, last.kind != .unit, last.kind != .barrier {
          items[items.count - 1].end = end
          index = end
          continue
        }
        kind = .neutral
      case .LRI, .RLI, .FSI, .LRE, .RLE, .LRO, .RLO:
        kind = .unit
        end = planner.unitEnd(from: index, limit: bounds)
      case .PDF, .PDI, .S, .B:
        kind = .barrier
      case .WS, .ON:
        kind = .neutral
      }
      items.append(Item(start: index, end: end, kind: kind))
      index = end
    }
  }

  // MARK: Characters

  private func scalar(_ item: Int) -> Unicode.Scalar { planner.scalars[items[item].start] }

  private func bidiClass(_ item: Int) -> BidiClass { planner.classes[items[item].start] }

  private func isStopper(_ item: Int) -> Bool {
    items[item].kind == .own || items[item].kind == .barrier
  }

  private func isSpace(_ item: Int) -> Bool {
    switch scalar(item).value {
    case 0x20, 0xA0, 0x202F: true
    default: false
    }
  }

  private func isDash(_ item: Int) -> Bool {
    switch scalar(item).value {
    case 0x2D, 0x2010...0x2013, 0x2212: true
    default: false
    }
  }

  private func isSign(_ item: Int) -> Bool {
    items[item].kind == .separator && bidiClass(item) == .ES
  }

  /// Where a number starting at `start` begins with the ES and ET
  /// characters right before it (a sign, a currency: `+1`, `-5`, `$5`).
  /// After a letter or digit an ES joins rather than signs (`ב-2024`), so
  /// only the ET characters after the last ES count then.
  private func signPrefix(before start: Int, limit: Int) -> Int {
    var first = start
    while first - 1 >= limit, items[first - 1].kind == .separator,
      bidiClass(first - 1) == .ES || bidiClass(first - 1) == .ET
    {
      first -= 1
    }
    if first - 1 >= limit {
      switch items[first - 1].kind {
      case .own, .opposite, .digit:
        if let lastSign = (first..<start).last(where: isSign) { first = lastSign + 1 }
      default:
        break
      }
    }
    return first
  }

  // MARK: Runs

  func runs() -> [Range<Int>] {
    var spans: [(first: Int, last: Int)] = []
    var item = 0
    while item < items.count {
      guard items[item].kind == .opposite else {
        item += 1
        continue
      }
      let first = item
      var last = item
      item += 1
      while item < items.count && !isStopper(item) {
        if items[item].kind == .opposite { last = item }
        item += 1
      }
      spans.append(grow(first: first, last: last))
    }
    if direction == .rightToLeft {
      spans = withNumberSequences(between: spans)
    }
    return spans.map { items[$0.first].start..<items[$0.last].end }
  }

  /// Rule 3: digits stuck to a run, `@` and ET before it, split brackets.
  private func grow(first: Int, last: Int) -> (first: Int, last: Int) {
    var first = first
    var last = last
    // Digits after.
    var probe = last + 1
    var lastDigit: Int?
    while probe < items.count, items[probe].kind == .digit || items[probe].kind == .separator {
      if items[probe].kind == .digit { lastDigit = probe }
      probe += 1
    }
    if let lastDigit {
      last = lastDigit
      while last + 1 < items.count, items[last + 1].kind == .separator, bidiClass(last + 1) == .ET {
        last += 1
      }
    }
    // Digits before.
    probe = first - 1
    var firstDigit: Int?
    while probe >= 0, items[probe].kind == .digit || items[probe].kind == .separator {
      if items[probe].kind == .digit { firstDigit = probe }
      probe -= 1
    }
    if let firstDigit {
      first = signPrefix(before: firstDigit, limit: 0)
    }
    // `@` and ET before.
    while first > 0,
      scalar(first - 1) == "@" || (items[first - 1].kind == .separator && bidiClass(first - 1) == .ET)
    {
      first -= 1
    }
    return closeBrackets(first: first, last: last)
  }

  /// Grows a run over the partners of the brackets it would split.
  private func closeBrackets(first: Int, last: Int) -> (first: Int, last: Int) {
    var open: [UInt32] = []  // the closing brackets still awaited
    var unmatchedClosers: [UInt32] = []  // left to right
    for item in first...last where items[item].kind == .neutral {
      let value = scalar(item).value
      guard let bracket = BidiProperties.pairedBracket(value) else { continue }
      if bracket.type == .open {
        open.append(bracket.bracket)
      } else if open.last == value {
        open.removeLast()
      } else if open.isEmpty {
        unmatchedClosers.append(value)
      } else {
        // A closer that matches nothing open: leave the run as it is.
        return (first, last)
      }
    }
    var newLast = last
    if !open.isEmpty {
      var awaited = open
      var probe = last + 1
      search: while probe < items.count && !isStopper(probe) {
        if items[probe].kind == .neutral, let bracket = BidiProperties.pairedBracket(scalar(probe).value) {
          if bracket.type == .open {
            awaited.append(bracket.bracket)
          } else if awaited.last == scalar(probe).value {
            awaited.removeLast()
            if awaited.isEmpty {
              newLast = probe
              break search
            }
          } else {
            break search
          }
        }
        probe += 1
      }
    }
    var newFirst = first
    if !unmatchedClosers.isEmpty {
      // The opening brackets awaited, innermost (leftmost closer) on top.
      var awaited = unmatchedClosers.reversed().compactMap { BidiProperties.pairedBracket($0)?.bracket }
      var probe = first - 1
      search: while probe >= 0 && !isStopper(probe) {
        if items[probe].kind == .neutral, let bracket = BidiProperties.pairedBracket(scalar(probe).value) {
          if bracket.type == .close {
            awaited.append(bracket.bracket)
          } else if awaited.last == scalar(probe).value {
            awaited.removeLast()
            if awaited.isEmpty {
              newFirst = probe
              break search
            }
          } else {
            break search
          }
        }
        probe -= 1
      }
    }
    return (newFirst, newLast)
  }

  // MARK: Number sequences (rule 4)

  /// The runs merged, in order, with the number sequences of the gaps
  /// between them.
  private func withNumberSequences(between runs: [(first: Int, last: Int)]) -> [(first: Int, last: Int)] {
    var result: [(first: Int, last: Int)] = []
    var gapStart = 0
    for run in runs + [(first: items.count, last: items.count - 1)] {
      var item = gapStart
      while item < run.first {
        guard items[item].kind == .digit else {
          item += 1
          continue
        }
        let sequence = numberSequence(at: item, gap: gapStart..<run.first)
        if sequence.qualifies { result.append((sequence.first, sequence.last)) }
        item = sequence.last + 1
      }
      if run.first < items.count { result.append(run) }
      gapStart = run.last + 1
    }
    return result
  }

  /// The number sequence whose first digit group starts at `start`.
  private func numberSequence(at start: Int, gap: Range<Int>) -> (first: Int, last: Int, qualifies: Bool) {
    let leadingParen = start - 1 >= gap.lowerBound && scalar(start - 1) == "("
    if leadingParen, let found = parseSequence(at: start, gap: gap, leadingParen: true) {
      return found
    }
    return parseSequence(at: start, gap: gap, leadingParen: false)
      ?? (start, start, false)
  }

  /// Parses digit groups and separators from `start`; nil when, with a
  /// leading `(`, no prefix of the sequence balances it.
  private func parseSequence(at start: Int, gap: Range<Int>, leadingParen: Bool)
    -> (first: Int, last: Int, qualifies: Bool)?
  {
    var depth = leadingParen ? 1 : 0
    var groups = 0
    var best: (last: Int, groups: Int)?
    var item = start
    while true {
      while item < gap.upperBound && items[item].kind == .digit { item += 1 }
      groups += 1
      if depth == 0 {
        best = (item - 1, groups)
      } else if depth == 1, item < gap.upperBound, scalar(item) == ")" {
        best = (item, groups)
      }
      guard let next = separator(at: item, gap: gap, depth: &depth) else { break }
      item = next
    }
    guard let best else { return nil }
    let opening = leadingParen ? start - 1 : start
    let first = signPrefix(before: opening, limit: gap.lowerBound)
    var last = best.last
    let signed = (first..<opening).contains(where: isSign)
    while last + 1 < gap.upperBound, items[last + 1].kind == .separator, bidiClass(last + 1) == .ET {
      last += 1
    }
    return (first, last, best.groups >= 2 || signed)
  }

  /// A separator between digit groups at `item`: the index of the next
  /// group's first digit, or nil. Updates the parenthesis depth.
  private func separator(at start: Int, gap: Range<Int>, depth: inout Int) -> Int? {
    var item = start
    var newDepth = depth
    func has(_ predicate: (Int) -> Bool) -> Bool {
      item < gap.upperBound && predicate(item)
    }
    if has({ scalar($0) == ")" }) {
      guard newDepth > 0 else { return nil }
      newDepth -= 1
      item += 1
    }
    let spaceBefore = has(isSpace)
    if spaceBefore { item += 1 }
    var punctuation: Int?
    if has({ !isSpace($0) && (bidiClass($0) == .ES || bidiClass($0) == .CS || isDash($0)) }) {
      punctuation = item
      item += 1
    }
    let spaceAfter = punctuation != nil && has(isSpace)
    if spaceAfter { item += 1 }
    if let punctuation, spaceBefore || spaceAfter, !isDash(punctuation) { return nil }
    if has({ scalar($0) == "(" }) {
      // Parentheses do not nest in a number sequence.
      guard newDepth == 0 else { return nil }
      newDepth = 1
      item += 1
    }
    guard item > start, has({ items[$0].kind == .digit }) else { return nil }
    depth = newDepth
    return item
  }
}
