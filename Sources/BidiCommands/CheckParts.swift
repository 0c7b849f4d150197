import BidiHazards
import CByteScan
import JSONRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Plain text on `--jobs` threads: read in blocks, each block's complete
// lines cut into line-aligned parts that the run's `PartWorkers` scan
// while this thread reads the next block and writes the parts done, in
// order.
extension CheckRun {
  /// How many blocks are read and not yet written at most: the one whose
  /// parts are written and the one read ahead.
  static let blocksAhead = 2

  /// Scans plain text as `scanPlainLines` does, on the threads of
  /// `workers` and this one: reads blocks of `partBlock` bytes (more when a
  /// line is longer), cuts the complete lines of each (up to its last line
  /// break, or to the end of the text) after an LF into up to two parts a
  /// job of at least `partMinimum` bytes, queues them, and writes the parts
  /// done in order while the next block's are scanned. A part is scanned as
  /// `scanPlainBlock` scans a text that ends with it (no line, and so no
  /// finding, crosses a cut: the scan of plain text carries nothing from
  /// line to line), its first line's number counted here. Output is byte
  /// for byte that of one pass; only the JSON and SARIF separators of a
  /// part depend on the findings before it, and are fixed when the part is
  /// written. A read error is reported once the complete lines read before
  /// it are written.
  mutating func scanPlainParts(
    _ input: inout CheckInput, workers: PartWorkers, scanner: HazardScanner, path: String
  ) {
    // The parts queued and not written, in order; the parts and blocks
    // written, kept for their storage.
    var inOrder: [ScanPart] = []
    var written = 0
    var spareParts: [ScanPart] = []
    var spareBlocks: [TextBlock] = []
    var blocks = 0
    var lineNumber = 0
    var reading = true
    while true {
      if reading && blocks < Self.blocksAhead {
        let block = spareBlocks.popLast() ?? TextBlock()
        reading = readBlock(&input, into: block)
        let used = block.cuts.count - 1
        if used == 0 {
          spareBlocks.append(block)
        } else if used == 1 && written == inOrder.count {
          // Nothing is waiting: scanned here at once, as in one pass.
          var state = PlainScan(lineNumber: lineNumber)
          block.bytes.withUnsafeBufferPointer { p in
            _ = scanPlainBlock(
              UnsafeBufferPointer(rebasing: p[..<block.cuts[1]]), atEnd: true, state: &state, scanner: scanner,
              path: path)
          }
          lineNumber = state.lineNumber
          spareBlocks.append(block)
        } else {
          blocks += 1
          for k in 0..<used {
            let part = spareParts.popLast() ?? ScanPart(run: partRun(), scanner: scanner, path: path)
            part.reset(
              block: block, end: block.cuts[k + 1],
              state: PlainScan(lineNumber: lineNumber, lineStart: block.cuts[k], counted: block.cuts[k]))
            lineNumber += PartCuts.lineBreaks(block.cuts[k]..<block.cuts[k + 1], of: block.bytes)
            workers.queue(part)
            inOrder.append(part)
          }
        }
        continue
      }
      guard written < inOrder.count else { break }
      let part = inOrder[written]
      workers.wait(for: part)
      writePart(part, scanner: scanner, path: path)
      written += 1
      if written == inOrder.count {
        inOrder.removeAll(keepingCapacity: true)
        written = 0
      }
      if let block = part.block, part.end == block.cuts[block.cuts.count - 1] {
        blocks -= 1
        spareBlocks.append(block)
      }
      part.block = nil
      spareParts.append(part)
    }
    if input.readFailed { fail(path, String(cString: strerror(input.readError))) }
  }

  /// Reads the next block into `block` (the bytes of `input` up to a line
  /// break, at least `partBlock` of them unless the text ends first), and
  /// cuts it; returns false when there is no more to read.
  func readBlock(_ input: inout CheckInput, into block: TextBlock) -> Bool {
    while input.buffer.count < Self.partBlock && !input.atEnd { input.readMore(atMost: Self.partBlock) }
    var end = input.buffer.count
    // A line that the block cuts (a CR LF maybe) is read on; each read's
    // bytes are searched once for its end (a 100 MB line with no break was
    // searched whole after every read: 1.4 s from a file, 10 s from a pipe).
    if !input.atEnd || input.readFailed {
      var searched = 0
      while true {
        if let cut = input.buffer.withUnsafeBufferPointer({ PartCuts.lastLineEnd($0, from: searched) }) {
          end = cut
          break
        }
        // The text ends without a line break: its last line is complete,
        // unless a read failed (then no line after the last break is).
        guard !input.atEnd else {
          end = input.readFailed ? 0 : input.buffer.count
          break
        }
        // No break before the last byte (a CR, maybe, searched again).
        searched = max(0, input.buffer.count - 1)
        input.readMore(atMost: Self.partBlock)
      }
    }
    input.exchange(&block.bytes, keepingFrom: end)
    block.cut(end: end, parts: min(2 * jobs, end / max(1, partMinimum)))
    return !input.atEnd
  }

