// What the direction strategies need to know about a paragraph, beside
// P2–P3 (FirstStrong.swift), found in one pass over its characters.

/// The facts of one paragraph that its natural direction is decided from
/// (`DirectionPolicy`): P2–P3's first strong character outside isolates,
/// the estimate's word counts, whether R/AL and L occur at all.
package struct DirectionFacts: Hashable, Sendable {
  /// UAX #9 P2: the direction of the first L, R or AL outside isolates.
  package var firstStrong: BidiDirection?
  /// Where that character is, in the units the scan was fed (a byte
  /// offset, a scalar index).
  package var firstStrongOffset = 0
  /// Words (maximal runs of non-White_Space characters) whose first strong
  /// character is R or AL, and those whose first strong character is L.
  package var rtlWords = 0
  package var ltrWords = 0
  /// Whether an R or AL, and whether an L character occurs anywhere.
  package var hasRTL = false
  package var hasLTR = false

  @inlinable
  package init() {}

  /// Whether any strong character occurs (so `estimate` and `anyRTL` decide).
  @inlinable
  package var hasStrong: Bool { hasRTL || hasLTR }

  /// The facts of a paragraph of scalar values (a paragraph separator ends
  /// nothing here: the caller splits paragraphs); offsets are indices.
  package init(scalars: [UInt32]) {
    var scanner = DirectionFactsScanner()
    scalars.withUnsafeBufferPointer { scalars in
      for index in 0..<scalars.count {
        let scalar = scalars[index]
        scanner.feed(scalar, BidiClass(scalar), at: index)
      }
    }
    self = scanner.facts
  }
}

/// Feeds characters one by one into `DirectionFacts`: the one scan behind
/// a line's cached analysis (DocumentStore) and an entry paragraph's
/// (StructuredText).
package struct DirectionFactsScanner: Sendable {
  package var facts = DirectionFacts()
  @usableFromInline var isolateDepth = 0
  @usableFromInline var inWord = false
  @usableFromInline var wordDecided = false
  /// Whether only White_Space characters were fed (a blank line).
  package var isBlank = true

  @inlinable
  package init() {}

  /// Feeds the character `scalar`, of class `c`, at `offset`.
  @inlinable @inline(__always)
  package mutating func feed(_ scalar: UInt32, _ c: BidiClass, at offset: Int) {
    if isWhiteSpace(scalar) {
      feedWhiteSpace()
    } else {
      feedNonWhite()
    }
    switch c {
    case .L: feedStrong(rightToLeft: false, at: offset)
    case .R, .AL: feedStrong(rightToLeft: true, at: offset)
    case .LRI, .RLI, .FSI:
      isolateDepth += 1
    case .PDI:
      if isolateDepth > 0 { isolateDepth -= 1 }
    default:
      break
    }
  }

  /// `feed`'s step for a White_Space character: it ends a word (no
  /// White_Space character is strong or an isolate control).
  @inlinable @inline(__always)
  package mutating func feedWhiteSpace() {
    inWord = false
  }

  /// `feed`'s first step for a character that is not White_Space: the line
  /// is not blank, and a word begins unless one is going on.
  @inlinable @inline(__always)
  package mutating func feedNonWhite() {
    isBlank = false
    if !inWord {
      inWord = true
      wordDecided = false
    }
  }

  /// `feed`'s second step for a strong character (after `feedNonWhite`):
  /// R or AL (`rightToLeft`), or L, at `offset`. It decides its word when
  /// no strong character did, and P2's first strong character outside
  /// isolates when none is yet.
  @inlinable @inline(__always)
  package mutating func feedStrong(rightToLeft rtl: Bool, at offset: Int) {
    if rtl { facts.hasRTL = true } else { facts.hasLTR = true }
    if inWord && !wordDecided {
      wordDecided = true
      if rtl { facts.rtlWords += 1 } else { facts.ltrWords += 1 }
    }
    if isolateDepth == 0 && facts.firstStrong == nil {
      facts.firstStrong = rtl ? .rightToLeft : .leftToRight
      facts.firstStrongOffset = offset
    }
  }

  /// Starts the next paragraph (after a separator): new facts, no open
  /// isolate, no word going on; blankness is the line's and goes on.
  @inlinable
  package mutating func startParagraph() {
    facts = DirectionFacts()
    isolateDepth = 0
    inWord = false
  }
}

