// The UAX #9 core on arbitrary scalars (any UInt32, so ill-formed ones too),
// in every encoding, as paragraphs and as lines broken anywhere, with both
// combining-mark orders. Asserts: logical↔visual maps are inverse
// permutations, levels ≤ 126 (and the paragraph level 0 or 1), runs cover
// the line exactly at their units' levels, the visual order is L2 applied to
// the levels (and with `.afterBase`, L3: each base and the marks after it in
// logical order inside a right-to-left run; levels and runs unchanged), the
// visual text is the scalars in visual order, the UTF-8 and scalar inputs
// agree, and the input's raw bytes decoded as UTF-8 in AVX-512 rounds and by
// the decoder alone give the same paragraph.
//
// fuzz-options: -max_len=2048
import CByteScan
import UnicodeBidi

/// Characters of every bidi class (explicit controls, isolates, brackets,
/// marks of each kind, digits, separators, both strong directions, astral ones).
private let pool: [UInt32] = [
  0x61, 0x5D0, 0x627, 0x10900, 0x31, 0x660, 0x6F1, 0x2B, 0x2D, 0x24, 0x2C, 0x2E, 0x3A, 0x2F, 0x300, 0xAD,
  0x200D, 0x09, 0x20, 0x21, 0x0A, 0x2029, 0x1C, 0x85, 0x28, 0x29, 0x5B, 0x5D, 0x2329, 0x3009, 0x202A, 0x202B,
  0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x61C, 0xFFFD, 0x1F600, 0x5B4, 0x64B,
  0x20DD, 0x903, 0x1E94A,
]

/// Units of one value: as UTF-8/UTF-16 would encode it; a surrogate as its
/// three-byte (generalized UTF-8) form, a value over U+10FFFF (an ill-formed
/// byte from the decoder) as one unit.
private func units(_ scalar: UInt32, _ encoding: BidiEncoding) -> Int {
  switch encoding {
  case .utf32: return 1
  case .utf16: return scalar >= 0x10000 && scalar < 0x110000 ? 2 : 1
  case .utf8: return scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : scalar < 0x110000 ? 4 : 1
  }
}

/// L2 done the plain way: reverse every run at each level from the highest
/// to the lowest odd one, over the characters X9 did not remove.
private func reorder(_ levels: [BidiLevel]) -> [Int] {
  var items = levels.indices.filter { !levels[$0].isRemoved }.map { ($0, levels[$0].rawValue) }
  guard let highest = items.map(\.1).max(), let lowestOdd = items.map(\.1).filter({ $0 & 1 == 1 }).min() else {
    return items.map(\.0)
  }
  var level = highest
  while level >= lowestOdd {
    var k = 0
    while k < items.count {
      guard items[k].1 >= level else {
        k += 1
        continue
      }
      var end = k
      while end < items.count && items[end].1 >= level { end += 1 }
      items[k..<end].reverse()
      k = end
    }
    level -= 1
  }
  return items.map(\.0)
}

/// True for a combining mark (General_Category Mn, Mc, Me) by the Swift
/// runtime's own Unicode data; nil for a value it does not know (newer than
/// its Unicode version, unassigned or not a scalar), where L3 is not checked.
private func isMark(_ value: UInt32) -> Bool? {
  guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, age.major <= 15 else { return nil }
  switch scalar.properties.generalCategory {
  case .nonspacingMark, .spacingMark, .enclosingMark: return true
  default: return false
  }
}

