// The UAX #9 core on arbitrary scalars (any UInt32, so ill-formed ones too),
// in every encoding, as paragraphs and as lines broken anywhere. Asserts:
// logical↔visual maps are inverse permutations, levels ≤ 126 (and the
// paragraph level 0 or 1), runs cover the line exactly, the visual order is
// L2 applied to the levels, the UTF-8 and scalar inputs agree.
import UnicodeBidi

/// Characters of every bidi class (explicit controls, isolates, brackets,
/// marks, digits, separators, both strong directions, astral ones).
private let pool: [UInt32] = [
  0x61, 0x5D0, 0x627, 0x10900, 0x31, 0x660, 0x6F1, 0x2B, 0x2D, 0x24, 0x2C, 0x2E, 0x3A, 0x2F, 0x300, 0xAD,
  0x200D, 0x09, 0x20, 0x21, 0x0A, 0x2029, 0x1C, 0x85, 0x28, 0x29, 0x5B, 0x5D, 0x2329, 0x3009, 0x202A, 0x202B,
  0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x61C, 0xFFFD, 0x1F600,
]

private func units(_ scalar: UInt32, _ encoding: BidiEncoding) -> Int {
  let valid = Unicode.Scalar(scalar) != nil
  switch encoding {
  case .utf32: return 1
  case .utf16: return valid && scalar > 0xFFFF ? 2 : 1
  case .utf8: return !valid ? 3 : scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
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

private func check(_ line: BidiLine, _ scalars: ArraySlice<UInt32>, _ what: String) {
  for encoding in [BidiEncoding.utf8, .utf16, .utf32] {
    let count = scalars.reduce(0) { $0 + units($1, encoding) }
    let range = line.range(in: encoding)
    let toVisual = line.logicalToVisual(in: encoding)
    let toLogical = line.visualToLogical(in: encoding)
    let levels = line.levels(in: encoding)
    guard toVisual.count == count, toLogical.count == count, levels.count == count, range.count == count else {
      fuzzFailure(
        "\(what) \(encoding): \(count) units, maps \(toVisual.count)/\(toLogical.count), \(levels.count) levels")
    }
    let start = range.lowerBound
    // toVisual is indexed from the line's start; toLogical holds offsets from the paragraph's.
    for (logical, visual) in toVisual.enumerated() {
      guard visual >= 0, visual < count, toLogical[visual] - start == logical else {
        fuzzFailure("\(what) \(encoding): the maps are not inverse permutations at \(logical)")
      }
    }
    for level in levels where !level.isRemoved && level.rawValue > 126 {
      fuzzFailure("\(what): level \(level) over 126")
    }
    if line.visualOrder(in: encoding) != toLogical.filter({ !levels[$0 - start].isRemoved }) {
      fuzzFailure("\(what) \(encoding): visualOrder is not visualToLogical less the removed units")
    }
    var covered = [Bool](repeating: false, count: count)
    for run in line.runs(in: encoding) {
      guard run.start >= start, run.start < run.end, run.end - start <= count else {
        fuzzFailure("\(what) \(encoding): run \(run) outside the line \(range)")
      }
      for unit in run.start..<run.end {
        if covered[unit - start] { fuzzFailure("\(what) \(encoding): unit \(unit) in two runs") }
        covered[unit - start] = true
      }
    }
    if covered.contains(false) { fuzzFailure("\(what) \(encoding): the runs do not cover the line") }
    if encoding == .utf32 {
      let order = reorder(levels).map { $0 + start }
      if line.visualOrder(in: .utf32) != order { fuzzFailure("\(what): the visual order is not L2 of the levels") }
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUAX9(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let direction = input.choice([BidiParagraph.Direction.auto, .leftToRight, .rightToLeft])
  let options = BidiParagraph.Options(reordersCombiningMarks: input.byte() & 1 == 1)
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
  for range in BidiParagraph.paragraphRanges(scalars: scalars) {
    let text = scalars[range]
    let paragraph = BidiParagraph(scalars: Array(text), direction: direction, options: options)
    if paragraph.level > 1 { fuzzFailure("paragraph level \(paragraph.level)") }
    let line = paragraph.line()
    check(line, text, "paragraph")
    // Lines broken at scalar boundaries chosen by the input's own values.
    var breaks: [Int] = []
    var at = 0
    for scalar in text {
      at += 1
      if scalar % 7 == 3 && at < text.count { breaks.append(at) }
    }
    breaks.append(text.count)
    guard let lines = try? paragraph.lines(breaks: breaks, in: .utf32), lines.count == breaks.count else {
      fuzzFailure("valid breaks \(breaks) refused")
    }
    var from = text.startIndex
    for (piece, end) in zip(lines, breaks) {
      check(piece, text[from..<(text.startIndex + end)], "line")
      from = text.startIndex + end
    }
    if text.allSatisfy({ Unicode.Scalar($0) != nil }) {
      var utf8: [UInt8] = []
      for scalar in text { utf8 += Array(String(Unicode.Scalar(scalar)!).utf8) }
      let fromBytes = BidiParagraph(utf8: utf8, direction: direction, options: options)
      if fromBytes.level != paragraph.level || fromBytes.line().levels(in: .utf32) != line.levels(in: .utf32) {
        fuzzFailure("UTF-8 and scalar input disagree")
      }
    }
  }
  return 0
}
