/// The character classes CommonMark's emphasis rules and GFM's autolinks
/// need, from the standard library's Unicode properties: Unicode white
/// space (Zs, tab, line feed, form feed, carriage return) and punctuation
/// (ASCII punctuation, or General_Category P*), on scalars decoded the way
/// cmark decodes them (anything ill-formed reads as a line feed).
enum CharacterClasses {
  /// The scalar starting at `index` of `bytes[..<end]`, as cmark's
  /// utf8proc_iterate reads it; nil when ill-formed, truncated, or past the end.
  static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> UInt32? {
    guard index < end else { return nil }
    let lead = bytes[index]
    let length: Int
    switch lead {
    case 0x00..<0x80: return UInt32(lead)
    case 0xC0..<0xE0: length = 2
    case 0xE0..<0xF0: length = 3
    case 0xF0..<0xF8: length = 4
    default: return nil
    }
    guard index + length <= end else { return nil }
    var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for k in 1..<length {
      let byte = bytes[index + k]
      guard byte & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    switch length {
    case 2: return value < 0x80 ? nil : value
    case 3: return value < 0x800 || (value >= 0xD800 && value < 0xE000) ? nil : value
    default: return value < 0x10000 || value >= 0x110000 ? nil : value
    }
  }

  /// The length of the UTF-8 sequence at `index` as cmark's scanners (re2c
  /// in UTF-8 mode) match it: well-formed UTF-8 (shortest forms, no
  /// surrogates); nil for an ill-formed or truncated one. (A NUL byte is one
  /// character: cmark reads it as U+FFFD.) A character class such as
  /// `[^>]` matches no ill-formed byte.
  @inline(__always)
  static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int? {
    let lead = bytes[index]
    if lead < 0x80 { return 1 }
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xED:
      length = 3
      high = 0x9F
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return nil
    }
    guard index + length <= end, bytes[index + 1] >= low, bytes[index + 1] <= high else { return nil }
    for k in 2..<length where bytes[index + k] & 0xC0 != 0x80 { return nil }
    return length
  }

  /// Unicode white space as cmark_utf8proc_is_space has it.
  static func isSpace(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return true
    // The space separators (Zs), listed: no property lookup per
    // delimiter run (`SkeletonEmphasisTests` checks every scalar).
    case 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
  }

  /// Whether `scalar` lies in a block of letters, marks, digits or math
  /// symbols with no white space or punctuation in it — Latin-1's and
  /// Latin Extended-A and B's letters (U+00C0–U+024F), Hebrew's letters
  /// (U+05D0–U+05EA), Arabic's letters, marks and digits (U+0620–U+0669,
  /// U+066E–U+06D3) — answered without the Unicode property lookup
  /// (`CharacterClassTests` checks every scalar in them).
  @inline(__always)
  static func isLetterOrMark(_ scalar: UInt32) -> Bool {
    (0xC0...0x24F).contains(scalar) || (0x5D0...0x5EA).contains(scalar) || (0x620...0x669).contains(scalar)
      || (0x66E...0x6D3).contains(scalar)
  }

  /// ASCII punctuation, or a scalar in a punctuation category (Pc, Pd, Ps,
  /// Pe, Pi, Pf, Po).
  static func isPunctuation(_ scalar: UInt32) -> Bool {
    if scalar < 0x80 { return LinkSyntax.isPunctuation(UInt8(scalar)) }
    if isLetterOrMark(scalar) { return false }
    guard let value = Unicode.Scalar(scalar) else { return false }
    switch value.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
      .finalPunctuation, .otherPunctuation:
      return true
    default:
      return false
    }
  }

  /// GFM's valid domain character: neither white space nor punctuation
  /// (ill-formed UTF-8 is not one).
  static func isHostCharacter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Bool {
    guard let value = scalar(bytes, at: index, end: end) else { return false }
    return !isSpace(value) && !isPunctuation(value)
  }

  static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
  static func isAlphanumeric(_ byte: UInt8) -> Bool { isAlpha(byte) || (byte >= 0x30 && byte <= 0x39) }
}
