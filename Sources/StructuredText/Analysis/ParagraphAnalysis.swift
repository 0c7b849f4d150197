import UnicodeBidi

/// One paragraph of an entry, analysed: its text as the bidi algorithm
/// sees it as written (each placeholder one neutral, markup nothing) and
/// filled (placeholders replaced by a Latin word or digits), the
/// `DirectionFacts` of each, and what a user sees.
package struct ParagraphAnalysis: Sendable {
  package let entry: TextEntry
  package let paragraph: Int
  package let written: ParagraphProjection
  /// The filled projection when `init` built it; nil when it is `written`
  /// or when only the direction rules asked for it and firstStrong decides
  /// the same way filled as written (`filledFirstStrongIsWritten`).
  private let builtFilled: ParagraphProjection?
  /// Whether filling changes some atom (one stands for other text).
  private let fills: Bool
  /// Whether the first strong character as written comes before every
  /// atom: filling then cannot change UAX #9 P2's answer.
  private let filledFirstStrongIsWritten: Bool
  /// UAX #9 P2–P3 as written: asked by every rule and request, found once.
  let writtenFirstStrong: FirstStrong
  /// Whether the paragraph holds right-to-left letters (R or AL) outside
  /// placeholders and markup (ALM, a bidi control of class AL, is none).
  package let hasRightToLeftLetters: Bool

  package init(_ entry: TextEntry, paragraph: Int) {
    self.entry = entry
    self.paragraph = paragraph
    written = ParagraphProjection(entry, paragraph: paragraph, filled: false)
    // Filling changes only the atoms that stand for other text.
    fills = entry.atoms.contains { !$0.showsText }
    writtenFirstStrong = BidiParagraph.firstStrong(scalars: written.scalars)
    if fills, let offset = writtenFirstStrong.offset, writtenFirstStrong.direction != nil {
      filledFirstStrongIsWritten = written.atomScalars.allSatisfy { $0.lowerBound > offset }
    } else {
      filledFirstStrongIsWritten = false
    }
    builtFilled =
      fills && !filledFirstStrongIsWritten ? ParagraphProjection(entry, paragraph: paragraph, filled: true) : nil
    hasRightToLeftLetters = written.scalars.contains {
      let c = BidiClass($0)
      return (c == .R || c == .AL) && BidiControl(scalar: $0) == nil
    }
  }

  /// The paragraph filled (placeholders replaced by a Latin word or digits).
  package var filled: ParagraphProjection {
    if let builtFilled { return builtFilled }
    return fills ? ParagraphProjection(entry, paragraph: paragraph, filled: true) : written
  }

  /// The paragraph's source range.
  package var range: SourceRange { entry.sourceRange(ofParagraph: paragraph) }

  /// The decoded text of the paragraph (its separator included), as
  /// `bidi/visualOrder` entries carry it in `text`.
  package var text: String {
    var text = entry.text
    let bounds = entry.paragraphs[paragraph]
    return text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[bounds]), as: UTF8.self) }
  }

  /// The facts as written or filled that `policy`'s strategy decides
  /// from: with firstStrong only the first strong character, found by P2's
  /// scan, which stops there; the whole scan for the others.
  package func facts(for policy: DirectionPolicy = DirectionPolicy(), filled isFilled: Bool = false) -> DirectionFacts {
    guard policy.strategy == .firstStrong else {
      return WordFactsFeed.facts(isFilled ? filled.scalars : written.scalars)
    }
    let found =
      isFilled && fills && !filledFirstStrongIsWritten
      ? BidiParagraph.firstStrong(scalars: filled.scalars) : writtenFirstStrong
    var facts = DirectionFacts()
    facts.firstStrong = found.direction
    facts.firstStrongOffset = found.offset ?? 0
    return facts
  }

  /// The direction `policy`'s strategy decides as written (or filled), nil
  /// when it decides none (the caller applies the fallback).
  package func direction(_ policy: DirectionPolicy = DirectionPolicy(), filled isFilled: Bool = false) -> BidiDirection?
  {
    policy.decide(facts(for: policy, filled: isFilled))
  }

  /// The document position of the first strong character as written (of
  /// its escape when escaped), if the paragraph has one.
  package var strongCharacter: SourcePosition? { strongCharacter(filled: false) }

  /// The document position of the first strong character as written or
  /// filled (of the placeholder when a filled placeholder decides).
  package func strongCharacter(filled isFilled: Bool) -> SourcePosition? {
    let facts = facts(filled: isFilled)
    guard facts.firstStrong != nil else { return nil }
    let projection = isFilled ? filled : written
    return entry.sourcePosition(ofDecoded: projection.ranges[facts.firstStrongOffset].lowerBound)
  }

  /// The paragraph filled (text placeholders "Apple Pay", numeric ones "42",
  /// markup left out) in visual order, displayed in `direction` (nil: its
  /// own, UAX #9 P2–P3), bidi controls dropped: what a user sees at run time.
  package func filledVisualText(direction: BidiDirection? = nil) -> String {
    Self.visualText(filled.scalars, direction: direction)
  }

  /// `filledVisualText(direction:)` as a message quotes it: a paragraph of
  /// more than `quotedCharacterLimit` characters is quoted by the display
  /// line of its first ones (`quoteEnd`) followed by "…".
  package func quotedVisualText(direction: BidiDirection? = nil) -> String {
    Self.visualText(filled.scalars, direction: direction, quoted: true)
  }

  /// The most characters of a paragraph that a message quotes.
  package static let quotedCharacterLimit = 200

  /// Where the quote of a paragraph of `count` characters ends: at its end
  /// when it has at most `quotedCharacterLimit` characters, else before the
  /// last space (`isSpace(k)`) among characters `limit / 2 ... limit`, or
  /// after `limit` characters when there is none there.
  static func quoteEnd(count: Int, isSpace: (Int) -> Bool) -> Int {
    let limit = quotedCharacterLimit
    guard count > limit else { return count }
    var k = limit
    while k >= limit / 2 {
      if isSpace(k) { return k }
      k -= 1
    }
    return limit
  }

  private static func visualText(_ scalars: [UInt32], direction: BidiDirection?, quoted: Bool = false) -> String {
    // As a terminal shows it: marks after their base (UAX #9 L3), no control.
    let paragraph = BidiParagraph(scalars: scalars, direction: direction.map(DirectionChoice.init) ?? .auto)
    let end = quoted ? quoteEnd(count: scalars.count) { scalars[$0] == 0x20 } : scalars.count
    guard end < scalars.count, let line = try? paragraph.line(0..<end, in: .utf32, combiningMarks: .afterBase) else {
      return paragraph.line(combiningMarks: .afterBase).visualText(controls: .strip)
    }
    // The first display line of the paragraph wrapped there (L1–L2 on the
    // paragraph's levels).
    return line.visualText(controls: .strip) + "\u{2026}"
  }

  /// `filledVisualText()` of a paragraph whose filled scalars are those of
  /// well-formed UTF-8 `utf8` (a reader deciding a finding with no
  /// analysis built), written at `output`, which has room for
  /// `BidiLine.visualUTF8Bound(utf8Length: utf8.count)` bytes; returns how
  /// many it wrote (a message quoting it is built with no other copy).
  /// The whole paragraph is one display line, written with no line made
  /// (`writeLineVisualUTF8`). What it writes is well-formed UTF-8 whatever
  /// `utf8` holds: the writer encodes the paragraph's scalar values.
  package static func writeVisualText(utf8: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>) -> Int {
    // (In storage the thread keeps from one quoted paragraph to the next.)
    BidiParagraph.withReusedStorage(utf8: utf8, direction: .auto) { paragraph in
      if paragraph.length(in: .utf32) > quotedCharacterLimit, let end = quoteEndByte(utf8),
        let line = try? paragraph.line(0..<end, in: .utf8, combiningMarks: .afterBase)
      {
        // A prefix of at least one byte less, then "…": within the bound.
        let written = line.writeVisualUTF8(mirrored: true, controls: .strip, to: output)
        (output + written).initialize(from: [0xE2, 0x80, 0xA6], count: 3)
        return written + 3
      }
      return paragraph.writeLineVisualUTF8(combiningMarks: .afterBase, mirrored: true, controls: .strip, to: output)
    }
  }

  /// `quoteEnd` of well-formed UTF-8 as a byte offset, nil when the quote
  /// is the whole text.
  static func quoteEndByte(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
    guard utf8.count > quotedCharacterLimit else { return nil }
    // The byte offset of each of the first `limit + 1` characters.
    var starts: [Int] = []
    starts.reserveCapacity(quotedCharacterLimit + 1)
    for i in utf8.indices where utf8[i] & 0xC0 != 0x80 {
      starts.append(i)
      if starts.count > quotedCharacterLimit { break }
    }
    guard starts.count > quotedCharacterLimit else { return nil }
    // `count` is only compared with the limit: more than it is enough.
    return starts[quoteEnd(count: starts.count) { utf8[starts[$0]] == 0x20 }]
  }
}
