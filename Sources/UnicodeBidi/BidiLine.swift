import CUnicodeBidiData

/// One display line of a `BidiParagraph`, reordered by itself: its levels
/// after L1, its runs in visual order (L2), the maps between logical and
/// visual positions (with L3 when asked for), and its text with mirrored
/// glyphs (L4).
///
/// Logical offsets (run bounds, `visualOrder`, `visualToLogical` values)
/// count from the start of the paragraph; visual positions
/// (`logicalToVisual` values, `visualToLogical` indices) count from 0 at
/// the left end of the line. A character of several units keeps its units in
/// logical order. Characters removed by X9 have no level; in the runs and
/// the maps they join the run of the character before them (at the start of
/// the line, of the first character after them).
public struct BidiLine: Sendable {
  let storage: ParagraphStorage
  let layout: LineLayout
  /// The offsets of the line start in UTF-8 (-1 when not known yet) and
  /// UTF-16 units.
  let unitStarts: (utf8: Int, utf16: Int)

  init(storage: ParagraphStorage, layout: LineLayout, unitStarts: (Int, Int)) {
    self.storage = storage
    self.layout = layout
    self.unitStarts = unitStarts
  }

  /// The paragraph embedding level.
  public var paragraphLevel: UInt8 { storage.paragraphLevel }

  /// Where the line puts combining marks in right-to-left runs (L3).
  public var combiningMarks: CombiningMarkOrder { layout.marks }

  /// The offsets of the line in units of `encoding`.
  public func range(in encoding: BidiEncoding) -> Range<Int> {
    let start = unitStart(encoding)
    return start..<(start + storage.unitCount(layout.range, in: encoding))
  }

  /// The level of every character when they all share one and none was
  /// removed: the line is then in logical order (even) or reversed (odd),
  /// apart from combining marks with `.afterBase` (L3) in a reversed line.
  /// Nil otherwise, and for an empty line.
  public var uniformLevel: UInt8? {
    guard layout.runCount == 1 && layout.hasNoRemoved else { return nil }
    return layout.firstRun.level
  }

  /// The level of every unit after L1; `.removed` for characters X9 removes.
  public func levels(in encoding: BidiEncoding) -> [BidiLevel] {
    withUnits(encoding) { units in
      let count = units.count
      guard count > 0 else { return [] }
      return [BidiLevel](unsafeUninitializedCapacity: count) { result, initialized in
        result.withMemoryRebound(to: UInt8.self) { fillLevels(units, $0.baseAddress!) }
        initialized = count
      }
    }
  }

  /// Calls `body` with the levels that `levels(in:)` returns, without
  /// copying them when the line holds them as they are: the units are
  /// characters and none was removed (otherwise from a copy in temporary
  /// memory, on the stack when it is small).
  @inlinable
  public func withLevels<R>(
    in encoding: BidiEncoding, _ body: (UnsafeBufferPointer<BidiLevel>) throws -> R
  ) rethrows -> R {
    if let levels = storedLevels(in: encoding) { return try body(levels) }
    let count = unitCount(in: encoding)
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(count, 1)) { bytes in
      writeLevels(in: encoding, to: bytes.baseAddress!)
      return try bytes.withMemoryRebound(to: BidiLevel.self) { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }
  }

  /// The number of units of the line in `encoding`.
  @usableFromInline
  func unitCount(in encoding: BidiEncoding) -> Int { storage.unitCount(layout.range, in: encoding) }

  /// Writes the levels of `levels(in:)`, `unitCount(in: encoding)` of them,
  /// to `result`.
  @usableFromInline
  func writeLevels(in encoding: BidiEncoding, to result: UnsafeMutablePointer<UInt8>) {
    // Without a closure on the usual path: one that captures `self` copies
    // the line (two reference counts, and two more to drop the copy).
    if let units = directUnits(encoding) {
      if units.count > 0 { fillLevels(units, result) }
      return
    }
    withUnitTable(encoding) { units in
      guard units.count > 0 else { return }
      fillLevels(units, result)
    }
  }

