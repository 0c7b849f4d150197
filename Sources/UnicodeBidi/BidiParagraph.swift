/// One paragraph analysed by the Unicode Bidirectional Algorithm (UAX #9,
/// rules P2–I2): its paragraph level and the resolved level of every
/// character. Display lines (`line()`, `lines(breaks:in:)`) apply L1–L4 to
/// the stored levels without resolving the paragraph again.
///
/// The text is one paragraph: split a longer text first with
/// `paragraphRanges(utf8:)` (P1). Offsets count from the start of the
/// paragraph, in the encoding a call names.
public struct BidiParagraph: Sendable {
  /// How the paragraph level is chosen.
  public enum Direction: Sendable, Hashable {
    /// P2–P3: the direction of the first strong character outside isolates,
    /// left to right when there is none.
    case auto
    case leftToRight
    case rightToLeft
  }

  /// Options of the analysis.
  public struct Options: Sendable, Hashable {
    /// L3: keep nonspacing marks after their base character in right-to-left
    /// runs of the visual order, the maps and the visual text (the runs stay
    /// as L2 gives them). Off by default, as in BidiCharacterTest.txt.
    public var reordersCombiningMarks: Bool

    public init(reordersCombiningMarks: Bool = false) {
      self.reordersCombiningMarks = reordersCombiningMarks
    }
  }

  let storage: ParagraphStorage
  /// The options the paragraph was analysed with.
  public let options: Options

  /// Analyses a paragraph of UTF-8. Each byte of an ill-formed sequence is
  /// one character of class ON (shown as U+FFFD).
  public init(utf8: UnsafeBufferPointer<UInt8>, direction: Direction = .auto, options: Options = Options()) {
    self.init(ParagraphStorage(utf8: utf8), direction, options)
  }

  /// Analyses a paragraph of UTF-8.
  public init(utf8: [UInt8], direction: Direction = .auto, options: Options = Options()) {
    self.init(utf8.withUnsafeBufferPointer { ParagraphStorage(utf8: $0) }, direction, options)
  }

  /// Analyses a paragraph of scalar values; values that are not Unicode
  /// scalars are characters of class ON.
  public init(scalars: UnsafeBufferPointer<UInt32>, direction: Direction = .auto, options: Options = Options()) {
    self.init(ParagraphStorage(scalars: scalars), direction, options)
  }

  /// Analyses a paragraph of scalar values.
  public init(scalars: [UInt32], direction: Direction = .auto, options: Options = Options()) {
    self.init(scalars.withUnsafeBufferPointer { ParagraphStorage(scalars: $0) }, direction, options)
  }

  private init(_ storage: ParagraphStorage, _ direction: Direction, _ options: Options) {
    self.storage = storage
    self.options = options
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
    storage.isUniform = ParagraphResolver.resolve(storage)
  }

  /// The paragraph embedding level: 0 or 1.
  public var level: UInt8 { storage.paragraphLevel }

  /// The paragraph direction.
  public var direction: BidiDirection { level == 0 ? .leftToRight : .rightToLeft }

  /// The number of characters (scalar values).
  public var characterCount: Int { storage.count }

  /// The length of the paragraph in units of `encoding`.
  public func length(in encoding: BidiEncoding) -> Int {
    storage.unitCount(0..<storage.count, in: encoding)
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

  /// The whole paragraph as one display line.
  public func line() -> BidiLine {
    makeLine(0..<storage.count, unitStarts: (0, 0))
  }

  /// The display line `range` (offsets in `encoding` from the start of the
  /// paragraph).
  public func line(_ range: Range<Int>, in encoding: BidiEncoding) throws(BidiError) -> BidiLine {
    try lines(bounds: [range.lowerBound, range.upperBound], length: length(in: encoding), in: encoding)[0]
  }

  /// The display lines of the paragraph wrapped at `breaks`: increasing
  /// offsets in `encoding` where a new line starts. Offsets 0 and the
  /// paragraph length are allowed and add no empty line.
  public func lines(breaks: [Int], in encoding: BidiEncoding) throws(BidiError) -> [BidiLine] {
    let length = length(in: encoding)
    var bounds = [0]
    for offset in breaks {
      guard offset >= 0 && offset <= length else { throw .offsetOutOfRange(offset) }
      guard offset >= bounds[bounds.count - 1] else { throw .offsetsNotIncreasing(offset) }
      if offset > bounds[bounds.count - 1] && offset < length { bounds.append(offset) }
    }
    bounds.append(length)
    return try lines(bounds: bounds, length: length, in: encoding)
  }

  /// Lines between consecutive `bounds` (unit offsets, the last one
  /// `length`, the paragraph's length in `encoding`).
  private func lines(bounds: [Int], length: Int, in encoding: BidiEncoding) throws(BidiError) -> [BidiLine] {
    for offset in bounds where offset < 0 || offset > length { throw .offsetOutOfRange(offset) }
    var lines: [BidiLine] = []
    lines.reserveCapacity(bounds.count - 1)
    if storage.isASCII {
      // Units are characters in every encoding: the bounds are all we need.
      for k in 0..<(bounds.count - 1) {
        lines.append(makeLine(bounds[k]..<bounds[k + 1], unitStarts: (bounds[k], bounds[k])))
      }
      return lines
    }
    // Walk the characters once, finding each bound's character index and
    // the unit offsets of each line start in UTF-8 and UTF-16.
    let scalars = storage.scalars
    let count = storage.count
    var unit = 0
    var unit8 = 0
    var unit16 = 0
    var i = 0
    var previous: (character: Int, unit8: Int, unit16: Int) = (0, 0, 0)
    for (k, bound) in bounds.enumerated() {
      while unit < bound && i < count {
        let scalar = scalars[i]
        let astral = scalar >= 0x10000 && scalar < 0x110000
        unit8 += scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : astral ? 4 : 1
        unit16 += astral ? 2 : 1
        i += 1
        switch encoding {
        case .utf8: unit = unit8
        case .utf16: unit = unit16
        case .utf32: unit = i
        }
      }
      guard unit == bound else { throw .offsetInsideCharacter(bound) }
      if k > 0 {
        lines.append(makeLine(previous.character..<i, unitStarts: (previous.unit8, previous.unit16)))
      }
      previous = (i, unit8, unit16)
    }
    return lines
  }

  private func makeLine(_ range: Range<Int>, unitStarts: (Int, Int)) -> BidiLine {
    let layout =
      storage.isUniform
      ? LineLayout(uniform: range, level: storage.paragraphLevel)
      : LineLayout(storage, range)
    return BidiLine(storage: storage, layout: layout, options: options, unitStarts: unitStarts)
  }
}
