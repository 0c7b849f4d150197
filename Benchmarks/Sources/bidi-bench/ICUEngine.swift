import BidiCorpus
import CICU

/// ICU4C's ubidi, used as a caller would: UTF-8 → UTF-16 with u_strFromUTF8,
/// then per paragraph ubidi_setPara, and, unless ubidi_getDirection says the
/// paragraph is all LTR or all RTL (every level the paragraph level, order
/// logical or reversed), ubidi_getLevels and ubidi_getVisualMap.
final class ICUEngine: BidiEngine {
  static let name = "ICU"
  static let needsConversion = true

  private let corpus: Corpus
  private let text: UnsafeMutableBufferPointer<UInt16>
  private var ranges: UnitRanges
  private let bidi: OpaquePointer
  /// The UBiDi object for display lines (ubidi_setLine), when wrapping.
  private let line: OpaquePointer
  private let breaks: LineBreaks?
  private let map: UnsafeMutablePointer<Int32>
  private(set) var failures = 0
  /// Paragraphs of the last `run()` that ubidi_getDirection called mixed.
  private(set) var mixedParagraphs = 0

  init(corpus: Corpus, breaks: LineBreaks?) {
    self.corpus = corpus
    self.breaks = breaks
    let capacity = max(corpus.maxParagraphBytes, 1)
    text = .allocate(capacity: max(corpus.text.count, 1))
    ranges = UnitRanges(count: corpus.paragraphs.count)
    var error = U_ZERO_ERROR
    guard let bidi = bench_icu_open(Int32(capacity), &error), bench_icu_failure(error) == 0 else {
      fatalError("ubidi_openSized failed: \(error)")
    }
    self.bidi = bidi
    guard let line = bench_icu_open(Int32(capacity), &error), bench_icu_failure(error) == 0 else {
      fatalError("ubidi_openSized failed: \(error)")
    }
    self.line = line
    map = .allocate(capacity: capacity)
  }

  deinit {
    bench_icu_close(line)
    bench_icu_close(bidi)
    text.deallocate()
    map.deallocate()
  }

  func convert() {
    var offset: Int32 = 0
    var longest: Int32 = 0
    let capacity = Int32(text.count)
    let base = text.baseAddress!
    corpus.text.withUnsafeBufferPointer { utf8 in
      utf8.withMemoryRebound(to: CChar.self) { source in
        for (index, range) in corpus.paragraphs.enumerated() {
          var error = U_ZERO_ERROR
          let length = bench_icu_from_utf8(
            base + Int(offset), capacity - offset,
            source.baseAddress! + range.lowerBound, Int32(range.count), &error)
          if bench_icu_failure(error) != 0 { failures += 1 }
          ranges.starts[index] = offset
          ranges.lengths[index] = length
          longest = max(longest, length)
          offset += length
        }
      }
    }
    ranges.maxLength = longest
  }

  func run() -> Checksum {
    var checksum = Checksum()
    let base = UnsafePointer(text.baseAddress!)
    let paraLevel = bench_icu_default_ltr()
    failures = 0
    mixedParagraphs = 0
    for index in 0..<ranges.starts.count {
      let length = ranges.lengths[index]
      if length == 0 {
        checksum.addEmpty()
        continue
      }
      var error = U_ZERO_ERROR
      bench_icu_set_para(bidi, base + Int(ranges.starts[index]), length, paraLevel, &error)
      let uniform = bench_icu_uniform_direction(bidi)
      if uniform < 0 { mixedParagraphs += 1 }
      guard let lineBreaks = breaks?.utf16[index], !lineBreaks.isEmpty else {
        fold(bidi, uniform: uniform, length: length, into: &checksum, &error)
        continue
      }
      var start: Int32 = 0
      for k in 0...lineBreaks.count {
        let end = k < lineBreaks.count ? Int32(lineBreaks[k]) : length
        if uniform >= 0 {
          // Every line of an all-LTR or all-RTL paragraph is the same.
          fold(bidi, uniform: uniform, length: end - start, into: &checksum, &error)
        } else {
          // A line's direction is LTR (RTL) when all its levels are even
          // (odd), not necessarily equal: the order is then logical (reversed)
          // but the levels must still be read.
          bench_icu_set_line(bidi, start, end, line, &error)
          let count = Int(end - start)
          if let levels = bench_icu_levels(line, &error) {
            checksum.add(levels: levels, count: count)
          }
          switch bench_icu_uniform_direction(line) {
          case 0: checksum.addIdentityMap(count: count)
          case 1: checksum.addReversedMap(count: count)
          default:
            bench_icu_visual_map(line, map, &error)
            checksum.add(visualMap: map, count: count)
          }
        }
        start = end
      }
      if bench_icu_failure(error) != 0 { failures += 1 }
    }
    return checksum
  }

  /// Folds the levels and visual map of a paragraph object; `uniform` is its
  /// ubidi_getDirection (for a paragraph, LTR or RTL means every level is
  /// the paragraph level).
  @inline(__always)
  private func fold(
    _ object: OpaquePointer, uniform: Int32, length: Int32, into checksum: inout Checksum,
    _ error: inout UErrorCode
  ) {
    let count = Int(length)
    switch uniform {
    case 0:
      checksum.add(uniformLevel: bench_icu_para_level(object), count: count)
      checksum.addIdentityMap(count: count)
    case 1:
      checksum.add(uniformLevel: bench_icu_para_level(object), count: count)
      checksum.addReversedMap(count: count)
    default:
      if let levels = bench_icu_levels(object, &error) {
        checksum.add(levels: levels, count: count)
      }
      bench_icu_visual_map(object, map, &error)
      checksum.add(visualMap: map, count: count)
      if bench_icu_failure(error) != 0 { failures += 1 }
    }
  }

  func analyse(paragraph index: Int) -> Analysis {
    let start = Int(ranges.starts[index])
    let length = Int(ranges.lengths[index])
    guard length > 0 else { return Analysis(levels: [], order: []) }
    let units = UnsafePointer(text.baseAddress! + start)
    var error = U_ZERO_ERROR
    bench_icu_set_para(bidi, units, Int32(length), bench_icu_default_ltr(), &error)
    let levels = bench_icu_levels(bidi, &error)
    bench_icu_visual_map(bidi, map, &error)
    guard bench_icu_failure(error) == 0, let levels else { return Analysis(levels: [], order: []) }
    // Code point index of every UTF-16 unit: a trail surrogate after a lead
    // surrogate belongs to the code point before it.
    var codePoint = [Int](repeating: 0, count: length)
    var count = 0
    for i in 0..<length {
      let isTrail = i > 0 && units[i] & 0xFC00 == 0xDC00 && units[i - 1] & 0xFC00 == 0xD800
      codePoint[i] = isTrail ? count - 1 : count
      if !isTrail { count += 1 }
    }
    var analysis = Analysis(levels: [], order: [])
    analysis.levels.reserveCapacity(count)
    for i in 0..<length where i == 0 || codePoint[i] != codePoint[i - 1] {
      analysis.levels.append(levels[i])
    }
    for v in 0..<length {
      let logical = codePoint[Int(map[v])]
      if analysis.order.last != logical { analysis.order.append(logical) }
    }
    return analysis
  }
}
