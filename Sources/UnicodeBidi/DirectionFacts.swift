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
      inWord = false
    } else {
      isBlank = false
      if !inWord {
        inWord = true
        wordDecided = false
      }
    }
    switch c {
    case .L, .R, .AL:
      let rtl = c != .L
      if rtl { facts.hasRTL = true } else { facts.hasLTR = true }
      if inWord && !wordDecided {
        wordDecided = true
        if rtl { facts.rtlWords += 1 } else { facts.ltrWords += 1 }
      }
      if isolateDepth == 0 && facts.firstStrong == nil {
        facts.firstStrong = rtl ? .rightToLeft : .leftToRight
        facts.firstStrongOffset = offset
      }
    case .LRI, .RLI, .FSI:
      isolateDepth += 1
    case .PDI:
      if isolateDepth > 0 { isolateDepth -= 1 }
    default:
      break
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