  /// Writes a part's findings (after what is pending), and scans and
  /// writes the rest of a part that stopped at its limit.
  mutating func writePart(_ part: ScanPart, scanner: HazardScanner, path: String) {
    flush()
    let found = part.run.findings - Self.partFindingsStart(format)
    // A part's findings were written as if some came before.
    var skip = format != .text && findings == 0 && found > 0 ? 2 : 0
    findings += found
    // Written as they are (no copy).
    for bytes in [part.collector.bytes, part.run.pending] where !bytes.isEmpty {
      write(skip > 0 ? Array(bytes[skip...]) : bytes)
      skip = 0
    }
    guard !part.finished, let block = part.block else { return }
    block.bytes.withUnsafeBufferPointer { p in
      _ = scanPlainBlock(
        UnsafeBufferPointer(rebasing: p[..<part.end]), atEnd: true, state: &part.state, scanner: scanner, path: path)
    }
    flush()
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
    run.workers = nil
    run.pending = []
    run.findings = Self.partFindingsStart(format)
    run.lineBuffers = HazardScanner.LineBuffers()
    // Buffers of its own, not the run's: a buffer shared with the run and
    // the other parts would be handed from thread to thread by copy on
    // write alone, which ThreadSanitizer cannot see (it reported the JSON
    // writer's once).
    run.jsonItem = JSONWriter(asciiOnly: true)
    run.noteBuffer = CheckRun.visualOrderPrefix
    run.sarifColumns = SARIFColumns()
    // Written once the part is done, as it is (no copy to the collector).
    run.flushThreshold = .max
    return run
  }
}

/// Where `scanPlainParts` cuts the text and numbers the parts' lines.
package enum PartCuts {
  /// The line breaks (LF, CR LF, CR) of `base[from..<to]`, a range that no
  /// CR LF straddles: its LFs (`cbs_count_line_feeds`, which also tells
  /// whether it holds a CR), or `LineBreaks.count` when it holds a CR.
  package static func lineBreaks(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    guard from < to else { return 0 }
    var carriageReturn: Int32 = 0
    let lineFeeds = cbs_count_line_feeds(base + from, to - from, &carriageReturn)
    return carriageReturn != 0 ? LineBreaks.count(base, from: from, to: to) : lineFeeds
  }

  /// The end of the last line break of `p` from `from` on that ends a
  /// complete line (an LF, or a CR not at the end: a CR LF may be cut
  /// there), if any.
  package static func lastLineEnd(_ p: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
    guard let base = p.baseAddress, p.count > 0 else { return nil }
    return LineBreaks.lastEnd(base, from: from, to: p.count - (base[p.count - 1] == 0x0D ? 1 : 0))
  }

  static func lineBreaks(_ range: Range<Int>, of bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { lineBreaks($0.baseAddress!, from: range.lowerBound, to: range.upperBound) }
  }

  /// The cuts of `base[..<end]` into up to `parts` parts of about equal
  /// size: 0, after the first LF at or past each equal share, and `end`.
  package static func cuts(_ base: UnsafePointer<UInt8>, end: Int, parts: Int) -> [Int] {
    guard end > 0 else { return [0] }
    var cuts = [0]
    for k in 1..<max(1, parts) {
      let share = end / parts * k
      let from = max(share, cuts[cuts.count - 1])
      guard from < end, let lf = memchr(base + from, 0x0A, end - from) else { break }
      let cut = UnsafeRawPointer(lf) - UnsafeRawPointer(base) + 1
      guard cut < end else { break }
      cuts.append(cut)
    }
    cuts.append(end)
    return cuts
  }
}

/// A block of the text that `scanPlainParts` reads: its bytes (kept from
/// block to block for their storage, not changed while its parts are
/// scanned) and where its complete lines are cut into parts.
final class TextBlock: @unchecked Sendable {
  var bytes: [UInt8] = []
  /// The parts' bounds, from 0 to the end of the complete lines.
  private(set) var cuts: [Int] = [0]

  func cut(end: Int, parts: Int) {
    cuts = bytes.withUnsafeBufferPointer { p in
      guard let base = p.baseAddress else { return [0] }
      return PartCuts.cuts(base, end: end, parts: parts)
    }
  }
}

/// The bytes a part's run writes.
final class PartCollector {
  var bytes: [UInt8] = []
}

/// One part of `scanPlainParts`: its run, its block's bytes up to the
/// part's end, and where its scan stands; kept for the next part (its
/// buffers keep their storage).
final class ScanPart {
  var run: CheckRun
  var block: TextBlock?
  var end = 0
  var state = CheckRun.PlainScan()
  /// Whether the scan reached the part's end (else `state` is at the line
  /// it stopped before, its findings at `run.partOutputLimit`).
  var finished = false
  /// Whether it is scanned (`PartWorkers`' lock held).
  var done = false
  let scanner: HazardScanner
  let path: String
  var collector: PartCollector { run.collector! }

  init(run: CheckRun, scanner: HazardScanner, path: String) {
    self.run = run
    self.scanner = scanner
    self.path = path
  }

  /// Makes it the part of `block` up to `end` from `state` on, with nothing
  /// written yet.
  func reset(block: TextBlock, end: Int, state: CheckRun.PlainScan) {
    self.block = block
    self.end = end
    self.state = state
    finished = false
    run.findings = CheckRun.partFindingsStart(run.format)
    run.pending.removeAll(keepingCapacity: true)
    collector.bytes.removeAll(keepingCapacity: true)
  }

  func scan() {
    guard let block else { return }
    finished = block.bytes.withUnsafeBufferPointer { p in
      run.scanPlainBlock(
        UnsafeBufferPointer(rebasing: p[..<end]), atEnd: true, state: &state, scanner: scanner, path: path,
        stopAt: run.partOutputLimit)
    }
  }
}
