import BidiHazards
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bidi controls of the lines ahead of `CheckRun.scanPlainBlock`,
/// found by one search of a window of whole lines
/// (`BidiControl.appendControls`) rather than one a line: in text dense
/// with controls most lines are scanned, and a search of its own cost each
/// about 350 instructions besides its bytes (the calls, the last 64 bytes
/// searched again). A line inside the window's well-formed part takes its
/// controls from here; any other (one that holds or follows the window's
/// first ill-formed sequence) is searched alone, as before, and so are the
/// 16 lines after it; the next line starts a new window.
struct ControlsAhead {
  /// The controls of `block[start..<stop]`, offsets from `start`.
  private(set) var found = BidiControlList()
  /// Where the window starts (a line's start), and where its search
  /// stopped: its first ill-formed sequence, or its end. -1: no window.
  private var start = 0
  private var stop = -1
  /// Where the window ends (after an LF, or the block's end).
  private var end = 0
  /// The first control not before the last line asked for.
  private var next = 0
  /// Lines still to search alone after a window stopped at an ill-formed
  /// sequence: in text with one every few lines, a window a line would
  /// search the bytes up to the next one twice.
  private var alone = 0
  static let linesAloneAfterIllFormed = 16

  /// Bytes searched a window at least (then up to a line break).
  static let window = 1 << 14

  /// The range in `found` of the controls of the line `block[lineStart..<end]`
  /// (`lineStart` begins a line, `end` is a line break or the block's end)
  /// and the offset to subtract from theirs, or nil when the line is not
  /// inside a window's well-formed part. Lines are asked for in order.
  mutating func controls(ofLineFrom lineStart: Int, to end: Int, in block: UnsafeBufferPointer<UInt8>) -> (
    range: Range<Int>, base: Int
  )? {
    if stop < 0 || lineStart < start || lineStart >= stop {
      if alone > 0 {
        alone &-= 1
        return nil
      }
      search(from: lineStart, in: block)
    }
    guard end <= stop else {
      // Searched alone, with the lines after it for a while; then a new window.
      stop = -1
      alone = Self.linesAloneAfterIllFormed
      return nil
    }
    let from = lineStart &- start
    let to = end &- start
    let count = found.count
    return found.offsets.withUnsafeBufferPointer { offsets in
      let first = Self.firstIndex(in: offsets, from: next, count: count, notBelow: from)
      let last = Self.firstIndex(in: offsets, from: first, count: count, notBelow: to)
      next = last
      return (first..<last, from)
    }
  }

  /// The first index from `start` (below `count`) of `offsets` (ascending)
  /// whose offset is `bound` or more, else `count`: by steps that double
  /// from `start`, then halving (a line holds a few controls of the
  /// window's many; one compare a control cost more).
  @inline(__always)
  static func firstIndex(in offsets: UnsafeBufferPointer<Int>, from start: Int, count: Int, notBelow bound: Int)
    -> Int
  {
    // offsets[low] < bound (low = start - 1 stands for "before start");
    // offsets[high] >= bound or high == count.
    var low = start &- 1
    var step = 1
    var high = start
    while high < count && offsets[high] < bound {
      low = high
      high = start &+ step
      step &<<= 1
    }
    if high > count { high = count }
    while high &- low > 1 {
      let middle = low &+ (high &- low) &>> 1
      if offsets[middle] < bound { low = middle } else { high = middle }
    }
    return high
  }

  /// The first byte at or after `from` (which begins a sequence) where a
  /// finding can start (`HazardBytes.firstHazard`), from the window when
  /// it holds `from` (its bytes are not searched twice: in text with a
  /// control every few lines, each line with one starts a window).
  mutating func firstHazard(in block: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    guard stop >= 0 && from >= start && from <= stop else { return HazardBytes.firstHazard(in: block, from: from) }
    let count = found.count
    let first = found.offsets.withUnsafeBufferPointer {
      Self.firstIndex(in: $0, from: next, count: count, notBelow: from &- start)
    }
    if first < count { return start &+ found.offsets[first] }
    if stop < end { return stop }  // ill-formed, or cut off by the block's end
    return HazardBytes.firstHazard(in: block, from: end)
  }

  /// Searches the window from `lineStart`: at least `window` bytes, up to
  /// the line break after them (an LF), or the block's end.
  private mutating func search(from lineStart: Int, in block: UnsafeBufferPointer<UInt8>) {
    let base = block.baseAddress!
    let n = block.count
    var end = n
    let least = lineStart &+ Self.window
    if least < n, let lf = memchr(base + least, 0x0A, n &- least) {
      end = UnsafePointer<UInt8>(lf.assumingMemoryBound(to: UInt8.self)) - base + 1
    }
    found.removeAll()
    start = lineStart
    self.end = end
    let window = UnsafeBufferPointer(rebasing: block[lineStart..<end])
    stop = lineStart &+ BidiControl.appendControls(in: window, from: 0, to: &found)
    next = 0
  }
}
