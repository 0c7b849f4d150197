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
      let byte = bytes[index]
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

  /// The facts of a paragraph of scalar values: `DirectionFacts(scalars:)`.
  package static func facts(_ scalars: [UInt32]) -> DirectionFacts {
    var feed = WordFactsFeed()
    scalars.withUnsafeBufferPointer { scalars in
      for index in 0..<scalars.count { feed.feed(scalars[index], BidiClass(scalars[index]), at: index) }
    }
    return feed.facts
  }
}
