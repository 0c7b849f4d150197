import UnicodeBidi

/// What the direction requests need to know about one paragraph of a line,
/// found in one pass over its UTF-8 (Protocol/specification.md, “Strategies”).
package struct ParagraphFacts: Sendable, Hashable {
  /// The paragraph's bytes within the line's content: it ends after its
  /// Bidi_Class B separator, or at the end of the line.
  package var utf8Start: UInt32
  package var utf8End: UInt32
  /// UAX #9 P2: the direction of the first L, R or AL outside isolates.
  package var firstStrong: BidiDirection?
  /// The byte offset of that character within the line.
  package var firstStrongOffset: UInt32
  /// The estimate strategy's counts: words whose first strong character is
  /// R or AL, and words whose first strong character is L.
  package var rtlWords: UInt32
  package var ltrWords: UInt32
  /// Whether an R or AL, and whether an L character occurs anywhere.
  package var hasRTL: Bool
  package var hasLTR: Bool

  /// The byte range of the paragraph within the line.
  package var utf8Range: Range<Int> { Int(utf8Start)..<Int(utf8End) }
  /// Whether any strong character occurs (so `estimate` and `anyRTL` decide).
  package var hasStrong: Bool { hasRTL || hasLTR }
}

/// The cached per-line analysis behind the bidi requests: the facts of each
/// paragraph of the line and whether the line is blank. A pure function of
/// the line's bytes, computed lazily by `LineTree` and kept until an edit
/// touches the line.
package struct BidiLineAnalysis: LineAnalysis, Hashable {
  /// Leaves keep their lines' analyses packed (see `BidiAnalysisColumn`).
  package typealias Column = BidiAnalysisColumn

  /// The first paragraph (an empty line has one, empty).
  package let first: ParagraphFacts
  /// The other paragraphs, in the rare line that holds several (split at
  /// Bidi_Class B characters such as U+2029); nil otherwise.
  package let others: [ParagraphFacts]?
  /// Empty or only White_Space characters (a block separator).
  package let isBlank: Bool

  /// The paragraphs of the line, in order.
  package var paragraphs: [ParagraphFacts] {
    guard let others else { return [first] }
    return [first] + others
  }

  /// Summaries over a range of lines: counts that tell whether a subtree
  /// holds a line of interest, and the sums the block estimate needs.
  package struct Summary: Sendable, Hashable {
    /// Lines with a paragraph that P2 decides.
    package var firstStrongLines = 0
    /// Lines with any strong character.
    package var strongLines = 0
    /// Lines with any R or AL character.
    package var rtlLines = 0
    /// Blank lines.
    package var blankLines = 0
    /// Summed estimate counts.
    package var rtlWords = 0
    package var ltrWords = 0
  }

  init(first: ParagraphFacts, others: [ParagraphFacts]?, isBlank: Bool) {
    self.first = first
    self.others = others
    self.isBlank = isBlank
  }

  package init(line: Line) {
    let scan = line.withUTF8 { Self.scan($0) }
    first = scan.paragraphs[0]
    others = scan.paragraphs.count > 1 ? Array(scan.paragraphs.dropFirst()) : nil
    isBlank = scan.isBlank
  }

  /// Analyses a line's content directly (for tests and from-scratch checks).
  package init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    let scan = Self.scan(bytes)
    first = scan.paragraphs[0]
    others = scan.paragraphs.count > 1 ? Array(scan.paragraphs.dropFirst()) : nil
    isBlank = scan.isBlank
  }

  package var summary: Summary {
    var s = Summary()
    s.blankLines = isBlank ? 1 : 0
    var firstStrong = first.firstStrong != nil
    var strong = first.hasStrong
    var rtl = first.hasRTL
    s.rtlWords = Int(first.rtlWords)
    s.ltrWords = Int(first.ltrWords)
    for p in others ?? [] {
      firstStrong = firstStrong || p.firstStrong != nil
      strong = strong || p.hasStrong
      rtl = rtl || p.hasRTL
      s.rtlWords += Int(p.rtlWords)
      s.ltrWords += Int(p.ltrWords)
    }
    s.firstStrongLines = firstStrong ? 1 : 0
    s.strongLines = strong ? 1 : 0
    s.rtlLines = rtl ? 1 : 0
    return s
  }

  package static var emptySummary: Summary { Summary() }

  package static func combine(_ a: Summary, _ b: Summary) -> Summary {
    Summary(
      firstStrongLines: a.firstStrongLines + b.firstStrongLines,
      strongLines: a.strongLines + b.strongLines,
      rtlLines: a.rtlLines + b.rtlLines,
      blankLines: a.blankLines + b.blankLines,
      rtlWords: a.rtlWords + b.rtlWords,
      ltrWords: a.ltrWords + b.ltrWords)
  }

  // MARK: Scanning

  private static func emptyFacts(at offset: Int) -> ParagraphFacts {
    ParagraphFacts(
      utf8Start: UInt32(offset), utf8End: UInt32(offset), firstStrong: nil, firstStrongOffset: 0,
      rtlWords: 0, ltrWords: 0, hasRTL: false, hasLTR: false)
  }

  /// One pass over the line: paragraph splits (P1), P2 with isolate depth,
  /// words for the estimate, strong classes present, blankness.
  private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (paragraphs: [ParagraphFacts], isBlank: Bool) {
    var paragraphs: [ParagraphFacts] = []
    var current = emptyFacts(at: 0)
    var isolateDepth = 0
    var inWord = false
    var wordDecided = false
    var isBlank = true
    var i = 0
    let count = bytes.count
    while i < count {
      let start = i
      let decoded = UTF8Decoder.decode(bytes, at: i)
      let scalar = decoded.value
      i += decoded.length
      if isWhiteSpace(scalar) {
        inWord = false
      } else {
        isBlank = false
        if !inWord {
          inWord = true
          wordDecided = false
        }
      }
      let c = BidiProperties.bidiClass(scalar)
      switch c {
      case .L, .R, .AL:
        let rtl = c != .L
        if rtl { current.hasRTL = true } else { current.hasLTR = true }
        if inWord && !wordDecided {
          wordDecided = true
          if rtl { current.rtlWords += 1 } else { current.ltrWords += 1 }
        }
        if isolateDepth == 0 && current.firstStrong == nil {
          current.firstStrong = rtl ? .rightToLeft : .leftToRight
          current.firstStrongOffset = UInt32(start)
        }
      case .LRI, .RLI, .FSI:
        isolateDepth += 1
      case .PDI:
        if isolateDepth > 0 { isolateDepth -= 1 }
      case .B:
        // P1: the separator ends its paragraph.
        current.utf8End = UInt32(i)
        paragraphs.append(current)
        current = emptyFacts(at: i)
        isolateDepth = 0
        inWord = false
      default:
        break
      }
    }
    if paragraphs.isEmpty || current.utf8Start < UInt32(count) {
      current.utf8End = UInt32(count)
      paragraphs.append(current)
    }
    return (paragraphs, isBlank)
  }

  /// The White_Space property (PropList.txt): the characters that separate
  /// words for the estimate and make a line blank.
  @inline(__always)
  static func isWhiteSpace(_ scalar: UInt32) -> Bool {
    if scalar < 0x80 { return scalar == 0x20 || (scalar >= 0x09 && scalar <= 0x0D) }
    switch scalar {
    case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
  }
}
