/// Lazily computed, cached per-line analysis and node summaries.
///
/// A line's `Analysis` is computed on first need and kept beside the line;
/// a node's summary (the `combine` of its lines' summaries) is computed on
/// first need and kept in the node. Edits build new nodes only along the
/// paths they change, so they drop exactly the summaries that covered the
/// edited lines, and the analyses of the lines they touch; every other cache
/// survives. Filling a cache is a mutation of this tree value (nodes shared
/// with another snapshot are copied first), so call these on the document you
/// keep, not on a temporary copy, for the caches to last.
extension LineTree {
  /// The analysis of line `index`, computed now unless it is cached.
  package mutating func analysis(ofLine index: Int) throws(DocumentError) -> Analysis {
    guard index >= 0 && index < lineCount else { throw .lineOutOfRange(line: index, lineCount: lineCount) }
    if let cached = cachedAnalysis(ofLine: index) { return cached }
    return Self.analysis(&root, line: index)
  }

  /// The cached analysis of line `index`, if there is one. Computes nothing.
  package func cachedAnalysis(ofLine index: Int) -> Analysis? {
    guard index >= 0 && index < lineCount else { return nil }
    let (node, first) = leaf(containing: index)
    let j = index - first
    return node.analyses?[j, utf8Count: node.leaf.contentLength(of: j)]
  }

  /// The summary of the lines in `lines` (`combine` of their summaries in
  /// order), in O(log n) once the caches below are filled.
  package mutating func summary(ofLines lines: Range<Int>) throws(DocumentError) -> Analysis.Summary {
    guard lines.lowerBound >= 0 && lines.upperBound <= lineCount else {
      throw .lineRangeOutOfBounds(lower: lines.lowerBound, upper: lines.upperBound, lineCount: lineCount)
    }
    if lines.isEmpty { return Analysis.emptySummary }
    return Self.fold(&root, lines.lowerBound, lines.upperBound)
  }

  /// The last line before `index` whose summary satisfies `predicate`, or nil.
  ///
  /// `predicate` must hold for a combined summary exactly when it holds for
  /// one of the parts (`p(combine(a, b)) == p(a) || p(b)`, `p(empty) == false`),
  /// e.g. "has a line with a strong character". The search walks back from
  /// `index`, analysing lines and summarising subtrees only as far as it has
  /// to, and skips every subtree whose cached summary fails `predicate`.
  package mutating func lastLine(before index: Int, where predicate: (Analysis.Summary) -> Bool) -> Int? {
    let limit = min(index, lineCount)
    guard limit > 0 else { return nil }
    return Self.searchBackward(&root, before: limit, predicate)
  }

  /// The first line at or after `index` whose summary satisfies `predicate`,
  /// or nil. `predicate` must be as for `lastLine(before:where:)`.
  package mutating func firstLine(from index: Int, where predicate: (Analysis.Summary) -> Bool) -> Int? {
    let start = max(index, 0)
    guard start < lineCount else { return nil }
    return Self.searchForward(&root, from: start, predicate)
  }

  // MARK: Recursion over uniquely referenced nodes

  private static func analysis(_ node: inout Node, line: Int) -> Analysis {
    Node.makeUnique(&node)
    if node.height == 0 { return leafAnalysis(node, line) }
    let (index, first) = node.child(containing: line)
    return analysis(&node.children[index], line: line - first)
  }

  /// The analysis of line `j` of a uniquely referenced leaf, cached.
  private static func leafAnalysis(_ leaf: Node, _ j: Int) -> Analysis {
    if let cached = leaf.analyses?[j, utf8Count: leaf.leaf.contentLength(of: j)] { return cached }
    let computed = Analysis(line: leaf.leaf.line(j))
    if leaf.analyses == nil { leaf.analyses = Analysis.Column(lineCount: leaf.lineCount) }
    leaf.analyses!.store(computed, at: j)
    return computed
  }

  private static func fullSummary(_ node: inout Node) -> Analysis.Summary {
    if let cached = node.summary { return cached }
    Node.makeUnique(&node)
    var summary = Analysis.emptySummary
    if node.height == 0 {
      for j in 0..<node.lineCount { summary = Analysis.combine(summary, leafAnalysis(node, j).summary) }
    } else {
      for i in node.children.indices { summary = Analysis.combine(summary, fullSummary(&node.children[i])) }
    }
    node.summary = summary
    return summary
  }

  private static func fold(_ node: inout Node, _ lower: Int, _ upper: Int) -> Analysis.Summary {
    if lower == 0 && upper == node.lineCount { return fullSummary(&node) }
    Node.makeUnique(&node)
    var summary = Analysis.emptySummary
    if node.height == 0 {
      for j in lower..<upper { summary = Analysis.combine(summary, leafAnalysis(node, j).summary) }
      return summary
    }
    var start = 0
    for i in node.children.indices {
      let end = start + node.children[i].lineCount
      if end > lower && start < upper {
        summary = Analysis.combine(
          summary, fold(&node.children[i], max(lower, start) - start, min(upper, end) - start))
      }
      if end >= upper { break }
      start = end
    }
    return summary
  }

  /// Searches lines `0..<limit` of `node` from the back. A node searched
  /// whole without a match gets its summary cached on the way.
  private static func searchBackward(
    _ node: inout Node, before limit: Int, _ predicate: (Analysis.Summary) -> Bool
  ) -> Int? {
    let whole = limit >= node.lineCount
    if whole, let cached = node.summary, !predicate(cached) { return nil }
    Node.makeUnique(&node)
    if node.height == 0 {
      for j in stride(from: min(limit, node.lineCount) - 1, through: 0, by: -1)
      where predicate(leafAnalysis(node, j).summary) {
        return j
      }
    } else {
      var end = node.lineCount
      for i in node.children.indices.reversed() {
        let start = end - node.children[i].lineCount
        if start < limit, let found = searchBackward(&node.children[i], before: limit - start, predicate) {
          return start + found
        }
        end = start
      }
    }
    if whole { _ = fullSummary(&node) }
    return nil
  }

  /// Searches lines `from...` of `node` from the front. A node searched
  /// whole without a match gets its summary cached on the way.
  private static func searchForward(
    _ node: inout Node, from lower: Int, _ predicate: (Analysis.Summary) -> Bool
  ) -> Int? {
    let whole = lower <= 0
    if whole, let cached = node.summary, !predicate(cached) { return nil }
    Node.makeUnique(&node)
    if node.height == 0 {
      for j in max(lower, 0)..<node.lineCount where predicate(leafAnalysis(node, j).summary) {
        return j
      }
    } else {
      var start = 0
      for i in node.children.indices {
        let end = start + node.children[i].lineCount
        if end > lower, let found = searchForward(&node.children[i], from: lower - start, predicate) {
          return start + found
        }
        start = end
      }
    }
    if whole { _ = fullSummary(&node) }
    return nil
  }
}
