/// One paragraph analysed by the Unicode Bidirectional Algorithm (UAX #9,
/// rules P2–I2): its paragraph level and the resolved level of every
/// character. Display lines (`line()`, `lines(breaks:in:)`) apply L1–L4 to
/// the stored levels without resolving the paragraph again.
///
/// The text is one paragraph: split a longer text first with
/// `paragraphRanges(utf8:)` (P1). Offsets count from the start of the
/// paragraph, in the encoding a call names.
public struct BidiParagraph: Sendable {
  let storage: ParagraphStorage

  /// Analyses a paragraph of UTF-8. Each byte of an ill-formed sequence is
  /// one character of class ON (shown as U+FFFD).
  public init(utf8: UnsafeBufferPointer<UInt8>, direction: DirectionChoice = .auto) {
    self.init(ParagraphStorage(utf8: utf8), direction)
  }

  /// Analyses a paragraph of UTF-8.
  public init(utf8: [UInt8], direction: DirectionChoice = .auto) {
    self.init(utf8.withUnsafeBufferPointer { ParagraphStorage(utf8: $0) }, direction)
  }

  /// Analyses a paragraph of scalar values; values that are not Unicode
  /// scalars are characters of class ON.
  public init(scalars: UnsafeBufferPointer<UInt32>, direction: DirectionChoice = .auto) {
    self.init(ParagraphStorage(scalars: scalars), direction)
  }

  /// Analyses a paragraph of scalar values.
  public init(scalars: [UInt32], direction: DirectionChoice = .auto) {
    self.init(scalars.withUnsafeBufferPointer { ParagraphStorage(scalars: $0) }, direction)
  }

  /// Analyses a paragraph of UTF-8 as `init(utf8:direction:)` does, asking
  /// `stop` between the algorithm's steps (after decoding, then before each
  /// isolating run sequence that W1–I2 resolve, the first after X1–X9), and gives up (nil) once it
  /// answers true: for a paragraph so long that its resolution must be
  /// cancellable while it runs.
  public init?(utf8: UnsafeBufferPointer<UInt8>, direction: DirectionChoice = .auto, until stop: () -> Bool) {
    let storage = ParagraphStorage(utf8: utf8)
    if stop() { return nil }
    self.init(storage, direction, until: stop)
  }

  /// Calls `body` with the paragraph of UTF-8 `utf8` (`init(utf8:direction:)`),
  /// analysed in storage that the thread keeps from call to call when
  /// `body` keeps nothing made from it: for the lines of a document
  /// analysed one after the other (the visual order `bidi-lsp check`
  /// quotes), no memory to allocate and free for each.
  package static func withReusedStorage<R>(
    utf8: UnsafeBufferPointer<UInt8>, direction: DirectionChoice = .auto, _ body: (BidiParagraph) -> R
  ) -> R {
    var storage = ParagraphStorage.reused(utf8: utf8)
    let result = body(BidiParagraph(storage, direction))
    ParagraphStorage.keep(&storage)
    return result
  }

  private init(_ storage: ParagraphStorage, _ direction: DirectionChoice) {
    self.init(storage, direction, until: { false })!
  }

  /// `init(utf8:direction:)` with some of the resolver's shortcuts off
  /// (`ResolverShortcuts`): W1–W7 a run of one class at a time only
  /// without `.stretches`, N0 after W1–W7 and N1–I2 after N0, in three
  /// passes, without `.pairedBracketsLocally`. For tests that compare the
  /// shortcuts with the plain path.
  package init(utf8: [UInt8], direction: DirectionChoice, shortcuts: ResolverShortcuts) {
    let storage = utf8.withUnsafeBufferPointer { ParagraphStorage(utf8: $0) }
    self.init(storage, direction, shortcuts: shortcuts, until: { false })!
  }

  /// `init(utf8:direction:shortcuts:)` with `.stretches` or without any
  /// shortcut.
  package init(utf8: [UInt8], direction: DirectionChoice, stretches: Bool) {
    self.init(utf8: utf8, direction: direction, shortcuts: stretches ? .all : [])
  }

