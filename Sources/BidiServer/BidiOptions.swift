/// The options shared by the four bidi requests (Protocol/specification.md, “Common parameters”), and the
/// settings that give their defaults (“Settings”).

/// A text direction: left-to-right or right-to-left.
public enum TextDirection: String, Sendable, CaseIterable {
  case ltr
  case rtl

  /// The other direction.
  public var opposite: TextDirection { self == .ltr ? .rtl : .ltr }
}

/// How a paragraph's natural direction is found.
public enum DirectionStrategy: String, Sendable, CaseIterable {
  /// UAX #9 P2–P3: the first L, R or AL character outside isolates.
  case firstStrong
  /// The word-count estimate of the BidiFormatter family.
  case estimate
  /// RTL when any R or AL character occurs.
  case anyRTL
}

/// The direction of a paragraph that has no strong character.
public enum DirectionFallback: String, Sendable, CaseIterable {
  /// The nearest preceding paragraph that has one; at the start, the layout.
  case previous
  /// The layout direction.
  case layout
  case ltr
  case rtl
}

/// What a paragraph is: every line, or blocks of lines between blank lines.
public enum ParagraphMode: String, Sendable, CaseIterable {
  case line
  case block
}

/// The alignment a client asks for in `bidi/alignment`.
public enum TextAlignment: String, Sendable, CaseIterable {
  case natural, leading, trailing, left, right, center, justified
}

/// The defaults of the common options, set by `initializationOptions.bidi`
/// and `workspace/didChangeConfiguration`.
public struct DirectionSettings: Sendable, Equatable {
  public var strategy: DirectionStrategy = .firstStrong
  public var rtlThreshold: Double = 0.4
  public var fallback: DirectionFallback = .previous
  public var paragraphs: ParagraphMode = .line
  public var layoutDirection: TextDirection = .ltr

  public init() {}
}
