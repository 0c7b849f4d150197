import BidiHazards
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Plain text, block by block: the one-pass scan of `scanPlainLines` and,
// with `--jobs` above 1, the same scan of the text's complete lines in
// line-aligned parts on as many threads (`scanPlainParts`), their findings
// written in order.
extension CheckRun {
  /// Where `scanPlainLines` stands in the block it reads.
  struct PlainScan {
    /// The number of the line at `lineStart`.
    var lineNumber = 0
    /// Whether the line at `lineStart` is scanned without the search.
    var next = false
    /// The buffer offset where the current line starts, and where the
    /// search for the next hazard byte and for line breaks goes on (the
    /// bytes from `lineStart` to `counted` hold no line break and no hazard).
    var lineStart = 0
    var counted = 0
  }

  /// Scans plain text in one pass: it carries no tokenizer state from line
  /// to line, so only the lines that hold a byte where a finding can start
  /// (`HazardBytes`) are scanned, found by jumping from one such byte to the
  /// next and counting the line breaks between (LF, CR LF and CR, as the
  /// daemon splits lines). A regular file comes here once the clean-line
  /// scan has found such a byte (so a clean file costs that scan alone).
  /// The line after a line with a hazard byte is scanned without the
  /// search: in text dense with controls, most lines hold one. With
  /// several jobs, the same scan in parts (`scanPlainParts`).
  mutating func scanPlainLines(_ input: inout CheckInput, scanner: HazardScanner, path: String) {
    if let workers {
      scanPlainParts(&input, workers: workers, scanner: scanner, path: path)
      return
    }
    var state = PlainScan()
    while true {
      let atEnd = input.atEnd && !input.readFailed
      let done = input.buffer.withUnsafeBufferPointer { p -> Bool in
        scanPlainBlock(p, atEnd: atEnd, state: &state, scanner: scanner, path: path)
      }
      if done { return }
      input.discard(state.lineStart)
      state.counted -= state.lineStart
      state.lineStart = 0
      input.readOn()
      if input.readFailed {
        fail(path, String(cString: strerror(input.readError)))
        return
      }
    }
  }

  /// Scans the lines of the block `p` from `state` on (`atEnd`: the text
  /// ends with the block); returns true when the text is done, false when
  /// the line at `state.lineStart` needs the next block or, once `pending`
  /// holds `stopAt` bytes or more after a line, is the next to scan.
  mutating func scanPlainBlock(
    _ p: UnsafeBufferPointer<UInt8>, atEnd: Bool, state: inout PlainScan, scanner: HazardScanner, path: String,
    stopAt: Int = .max
  ) -> Bool {
    var initial = LexerState.initial  // (plain text: left as it is by each line)
    let n = p.count
    guard let base = p.baseAddress, n > 0 else { return atEnd }
    /// Counts the line breaks in `counted..<end`, moving `lineStart` to
    /// the start of the line that holds `end`; stops before a CR that
    /// ends the block (a CR LF may be split).
    func countBreaks(to end: Int) {
      let end = end == n && !atEnd && n > state.counted && base[n - 1] == 0x0D ? n - 1 : end
      state.lineNumber += LineBreaks.count(base, from: state.counted, to: end)
      if let start = LineBreaks.lastEnd(base, from: state.counted, to: end) { state.lineStart = start }
      state.counted = end
    }
    var breaks = ByteScan.LineBreakFinder(base, end: n)
    var ahead = ControlsAhead()
    while true {
      var from = state.lineStart
      if !state.next {
        guard let at = ahead.firstHazard(in: p, from: state.counted) else {
          countBreaks(to: n)
          return atEnd
        }
        countBreaks(to: at)
        from = at
      }
      // A line that the block cuts (a sequence cut off at its end
      // included) is scanned once the next block is read.
      let end = breaks.next(from: from)
      if !atEnd && (end == n || (base[end] == 0x0D && end + 1 == n)) {
        state.counted = from
        state.next = false
        return false
      }
      let line = UnsafeBufferPointer(rebasing: p[state.lineStart..<end])
      if let found = ahead.controls(ofLineFrom: state.lineStart, to: end, in: p) {
        scanLine(
          scanner, line, lineNumber: state.lineNumber, state: &initial, found: (ahead.found, found.range, found.base),
          path: path)
        state.next = !found.range.isEmpty || !lineBuffers.diagnostics.isEmpty
      } else {
        scanLine(scanner, line, lineNumber: state.lineNumber, state: &initial, path: path)
        state.next = lineBuffers.heldControls || !lineBuffers.diagnostics.isEmpty
      }
      guard end < n else { return true }
      state.lineNumber += 1
      state.lineStart = end + (base[end] == 0x0D && end + 1 < n && base[end + 1] == 0x0A ? 2 : 1)
      state.counted = state.lineStart
      if pending.count >= stopAt { return false }
    }
  }
}
