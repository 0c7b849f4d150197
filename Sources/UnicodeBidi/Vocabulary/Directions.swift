// The words for a direction, defined once for every module: the algorithm's
// results, the protocol's options and answers (`"ltr"`, `"rtl"`, `"auto"`,
// their raw values), the mark planner's isolates.

/// A direction: left to right (an even level) or right to left (odd). On the
/// wire, `"ltr"` and `"rtl"`.
public enum BidiDirection: String, Sendable, Hashable, CaseIterable {
  case leftToRight = "ltr"
  case rightToLeft = "rtl"

  /// The other direction.
  @inlinable
  public var opposite: BidiDirection { self == .leftToRight ? .rightToLeft : .leftToRight }
}

/// A direction, or `auto`: the one the text itself calls for. It chooses a
/// paragraph's level in `BidiParagraph` (`auto` is UAX #9 P2–P3),
/// the direction `bidi/visualOrder` displays a paragraph in (`auto`: its
/// natural direction), and the isolate `bidi/insertMarks` writes (`auto`:
/// U+2068 FIRST STRONG ISOLATE). On the wire, `"auto"`, `"ltr"`, `"rtl"`.
public enum DirectionChoice: String, Sendable, Hashable, CaseIterable {
  case auto
  case leftToRight = "ltr"
  case rightToLeft = "rtl"

  /// The choice of exactly `direction`.
  @inlinable
  public init(_ direction: BidiDirection) {
    self = direction == .leftToRight ? .leftToRight : .rightToLeft
  }

  /// The direction chosen, or nil for `auto`.
  @inlinable
  public var direction: BidiDirection? {
    switch self {
    case .auto: nil
    case .leftToRight: .leftToRight
    case .rightToLeft: .rightToLeft
    }
  }
}

/// How a paragraph's natural direction is found (specification,
/// "Strategies"). On the wire, its raw value.
package enum DirectionStrategy: String, Sendable, Hashable, CaseIterable {
  /// UAX #9 P2–P3: the first L, R or AL character outside isolates.
  case firstStrong
  /// The word-count estimate of the BidiFormatter family: RTL when more
  /// than the threshold of the words that have a strong character start
  /// with one of R or AL.
  case estimate
  /// RTL when any R or AL character occurs, LTR when only L does.
  case anyRTL
}

/// The direction of a paragraph that has no strong character. On the
/// wire, its raw value.
package enum DirectionFallback: String, Sendable, Hashable, CaseIterable {
  /// The nearest preceding paragraph that has one; at the start, the layout.
  case previous
  /// The layout direction.
  case layout
  case ltr
  case rtl
}

/// Why a paragraph has its direction: the strategy that decided it, or the
/// fallback. On the wire, its raw value.
package enum DirectionBasis: String, Sendable, Hashable, CaseIterable {
  case firstStrong
  case estimate
  case anyRTL
  case fallback

  /// The basis of a direction the strategy decided.
  package init(_ strategy: DirectionStrategy) {
    self = DirectionBasis(rawValue: strategy.rawValue)!
  }
}

/// The one resolver of a paragraph's natural direction: a strategy over the
/// paragraph's `DirectionFacts`, and the fallback when it decides nothing.
/// Every kind of paragraph (a line, a block of lines, a value, a rendered
/// block) is resolved by it; only where the `previous` paragraph is found
/// differs, and the caller finds it.
package struct DirectionPolicy: Sendable, Hashable {
  package var strategy: DirectionStrategy
  /// The estimate's threshold (0…1).
  package var rtlThreshold: Double
  package var fallback: DirectionFallback
  /// The direction of the user interface.
  package var layout: BidiDirection

  package init(
    strategy: DirectionStrategy = .firstStrong, rtlThreshold: Double = 0.4, fallback: DirectionFallback = .previous,
    layout: BidiDirection = .leftToRight
  ) {
    self.strategy = strategy
    self.rtlThreshold = rtlThreshold
    self.fallback = fallback
    self.layout = layout
  }

  /// The direction the strategy decides for a paragraph of `facts`, or nil.
  @inlinable
  package func decide(_ facts: DirectionFacts) -> BidiDirection? {
    switch strategy {
    case .firstStrong: facts.firstStrong
    case .estimate: estimate(rtlWords: facts.rtlWords, ltrWords: facts.ltrWords)
    case .anyRTL: facts.hasRTL ? .rightToLeft : facts.hasLTR ? .leftToRight : nil
    }
  }

  /// The estimate over word counts (a block's summed ones too), or nil
  /// when no word has a strong character.
  @inlinable
  package func estimate(rtlWords: Int, ltrWords: Int) -> BidiDirection? {
    let counted = rtlWords + ltrWords
    guard counted > 0 else { return nil }
    return Double(rtlWords) > rtlThreshold * Double(counted) ? .rightToLeft : .leftToRight
  }

  /// The direction of a paragraph the strategy leaves undecided:
  /// `previous` is the direction of the nearest preceding paragraph the
  /// strategy decides (found by the caller, which asks only when
  /// `needsPrevious`), nil when there is none.
  @inlinable
  package func fallbackDirection(previous: BidiDirection?) -> BidiDirection {
    switch fallback {
    case .ltr: .leftToRight
    case .rtl: .rightToLeft
    case .layout: layout
    case .previous: previous ?? layout
    }
  }

  /// Whether the fallback looks at the preceding paragraphs.
  @inlinable
  package var needsPrevious: Bool { fallback == .previous }

  /// A paragraph's direction and why: the strategy's, else the fallback's
  /// (`previous` asked for only then).
  @inlinable
  package func resolve<E: Error>(_ facts: DirectionFacts, previous: () throws(E) -> BidiDirection?) throws(E) -> (
    BidiDirection, DirectionBasis
  ) {
    if let decided = decide(facts) { return (decided, DirectionBasis(strategy)) }
    return (fallbackDirection(previous: needsPrevious ? try previous() : nil), .fallback)
  }
}
