/// Per-line analysis that a `LineTree` computes lazily, caches beside each
/// line, and summarises in its nodes.
///
/// The analysis of a line must be a pure function of the line's content:
/// the tree keeps a line's cached analysis for as long as the line's bytes are
/// unchanged (edits drop it only for the lines they touch). Summaries form a
/// monoid: `combine` is associative with `emptySummary` as identity, and a
/// node's summary is the combination, in line order, of its lines' summaries.
/// Summaries that need positions (for example "the first strong character")
/// carry their own line count and offset by it in `combine`.
package protocol LineAnalysis: Sendable {
  associatedtype Summary: Sendable

  /// Analyses one line (content only; `line.terminator` says how it ends).
  init(line: Line)

  /// This line's contribution to the summaries of the nodes above it.
  var summary: Summary { get }

  /// The summary of no lines: the identity of `combine`.
  static var emptySummary: Summary { get }

  /// The summary of `earlier` lines followed by `later` lines.
  static func combine(_ earlier: Summary, _ later: Summary) -> Summary
}

/// The analysis that records nothing: documents use it until the bidi
/// analysis is in place.
package struct NoLineAnalysis: LineAnalysis {
  package struct Summary: Hashable, Sendable {}

  package init(line: Line) {}
  package var summary: Summary { Summary() }
  package static var emptySummary: Summary { Summary() }
  package static func combine(_ earlier: Summary, _ later: Summary) -> Summary { Summary() }
}
