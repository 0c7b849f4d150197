/// Per-line hazard results of one document, kept up to date incrementally.
///
/// The state at the start of each line is cached; after an edit, only the
/// edited lines are rescanned, and the scan goes on past them only while the
/// state at the next line's start changes (for example when an edit opens a
/// block comment). Usage: `replaceLines(_:with:)` for each change, then
/// `refresh(line:)` before reading `diagnostics`.
public struct HazardLineCache: Sendable {
  /// The scanner (language, settings, renderer).
  public let scanner: HazardScanner
  /// The tokenizer state at the start of each line.
  public private(set) var startStates: [LexerState]
  private var results: [[HazardDiagnostic]]
  /// Lines to rescan, in no particular order.
  private var stale: Set<Int>

  /// A cache for a document of `lineCount` lines, all still to scan.
  public init(scanner: HazardScanner, lineCount: Int) {
    let count = max(lineCount, 1)
    self.scanner = scanner
    self.startStates = Array(repeating: .initial, count: count)
    self.results = Array(repeating: [], count: count)
    self.stale = Set(0..<count)
  }

  /// The number of lines.
  public var lineCount: Int { startStates.count }

  /// Whether some lines wait for `refresh`.
  public var needsRefresh: Bool { !stale.isEmpty }

  /// Records an edit: the lines `replaced` (numbers before the edit; an
  /// empty range inserts before its lower bound) are now `newLineCount` lines.
  /// Out-of-range values are clamped.
  public mutating func replaceLines(_ replaced: Range<Int>, with newLineCount: Int) {
    let lower = min(max(replaced.lowerBound, 0), lineCount)
    let upper = min(max(replaced.upperBound, lower), lineCount)
    let added = max(newLineCount, 0)
    let delta = added - (upper - lower)
    let oldCount = lineCount
    // The state at the start of line `lower` is the end state of the line
    // before it, which the edit does not touch.
    let carried = lower < oldCount ? startStates[lower] : .initial
    startStates.replaceSubrange(lower..<upper, with: repeatElement(carried, count: added))
    results.replaceSubrange(lower..<upper, with: repeatElement([], count: added))
    if startStates.isEmpty {
      startStates = [.initial]
      results = [[]]
    }
    if lower < lineCount { startStates[lower] = carried }
    var shifted = Set<Int>()
    // Lines appended at the end: their start state comes from rescanning
    // the last old line (its end state is not cached).
    if lower == oldCount, lower > 0, added > 0 { shifted.insert(lower - 1) }
    for line in stale where line < lower || line >= upper {
      shifted.insert(line < lower ? line : line + delta)
    }
    for line in lower..<(lower + added) { shifted.insert(line) }
    // After a deletion, the line that follows may now start in another
    // state. (After an insertion, rescanning the new lines compares their
    // end state with the next line's cached start state.)
    if added == 0, lower < lineCount { shifted.insert(lower) }
    stale = shifted.filter { $0 < lineCount }
  }

  /// Rescans the stale lines; `line(n)` gives line `n`'s UTF-8 bytes without
  /// terminator. Returns the ranges of lines rescanned, in order.
  @discardableResult
  public mutating func refresh(line: (Int) -> [UInt8]) -> [Range<Int>] {
    var rescanned: [Range<Int>] = []
    for first in stale.sorted() where stale.contains(first) {
      var n = first
      while true {
        stale.remove(n)
        let bytes = line(n)
        let scan = scanner.scanLine(bytes, lineNumber: n, state: startStates[n])
        results[n] = scan.diagnostics
        let next = n + 1
        guard next < lineCount, startStates[next] != scan.endState || stale.contains(next) else { break }
        startStates[next] = scan.endState
        n = next
      }
      rescanned.append(first..<(n + 1))
    }
    return rescanned
  }

  /// Every diagnostic of the document, in order, with current line numbers.
  public var diagnostics: [HazardDiagnostic] {
    diagnostics(in: 0..<lineCount)
  }

  /// The diagnostics of some lines, with current line numbers.
  public func diagnostics(in lines: Range<Int>) -> [HazardDiagnostic] {
    var all: [HazardDiagnostic] = []
    for n in lines.clamped(to: 0..<lineCount) {
      for var diagnostic in results[n] {
        diagnostic.line = n
        all.append(diagnostic)
      }
    }
    return all
  }
}
