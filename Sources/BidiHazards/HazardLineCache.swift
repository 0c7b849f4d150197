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
  /// The lines whose `results` are not empty, ascending: reading the
  /// diagnostics costs the number of such lines, not the document's length.
  private var flagged: [Int] = []
  /// Lines to rescan below `unscannedFrom`, in no particular order.
  private var stale: Set<Int>
  /// Every line from here on waits for a scan (a new document, or the rest
  /// of one whose scan was cut short by `refresh(limit:)`).
  private var unscannedFrom: Int

  /// A cache for a document of `lineCount` lines, all still to scan.
  public init(scanner: HazardScanner, lineCount: Int) {
    let count = max(lineCount, 1)
    self.scanner = scanner
    self.startStates = Array(repeating: .initial, count: count)
    self.results = Array(repeating: [], count: count)
    self.stale = []
    self.unscannedFrom = 0
  }

  /// The number of lines.
  public var lineCount: Int { startStates.count }

  /// Whether some lines wait for `refresh`.
  public var needsRefresh: Bool { !stale.isEmpty || unscannedFrom < lineCount }

  /// How far the first scan has come: every line from here on is still to
  /// scan (`lineCount` when none is), for progress reports.
  public var firstUnscannedLine: Int { unscannedFrom }

  private func isStale(_ line: Int) -> Bool { line >= unscannedFrom || stale.contains(line) }

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
    // Flagged lines: those replaced go (the new lines are rescanned), those
    // after the edit move with it.
    flagged = flagged.compactMap { $0 < lower ? $0 : $0 >= upper ? $0 + delta : nil }
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
    // The unscanned tail moves with the lines after the edit.
    var tail = unscannedFrom
    if tail >= upper {
      tail += delta
    } else if tail > lower {
      tail = lower
    }
    unscannedFrom = min(tail, lineCount)
    stale = shifted.filter { $0 < unscannedFrom }
  }

  /// Rescans the stale lines, at most `limit` of them (the rest wait for the
  /// next call: `needsRefresh` says whether some do); `line(n)` gives line
  /// `n`'s UTF-8 bytes without terminator. Returns the ranges of lines
  /// rescanned, in order.
  @discardableResult
  public mutating func refresh(limit: Int = .max, line: (Int) -> [UInt8]) -> [Range<Int>] {
    var rescanned: [Range<Int>] = []
    var budget = limit
    var starts = stale.sorted()
    if unscannedFrom < lineCount { starts.append(unscannedFrom) }
    for first in starts where budget > 0 && isStale(first) {
      var n = first
      while true {
        stale.remove(n)
        if n == unscannedFrom { unscannedFrom += 1 }
        let bytes = line(n)
        let scan = scanner.scanLine(bytes, lineNumber: n, state: startStates[n])
        results[n] = scan.diagnostics
        setFlag(n, !scan.diagnostics.isEmpty)
        budget -= 1
        let next = n + 1
        guard next < lineCount, startStates[next] != scan.endState || isStale(next) else { break }
        startStates[next] = scan.endState
        if budget <= 0 {
          if !isStale(next) { stale.insert(next) }
          break
        }
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
    let lines = lines.clamped(to: 0..<lineCount)
    for n in flagged where lines.contains(n) {
      for var diagnostic in results[n] {
        diagnostic.line = n
        all.append(diagnostic)
      }
    }
    return all
  }
}

extension HazardLineCache {
  /// Records whether line `n` has diagnostics in `flagged`.
  fileprivate mutating func setFlag(_ n: Int, _ on: Bool) {
    // Binary search for the insertion point.
    var low = 0
    var high = flagged.count
    while low < high {
      let mid = (low + high) / 2
      if flagged[mid] < n { low = mid + 1 } else { high = mid }
    }
    let present = low < flagged.count && flagged[low] == n
    if on && !present {
      flagged.insert(n, at: low)
    } else if !on && present {
      flagged.remove(at: low)
    }
  }
}
