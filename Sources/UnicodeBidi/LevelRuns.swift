// UAX #9, BD7 (level runs) for L2: the runs of one level of a display line or
// a paragraph, found from the places where the level changes, 64
// characters a word (`LevelScan.changes(_:from:to:)`), and what L2 needs to
// know of their levels.

extension LineLayout {
  /// BD7: writes the runs of `levels[0..<count]` (bit 7, the removed mark,
  /// ignored) to `runs`, in logical order; returns how many. The places
  /// where the level changes are found 64 characters at a time as a bit
  /// mask (`LevelScan.changes(_:from:to:)`) and the runs read off it
  /// (`RunWriter`), so that a run's end costs no mispredicted branch (runs
  /// are a word or a phrase long in mixed text, and vary).
  @discardableResult
  static func findRuns(
    _ levels: UnsafePointer<UInt8>, _ count: Int, _ start: Int, _ runs: UnsafeMutablePointer<BidiRun>
  ) -> Int {
    guard count > 0 else { return 0 }
    var writer = RunWriter(levels, start, runs)
    var block = 1
    while block < count {
      let blockEnd = min(block &+ 64, count)
      writer.take(LevelScan.changes(levels, from: block, to: blockEnd), block)
      block = blockEnd
    }
    writer.finish(count)
    return writer.written
  }

  /// The number of words `changeMasks` writes for `count` characters (at
  /// least one, for an allocation).
  @inline(__always)
  static func maskCount(_ count: Int) -> Int { max((count &+ 62) / 64, 1) }

  /// BD7's boundaries in `levels[0..<count]` (`count` ≥ 1): word k of
  /// `masks` has bit j set where the level of character 1 + 64k + j differs
  /// from the one before (`LevelScan.changes(_:from:to:)`; bit 7, the
  /// removed mark, ignored). Returns the number of runs.
  @inline(__always)
  static func changeMasks(_ levels: UnsafePointer<UInt8>, _ count: Int, _ masks: UnsafeMutablePointer<UInt64>)
    -> Int
  {
    var runs = 1
    var k = 0
    var block = 1
    while block < count {
      let blockEnd = min(block &+ 64, count)
      let changes = LevelScan.changes(levels, from: block, to: blockEnd)
      masks[k] = changes
      runs &+= changes.nonzeroBitCount
      k &+= 1
      block = blockEnd
    }
    return runs
  }

  /// What L2 needs to know of the levels of a line's runs before it
  /// reverses them (`reorder`): the highest level at which two
  /// neighbouring runs both stand, the lowest odd level (0xFF for none),
  /// and the last run's level.
  struct RunLevels {
    var highestPair: UInt8 = 0
    var lowestOdd: UInt8 = 0xFF
    var last: UInt8

    init(first: UInt8) {
      last = first
      lowestOdd = Self.oddOrNone(first)
    }

    /// `level` for an odd level, 0xFF for an even one.
    @inline(__always)
    static func oddOrNone(_ level: UInt8) -> UInt8 { level | (0 &- (level & 1 ^ 1)) }

    /// Takes the level of the run after the last.
    @inline(__always)
    mutating func append(_ level: UInt8) {
      highestPair = max(highestPair, min(last, level))
      lowestOdd = min(lowestOdd, Self.oddOrNone(level))
      last = level
    }
  }

  /// Writes runs of one level (BD7) in logical order, from the places
  /// where the level changes, a word of them at a time, and keeps what L2
  /// needs of their levels (`RunLevels`).
  struct RunWriter {
    let levels: UnsafePointer<UInt8>
    let start: Int
    let runs: UnsafeMutablePointer<BidiRun>
    var written = 0
    var runStart = 0
    var runLevels: RunLevels

    /// For `levels` (at least one), the runs in paragraph offsets from
    /// `start` on, written to `runs`.
    @inline(__always)
    init(_ levels: UnsafePointer<UInt8>, _ start: Int, _ runs: UnsafeMutablePointer<BidiRun>) {
      self.levels = levels
      self.start = start
      self.runs = runs
      runLevels = RunLevels(first: levels[0] & 0x7F)
    }

    /// Ends a run at each place `changes` marks (bit j for `block + j`).
    @inline(__always)
    mutating func take(_ changes: UInt64, _ block: Int) {
      var changes = changes
      while changes != 0 {
        let end = block &+ changes.trailingZeroBitCount
        runs[written] = BidiRun(start: start &+ runStart, end: start &+ end, level: runLevels.last)
        written &+= 1
        runStart = end
        runLevels.append(levels[end] & 0x7F)
        changes &= changes &- 1
      }
    }

    /// Writes the last run, which ends at `count`.
    @inline(__always)
    mutating func finish(_ count: Int) {
      runs[written] = BidiRun(start: start &+ runStart, end: start &+ count, level: runLevels.last)
      written &+= 1
    }
  }

  /// BD7: writes the runs of `levels[0..<count]` that `changeMasks` found
  /// in `masks` to `runs`, in logical order, and returns what L2 needs of
  /// their levels (inlined, so that a caller that does not need them does
  /// not compute them).
  @discardableResult @inline(__always)
  static func writeRuns(
    _ masks: UnsafePointer<UInt64>, _ levels: UnsafePointer<UInt8>, _ count: Int, _ start: Int,
    _ runs: UnsafeMutablePointer<BidiRun>
  ) -> RunLevels {
    var writer = RunWriter(levels, start, runs)
    var k = 0
    var block = 1
    while block < count {
      writer.take(masks[k], block)
      k &+= 1
      block &+= 64
    }
    writer.finish(count)
    return writer.runLevels
  }
}
