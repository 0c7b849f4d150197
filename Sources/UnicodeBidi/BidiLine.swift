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
/// the maps they join the run of the character before them.
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
    let count = offsets.map { $0[$0.count - 1] - $0[0] } ?? layout.range.count
    if layout.levels.isEmpty {
      return [BidiLevel](repeating: BidiLevel(rawValue: paragraphLevel), count: count)
    }
    var result: [BidiLevel] = []
    result.reserveCapacity(count)
    for (k, raw) in layout.levels.enumerated() {
      let level = raw & ParagraphStorage.removedBit != 0 ? BidiLevel.removed : BidiLevel(rawValue: raw)
      if let offsets {
        for _ in offsets[k]..<offsets[k + 1] { result.append(level) }
      } else {
        result.append(level)
      }
    }
    return result
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
    let visual = layout.visualCharacters(storage, reorderMarks: options.reordersCombiningMarks)
    let offsets = unitOffsets(encoding)
    let start = layout.range.lowerBound
    var result: [Int] = []
    result.reserveCapacity(offsets.map { $0[$0.count - 1] - $0[0] } ?? visual.count)
    for c in visual {
      let i = Int(c)
      if storage.isRemoved(i) { continue }
      if let offsets {
        result.append(contentsOf: offsets[i - start]..<offsets[i - start + 1])
      } else {
        result.append(i)
      }
    }
    return result
  }

  /// For each unit of the line in logical order, its visual position.
  public func logicalToVisual(in encoding: BidiEncoding) -> [Int] {
    let visual = layout.visualCharacters(storage, reorderMarks: options.reordersCombiningMarks)
    let start = layout.range.lowerBound
    guard let offsets = unitOffsets(encoding) else {
      var result = [Int](repeating: 0, count: visual.count)
      for (p, c) in visual.enumerated() { result[Int(c) - start] = p }
      return result
    }
    let base = offsets[0]
    var result = [Int](repeating: 0, count: offsets[offsets.count - 1] - base)
    var p = 0
    for c in visual {
      let k = Int(c) - start
      for unit in offsets[k]..<offsets[k + 1] {
        result[unit - base] = p
        p += 1
      }
    }
    return result
  }

  /// For each visual position of the line, left to right, the logical
  /// offset of the unit there; removed characters included.
  public func visualToLogical(in encoding: BidiEncoding) -> [Int] {
    let visual = layout.visualCharacters(storage, reorderMarks: options.reordersCombiningMarks)
    guard let offsets = unitOffsets(encoding) else { return visual.map { Int($0) } }
    let start = layout.range.lowerBound
    var result: [Int] = []
    result.reserveCapacity(offsets[offsets.count - 1] - offsets[0])
    for c in visual {
      let k = Int(c) - start
      result.append(contentsOf: offsets[k]..<offsets[k + 1])
    }
    return result
  }

  /// The scalar values of the line in visual order, without the characters
  /// removed by X9; with `mirrored`, L4 replaces each character at an odd
  /// level by its Bidi_Mirroring_Glyph. Ill-formed input reads as U+FFFD.
  public func visualScalars(mirrored: Bool = true) -> [UInt32] {
    let visual = layout.visualCharacters(storage, reorderMarks: options.reordersCombiningMarks)
    let start = layout.range.lowerBound
    var result: [UInt32] = []
    result.reserveCapacity(visual.count)
    for c in visual {
      let i = Int(c)
      if storage.isRemoved(i) { continue }
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

  /// The level after L1 of the character at `k` from the line start.
  private func lineLevel(_ k: Int) -> UInt8 {
    layout.levels.isEmpty ? paragraphLevel : layout.levels[k] & 0x7F
  }

  private func unitStart(_ encoding: BidiEncoding) -> Int {
    switch encoding {
    case .utf8: return unitStarts.utf8
    case .utf16: return unitStarts.utf16
    case .utf32: return layout.range.lowerBound
    }
  }

  /// The unit offset of every character of the line and of its end, or nil
  /// when units are characters (then the offset of character i is i).
  private func unitOffsets(_ encoding: BidiEncoding) -> [Int]? {
    guard !storage.unitsAreCharacters(encoding) else { return nil }
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