  /// The levels of `levels(in:)` as the line or its paragraph stores them,
  /// or nil when they must be computed (the non-generic step of
  /// `withLevels`, so that the call costs no generic code).
  @usableFromInline
  func storedLevels(in encoding: BidiEncoding) -> UnsafeBufferPointer<BidiLevel>? {
    guard layout.hasNoRemoved else { return nil }
    // The units must be the characters.
    let range = layout.range
    switch encoding {
    case .utf32: break
    case .utf16:
      guard
        storage.astralCount == 0
          || storage.astralCount(before: range.lowerBound) == storage.astralCount(before: range.upperBound)
      else { return nil }
    case .utf8:
      guard storage.unitsAreCharacters(.utf8) else { return nil }
    }
    // Without the removed mark, the copied bytes are the levels; the copy
    // lives as long as the line.
    let levels: UnsafeMutablePointer<UInt8>
    if layout.readsParagraphLevels {
      levels = storage.levels + range.lowerBound
    } else if let copied = layout.copiedLevels {
      levels = copied
    } else {
      return nil
    }
    return UnsafeBufferPointer(
      start: UnsafeRawPointer(levels).assumingMemoryBound(to: BidiLevel.self), count: range.count)
  }

  /// Writes the level of every unit to `result`.
  private func fillLevels(_ units: LineUnitOffsets, _ result: UnsafeMutablePointer<UInt8>) {
    let count = layout.range.count
    let lineStart = layout.range.lowerBound
    let copied = layout.copiedLevels
    let trailingStart = layout.trailingStart
    let paragraphLevel = layout.paragraphLevel
    @inline(__always) func level(_ k: Int) -> UInt8 {
      let raw = layout.levelByte(storage, k)
      return raw & ParagraphStorage.removedBit != 0 ? 0xFF : raw
    }
    /// Characters `from..<to` of the line, one unit each, at unit `u`.
    @inline(__always) func copy(_ from: Int, _ to: Int, _ u: Int) {
      if let copied {
        // A removed character (bit 7 set) reads 0xFF.
        for k in from..<to {
          let raw = copied[k]
          result[u + k - from] = raw | (0 &- (raw >> 7))
        }
      } else if !layout.hasNoRemoved {
        // The paragraph's levels, L1's trailing whitespace at the paragraph
        // level; a removed character reads 0xFF.
        let middle = min(max(from, trailingStart), to)
        let levels = storage.levels + lineStart
        for k in from..<middle {
          let raw = levels[k]
          result[u + k - from] = raw | (0 &- (raw >> 7))
        }
        for k in middle..<to { result[u + k - from] = paragraphLevel | (0 &- (levels[k] >> 7)) }
      } else {
        let middle = min(max(from, trailingStart), to)
        (result + u).update(from: storage.levels + lineStart + from, count: middle - from)
        (result + u + middle - from).update(repeating: paragraphLevel, count: to - middle)
      }
    }
    switch units.kind {
    case .characters:
      copy(0, count, 0)
    case .utf16:
      // Segments of one-unit characters between the characters past
      // U+FFFF, which take two.
      var k = 0
      var u = 0
      for a in units.astralRange {
        let position = Int(storage.astralPositions[a]) - lineStart
        copy(k, position, u)
        u += position - k
        result[u] = level(position)
        result[u + 1] = level(position)
        u += 2
        k = position + 1
      }
      copy(k, count, u)
    case .table(let table):
      let base = Int(table[0])
      for k in 0..<count {
        let value = level(k)
        for u in Int(table[k])..<Int(table[k + 1]) { result[u - base] = value }
      }
    }
  }

  /// The runs of the line in visual order (left to right), covering every
  /// unit; an odd level is displayed right to left.
  public func runs(in encoding: BidiEncoding) -> [BidiRun] {
    withUnits(encoding) { units in
      var result: [BidiRun] = []
      result.reserveCapacity(layout.runCount)
      let start = layout.range.lowerBound
      layout.forEachRun { run in
        result.append(
          BidiRun(start: units.offset(run.start - start), end: units.offset(run.end - start), level: run.level))
      }
      return result
    }
  }

  /// The logical offsets of the units that are not removed, left to right
  /// (BidiCharacterTest.txt's convention).
  public func visualOrder(in encoding: BidiEncoding) -> [Int] {
    var result: [Int] = []
    visualOrder(in: encoding, into: &result)
    return result
  }