  private init?(
    _ storage: ParagraphStorage, _ direction: DirectionChoice, shortcuts: ResolverShortcuts = .all,
    until stop: () -> Bool
  ) {
    self.storage = storage
    let count = storage.count
    switch direction {
    case .leftToRight:
      storage.paragraphLevel = 0
    case .rightToLeft:
      storage.paragraphLevel = 1
    case .auto:
      // P2–P3.
      var scanner = FirstStrongScanner()
      var level: UInt8 = 0
      for i in 0..<count {
        if let found = scanner.feed(storage.classes[i]) {
          level = found == .rightToLeft ? 1 : 0
          break
        }
      }
      storage.paragraphLevel = level
    }
    let level = storage.paragraphLevel
    let present = storage.present
    // Text with no explicit controls whose classes all resolve to the
    // paragraph level needs none of the rules: every level is the
    // paragraph level.
    if !ParagraphResolver.needsExplicitRules(present)
      && present.isSubset(of: level == 0 ? .uniformLeftToRight : .uniformRightToLeft)
    {
      storage.levels.update(repeating: level, count: count)
      storage.isUniform = true
      return
    }
    guard let uniform = ParagraphResolver.resolve(storage, shortcuts: shortcuts, until: stop) else { return nil }
    storage.isUniform = uniform
  }

  /// The paragraph embedding level: 0 or 1.
  public var level: UInt8 { storage.paragraphLevel }

  /// True when the text holds a paragraph separator (class B), so that it
  /// was more than one paragraph and should have been split first
  /// (`paragraphRanges(utf8:)`): a caller may analyse a line at once and
  /// split it only then.
  public var holdsParagraphSeparator: Bool { storage.present.contains(.B) }

  /// The paragraph direction.
  public var direction: BidiDirection { level == 0 ? .leftToRight : .rightToLeft }

  /// The number of characters (scalar values).
  public var characterCount: Int { storage.count }

  /// The length of the paragraph in units of `encoding`.
  public func length(in encoding: BidiEncoding) -> Int {
    switch encoding {
    case .utf8: return storage.utf8Length
    case .utf16: return storage.utf16Length
    case .utf32: return storage.count
    }
  }

  /// True when every character resolved to the paragraph level and none
  /// was removed: every line is then one run, in logical order for level 0
  /// and reversed for level 1.
  public var isUniform: Bool { storage.isUniform }

  /// The resolved level of every unit before L1 (a multi-unit character
  /// repeats its level); `.removed` for characters X9 removes.
  public func levels(in encoding: BidiEncoding) -> [BidiLevel] {
    var result: [BidiLevel] = []
    result.reserveCapacity(length(in: encoding))
    let same = storage.unitsAreCharacters(encoding)
    for i in 0..<storage.count {
      let raw = storage.levels[i]
      let level = raw & ParagraphStorage.removedBit != 0 ? BidiLevel.removed : BidiLevel(rawValue: raw)
      if same {
        result.append(level)
      } else {
        for _ in 0..<encoding.width(storage.scalars[i]) { result.append(level) }
      }
    }
    return result
  }

  /// The whole paragraph as one display line; `combiningMarks` chooses
  /// where its right-to-left runs show combining marks (L3).
  public func line(combiningMarks: CombiningMarkOrder = .resolved) -> BidiLine {
    makeLine(0..<storage.count, unitStarts: (0, 0), combiningMarks)
  }

  /// The display line `range` (offsets in `encoding` from the start of the
  /// paragraph).
  public func line(
    _ range: Range<Int>, in encoding: BidiEncoding, combiningMarks: CombiningMarkOrder = .resolved
  ) throws(BidiError) -> BidiLine {
    try lines(
      bounds: [range.lowerBound, range.upperBound], length: length(in: encoding), in: encoding, combiningMarks)[0]
  }

  /// The display lines of the paragraph wrapped at `breaks`: increasing
  /// offsets in `encoding` where a new line starts. Offsets 0 and the
  /// paragraph length are allowed and add no empty line. Each line is
  /// reordered by itself (L1–L2, and L3 with `combiningMarks:
  /// .afterBase`) from the paragraph's resolved levels.
  public func lines(
    breaks: [Int], in encoding: BidiEncoding, combiningMarks: CombiningMarkOrder = .resolved
  ) throws(BidiError) -> [BidiLine] {
    let length = length(in: encoding)
    // One allocation (an array literal, then reserving, would take two).
    var bounds: [Int] = []
    bounds.reserveCapacity(breaks.count + 2)
    bounds.append(0)
    for offset in breaks {
      guard offset >= 0 && offset <= length else { throw .offsetOutOfRange(offset) }
      guard offset >= bounds[bounds.count - 1] else { throw .offsetsNotIncreasing(offset) }
      if offset > bounds[bounds.count - 1] && offset < length { bounds.append(offset) }
    }
    bounds.append(length)
    return try lines(bounds: bounds, length: length, in: encoding, combiningMarks)
  }

