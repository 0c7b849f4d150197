import CUnicodeBidiData

/// One display line of a `BidiParagraph`, reordered by itself: its levels
/// after L1, its runs in visual order (L2), the maps between logical and
/// visual positions, and its text with mirrored glyphs (L4).
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
  let options: BidiParagraph.Options
  /// The offsets of the line start in UTF-8 and UTF-16 units.
  let unitStarts: (utf8: Int, utf16: Int)

  init(storage: ParagraphStorage, layout: LineLayout, options: BidiParagraph.Options, unitStarts: (Int, Int)) {
    self.storage = storage
    self.layout = layout
    self.options = options
    self.unitStarts = unitStarts
  }

  /// The paragraph embedding level.
  public var paragraphLevel: UInt8 { storage.paragraphLevel }

  /// The offsets of the line in units of `encoding`.
  public func range(in encoding: BidiEncoding) -> Range<Int> {
    let start = unitStart(encoding)
    return start..<(start + storage.unitCount(layout.range, in: encoding))
  }

  /// The level of every character when they all share one and none was
  /// removed: the line is then in logical order (even) or reversed (odd).
  /// Nil otherwise, and for an empty line.
  public var uniformLevel: UInt8? {
    guard layout.runs.count == 1 && layout.hasNoRemoved else { return nil }
    return layout.runs[0].level
  }

  /// The level of every unit after L1; `.removed` for characters X9 removes.
  public func levels(in encoding: BidiEncoding) -> [BidiLevel] {
    let offsets = unitOffsets(encoding)
    let count = unitCount(offsets)
    if count == 0 { return [] }  // not unsafeUninitializedCapacity: 0 (a race on the shared empty array)
    return withLineLevels { levels in
      [BidiLevel](unsafeUninitializedCapacity: count) { result, initialized in
        @inline(__always) func level(_ k: Int) -> BidiLevel {
          let raw = levels[k]
          return BidiLevel(rawValue: raw & ParagraphStorage.removedBit != 0 ? 0xFF : raw)
        }
        guard let offsets else {
          for k in 0..<levels.count { result.initializeElement(at: k, to: level(k)) }
          initialized = levels.count
          return
        }
        var u = 0
        for k in 0..<levels.count {
          let value = level(k)
          for _ in offsets[k]..<offsets[k + 1] {
            result.initializeElement(at: u, to: value)
            u += 1
          }
        }
        initialized = u
      }
    }
  }

  /// Calls `body` with the levels that `levels(in:)` returns, without
  /// copying them when the units are characters and none was removed.
  public func withLevels<R>(
    in encoding: BidiEncoding, _ body: (UnsafeBufferPointer<BidiLevel>) throws -> R
  ) rethrows -> R {
    if layout.hasNoRemoved && unitsAreCharacters(encoding) {
      // Without the removed mark the stored bytes are the levels.
      return try withLineLevels { try $0.withMemoryRebound(to: BidiLevel.self, body) }
    }
    return try levels(in: encoding).withUnsafeBufferPointer(body)
  }

  /// The runs of the line in visual order (left to right), covering every
  /// unit; an odd level is displayed right to left.
  public func runs(in encoding: BidiEncoding) -> [BidiRun] {
    guard let offsets = unitOffsets(encoding) else { return layout.runs }
    let start = layout.range.lowerBound
    return layout.runs.map {
      BidiRun(start: offsets[$0.start - start], end: offsets[$0.end - start], level: $0.level)
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
    let offsets = unitOffsets(encoding)
    let start = layout.range.lowerBound
    buffer.removeAll(keepingCapacity: true)
    buffer.reserveCapacity(unitCount(offsets))
    forEachVisualCharacter { i, _ in
      if layout.hasNoRemoved || !storage.isRemoved(i) {
        if let offsets {
          buffer.append(contentsOf: offsets[i - start]..<offsets[i - start + 1])
        } else {
          buffer.append(i)
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
    let start = layout.range.lowerBound
    let offsets = unitOffsets(encoding)
    Self.resize(&buffer, to: unitCount(offsets))
    buffer.withUnsafeMutableBufferPointer { result in
      guard let offsets else {
        forEachVisualCharacter { i, p in result[i - start] = p }
        return
      }
      let base = offsets[0]
      var p = 0
      forEachVisualCharacter { i, _ in
        let k = i - start
        for unit in offsets[k]..<offsets[k + 1] {
          result[unit - base] = p
          p += 1
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
    let start = layout.range.lowerBound
    let offsets = unitOffsets(encoding)
    Self.resize(&buffer, to: unitCount(offsets))
    buffer.withUnsafeMutableBufferPointer { result in
      var p = 0
      forEachVisualCharacter { i, _ in
        guard let offsets else {
          result[p] = i
          p += 1
          return
        }
        for unit in offsets[i - start]..<offsets[i - start + 1] {
          result[p] = unit
          p += 1
        }
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
    forEachVisualCharacter { i, _ in
      if storage.isRemoved(i) { return }
      var scalar = storage.scalars[i]
      if scalar > 0x10FFFF {
        scalar = 0xFFFD
      } else if mirrored && lineLevel(i - start) & 1 == 1 {
        // L4.
        scalar = ubd_mirroring_glyph(scalar)
      }
      result.append(scalar)
    }
    return result
  }

  @inline(__always)
  private func forEachVisualCharacter(_ body: (_ character: Int, _ position: Int) -> Void) {
    layout.forEachVisualCharacter(storage, reorderMarks: options.reordersCombiningMarks, body)
  }

  /// The level after L1 of the character at `k` from the line start.
  private func lineLevel(_ k: Int) -> UInt8 {
    (layout.levels.isEmpty ? storage.levels[layout.range.lowerBound + k] : layout.levels[k]) & 0x7F
  }

  /// Calls `body` with the levels of the line after L1 (see `LineLayout`).
  @inline(__always)
  private func withLineLevels<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    if layout.levels.isEmpty {
      return try body(UnsafeBufferPointer(start: storage.levels + layout.range.lowerBound, count: layout.range.count))
    }
    return try layout.levels.withUnsafeBufferPointer(body)
  }

  /// The number of units of the line, from `unitOffsets`.
  @inline(__always)
  private func unitCount(_ offsets: [Int]?) -> Int {
    offsets.map { $0[$0.count - 1] - $0[0] } ?? layout.range.count
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
    case .utf8: return unitStarts.utf8
    case .utf16: return unitStarts.utf16
    case .utf32: return layout.range.lowerBound
    }
  }

  /// Whether the unit offset of each character of this line is its
  /// character index: true when it is so in the whole paragraph, and also
  /// for a line with no multi-unit character and none before it (a line
  /// before the paragraph's first emoji, say).
  private func unitsAreCharacters(_ encoding: BidiEncoding) -> Bool {
    if storage.unitsAreCharacters(encoding) { return true }
    guard unitStart(encoding) == layout.range.lowerBound else { return false }
    let scalars = storage.scalars
    switch encoding {
    case .utf32:
      return true
    case .utf16:
      for i in layout.range where scalars[i] >= 0x10000 && scalars[i] < 0x110000 { return false }
      return true
    case .utf8:
      for i in layout.range where scalars[i] >= 0x80 && scalars[i] < 0x110000 { return false }
      return true
    }
  }

  /// The unit offset of every character of the line and of its end, or nil
  /// when units are characters (then the offset of character i is i).
  private func unitOffsets(_ encoding: BidiEncoding) -> [Int]? {
    guard !unitsAreCharacters(encoding) else { return nil }
    var offset = unitStart(encoding)
    var offsets = [offset]
    offsets.reserveCapacity(layout.range.count + 1)
    for i in layout.range {
      offset += encoding.width(storage.scalars[i])
      offsets.append(offset)
    }
    return offsets
  }
}