  /// `visualOrder(in:)` into `buffer`, replacing its contents and reusing
  /// its storage.
  public func visualOrder(in encoding: BidiEncoding, into buffer: inout [Int]) {
    guard !layout.hasNoRemoved else { return visualToLogical(in: encoding, into: &buffer) }
    buffer.removeAll(keepingCapacity: true)
    withUnits(encoding) { units in
      buffer.reserveCapacity(units.count)
      forEachVisualUnitSpan(units) { first, end, unit, _ in
        var u = unit
        for i in first..<end {
          let next = u + units.width(i, i + 1)
          if !storage.isRemoved(i) { buffer.append(contentsOf: u..<next) }
          u = next
        }
      }
    }
  }

  /// For each unit of the line in logical order, its visual position.
  public func logicalToVisual(in encoding: BidiEncoding) -> [Int] {
    var result: [Int] = []
    logicalToVisual(in: encoding, into: &result)
    return result
  }

  /// `logicalToVisual(in:)` into `buffer`, replacing its contents and
  /// reusing its storage.
  public func logicalToVisual(in encoding: BidiEncoding, into buffer: inout [Int]) {
    withUnits(encoding) { units in
      Self.resize(&buffer, to: units.count)
      let base = units.start
      buffer.withUnsafeMutableBufferPointer { result in
        var p = 0
        forEachVisualUnitSpan(units) { _, _, unit, end in
          for u in unit..<end {
            result[u - base] = p
            p += 1
          }
        }
      }
    }
  }

  /// For each visual position of the line, left to right, the logical
  /// offset of the unit there; removed characters included.
  public func visualToLogical(in encoding: BidiEncoding) -> [Int] {
    var result: [Int] = []
    visualToLogical(in: encoding, into: &result)
    return result
  }

  /// `visualToLogical(in:)` into `buffer`, replacing its contents and
  /// reusing its storage.
  public func visualToLogical(in encoding: BidiEncoding, into buffer: inout [Int]) {
    // Without a closure on the usual path (see `writeLevels`).
    if let units = directUnits(encoding) { return visualToLogical(units, into: &buffer) }
    withUnitTable(encoding) { visualToLogical($0, into: &buffer) }
  }

  /// `visualToLogical(in:into:)` for the line's units `units`.
  private func visualToLogical(_ units: LineUnitOffsets, into buffer: inout [Int]) {
    Self.resize(&buffer, to: units.count)
    buffer.withUnsafeMutableBufferPointer { result in
      guard let base = result.baseAddress else { return }
      var p = base
      if units.isCharactersOrUTF16, layout.marks == .resolved {
        // Each run ascending or descending, sixteen or eight offsets at a
        // time while the buffer has room for them (those past the run are
        // overwritten by the next runs), so that neither a run's
        // direction nor its length (a word or a space, in mixed text)
        // costs a mispredicted branch. A right-to-left run holding
        // characters past U+FFFF (two UTF-16 units, kept in logical
        // order) goes a character at a time; such characters elsewhere
        // only shift the units of the runs after them.
        let lineStart = layout.range.lowerBound
        let limit = base + units.count
        let offset = units.start &- lineStart
        let astral: Bool
        if case .characters = units.kind { astral = false } else { astral = true }
        layout.forEachRun { run in
          var first = run.start &+ offset
          var left = run.end &- run.start
          if astral {
            first = units.offset(run.start &- lineStart)
            left = units.offset(run.end &- lineStart) &- first
          }
          // The rare test first: the direction alternates from run to run.
          if left != run.end &- run.start && run.level & 1 == 1 {
            var u = first &+ left
            var i = run.end
            while i > run.start {
              i &-= 1
              let width = units.width(i, i &+ 1)
              u &-= width
              for k in 0..<width { p[k] = u &+ k }
              p += width
            }
            return
          }
          let rtl = Int(run.level & 1)
          let step = 1 &- 2 &* rtl
          var value = first &+ rtl &* (left &- 1)
          if left <= 16 && limit - p >= 16 {
            // Most runs (a word, a number, a space): sixteen offsets
            // written whatever the length, the length's one test
            // predicted.
            Self.storeOffsets(p, 16, value, step)
            p += left
            return
          }
          while left > 0 {
            if limit - p >= 8 {
              Self.storeOffsets(p, 8, value, step)
              let done = min(left, 8)
              p += done
              value &+= done &* step
              left &-= done
            } else {
              p.pointee = value
              p += 1
              value &+= step
              left &-= 1
            }
          }
        }
        return
      }
      forEachVisualUnitSpan(units) { _, _, unit, end in
        for u in unit..<end {
          p.pointee = u
          p += 1
        }
      }
    }
  }