  /// Lines between consecutive `bounds` (unit offsets, the last one
  /// `length`, the paragraph's length in `encoding`).
  private func lines(
    bounds: [Int], length: Int, in encoding: BidiEncoding, _ marks: CombiningMarkOrder
  ) throws(BidiError) -> [BidiLine] {
    for offset in bounds where offset < 0 || offset > length { throw .offsetOutOfRange(offset) }
    let lineCount = bounds.count - 1
    guard lineCount > 1 && ParagraphLineRuns.applies(storage) else {
      return try lines(bounds: bounds, in: encoding) { makeLine($0, unitStarts: $1, marks) }
    }
    // Several lines from the paragraph's level runs, found once (on the
    // stack when there are few).
    return try ParagraphLineRuns.withParagraphRuns(storage) {
      (paragraphRuns, runCount) throws(BidiError) -> [BidiLine] in
      var maker = ParagraphLineRuns(
        storage, lineCount: lineCount, paragraphRuns: paragraphRuns, runCount: runCount)
      return try lines(bounds: bounds, in: encoding) { range, unitStarts in
        BidiLine(storage: storage, layout: maker.layout(range, marks: marks), unitStarts: unitStarts)
      }
    }
  }

  /// The lines between consecutive `bounds` (valid unit offsets of
  /// `encoding`), each made by `makeLine` from its characters and the
  /// UTF-8 and UTF-16 offsets of its start, in order.
  @inline(__always)
  private func lines(
    bounds: [Int], in encoding: BidiEncoding, _ makeLine: (Range<Int>, (Int, Int)) -> BidiLine
  ) throws(BidiError) -> [BidiLine] {
    var lines: [BidiLine] = []
    lines.reserveCapacity(bounds.count - 1)
    if storage.unitsAreCharacters(.utf8) {
      // ASCII: units are characters in every encoding, the bounds are all
      // we need.
      for k in 0..<(bounds.count - 1) {
        lines.append(makeLine(bounds[k]..<bounds[k + 1], (bounds[k], bounds[k])))
      }
      return lines
    }
    // Each bound's character index, and the UTF-8 and UTF-16 offsets of
    // each line start, in one walk over the bounds and the characters.
    var walker = UnitWalker(storage)
    var previous = (character: 0, utf8: 0, utf16: 0)
    for (k, bound) in bounds.enumerated() {
      guard let start = walker.advance(to: bound, in: encoding) else { throw .offsetInsideCharacter(bound) }
      if k > 0 {
        lines.append(makeLine(previous.character..<start.character, (previous.utf8, previous.utf16)))
      }
      previous = start
    }
    return lines
  }

  private func makeLine(_ range: Range<Int>, unitStarts: (Int, Int), _ marks: CombiningMarkOrder) -> BidiLine {
    let layout =
      storage.isUniform
      ? LineLayout(uniform: range, level: storage.paragraphLevel, marks: marks)
      : LineLayout(storage, range, marks: marks)
    return BidiLine(storage: storage, layout: layout, unitStarts: unitStarts)
  }
}

/// Finds, for increasing unit offsets, the character that starts there and
/// its offsets in UTF-8 and UTF-16: by the positions of the characters past
/// U+FFFF for UTF-16 and UTF-32 offsets (the UTF-8 offset then -1, unknown),
/// by the character widths for UTF-8.
struct UnitWalker {
  let storage: ParagraphStorage
  /// The position reached: a character and its offsets.
  var character = 0
  var utf8 = 0
  /// Characters past U+FFFF before `character`.
  var astral = 0

  init(_ storage: ParagraphStorage) { self.storage = storage }

  /// Moves to the character at `bound` (units of `encoding`, not below the
  /// last bound); nil when `bound` falls inside a character.
  mutating func advance(to bound: Int, in encoding: BidiEncoding) -> (character: Int, utf8: Int, utf16: Int)? {
    let target: Int
    switch encoding {
    case .utf8:
      let scalars = storage.scalars
      while utf8 < bound && character < storage.count {
        utf8 &+= BidiEncoding.utf8.width(scalars[character])
        character += 1
      }
      guard utf8 == bound else { return nil }
      astral = storage.astralCount(before: character)
      return (character, utf8, character + astral)
    case .utf16:
      // Character c starts at UTF-16 offset c + (characters past U+FFFF
      // before it).
      let positions = storage.astralPositions
      while astral < storage.astralCount && Int(positions[astral]) + astral + 2 <= bound { astral += 1 }
      if astral < storage.astralCount && Int(positions[astral]) + astral + 1 == bound { return nil }
      target = bound - astral
    case .utf32:
      target = bound
      astral = storage.astralCount(before: target)
    }
    // The UTF-8 offset is left to the line (-1), which counts it only if
    // asked for it.
    character = target
    return (character, -1, character + astral)
  }
}
