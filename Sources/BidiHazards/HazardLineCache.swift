import DocumentStore

/// What the hazard scan keeps for one line of a document, in the document's
/// `LineTree` (see `LineState`): the tokenizer state at the line's start and
/// the line's diagnostics.
package struct HazardLineState: LineState, Hashable {
  /// The tokenizer state at the start of the line.
  package var startState: LexerState
  /// The line's diagnostics (their `line` as when they were found).
  package var diagnostics: [HazardDiagnostic]
  /// Hazards of the line beyond the scanner's per-line limit (counted only).
  package var omitted: Int

  package init(startState: LexerState, diagnostics: [HazardDiagnostic], omitted: Int = 0) {
    self.startState = startState
    self.diagnostics = diagnostics
    self.omitted = omitted
  }

  /// Lines with diagnostics are flagged, so reading a document's diagnostics
  /// costs their number, not the document's length.
  package var isFlagged: Bool { !diagnostics.isEmpty }

  /// Most lines start in code and hold no hazard: the line tree keeps those
  /// in a byte a line (see `LineState`).
  package static var common: HazardLineState? { HazardLineState(startState: .initial, diagnostics: []) }

  package var isCommon: Bool {
    // `startState == .initial`, without comparing the whole state.
    guard diagnostics.isEmpty, omitted == 0, startState.frames.isEmpty, case .code = startState.mode else {
      return false
    }
    return true
  }
}

/// Ends `HazardLineCache.mayHaveHazards`' walk over a tree's chunks.
private struct HazardFound: Error {}

/// Hazard results of a document, kept up to date incrementally in the
/// document's line tree.
///
/// Each line's `HazardLineState` lives beside the line; an edit marks the
/// first line it touched stale and drops the states of the others (see
/// `LineState`). `refresh` rescans from the first line without a fresh
/// state, and goes on past the edit only while the tokenizer state at the
/// next line's start changes (for example when an edit opens a block
/// comment). Read `diagnostics` once `needsRefresh` is false.
package struct HazardLineCache: Sendable {
  /// The scanner (language, settings, renderer).
  package let scanner: HazardScanner

  package init(scanner: HazardScanner) {
    self.scanner = scanner
  }

  /// Whether some lines of `text` wait for `refresh`.
  package func needsRefresh<A>(_ text: LineTree<A>) -> Bool {
    text.freshStateCount < text.lineCount
  }

  /// Whether `text` holds a byte where a hazard can start (a bidi control
  /// or ill-formed UTF-8; see `HazardBytes`). When it holds none, its
  /// diagnostics are empty whatever its tokenizer states are, so they can be
  /// published before the scan that records those states has run.
  package static func mayHaveHazards<A>(_ text: LineTree<A>) -> Bool {
    do {
      // A leaf holds whole lines, so no UTF-8 sequence is cut between chunks.
      try text.forEachChunk { (chunk) throws(HazardFound) in
        if HazardBytes.firstHazard(in: chunk) != nil { throw HazardFound() }
      }
      return false
    } catch {
      return true
    }
  }

  /// The first line that waits for a scan (`lineCount` when none does), for
  /// progress reports.
  package func firstUnscannedLine<A>(_ text: LineTree<A>) -> Int {
    text.firstLineWithoutFreshState(from: 0) ?? text.lineCount
  }

  /// Rescans the lines of `text` that wait for it, at most `limit` of them
  /// and, once `bytes` bytes of lines have been scanned or `stop()` turns
  /// true (asked after each line), no more (the rest wait for the next
  /// call: `needsRefresh` says whether some do; a line is always scanned
  /// whole). Returns the ranges of lines rescanned, in order.
  @discardableResult
  package func refresh<A>(
    _ text: inout LineTree<A>, limit: Int = .max, bytes: Int = .max, until stop: () -> Bool = { false }
  ) -> [Range<Int>] {
    refreshCounting(&text, limit: limit, bytes: bytes, until: stop).ranges
  }

  /// One slice of `refresh`: about `bytes` bytes of lines, or until
  /// `stop()`; returns how many bytes of lines it scanned.
  package func refreshSlice<A>(_ text: inout LineTree<A>, bytes: Int, until stop: () -> Bool) -> Int {
    refreshCounting(&text, limit: .max, bytes: bytes, until: stop).bytes
  }

  private func refreshCounting<A>(
    _ text: inout LineTree<A>, limit: Int, bytes: Int, until stop: () -> Bool
  ) -> (ranges: [Range<Int>], bytes: Int) {
    var rescanned: [Range<Int>] = []
    var budget = limit
    var byteBudget = bytes
    var from = 0
    while budget > 0, let first = text.firstLineWithoutFreshState(from: from) {
      var state = startState(of: first, in: text)
      var last = first
      // Scan from `first` until the state arriving at a line equals the
      // fresh one stored there (nothing changed from there on) or the
      // budget is spent.
      text.updateLineStates(from: first, as: HazardLineState.self) { n, line, slot in
        if n > first {
          if let slot, !slot.isStale, slot.state.startState == state { return false }
          if budget <= 0 {
            // Resume there next time, from the state the scan arrived with.
            slot = StoredLineState(
              HazardLineState(
                startState: state, diagnostics: slot?.state.diagnostics ?? [], omitted: slot?.state.omitted ?? 0),
              isStale: true)
            return false
          }
        }
        let scan = line.withUTF8 { scanner.scanLine($0, lineNumber: n, state: state) }
        slot = StoredLineState(HazardLineState(startState: state, diagnostics: scan.diagnostics, omitted: scan.omitted))
        budget -= 1
        byteBudget -= line.utf8Count
        if byteBudget <= 0 || stop() { budget = 0 }
        state = scan.endState
        last = n
        return true
      }
      rescanned.append(first..<(last + 1))
      from = last + 1
    }
    return (rescanned, bytes - byteBudget)
  }

  /// The tokenizer state at the start of line `n`, where a rescan starts:
  /// the one stored for it (an edit keeps it, stale), else the end state of
  /// the line before.
  private func startState<A>(of n: Int, in text: LineTree<A>) -> LexerState {
    if let stored = text.lineState(ofLine: n, as: HazardLineState.self) { return stored.state.startState }
    guard n > 0, let previous = text.lineState(ofLine: n - 1, as: HazardLineState.self) else { return .initial }
    return scan(n - 1, in: text, state: previous.state.startState).endState
  }

  private func scan<A>(_ n: Int, in text: LineTree<A>, state: LexerState) -> LineScan {
    guard let line = try? text.line(n) else { return LineScan(diagnostics: [], endState: state) }
    return line.withUTF8 { scanner.scanLine($0, lineNumber: n, state: state) }
  }

  /// Every diagnostic of `text`, in order, with current line numbers.
  package func diagnostics<A>(_ text: LineTree<A>) -> [HazardDiagnostic] {
    diagnostics(text, in: 0..<text.lineCount)
  }

  /// Calls `body` with each line that has diagnostics (its current number
  /// and its state), in order, until `body` returns false.
  package func forEachFlaggedLine<A>(_ text: LineTree<A>, _ body: (Int, HazardLineState) -> Bool) {
    var from = 0
    while let n = text.nextFlaggedLine(from: from) {
      guard let state = text.lineState(ofLine: n, as: HazardLineState.self)?.state, body(n, state) else { return }
      from = n + 1
    }
  }

  /// The diagnostics of some lines, with current line numbers: O(log n) for
  /// each line that has some.
  package func diagnostics<A>(_ text: LineTree<A>, in lines: Range<Int>) -> [HazardDiagnostic] {
    var all: [HazardDiagnostic] = []
    let lines = lines.clamped(to: 0..<text.lineCount)
    var from = lines.lowerBound
    while let n = text.nextFlaggedLine(from: from), n < lines.upperBound {
      for var diagnostic in text.lineState(ofLine: n, as: HazardLineState.self)?.state.diagnostics ?? [] {
        diagnostic.line = n
        all.append(diagnostic)
      }
      from = n + 1
    }
    return all
  }
}

