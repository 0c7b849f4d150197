import UnicodeBidi

/// A leaf's cached `BidiLineAnalysis`es, packed into 4 bytes a line (the
/// analysis itself takes 48): a document of a million short lines keeps a
/// million of them beside its text.
///
/// A line of one paragraph (whose bounds are then the line's content) with
/// its first strong character in its first 2 KiB and fewer than 128 words
/// of each direction is one word. Any other line (several paragraphs, or a
/// long one, whose bytes dwarf its analysis anyway) is kept whole in
/// `large`, and its word says where.
package struct BidiAnalysisColumn: LineAnalysisColumn {
  /// One word a line: 0 until cached; else the fields of `Layout` (bit 1
  /// clear) or the index of the line's entry in `large` (bit 1 set,
  /// shifted by 2).
  private var words: [UInt32]
  private var large: [BidiLineAnalysis] = []

  /// The fields of a packed word.
  private enum Layout {
    static let cached: UInt32 = 1
    static let isLarge: UInt32 = 1 << 1
    /// Bits 2–3: the first strong direction (0 none, 1 L, 2 R or AL).
    static let firstStrongShift: UInt32 = 2
    static let hasRTL: UInt32 = 1 << 4
    static let hasLTR: UInt32 = 1 << 5
    static let isBlank: UInt32 = 1 << 6
    static let firstStrongOffsetShift: UInt32 = 7
    static let offsetLimit: UInt32 = (1 << 11) - 1
    static let rtlWordsShift: UInt32 = 18
    static let ltrWordsShift: UInt32 = 25
    static let wordLimit: UInt32 = (1 << 7) - 1
  }

  package init(lineCount: Int) {
    words = Array(repeating: 0, count: lineCount)
  }

  package var lineCount: Int { words.count }

  package subscript(j: Int, utf8Count utf8Count: Int) -> BidiLineAnalysis? {
    let word = words[j]
    if word & Layout.cached == 0 { return nil }
    if word & Layout.isLarge != 0 { return large[Int(word >> 2)] }
    return Self.unpack(word, utf8Count: utf8Count)
  }

  package mutating func store(_ analysis: BidiLineAnalysis, at j: Int) {
    if let word = Self.pack(analysis) {
      words[j] = word
    } else {
      words[j] = UInt32(large.count) << 2 | Layout.isLarge | Layout.cached
      large.append(analysis)
    }
  }

  /// The word of a one-paragraph analysis whose fields fit, else nil.
  private static func pack(_ analysis: BidiLineAnalysis) -> UInt32? {
    let p = analysis.first
    guard analysis.others == nil, p.utf8Start == 0, p.firstStrongOffset <= Layout.offsetLimit,
      p.rtlWords <= Layout.wordLimit, p.ltrWords <= Layout.wordLimit
    else { return nil }
    var word = Layout.cached
    switch p.firstStrong {
    case nil: break
    case .leftToRight: word |= 1 << Layout.firstStrongShift
    case .rightToLeft: word |= 2 << Layout.firstStrongShift
    }
    if p.hasRTL { word |= Layout.hasRTL }
    if p.hasLTR { word |= Layout.hasLTR }
    if analysis.isBlank { word |= Layout.isBlank }
    word |= p.firstStrongOffset << Layout.firstStrongOffsetShift
    word |= p.rtlWords << Layout.rtlWordsShift
    word |= p.ltrWords << Layout.ltrWordsShift
    return word
  }

  /// The analysis of a packed word, for a line of `utf8Count` bytes: its
  /// one paragraph is the whole content.
  private static func unpack(_ word: UInt32, utf8Count: Int) -> BidiLineAnalysis {
    let firstStrong: BidiDirection? =
      switch (word >> Layout.firstStrongShift) & 3 {
      case 1: .leftToRight
      case 2: .rightToLeft
      default: nil
      }
    let facts = ParagraphFacts(
      utf8Start: 0, utf8End: UInt32(utf8Count), firstStrong: firstStrong,
      firstStrongOffset: (word >> Layout.firstStrongOffsetShift) & Layout.offsetLimit,
      rtlWords: (word >> Layout.rtlWordsShift) & Layout.wordLimit,
      ltrWords: (word >> Layout.ltrWordsShift) & Layout.wordLimit,
      hasRTL: word & Layout.hasRTL != 0, hasLTR: word & Layout.hasLTR != 0)
    return BidiLineAnalysis(first: facts, others: nil, isBlank: word & Layout.isBlank != 0)
  }
}
