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
  /// How a leaf keeps its lines' cached analyses: one optional slot a line
  /// unless the analysis packs itself smaller (a document of a million short
  /// lines keeps a million of them).
  associatedtype Column: LineAnalysisColumn = AnalysisSlots<Self> where Column.Analysis == Self

  /// Analyses one line (content only; `line.terminator` says how it ends).
  init(line: Line)

  /// This line's contribution to the summaries of the nodes above it.
  var summary: Summary { get }

  /// The summary of no lines: the identity of `combine`.
  static var emptySummary: Summary { get }

  /// The summary of `earlier` lines followed by `later` lines.
  static func combine(_ earlier: Summary, _ later: Summary) -> Summary
}

/// The cached analyses of one leaf's lines: none at first, each stored once
/// computed (and kept while the leaf lives).
package protocol LineAnalysisColumn: Sendable {
  associatedtype Analysis
  /// A column of `lineCount` lines, none of them cached.
  init(lineCount: Int)
  /// The number of lines.
  var lineCount: Int { get }
  /// Line `j`'s cached analysis, or nil; `utf8Count` is the line's content
  /// length in bytes (which a column need not store).
  subscript(j: Int, utf8Count utf8Count: Int) -> Analysis? { get }
  /// Caches `analysis` for line `j`.
  mutating func store(_ analysis: Analysis, at j: Int)
}

/// The plain column: one optional analysis a line.
package struct AnalysisSlots<Analysis: Sendable>: LineAnalysisColumn {
  private var slots: [Analysis?]

  package init(lineCount: Int) { slots = Array(repeating: nil, count: lineCount) }
  package var lineCount: Int { slots.count }
  package subscript(j: Int, utf8Count utf8Count: Int) -> Analysis? { slots[j] }
  package mutating func store(_ analysis: Analysis, at j: Int) { slots[j] = analysis }
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