/// The White_Space property (PropList.txt): what separates words for the
/// estimate and makes a line blank.
@inlinable @inline(__always)
package func isWhiteSpace(_ scalar: UInt32) -> Bool {
  if scalar < 0x80 { return scalar == 0x20 || (scalar >= 0x09 && scalar <= 0x0D) }
  switch scalar {
  case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
  default: return false
  }
}

/// Feeds `DirectionFactsScanner` (the one implementation of UAX #9 P2's
/// scan and §4's word counts) only the characters that can change its
/// facts, so that a paragraph's facts cost a table lookup per character
/// and a scanner step per word rather than a scanner step per character:
///
/// - a White_Space character when a non-white one was fed since the last
///   white one fed (it ends the word; another leaves the scanner as it is);
/// - a strong character (L, R, AL) unless a strong one of the same
///   direction was fed in the same word with no isolate control fed since
///   (that one decided the word or found it decided, set `hasRTL` or
///   `hasLTR`, and set `firstStrong` unless an isolate was open — and
///   still is: a second one changes nothing);
/// - an isolate initiator or PDI (they open and close isolates).
///
/// Every other character (weak, neutral, other controls) only makes a
/// word begin, which the next strong character fed does too; a word with
/// no strong character counts for neither direction. The facts are those
/// of feeding every character, offsets included (`testFeedGivesTheFacts`).
package struct WordFactsFeed: Sendable {
  @usableFromInline var scanner = DirectionFactsScanner()
  /// Whether a non-white character was fed since the last white one (the
  /// scanner is in a word).
  @usableFromInline var inWord = false
  /// The direction of the last strong character fed in this word, with no
  /// isolate control fed after it: 0 none, 1 L, 2 R or AL.
  @usableFromInline var lastStrong: UInt8 = 0

  package init() {}

  package var facts: DirectionFacts { scanner.facts }

  /// Feeds `scalar`, of class `c`, at `offset` (inlined where it is called:
  /// it runs once per character).
  @inlinable @inline(__always)
  package mutating func feed(_ scalar: UInt32, _ c: BidiClass, at offset: Int) {
    switch c {
    case .L, .R, .AL:
      feedStrong(rightToLeft: c != .L, at: offset)
    case .LRI, .RLI, .FSI, .PDI:
      inWord = !isWhiteSpace(scalar)
      lastStrong = 0
      scanner.feed(scalar, c, at: offset)
    default:
      if inWord && isWhiteSpace(scalar) { feedWhiteSpace() }
    }
  }

  /// `feed` for a strong character: R or AL (`rightToLeft`), or L.
  @inlinable @inline(__always)
  mutating func feedStrong(rightToLeft: Bool, at offset: Int) {
    let direction: UInt8 = rightToLeft ? 2 : 1
    guard !inWord || lastStrong != direction else { return }
    inWord = true
    lastStrong = direction
    scanner.feedNonWhite()
    scanner.feedStrong(rightToLeft: rightToLeft, at: offset)
  }

  /// `feed` for a White_Space character in a word: it ends the word.
  @inlinable @inline(__always)
  mutating func feedWhiteSpace() {
    inWord = false
    lastStrong = 0
    scanner.feedWhiteSpace()
  }

  /// Whether an R or AL character that is no bidi control (ALM) was fed by
  /// `feedText` (`ParagraphAnalysis.hasRightToLeftLetters`).
  package private(set) var rightToLeftLetter = false

  /// Feeds well-formed UTF-8 text of one paragraph with no bidi control,
  /// offsets unset (for a yes-or-no question on its facts); stops and
  /// returns false at a bidi control or a paragraph separator (class B),
  /// where the facts would need the whole analysis. `controlFree`: the
  /// caller knows the text holds no bidi control (its bytes are a source's
  /// that has none), so that the skip over a word need not look for ALM.
  package mutating func feedText(_ bytes: UnsafeBufferPointer<UInt8>, controlFree: Bool = false) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      if inWord && lastStrong != 0 {
        // The rest of a word: skip what `feed` would leave as it is.
        index = Self.skipInWord(bytes, from: index, rightToLeft: lastStrong == 2, seeksALM: !controlFree)
        guard index < count else { break }
      }
      let byte = bytes[index]
      if byte == 0x20 {
        // A space (WS): it ends a word, or changes nothing between words.
        index += 1
        if inWord { feedWhiteSpace() }
        continue
      }
      if !inWord {
        // Most words: a letter first, one space after (`feedWords`).
        let next = feedWords(bytes, from: index, seeksALM: !controlFree)
        if next != index {
          index = next
          continue
        }
      }
      let scalar: UInt32
      if byte < 0x80 {
        scalar = UInt32(byte)
        index += 1
      } else if byte >= 0xC2, byte < 0xE0, index &+ 1 < count, bytes[index &+ 1] & 0xC0 == 0x80 {
        // Two bytes, decoded here (what `UTF8Decoder.decode` gives).
        scalar = UInt32(byte & 0x1F) &<< 6 | UInt32(bytes[index &+ 1] & 0x3F)
        index &+= 2
      } else {
        let decoded = UTF8Decoder.decode(bytes, at: index)
        scalar = decoded.value
        index += max(decoded.length, 1)
      }
      let c = BidiClass(scalar)
      switch c {
      case .L:
        // LRM is a bidi control of this class.
        if scalar == 0x200E { return false }
        feedStrong(rightToLeft: false, at: 0)
      case .R, .AL:
        // RLM and ALM are bidi controls of these classes.
        if scalar == 0x200F || scalar == 0x61C { return false }
        rightToLeftLetter = true
        feedStrong(rightToLeft: true, at: 0)
      case .B, .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI:
        return false
      default:
        if inWord && isWhiteSpace(scalar) { feedWhiteSpace() }
      }
    }
    return true
  }

  /// `feedText`'s run of the common words from `start`, a word's first
  /// byte with no word going on: a word whose first character is a letter
  /// (L, R or AL, of one or two bytes: no bidi control but ALM, which ends
  /// the run), the rest of it skipped (`skipInWord`), then one space and
  /// the next word. The facts are those `feedText` finds one character at
  /// a time (this is its loop with the checks the common word needs):
  /// where the run ends (any other first character, a word ended otherwise
  /// than by one space) `feedText` goes on as it would have. `seeksALM`
  /// as `skipInWord` takes it.
  @inline(__always)
  mutating func feedWords(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, seeksALM: Bool) -> Int {
    var index = start
    let count = bytes.count
    while true {
      let byte = bytes[index]
      let scalar: UInt32
      let length: Int
      if byte < 0x80 {
        scalar = UInt32(byte)
        length = 1
      } else if byte >= 0xC2, byte < 0xE0, index &+ 1 < count, bytes[index &+ 1] & 0xC0 == 0x80 {
        scalar = UInt32(byte & 0x1F) &<< 6 | UInt32(bytes[index &+ 1] & 0x3F)
        length = 2
      } else {
        return index
      }
      let rightToLeft: Bool
      switch BidiClass(scalar) {
      // LRM and RLM take three bytes.
      case .L: rightToLeft = false
      case .R, .AL:
        guard scalar != 0x61C else { return index }
        rightToLeftLetter = true
        rightToLeft = true
      default: return index
      }
      feedStrong(rightToLeft: rightToLeft, at: 0)
      index = Self.skipInWord(bytes, from: index &+ length, rightToLeft: rightToLeft, seeksALM: seeksALM)
      // One space, then the next word's first byte.
      guard index &+ 1 < count, bytes[index] == 0x20, bytes[index &+ 1] != 0x20 else { return index }
      feedWhiteSpace()
      index &+= 1
    }
  }

  /// Where the characters `feed` leaves as it is end, in a word whose last
  /// strong character fed is right to left (`rightToLeft`) or left to
  /// right, from `index` (a character's first byte): ASCII other than
  /// white space, controls and (in a right-to-left word) letters; in a
  /// right-to-left word, also the two-byte characters of U+0590–U+07FF
  /// (Hebrew, Arabic, Syriac, Thaana, NKo: R, AL, NSM, AN, EN, ET, CS or
  /// ON, none white space) but ALM (U+061C, a bidi control). Eight bytes a
  /// step while none stops the skip (`leftToRightStops`,
  /// `rightToLeftStops`, which stop at some of these too), then one by
  /// one; no decoding or class lookup. `seeksALM` false: the text holds
  /// no bidi control, and the eight-byte steps do not look for ALM.
  /// `testFeedTextSkipsOnlyWhatFeedLeaves` and `testLongWords` compare it
  /// with feeding every character.
  @inline(__always)
  static func skipInWord(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, rightToLeft: Bool, seeksALM: Bool
  ) -> Int {
    var index = start
    let count = bytes.count
    // Not empty: `start` is a byte of it.
    let base = UnsafeRawPointer(bytes.baseAddress!)
    while count &- index >= 8 {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let stops = rightToLeft ? rightToLeftStops(word, seeksALM: seeksALM) : leftToRightStops(word)
      // The first byte that stops the skip is a character's first; eight
      // that do not are whole characters (ASCII, or pairs of two bytes).
      guard stops == 0 else { return index &+ stops.trailingZeroBitCount &>> 3 }
      index &+= 8
    }
    if rightToLeft {
      while index < count {
        let byte = bytes[index]
        if byte < 0x80 {
          // Not white space or a control (0x21...), not a Latin letter.
          guard byte > 0x20, (byte | 0x20) &- 0x61 >= 26 else { break }
          index += 1
        } else {
          guard index + 1 < count, byte >= 0xD6, byte <= 0xDF else { break }
          let next = bytes[index + 1]
          guard next & 0xC0 == 0x80, byte != 0xD6 || next >= 0x90, byte != 0xD8 || next != 0x9C else { break }
          index += 2
        }
      }
    } else {
      while index < count, bytes[index] > 0x20, bytes[index] < 0x80 { index += 1 }
    }
    return index
  }

  /// The bytes (the high bit of each, the first byte lowest) of eight
  /// bytes of UTF-8 where a skip in a left-to-right word stops: past
  /// ASCII, or white space or a control (0x00–0x20).
  @inline(__always)
  static func leftToRightStops(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high = ones &* 0x80
    // Seven bits a byte: the sum never carries into the next byte.
    let above20 = (word & ~high) &+ ones &* (0x80 - 0x21)
    return (word | ~above20) & high
  }

  /// The bytes where a skip in a right-to-left word stops, for eight bytes
  /// from a character's first: ASCII (read one by one), a lead byte but
  /// those of U+05C0–U+07FF (0xD7–0xDF: 0xD6's U+0580–U+05BF holds
  /// Armenian, L, and is read one by one), ALM's 0xD8 0x9C. Continuation
  /// bytes never stop. Up to the first stop the bytes are pairs (a lead
  /// byte, a continuation byte), so ALM is looked for in two-byte lanes
  /// (when `seeksALM`).
  @inline(__always)
  static func rightToLeftStops(_ word: UInt64, seeksALM: Bool) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high = ones &* 0x80
    let low = word & ~high
    // A lead byte: at least 0xC0 (its seven low bits 0x40 or more); kept
    // in 0xD7–0xDF (0x57–0x5F).
    let lead = low &+ ones &* (0x80 - 0x40)
    let kept = (low &+ ones &* (0x80 - 0x57)) & ~(low &+ ones &* (0x80 - 0x60))
    guard seeksALM else { return (~word | (lead & ~kept)) & high }
    // ALM: a two-byte lane 0xD8 0x9C (first byte lowest), at its 0xD8.
    let pairs: UInt64 = 0x0001_0001_0001_0001
    let alm = word ^ (pairs &* 0x9CD8)
    let almLanes = ~(((alm & ~(pairs &* 0x8000)) &+ pairs &* 0x7FFF) | alm) & (pairs &* 0x8000)
    return (~word | (lead & ~kept) | almLanes >> 8) & high
  }

  /// Whether `feed` leaves its facts as they are for `scalar` in a word
  /// whose last strong character fed is right to left (`rightToLeft`) or
  /// left to right: ASCII other than white space, controls and (in a
  /// right-to-left word) letters; in a right-to-left word, U+0590–U+07FF
  /// too (no L, no white space; ALM is AL, fed alike). `skipInWord` for
  /// scalars.
  @inline(__always)
  static func leaves(_ scalar: UInt32, rightToLeft: Bool) -> Bool {
    if scalar < 0x80 { return scalar > 0x20 && (!rightToLeft || (scalar | 0x20) &- 0x61 >= 26) }
    return rightToLeft && scalar &- 0x590 < 0x270
  }

  /// The facts of a paragraph of scalar values: `DirectionFacts(scalars:)`.
  package static func facts(_ scalars: [UInt32]) -> DirectionFacts {
    var feed = WordFactsFeed()
    scalars.withUnsafeBufferPointer { scalars in
      var index = 0
      while index < scalars.count {
        let scalar = scalars[index]
        if feed.inWord && feed.lastStrong != 0 && Self.leaves(scalar, rightToLeft: feed.lastStrong == 2) {
          index += 1
          continue
        }
        feed.feed(scalar, BidiClass(scalar), at: index)
        index += 1
      }
    }
    return feed.facts
  }
}
