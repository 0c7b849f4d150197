import BidiProtocol
import DocumentStore
import UnicodeBidi

/// The natural direction of one paragraph, and why.
struct ParagraphDirection {
  /// The LSP line.
  var line: Int
  /// The paragraph's bytes within the line.
  var utf8Range: Range<Int>
  var direction: BidiDirection
  /// The strategy, or the fallback.
  var basis: DirectionBasis
  /// The character that decided it (firstStrong only): line and byte offset.
  var strongCharacter: (line: Int, utf8Offset: Int)?
}

/// Finds the natural directions of the paragraphs of a document
/// (specification, "Strategies", "Blocks") from the cached per-line analysis. Answers
/// that depend on other lines (`fallback: previous`, `paragraphs: block`)
/// come from the summaries in the line index's nodes, so they cost O(log n)
/// whatever the distance, never a scan from the edit or the start.
struct DirectionResolver {
  let options: DirectionOptions

  /// A decision of the strategy for one paragraph, if it makes one.
  private func decide(_ p: ParagraphFacts) -> (BidiDirection, Int?)? {
    switch options.strategy {
    case .firstStrong:
      guard let found = p.firstStrong else { return nil }
      return (found, Int(p.firstStrongOffset))
    case .estimate:
      return estimate(rtlWords: Int(p.rtlWords), ltrWords: Int(p.ltrWords)).map { ($0, nil) }
    case .anyRTL:
      if p.hasRTL { return (.rightToLeft, nil) }
      return p.hasLTR ? (.leftToRight, nil) : nil
    }
  }

  private func estimate(rtlWords: Int, ltrWords: Int) -> BidiDirection? {
    let counted = rtlWords + ltrWords
    guard counted > 0 else { return nil }
    return Double(rtlWords) > options.rtlThreshold * Double(counted) ? .rightToLeft : .leftToRight
  }

  /// Whether a summary holds a line the strategy decides.
  private var decidedPredicate: (BidiLineAnalysis.Summary) -> Bool {
    switch options.strategy {
    case .firstStrong: return { $0.firstStrongLines > 0 }
    case .estimate, .anyRTL: return { $0.strongLines > 0 }
    }
  }

  /// The directions of every paragraph of `lines`, in order.
  func directions(of lines: Range<Int>, in text: inout Document.Text) throws(DocumentError) -> [ParagraphDirection] {
    var result: [ParagraphDirection] = []
    result.reserveCapacity(lines.count)
    var block: (lines: Range<Int>, decision: BlockDecision?)?
    for line in lines {
      let analysis = try text.analysis(ofLine: line)
      switch options.paragraphs {
      case .line, .values:
        var previousInLine: BidiDirection?
        for p in analysis.paragraphs {
          if let (direction, offset) = decide(p) {
            result.append(
              ParagraphDirection(
                line: line, utf8Range: p.utf8Range, direction: direction, basis: DirectionBasis(options.strategy),
                strongCharacter: offset.map { (line, $0) }))
            previousInLine = direction
          } else {
            let direction = try fallback(previousInLine: previousInLine, before: line, in: &text)
            result.append(
              ParagraphDirection(
                line: line, utf8Range: p.utf8Range, direction: direction, basis: .fallback, strongCharacter: nil))
          }
        }
      case .block:
        let decision: BlockDecision?
        if analysis.isBlank {
          decision = nil
        } else {
          if block == nil || !block!.lines.contains(line) {
            let range = blockLines(around: line, in: &text)
            block = (range, try blockDecision(range, in: &text))
          }
          decision = block!.decision
        }
        let direction: BidiDirection
        let basis: DirectionBasis
        if let decision {
          direction = decision.direction
          basis = DirectionBasis(options.strategy)
        } else {
          direction = try blockFallback(before: line, in: &text)
          basis = .fallback
        }
        for p in analysis.paragraphs {
          result.append(
            ParagraphDirection(
              line: line, utf8Range: p.utf8Range, direction: direction, basis: basis,
              strongCharacter: decision?.strongCharacter))
        }
      }
    }
    return result
  }

  // MARK: Fallback

  private func fallback(
    previousInLine: BidiDirection?, before line: Int, in text: inout Document.Text
  ) throws(DocumentError) -> BidiDirection {
    switch options.fallback {
    case .ltr: return .leftToRight
    case .rtl: return .rightToLeft
    case .layout: return options.layoutDirection
    case .previous:
      if let previousInLine { return previousInLine }
      guard let found = text.lastLine(before: line, where: decidedPredicate) else {
        return options.layoutDirection
      }
      let paragraphs = try text.analysis(ofLine: found).paragraphs
      for p in paragraphs.reversed() {
        if let (direction, _) = decide(p) { return direction }
      }
      return options.layoutDirection
    }
  }

  // MARK: Blocks

  struct BlockDecision {
    var direction: BidiDirection
    var strongCharacter: (line: Int, utf8Offset: Int)?
  }

  /// The non-blank lines around `line` (which is not blank) up to the
  /// nearest blank lines.
  private func blockLines(around line: Int, in text: inout Document.Text) -> Range<Int> {
    let start = text.lastLine(before: line, where: { $0.blankLines > 0 }).map { $0 + 1 } ?? 0
    let end = text.firstLine(from: line, where: { $0.blankLines > 0 }) ?? text.lineCount
    return start..<end
  }

  private func blockDecision(_ lines: Range<Int>, in text: inout Document.Text) throws(DocumentError) -> BlockDecision?
  {
    switch options.strategy {
    case .firstStrong:
      guard let found = text.firstLine(from: lines.lowerBound, where: decidedPredicate), found < lines.upperBound
      else { return nil }
      for p in try text.analysis(ofLine: found).paragraphs {
        if let strong = p.firstStrong {
          return BlockDecision(
            direction: strong, strongCharacter: (found, Int(p.firstStrongOffset)))
        }
      }
      return nil
    case .estimate:
      let summary = try text.summary(ofLines: lines)
      return estimate(rtlWords: summary.rtlWords, ltrWords: summary.ltrWords).map { BlockDecision(direction: $0) }
    case .anyRTL:
      let summary = try text.summary(ofLines: lines)
      if summary.rtlLines > 0 { return BlockDecision(direction: .rightToLeft) }
      return summary.strongLines > 0 ? BlockDecision(direction: .leftToRight) : nil
    }
  }

  /// The fallback of a blank line, or of a block without a direction.
  private func blockFallback(before line: Int, in text: inout Document.Text) throws(DocumentError) -> BidiDirection {
    switch options.fallback {
    case .ltr: return .leftToRight
    case .rtl: return .rightToLeft
    case .layout: return options.layoutDirection
    case .previous:
      // The nearest preceding line the strategy decides lies in the nearest
      // preceding block that has a direction.
      guard let found = text.lastLine(before: line, where: decidedPredicate),
        let decision = try blockDecision(blockLines(around: found, in: &text), in: &text)
      else { return options.layoutDirection }
      return decision.direction
    }
  }
}