// MARK: Fix-all that converges

extension HazardLineCache {
  /// Fix-all for `text`: edits after which a rescan finds no hazard. Call
  /// after `refresh` (the diagnostics and start states must be up to date).
  ///
  /// The edits of one pass are applied to the lines they touch, which are
  /// rescanned from the cached start states (and the lines after them while
  /// the state at their start changes); what a rescan finds is fixed in
  /// another pass, for a few passes. Edits refer to the original lines and
  /// never overlap; none adds or removes a line.
  /// Lines whose diagnostics were capped are rescanned without the cap, so
  /// that fix-all fixes every hazard, shown or not.
  package func fixAllEdits<A>(_ text: LineTree<A>, strategy: FixAllStrategy) -> [HazardTextEdit] {
    var uncapped = scanner
    uncapped.maximumDiagnosticsPerLine = nil
    var all: [HazardDiagnostic] = []
    forEachFlaggedLine(text) { n, state in
      if state.omitted > 0, let line = try? text.line(n) {
        all += line.withUTF8 { uncapped.scanLine($0, lineNumber: n, state: state.startState) }.diagnostics
      } else {
        all += state.diagnostics.map { diagnostic in
          var diagnostic = diagnostic
          diagnostic.line = n
          return diagnostic
        }
      }
      return true
    }
    var fixAll = ConvergingFixAll(scanner: uncapped, lineCount: text.lineCount) { n in
      text.lineState(ofLine: n, as: HazardLineState.self)?.state.startState ?? .initial
    }
    return fixAll.edits(for: all, strategy: strategy) { n in
      (try? text.line(n))?.withUTF8 { Array($0) } ?? []
    }
  }
}
