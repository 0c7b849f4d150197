/// The unit in which offsets into a text are counted: LSP's position
/// encodings (`capabilities.general.positionEncodings`), and the unit of
/// every offset that `BidiParagraph` and `BidiLine` take and answer.
public enum PositionEncoding: String, CaseIterable, Hashable, Sendable {
  /// UTF-8 code units (bytes). An ill-formed byte of UTF-8 input given to
  /// `BidiParagraph(utf8:)` is one character.
  case utf8 = "utf-8"
  /// UTF-16 code units: a character past U+FFFF takes two. The LSP default.
  case utf16 = "utf-16"
  /// UTF-32 code units, i.e. Unicode scalars (characters).
  case utf32 = "utf-32"

  /// The number of units of a scalar value; values that are not Unicode
  /// scalars (such as the ill-formed UTF-8 bytes `ParagraphStorage` keeps
  /// as 0x110000 + the byte) take one unit.
  @inlinable
  func width(_ scalar: UInt32) -> Int {
    switch self {
    case .utf32: return 1
    case .utf16: return scalar >= 0x10000 && scalar < 0x110000 ? 2 : 1
    case .utf8:
      if scalar < 0x80 { return 1 }
      if scalar < 0x800 { return 2 }
      if scalar < 0x10000 { return 3 }
      return scalar < 0x110000 ? 4 : 1
    }
  }

  /// The units of the UTF-8 sequence of `length` bytes that `UTF8Decoder`
  /// decoded. An ill-formed maximal subpart (at most 3 bytes) stands for one
  /// U+FFFD: one unit in UTF-16 and UTF-32, its bytes in UTF-8.
  @inlinable @inline(__always)
  public func units(ofSequence length: Int) -> Int {
    switch self {
    case .utf8: return length
    case .utf16: return length == 4 ? 2 : 1
    case .utf32: return 1
    }
  }
}

/// The name `BidiParagraph` and `BidiLine` use for `PositionEncoding`.
public typealias BidiEncoding = PositionEncoding