/// Every character of the line (paragraph offsets) left to right, as the
/// runs and L3 say: a left-to-right run in logical order; a right-to-left
/// one reversed, except that with `.afterBase` a base and the marks after it
/// (with the removed characters among them) keep their logical order. nil
/// when a mark cannot be told.
private func expectedOrder(
  _ runs: [BidiRun], _ scalars: ArraySlice<UInt32>, _ levels: [BidiLevel], start: Int, _ marks: CombiningMarkOrder
) -> [Int]? {
  var order: [Int] = []
  for run in runs {
    guard run.level & 1 == 1 else {
      order += run.start..<run.end
      continue
    }
    guard marks == .afterBase else {
      order += (run.start..<run.end).reversed()
      continue
    }
    // Clusters in logical order: a base, then removed characters and marks ending with a mark.
    var clusters: [Range<Int>] = []
    var i = run.start
    while i < run.end {
      guard let mark = isMark(scalars[scalars.startIndex + i - start]) else { return nil }
      let removed = levels[i - start].isRemoved
      var end = i + 1
      if !mark && !removed {
        var k = end
        while k < run.end {
          let next = scalars.startIndex + k - start
          if levels[k - start].isRemoved {
            k += 1
          } else if isMark(scalars[next]) == true {
            k += 1
            end = k
          } else {
            guard isMark(scalars[next]) != nil else { return nil }
            break
          }
        }
      }
      clusters.append(i..<end)
      i = end
    }
    for cluster in clusters.reversed() { order += cluster }
  }
  return order
}

private func check(_ line: BidiLine, _ scalars: ArraySlice<UInt32>, _ what: String) {
  let marks = line.combiningMarks
  for encoding in [BidiEncoding.utf8, .utf16, .utf32] {
    let count = scalars.reduce(0) { $0 + units($1, encoding) }
    let range = line.range(in: encoding)
    let toVisual = line.logicalToVisual(in: encoding)
    let toLogical = line.visualToLogical(in: encoding)
    let levels = line.levels(in: encoding)
    guard toVisual.count == count, toLogical.count == count, levels.count == count, range.count == count else {
      fuzzFailure(
        "\(what) (\(marks)) \(encoding): \(count) units, maps \(toVisual.count)/\(toLogical.count), \(levels.count) levels"
      )
    }
    let start = range.lowerBound
    // toVisual is indexed from the line's start; toLogical holds offsets from the paragraph's.
    for (logical, visual) in toVisual.enumerated() {
      guard visual >= 0, visual < count, toLogical[visual] - start == logical else {
        fuzzFailure("\(what) (\(marks)) \(encoding): the maps are not inverse permutations at \(logical)")
      }
    }
    for level in levels where !level.isRemoved && (level.rawValue > 126 || level.rawValue < line.paragraphLevel) {
      fuzzFailure("\(what) (\(marks)): level \(level) outside \(line.paragraphLevel)...126")
    }
    if line.visualOrder(in: encoding) != toLogical.filter({ !levels[$0 - start].isRemoved }) {
      fuzzFailure("\(what) (\(marks)) \(encoding): visualOrder is not visualToLogical less the removed units")
    }
    var covered = [Bool](repeating: false, count: count)
    let runs = line.runs(in: encoding)
    for run in runs {
      guard run.start >= start, run.start < run.end, run.end - start <= count else {
        fuzzFailure("\(what) (\(marks)) \(encoding): run \(run) outside the line \(range)")
      }
      for unit in run.start..<run.end {
        if covered[unit - start] { fuzzFailure("\(what) (\(marks)) \(encoding): unit \(unit) in two runs") }
        covered[unit - start] = true
        let level = levels[unit - start]
        if !level.isRemoved && level.rawValue != run.level {
          fuzzFailure("\(what) (\(marks)) \(encoding): unit \(unit) at level \(level) in run \(run)")
        }
      }
    }
    if covered.contains(false) { fuzzFailure("\(what) (\(marks)) \(encoding): the runs do not cover the line") }
    guard encoding == .utf32 else { continue }
    if line.combiningMarks == .resolved && line.visualOrder(in: .utf32) != reorder(levels).map({ $0 + start }) {
      fuzzFailure("\(what) (\(marks)): the visual order is not L2 of the levels")
    }
    if let expected = expectedOrder(runs, scalars, levels, start: start, line.combiningMarks), expected != toLogical {
      fuzzFailure("\(what) (\(marks)): visual order \(toLogical), the runs and L3 give \(expected)")
    }
    let shown = line.visualOrder(in: .utf32).map { scalars[scalars.startIndex + $0 - start] }
    // Values over U+10FFFF (ill-formed bytes) show as U+FFFD; surrogate values pass, as their units do.
    if line.visualScalars(mirrored: false) != shown.map({ $0 > 0x10FFFF ? 0xFFFD : $0 }) {
      fuzzFailure("\(what) (\(marks)): visualScalars is not the scalars in visual order")
    }
  }
}

