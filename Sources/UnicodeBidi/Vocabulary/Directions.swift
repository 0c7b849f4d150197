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
