import BidiProtocol
import DocumentStore
import UnicodeBidi

/// The natural direction of one paragraph of a line, and why.
struct LineParagraphDirection {
  /// The LSP line.
  var line: Int
  /// The paragraph's bytes within the line.
  var utf8Range: Range<Int>
  var direction: BidiDirection
  /// The strategy, or the fallback.
  var basis: DirectionBasis
  /// The character that decided it (firstStrong only).
  var strongCharacter: SourcePosition?
}

/// The natural directions of the paragraphs of a plain document's lines
/// (`paragraphs: "line"` and `"block"`; specification, "Strategies",
/// "Blocks"), resolved by `DirectionPolicy` from the cached per-line
/// `DirectionFacts`. Answers that depend on other lines (`fallback:
/// previous`, `paragraphs: block`) come from the summaries in the line
/// index's nodes, so they cost O(log n) whatever the distance, never a scan
/// from the edit or the start.
struct LineDirections {
  let policy: DirectionPolicy
  let paragraphs: ParagraphMode

  init(_ options: DirectionOptions) {
    policy = options.policy
    paragraphs = options.paragraphs == .block ? .block : .line
  }

  /// Whether a summary holds a line the strategy decides.
  private var decidedPredicate: (BidiLineAnalysis.Summary) -> Bool {
    switch policy.strategy {
    case .firstStrong: return { $0.firstStrongLines > 0 }
    case .estimate, .anyRTL: return { $0.strongLines > 0 }
    }
  }

  /// The directions of every paragraph of `lines`, in order.
  func directions(of lines: Range<Int>, in text: inout Document.Text) throws(DocumentError)
    -> [LineParagraphDirection]
  {
    var result: [LineParagraphDirection] = []
    result.reserveCapacity(lines.count)
    var block: (lines: Range<Int>, decision: BlockDecision?)?
    for line in lines {
      let analysis = try text.analysis(ofLine: line)
      if paragraphs == .line {
        var previousInLine: BidiDirection?
        for p in analysis.paragraphs {
          let facts = p.directionFacts
          let (direction, basis) = try policy.resolve(facts) { () throws(DocumentError) -> BidiDirection? in
            if let previousInLine { return previousInLine }
            return try previousDirection(before: line, in: &text)
          }
          if basis != .fallback { previousInLine = direction }
          let strong = basis == .firstStrong ? SourcePosition(line: line, column: facts.firstStrongOffset) : nil
          result.append(
            LineParagraphDirection(
              line: line, utf8Range: p.utf8Range, direction: direction, basis: basis, strongCharacter: strong))
        }
        continue
      }
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
        basis = DirectionBasis(policy.strategy)
      } else {
        direction = try policy.fallbackDirection(
          previous: policy.needsPrevious ? previousBlockDirection(before: line, in: &text) : nil)
        basis = .fallback
      }
      for p in analysis.paragraphs {
        result.append(
          LineParagraphDirection(
            line: line, utf8Range: p.utf8Range, direction: direction, basis: basis,
            strongCharacter: decision?.strongCharacter))
      }
    }
    return result
  }

  // MARK: Fallback

  /// The direction of the last paragraph the strategy decides before line
  /// `line`, nil when there is none.
  private func previousDirection(before line: Int, in text: inout Document.Text) throws(DocumentError)
    -> BidiDirection?
  {
    guard let found = text.lastLine(before: line, where: decidedPredicate) else { return nil }
    for p in try text.analysis(ofLine: found).paragraphs.reversed() {
      if let direction = policy.decide(p.directionFacts) { return direction }
    }
    return nil
  }

  // MARK: Blocks

  struct BlockDecision {
    var direction: BidiDirection
    var strongCharacter: SourcePosition?
  }

  /// The non-blank lines around `line` (which is not blank) up to the
  /// nearest blank lines.
  private func blockLines(around line: Int, in text: inout Document.Text) -> Range<Int> {
    let start = text.lastLine(before: line, where: { $0.blankLines > 0 }).map { $0 + 1 } ?? 0
    let end = text.firstLine(from: line, where: { $0.blankLines > 0 }) ?? text.lineCount
    return start..<end
  }

  /// The direction of a block of lines as one paragraph: its first strong
  /// character's, or the estimate and anyRTL over its summed facts.
  private func blockDecision(_ lines: Range<Int>, in text: inout Document.Text) throws(DocumentError) -> BlockDecision?
  {
    switch policy.strategy {
    case .firstStrong:
      guard let found = text.firstLine(from: lines.lowerBound, where: decidedPredicate), found < lines.upperBound
      else { return nil }
      for p in try text.analysis(ofLine: found).paragraphs {
        if let strong = p.firstStrong {
          return BlockDecision(
            direction: strong, strongCharacter: SourcePosition(line: found, column: Int(p.firstStrongOffset)))
        }
      }
      return nil
    case .estimate, .anyRTL:
      let summary = try text.summary(ofLines: lines)
      var facts = DirectionFacts()
      facts.rtlWords = summary.rtlWords
      facts.ltrWords = summary.ltrWords
      facts.hasRTL = summary.rtlLines > 0
      // anyRTL: RTL when a line has R or AL, else LTR when one has L.
      facts.hasLTR = summary.strongLines > 0
      return policy.decide(facts).map { BlockDecision(direction: $0) }
    }
  }

  /// The direction of the nearest preceding block that has one: the
  /// nearest preceding line the strategy decides lies in it.
  private func previousBlockDirection(before line: Int, in text: inout Document.Text) throws(DocumentError)
    -> BidiDirection?
  {
    guard let found = text.lastLine(before: line, where: decidedPredicate) else { return nil }
    return try blockDecision(blockLines(around: found, in: &text), in: &text)?.direction
  }
}