  /// Writes `value`, `value + step`, … to `p[0..<count]` (`count` a
  /// multiple of 2), two offsets a vector store, each pair the last plus
  /// twice the step.
  @inline(__always)
  private static func storeOffsets(_ p: UnsafeMutablePointer<Int>, _ count: Int, _ value: Int, _ step: Int) {
    let raw = UnsafeMutableRawPointer(p)
    var pair = SIMD2<Int>(value, value &+ step)
    let increment = SIMD2<Int>(repeating: step &* 2)
    for k in 0..<count / 2 {
      raw.storeBytes(of: pair, toByteOffset: k &* 16, as: SIMD2<Int>.self)
      pair &+= increment
    }
  }

  /// `LineLayout.forEachVisualSpan` with the units of each span: calls
  /// `body(first, end, unitStart, unitEnd)` for the characters `first..<end`
  /// (paragraph offsets), shown in logical order, and their units.
  @inline(__always)
  private func forEachVisualUnitSpan(_ units: LineUnitOffsets, _ body: (Int, Int, Int, Int) -> Void) {
    let lineStart = layout.range.lowerBound
    layout.forEachRun { run in
      let end = units.offset(run.end - lineStart)
      if run.level & 1 == 0 {
        body(run.start, run.end, units.offset(run.start - lineStart), end)
        return
      }
      // Right to left: from the end of the run, each span's units before
      // the last.
      var u = end
      if case .characters = units.kind, layout.marks == .resolved {
        var i = run.end
        while i > run.start {
          i -= 1
          u -= 1
          body(i, i + 1, u, u + 1)
        }
        return
      }
      layout.forEachRightToLeftSpan(storage, run) { first, last in
        let width = units.width(first, last)
        body(first, last, u - width, u)
        u -= width
      }
    }
  }

  /// The scalar values of the line in visual order, without the characters
  /// removed by X9; with `mirrored`, L4 replaces each character at an odd
  /// level by its Bidi_Mirroring_Glyph. Ill-formed input reads as U+FFFD.
  public func visualScalars(mirrored: Bool = true) -> [UInt32] {
    let start = layout.range.lowerBound
    var result: [UInt32] = []
    result.reserveCapacity(layout.range.count)
    layout.forEachVisualSpan(storage) { first, end in
      for i in first..<end where !storage.isRemoved(i) {
        var scalar = storage.scalars[i]
        if scalar > 0x10FFFF {
          scalar = 0xFFFD
        } else if mirrored && layout.levelByte(storage, i - start) & 1 == 1 {
          // L4.
          scalar = ubd_mirroring_glyph(scalar)
        }
        result.append(scalar)
      }
    }
    return result
  }

  /// Makes `buffer` hold `count` elements, keeping its storage.
  private static func resize(_ buffer: inout [Int], to count: Int) {
    if buffer.count > count {
      buffer.removeLast(buffer.count - count)
    } else if buffer.count < count {
      buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
    }
  }

  private func unitStart(_ encoding: BidiEncoding) -> Int {
    switch encoding {
    case .utf8:
      // Unknown (-1) for a line cut at UTF-16 or UTF-32 offsets: counted.
      return unitStarts.utf8 >= 0 ? unitStarts.utf8 : storage.unitCount(0..<layout.range.lowerBound, in: .utf8)
    case .utf16: return unitStarts.utf16
    case .utf32: return layout.range.lowerBound
    }
  }

  /// Calls `body` with the unit offsets of the characters of the line (a
  /// table in temporary memory for UTF-8 offsets of a line with multi-byte
  /// characters).
  @inline(__always)
  private func withUnits<R>(_ encoding: BidiEncoding, _ body: (LineUnitOffsets) throws -> R) rethrows -> R {
    if let units = directUnits(encoding) { return try body(units) }
    return try withUnitTable(encoding, body)
  }

