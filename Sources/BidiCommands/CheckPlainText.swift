import BidiHazards
import CByteScan
import JSONRPC
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Plain text, block by block: the one-pass scan of `scanPlainLines` and,
// with `--jobs` above 1, the same scan of a block's complete lines in
// line-aligned parts on as many threads, their findings written in order.
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

  /// Scans the lines of the block `p` from `state` on (`atEnd`: the text
  /// ends with the block); returns true when the text is done, false when
  /// the line at `state.lineStart` needs the next block or, once `pending`
  /// holds `stopAt` bytes or more after a line, is the next to scan.
  mutating func scanPlainBlock(
    _ p: UnsafeBufferPointer<UInt8>, atEnd: Bool, state: inout PlainScan, scanner: HazardScanner, path: String,
    stopAt: Int = .max
  ) -> Bool {
    let initial = LexerState.initial
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
    while true {
      var from = state.lineStart
      if !state.next {
        guard let at = HazardBytes.firstHazard(in: p, from: state.counted) else {
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
      let scan = scanLine(
        scanner, UnsafeBufferPointer(rebasing: p[state.lineStart..<end]), lineNumber: state.lineNumber,
        state: initial, path: path)
      state.next = lineBuffers.heldControls || !scan.diagnostics.isEmpty
      guard end < n else { return true }
      state.lineNumber += 1
      state.lineStart = end + (base[end] == 0x0D && end + 1 < n && base[end + 1] == 0x0A ? 2 : 1)
      state.counted = state.lineStart
      if pending.count >= stopAt { return false }
    }
  }

  /// With `jobs` above 1: when the complete lines of the block from
  /// `state.lineStart` on (up to its last LF, or to the end of the text)
  /// make at least two parts of `partMinimum` bytes, cuts them after an LF
  /// into up to four parts a job, scans each part on one of `jobs` threads
  /// (this one and `jobs - 1` more, each taking the next part left) exactly
  /// as `scanPlainBlock` scans a text that ends with it (no line, and so no
  /// finding, crosses a cut: the scan of plain text carries nothing from
  /// line to line), then writes the parts' findings in order. Moves `state`
  /// past them; returns true when that is the end of the text. Output is
  /// byte for byte that of one pass; only the JSON and SARIF separators of
  /// a part depend on the findings before it, and are fixed when the part
  /// is written.
  mutating func scanPlainParts(
    _ p: UnsafeBufferPointer<UInt8>, atEnd: Bool, state: inout PlainScan, parts: inout [ScanPart],
    scanner: HazardScanner, path: String
  ) -> Bool {
    guard let base = p.baseAddress else { return false }
    let start = state.lineStart
    var end = p.count
    if !atEnd {
      guard let lf = Self.lastLF(base, from: start, to: end) else { return false }
      end = lf + 1
    }
    let count = min(4 * jobs, (end - start) / max(1, partMinimum))
    guard count > 1 else { return false }
    // The cuts: after the first LF at or past each equal share.
    var bounds = [start]
    for k in 1..<count {
      let share = start + (end - start) / count * k
      guard let lf = Self.firstLF(base, from: max(share, bounds[bounds.count - 1]), to: end), lf + 1 < end else {
        break
      }
      bounds.append(lf + 1)
    }
    bounds.append(end)
    guard bounds.count > 2 else { return false }
    // Each part with the number of its first line.
    let used = bounds.count - 1
    while parts.count < used { parts.append(ScanPart(run: partRun(), scanner: scanner, path: path)) }
    var firstLine = state.lineNumber
    for k in 0..<used {
      if k > 0 { firstLine += Self.lineBreaks(base, from: bounds[k - 1], to: bounds[k]) }
      parts[k].reset(
        text: UnsafeBufferPointer(start: base, count: bounds[k + 1]),
        state: PlainScan(lineNumber: firstLine, next: false, lineStart: bounds[k], counted: bounds[k]))
    }
    PartQueue(Array(parts[..<used])).run(threads: min(jobs, used))
    // Written as they are (no copy), after what is pending.
    flush()
    var lastLine = state.lineNumber
    for part in parts[..<used] {
      let found = part.run.findings - Self.partFindingsStart(format)
      // A part's findings were written as if some came before.
      var skip = format != .text && findings == 0 && found > 0 ? 2 : 0
      findings += found
      for bytes in [part.collector.bytes, part.run.pending] where !bytes.isEmpty {
        write(skip > 0 ? Array(bytes[skip...]) : bytes)
        skip = 0
      }
      // The rest of a part stopped at its limit, here, streamed.
      if !part.finished {
        _ = scanPlainBlock(part.text, atEnd: true, state: &part.state, scanner: scanner, path: path)
        flush()
      }
      lastLine = part.state.lineNumber
    }
    state = PlainScan(lineNumber: lastLine, next: false, lineStart: end, counted: end)
    return end == p.count && atEnd
  }

  /// The `findings` count a part's run starts from: JSON and SARIF write
  /// the separator before each finding after the first.
  static func partFindingsStart(_ format: Format) -> Int { format == .text ? 0 : 1 }

  /// A copy of this run for a part: its findings collected, not written.
  func partRun() -> CheckRun {
    var run = self
    let collector = PartCollector()
    run.write = { collector.bytes.append(contentsOf: $0) }
    run.collector = collector
    run.pending = []
    run.findings = Self.partFindingsStart(format)
    run.lineBuffers = HazardScanner.LineBuffers()
    // Written once the part is done, as it is (no copy to the collector).
    run.flushThreshold = .max
    return run
  }

  /// `LineBreaks.count` of a range that no CR LF straddles: when it holds
  /// no CR, its LFs counted in C (`cbs_count_byte`, several times faster).
  static func lineBreaks(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    PartCuts.lineBreaks(base, from: from, to: to)
  }

  static func lastLF(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
    var i = to
    while i > from {
      i -= 1
      if base[i] == 0x0A { return i }
    }
    return nil
  }

  static func firstLF(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
    guard from < to, let found = memchr(base + from, 0x0A, to - from) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}

/// Where `scanPlainParts` cuts the text and numbers the parts' lines.
package enum PartCuts {
  /// The line breaks (LF, CR LF, CR) of `base[from..<to]`, a range that no
  /// CR LF straddles: `LineBreaks.count`, or when the range holds no CR its
  /// LFs counted by `cbs_count_byte`.
  package static func lineBreaks(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    guard from < to else { return 0 }
    if memchr(base + from, 0x0D, to - from) != nil { return LineBreaks.count(base, from: from, to: to) }
    return cbs_count_byte(base + from, to - from, 0x0A)
  }
}

/// The bytes a part's run writes.
final class PartCollector {
  var bytes: [UInt8] = []
}

/// One part of `scanPlainParts`: its run, text (up to the part's end)
/// and where its scan stands; kept for the next block's part (its buffers
/// keep their storage).
final class ScanPart {
  var run: CheckRun
  var text = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  var state = CheckRun.PlainScan()
  /// Whether the scan reached the part's end (else `state` is at the line
  /// it stopped before, its findings at `run.partOutputLimit`).
  var finished = false
  let scanner: HazardScanner
  let path: String
  var collector: PartCollector { run.collector! }

  init(run: CheckRun, scanner: HazardScanner, path: String) {
    self.run = run
    self.scanner = scanner
    self.path = path
  }

  /// Makes it the part `text` from `state` on, with nothing written yet.
  func reset(text: UnsafeBufferPointer<UInt8>, state: CheckRun.PlainScan) {
    self.text = text
    self.state = state
    finished = false
    run.findings = CheckRun.partFindingsStart(run.format)
    run.pending.removeAll(keepingCapacity: true)
    collector.bytes.removeAll(keepingCapacity: true)
  }

  func scan() {
    finished = run.scanPlainBlock(
      text, atEnd: true, state: &state, scanner: scanner, path: path, stopAt: run.partOutputLimit)
  }
}

/// The parts of `scanPlainParts`, taken in order by the threads that scan
/// them (each part by one thread only, so the parts need no lock).
private final class PartQueue: @unchecked Sendable {
  let parts: [ScanPart]
  private var next = 0
  private let lock = ConditionLock()

  init(_ parts: [ScanPart]) { self.parts = parts }

  /// The index of the next part no thread has taken, if any.
  private func take() -> Int? {
    lock.withLock {
      guard next < parts.count else { return nil }
      next += 1
      return next - 1
    }
  }

  private func work() {
    while let k = take() { parts[k].scan() }
  }

  /// Scans every part on this thread and `threads - 1` more (fewer if a
  /// thread cannot be started), and returns once all are done (joined:
  /// nothing of a part is held by another thread after).
  func run(threads: Int) {
    var started: [JoinableThread] = []
    for _ in 1..<max(1, threads) {
      guard let thread = startJoinableThread({ [self] in work() }) else { break }
      started.append(thread)
    }
    work()
    for thread in started { thread.join() }
  }
}
