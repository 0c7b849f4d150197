import BidiCorpus
import CFriBidi

/// GNU FriBidi, used as fribidi_log2vis uses itself: UTF-8 → UTF-32 with
/// fribidi_charset_to_unicode, then per paragraph fribidi_get_bidi_types,
/// fribidi_get_bracket_types, fribidi_get_par_embedding_levels_ex and, unless
/// every level is 0, fribidi_reorder_line over the whole paragraph with a map
/// (which also applies L1 to the levels). No NSM reordering (L3), as with the others.
final class FriBidiEngine: BidiEngine {
  static let name = "FriBidi"
  static let needsConversion = true

  private let corpus: Corpus
  private let text: UnsafeMutableBufferPointer<FriBidiChar>
  private var ranges: UnitRanges
  private let types: UnsafeMutablePointer<FriBidiCharType>
  private let brackets: UnsafeMutablePointer<FriBidiBracketType>
  private let levels: UnsafeMutablePointer<FriBidiLevel>
  private let map: UnsafeMutablePointer<FriBidiStrIndex>
  private(set) var failures = 0
  private let breaks: LineBreaks?

  init(corpus: Corpus, breaks: LineBreaks?) {
    self.corpus = corpus
    self.breaks = breaks
    let capacity = max(corpus.maxParagraphBytes, 1)
    text = .allocate(capacity: max(corpus.text.count, 1))
    ranges = UnitRanges(count: corpus.paragraphs.count)
    types = .allocate(capacity: capacity)
    brackets = .allocate(capacity: capacity)
    levels = .allocate(capacity: capacity)
    map = .allocate(capacity: capacity)
  }

  deinit {
    text.deallocate()
    types.deallocate()
    brackets.deallocate()
    levels.deallocate()
    map.deallocate()
  }

  func convert() {
    var offset: Int32 = 0
    var longest: Int32 = 0
    let base = text.baseAddress!
    corpus.text.withUnsafeBufferPointer { utf8 in
      utf8.withMemoryRebound(to: CChar.self) { source in
        for (index, range) in corpus.paragraphs.enumerated() {
          let length = bench_fribidi_from_utf8(
            source.baseAddress! + range.lowerBound, Int32(range.count), base + Int(offset))
          ranges.starts[index] = offset
          ranges.lengths[index] = length
          longest = max(longest, length)
          offset += length
        }
      }
    }
    ranges.maxLength = longest
  }

  /// Types, brackets and levels of one paragraph; returns the maximum level
  /// + 1 (0 on failure) and the resolved paragraph direction.
  @inline(__always)
  private func resolve(_ chars: UnsafePointer<FriBidiChar>, _ length: Int32) -> (FriBidiLevel, FriBidiParType) {
    fribidi_get_bidi_types(chars, length, types)
    fribidi_get_bracket_types(chars, length, types, brackets)
    var direction = bench_fribidi_par_auto()
    let maxLevel = fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction, levels)
    return (maxLevel, direction)
  }

  /// L1–L2 for the display line start..<end: fills `map[start..<end]`.
  @inline(__always)
  private func reorder(_ start: Int32, _ end: Int32, _ direction: FriBidiParType) -> FriBidiLevel {
    for i in Int(start)..<Int(end) { map[i] = FriBidiStrIndex(i) }
    return fribidi_reorder_line(0, types, end - start, start, direction, levels, nil, map)
  }

  func run() -> Checksum {
    var checksum = Checksum()
    let base = UnsafePointer(text.baseAddress!)
    failures = 0
    for index in 0..<ranges.starts.count {
      let length = ranges.lengths[index]
      if length == 0 {
        checksum.addEmpty()
        continue
      }
      let (maxLevel, direction) = resolve(base + Int(ranges.starts[index]), length)
      if maxLevel == 0 { failures += 1 }
      let lineBreaks = breaks?.utf32[index] ?? []
      var start: Int32 = 0
      for k in 0...lineBreaks.count {
        let end = k < lineBreaks.count ? Int32(lineBreaks[k]) : length
        let count = Int(end - start)
        if maxLevel <= 1 {
          // Every level is 0: the line is in logical order.
          checksum.add(uniformLevel: 0, count: count)
          checksum.addIdentityMap(count: count)
        } else {
          if reorder(start, end, direction) == 0 { failures += 1 }
          (levels + Int(start)).withMemoryRebound(to: UInt8.self, capacity: count) {
            checksum.add(levels: $0, count: count)
          }
          checksum.add(visualMap: map + Int(start), count: count, base: start)
        }
        start = end
      }
    }
    return checksum
  }

  func analyse(paragraph index: Int) -> Analysis {
    let length = Int(ranges.lengths[index])
    guard length > 0 else { return Analysis(levels: [], order: []) }
    let (maxLevel, direction) = resolve(UnsafePointer(text.baseAddress! + Int(ranges.starts[index])), Int32(length))
    if maxLevel > 1 { _ = reorder(0, Int32(length), direction) }
    if maxLevel <= 1 {
      return Analysis(levels: Array(repeating: 0, count: length), order: Array(0..<length))
    }
    return Analysis(
      levels: (0..<length).map { UInt8(bitPattern: levels[$0]) },
      order: (0..<length).map { Int(map[$0]) })
  }

  /// For each code point of paragraph `index`, whether UAX #9 X9 removes it
  /// (LRE, RLE, LRO, RLO, PDF, BN): such characters have no level of their own.
  func removedByX9(paragraph index: Int) -> [Bool] {
    let length = Int(ranges.lengths[index])
    let chars = UnsafePointer(text.baseAddress! + Int(ranges.starts[index]))
    fribidi_get_bidi_types(chars, Int32(length), types)
    return (0..<length).map { bench_fribidi_removed_by_x9(types[$0]) != 0 }
  }
}
