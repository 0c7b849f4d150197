import BidiCorpus

/// One bidi implementation under test, bound to one corpus.
///
/// `convert()` turns the UTF-8 paragraphs into the implementation's input
/// encoding (timed on its own); `run()` is the bidi loop proper: for every
/// paragraph, auto direction (P2–P3), then for every display line (the whole
/// paragraph, or the lines `breaks` wraps it into) the level of every
/// character after L1 and the visual-to-logical map, all folded into a
/// checksum (map values counted from the line start).
protocol BidiEngine: AnyObject {
  /// The column heading.
  static var name: String { get }
  /// False when the implementation reads UTF-8 as it is.
  static var needsConversion: Bool { get }

  init(corpus: Corpus, breaks: LineBreaks?)
  func convert()
  func run() -> Checksum
  /// Calls that reported an error during the last `run()` (should stay 0).
  var failures: Int { get }
  /// The levels and visual order of paragraph `index`, counted in code points,
  /// for the equivalence check (slow path, not timed).
  func analyse(paragraph index: Int) -> Analysis
}

/// Levels and visual order of one paragraph, counted in code points.
struct Analysis: Equatable {
  /// One level per code point.
  var levels: [UInt8]
  /// Logical code point indices, left to right.
  var order: [Int]
}

/// Paragraph extents in some encoding's units, filled by a conversion.
struct UnitRanges {
  var starts: [Int32]
  var lengths: [Int32]
  var maxLength: Int32

  init(count: Int) {
    starts = Array(repeating: 0, count: count)
    lengths = Array(repeating: 0, count: count)
    maxLength = 0
  }
}

extension Corpus {
  /// The longest paragraph, in UTF-8 bytes (an upper bound in UTF-16 and UTF-32 units too).
  var maxParagraphBytes: Int {
    paragraphs.reduce(0) { max($0, $1.count) }
  }
}
