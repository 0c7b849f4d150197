// UAX #9, 3.3.1 The Paragraph Level: rule P1.

extension BidiParagraph {
  /// Splits a text into paragraphs (P1): each paragraph ends after a
  /// character of class B, which stays with the paragraph before it; CR LF
  /// counts as one separator. Returns byte ranges; an empty text has none.
  public static func paragraphRanges(utf8: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    var i = 0
    while i < utf8.count {
      let decoded = UTF8Decoder.decode(utf8, at: i)
      let scalar = decoded.value
      i += decoded.length
      guard ParagraphSeparator.contains(scalar) else { continue }
      if scalar == 0x0D, i < utf8.count, utf8[i] == 0x0A { i += 1 }
      ranges.append(start..<i)
      start = i
    }
    if start < utf8.count { ranges.append(start..<utf8.count) }
    return ranges
  }

  /// Splits a text of scalar values into paragraphs (P1), as
  /// `paragraphRanges(utf8:)` does; returns index ranges.
  public static func paragraphRanges(scalars: UnsafeBufferPointer<UInt32>) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    var i = 0
    while i < scalars.count {
      let scalar = scalars[i]
      i += 1
      guard ParagraphSeparator.contains(scalar) else { continue }
      if scalar == 0x0D, i < scalars.count, scalars[i] == 0x0A { i += 1 }
      ranges.append(start..<i)
      start = i
    }
    if start < scalars.count { ranges.append(start..<scalars.count) }
    return ranges
  }

  /// P1 over an array of bytes of UTF-8.
  public static func paragraphRanges(utf8: [UInt8]) -> [Range<Int>] {
    utf8.withUnsafeBufferPointer { paragraphRanges(utf8: $0) }
  }

  /// P1 over an array of scalar values.
  public static func paragraphRanges(scalars: [UInt32]) -> [Range<Int>] {
    scalars.withUnsafeBufferPointer { paragraphRanges(scalars: $0) }
  }
}
