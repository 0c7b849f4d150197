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

  /// The facts `DirectionPolicy` decides from (the first strong
  /// character's offset a byte offset in the line).
  package var directionFacts: DirectionFacts {
    var facts = DirectionFacts()
    facts.firstStrong = firstStrong
    facts.firstStrongOffset = Int(firstStrongOffset)
    facts.rtlWords = Int(rtlWords)
    facts.ltrWords = Int(ltrWords)
    facts.hasRTL = hasRTL
    facts.hasLTR = hasLTR
    return facts
  }
}

extension ParagraphFacts {
  /// The packed facts of the paragraph `bytes` of a line.
  init(_ facts: DirectionFacts, _ bytes: Range<Int>) {
    self.init(
      utf8Start: UInt32(bytes.lowerBound), utf8End: UInt32(bytes.upperBound), firstStrong: facts.firstStrong,
      firstStrongOffset: UInt32(facts.firstStrongOffset), rtlWords: UInt32(facts.rtlWords),
      ltrWords: UInt32(facts.ltrWords), hasRTL: facts.hasRTL, hasLTR: facts.hasLTR)
  }
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

  /// One pass over the line: paragraph splits (P1), and each paragraph's
  /// `DirectionFacts` (UnicodeBidi's one scan), blankness.
  private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (paragraphs: [ParagraphFacts], isBlank: Bool) {
    var paragraphs: [ParagraphFacts] = []
    var scanner = DirectionFactsScanner()
    var start = 0
    var i = 0
    let count = bytes.count
    while i < count {
      let offset = i
      let decoded = UTF8Decoder.decode(bytes, at: i)
      i += decoded.length
      let c = BidiProperties.bidiClass(decoded.value)
      scanner.feed(decoded.value, c, at: offset)
      if c == .B {
        // P1: the separator ends its paragraph.
        paragraphs.append(ParagraphFacts(scanner.facts, start..<i))
        scanner.startParagraph()
        start = i
      }
    }
    if paragraphs.isEmpty || start < count {
      paragraphs.append(ParagraphFacts(scanner.facts, start..<count))
    }
    return (paragraphs, scanner.isBlank)
  }
}