/// The same paragraph with marks resolved and after their base: levels and
/// runs agree, each is checked.
private func checkBoth(_ resolved: BidiLine, _ afterBase: BidiLine, _ scalars: ArraySlice<UInt32>, _ what: String) {
  check(resolved, scalars, what)
  check(afterBase, scalars, what)
  for encoding in [BidiEncoding.utf8, .utf16] {
    if resolved.levels(in: encoding) != afterBase.levels(in: encoding)
      || resolved.runs(in: encoding) != afterBase.runs(in: encoding)
    {
      fuzzFailure("\(what) \(encoding): L3 changed the levels or runs")
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUAX9(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let direction = input.choice([DirectionChoice.auto, .leftToRight, .rightToLeft])
  var scalars: [UInt32] = []
  while !input.isEmpty && scalars.count < 4096 {
    let selector = input.byte()
    switch selector {
    case 0..<200: scalars.append(pool[Int(selector) % pool.count])
    case 200..<250: scalars.append(UInt32(input.byte()) << 8 | UInt32(input.byte()))
    default:
      scalars.append(UInt32(input.byte()) << 24 | UInt32(input.byte()) << 16 | UInt32(input.byte()) << 8)
    }
  }
  for range in scalars.withUnsafeBufferPointer({ BidiParagraph.paragraphRanges(scalars: $0) }) {
    let text = scalars[range]
    let paragraph = BidiParagraph(scalars: Array(text), direction: direction)
    if paragraph.level > 1 { fuzzFailure("paragraph level \(paragraph.level)") }
    let line = paragraph.line()
    checkBoth(line, paragraph.line(combiningMarks: .afterBase), text, "paragraph")
    // Up to four lines, broken at scalar boundaries chosen by the input's own values.
    var candidates: [Int] = []
    for (at, scalar) in text.enumerated() where at > 0 && scalar % 7 == 3 { candidates.append(at) }
    var breaks = Set((0..<min(3, candidates.count)).map { candidates[$0 * candidates.count / 3] }).sorted()
    breaks.append(text.count)
    guard let lines = try? paragraph.lines(breaks: breaks, in: .utf32), lines.count == breaks.count,
      let marked = try? paragraph.lines(breaks: breaks, in: .utf32, combiningMarks: .afterBase)
    else {
      fuzzFailure("valid breaks \(breaks) refused")
    }
    var from = text.startIndex
    for (k, end) in breaks.enumerated() {
      checkBoth(lines[k], marked[k], text[from..<(text.startIndex + end)], "line")
      from = text.startIndex + end
    }
    if text.allSatisfy({ Unicode.Scalar($0) != nil }) {
      var utf8: [UInt8] = []
      for scalar in text { utf8 += Array(String(Unicode.Scalar(scalar)!).utf8) }
      let fromBytes = BidiParagraph(utf8: utf8, direction: direction)
      if fromBytes.level != paragraph.level || fromBytes.line().levels(in: .utf8) != line.levels(in: .utf8)
        || fromBytes.line().visualText() != line.visualText()
      {
        fuzzFailure("UTF-8 and scalar input disagree")
      }
    }
  }
  // The input's own bytes as UTF-8 (ill-formed ones too): decoded in
  // AVX-512 rounds (`cbs_decode_classes`, the default level) and by
  // `UTF8Decoder` alone (level 2), the same paragraph.
  let raw = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
  let rounds = BidiParagraph(utf8: raw, direction: direction)
  let before = cbs_set_vector_level(2)
  let alone = BidiParagraph(utf8: raw, direction: direction)
  _ = cbs_set_vector_level(before)
  if rounds.level != alone.level || rounds.line().levels(in: .utf8) != alone.line().levels(in: .utf8)
    || rounds.line().visualText() != alone.line().visualText()
  {
    fuzzFailure("UTF-8 decoded in rounds and alone disagree")
  }
  return 0
}
