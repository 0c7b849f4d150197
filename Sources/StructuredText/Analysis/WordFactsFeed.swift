import UnicodeBidi

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
      let direction: UInt8 = c == .L ? 1 : 2
      guard !inWord || lastStrong != direction else { return }
      inWord = true
      lastStrong = direction
    case .LRI, .RLI, .FSI, .PDI:
      inWord = !isWhiteSpace(scalar)
      lastStrong = 0
    default:
      guard inWord, isWhiteSpace(scalar) else { return }
      inWord = false
      lastStrong = 0
    }
    scanner.feed(scalar, c, at: offset)
  }

  /// Whether an R or AL character that is no bidi control (ALM) was fed by
  /// `feedText` (`ParagraphAnalysis.hasRightToLeftLetters`).
  package private(set) var rightToLeftLetter = false

  /// Feeds well-formed UTF-8 text of one paragraph with no bidi control,
  /// offsets unset (for a yes-or-no question on its facts); stops and
  /// returns false at a bidi control or a paragraph separator (class B),
  /// where the facts would need the whole analysis.
  package mutating func feedText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count {
      if inWord && lastStrong != 0 {
        // The rest of a word: skip what `feed` would leave as it is.
        index = Self.skipInWord(bytes, from: index, rightToLeft: lastStrong == 2)
        guard index < bytes.count else { break }
      }
      let byte = bytes[index]
      if byte == 0x20 {
        // A space (WS): it ends a word, or changes nothing between words.
        index += 1
        if inWord { feed(0x20, .WS, at: 0) }
        continue
      }
      let scalar: UInt32
      if byte < 0x80 {
        scalar = UInt32(byte)
        index += 1
      } else {
        let decoded = UTF8Decoder.decode(bytes, at: index)
        scalar = decoded.value
        index += max(decoded.length, 1)
      }
      let c = BidiClass(scalar)
      switch c {
      case .L, .R, .AL:
        // LRM, RLM and ALM are bidi controls of these classes.
        if scalar == 0x200E || scalar == 0x200F || scalar == 0x61C { return false }
        if c != .L { rightToLeftLetter = true }
      case .B, .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI:
        return false
      default:
        break
      }
      feed(scalar, c, at: 0)
    }
    return true
  }

  /// Where the characters `feed` leaves as it is end, in a word whose last
  /// strong character fed is right to left (`rightToLeft`) or left to
  /// right, from `index`: ASCII other than white space, controls and (in a
  /// right-to-left word) letters; in a right-to-left word, also the
  /// two-byte characters of U+0590–U+07FF (Hebrew, Arabic, Syriac, Thaana,
  /// NKo: R, AL, NSM, AN, EN, ET, CS or ON, none white space) but ALM
  /// (U+061C, a bidi control). A step per byte, no decoding or class
  /// lookup; `testFeedTextSkipsOnlyWhatFeedLeaves` compares it with feeding
  /// every character.
  @inline(__always)
  static func skipInWord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, rightToLeft: Bool) -> Int {
    var index = start
    let count = bytes.count
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