  /// The unit offsets of the characters of the line when they need no
  /// table (every encoding but UTF-8 of a line with multi-byte
  /// characters), else nil.
  @inline(__always)
  private func directUnits(_ encoding: BidiEncoding) -> LineUnitOffsets? {
    let start = unitStart(encoding)
    let range = layout.range
    var units = LineUnitOffsets(start: start, count: range.count, lineStart: range.lowerBound, storage: storage)
    if storage.unitsAreCharacters(encoding) || encoding == .utf32 { return units }
    if encoding == .utf16 {
      let astral = storage.astralCount(before: range.lowerBound)..<storage.astralCount(before: range.upperBound)
      if !astral.isEmpty {
        units.kind = .utf16
        units.astralRange = astral
        units.count += astral.count
      }
      return units
    }
    let scalars = storage.scalars + range.lowerBound
    for k in 0..<range.count where BidiEncoding.utf8.width(scalars[k]) != 1 { return nil }
    return units
  }

  /// Calls `body` with the UTF-8 offsets of the characters of the line, a
  /// table in temporary memory (`directUnits` is nil).
  private func withUnitTable<R>(_ encoding: BidiEncoding, _ body: (LineUnitOffsets) throws -> R) rethrows -> R {
    let start = unitStart(encoding)
    let range = layout.range
    var units = LineUnitOffsets(start: start, count: range.count, lineStart: range.lowerBound, storage: storage)
    let scalars = storage.scalars + range.lowerBound
    return try withUnsafeTemporaryAllocation(of: Int32.self, capacity: range.count + 1) { table in
      var offset = start
      for k in 0..<range.count {
        table[k] = Int32(truncatingIfNeeded: offset)
        offset &+= BidiEncoding.utf8.width(scalars[k])
      }
      table[range.count] = Int32(truncatingIfNeeded: offset)
      units.kind = .table(UnsafePointer(table.baseAddress!))
      units.count = offset - start
      return try body(units)
    }
  }
}

/// The unit offsets (from the paragraph start) of the characters of a line.
struct LineUnitOffsets {
  enum Kind {
    /// Each character is one unit.
    case characters
    /// UTF-16 units: the characters past U+FFFF (`astralRange` of the
    /// paragraph's list) take two.
    case utf16
    /// The offset of every character of the line and of its end.
    case table(UnsafePointer<Int32>)
  }

  /// The offset of the line start.
  let start: Int
  /// The number of units of the line.
  var count: Int
  /// The paragraph offset of the line's first character.
  let lineStart: Int
  /// The paragraph's scalar values and the positions of its characters
  /// past U+FFFF (`astralTotal` of them): pointers, not the storage, so
  /// that making and dropping a value costs no reference count (an atomic
  /// add each); a value lives only while `BidiLine.withUnits` runs its
  /// body, the line holding the storage.
  let scalars: UnsafePointer<UInt32>
  let astralPositions: UnsafePointer<Int32>
  let astralTotal: Int
  var kind = Kind.characters
  var astralRange = 0..<0

  init(start: Int, count: Int, lineStart: Int, storage: ParagraphStorage) {
    self.start = start
    self.count = count
    self.lineStart = lineStart
    scalars = UnsafePointer(storage.scalars)
    astralPositions = UnsafePointer(storage.astralPositions)
    astralTotal = storage.astralCount
  }

  /// True when each character is one unit, or one or two UTF-16 units.
  var isCharactersOrUTF16: Bool {
    if case .table = kind { return false }
    return true
  }

  /// The offset of character `k` of the line (`k` == its length: the end).
  @inline(__always)
  func offset(_ k: Int) -> Int {
    switch kind {
    case .characters: return start &+ k
    case .utf16:
      let before =
        ParagraphStorage.astralCount(before: lineStart + k, astralPositions, astralTotal) - astralRange.lowerBound
      return start &+ k &+ before
    case .table(let table): return Int(table[k])
    }
  }

  /// The number of units of the characters `first..<end` (paragraph offsets).
  @inline(__always)
  func width(_ first: Int, _ end: Int) -> Int {
    switch kind {
    case .characters: return end - first
    case .utf16:
      var width = end - first
      for i in first..<end where scalars[i] >= 0x10000 && scalars[i] < 0x110000 { width += 1 }
      return width
    case .table(let table): return Int(table[end - lineStart]) - Int(table[first - lineStart])
    }
  }
}
