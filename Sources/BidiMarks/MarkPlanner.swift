import UnicodeBidi

/// Plans the bidi mark edits of `bidi/insertMarks` for one line of text.
///
/// A planner holds one LSP line (no line break in it) decoded to scalars. The
/// line may hold several UAX #9 paragraphs, split after each character of
/// Bidi_Class B (such as U+2029): `paragraphs` lists them. The server decides
/// the paragraph directions (its strategy and fallback) and passes them in;
/// the planner answers edits in UTF-8 byte offsets within the line, which the
/// server turns into LSP positions. Every plan is idempotent: applying it and
/// planning again over the new line (a range grown by the inserted
/// characters) gives no edits.
///
/// Bytes that are not valid UTF-8 are read as U+FFFD, one per maximal
/// invalid subsequence, and are never split by an edit. The optional ranges
/// of modes `placeholders`, `runs` and `strip` are read leniently: clamped to
/// the line, an end inside a character moved outward to include it. Mode
/// `isolate` checks its range strictly and throws `MarkError`.
package struct MarkPlanner: Sendable {
  /// The line's scalars.
  let scalars: [Unicode.Scalar]
  /// The UTF-8 offset of every scalar, and the line's length at the end.
  let offsets: [Int]
  /// The Bidi_Class of every scalar.
  let classes: [BidiClass]
  /// The paragraphs as scalar index ranges, each with its separator.
  let paragraphIndices: [Range<Int>]
  /// The explicit formatting structure, or nil when the line has no
  /// embedding, override or isolate control.
  let structure: ExplicitStructure?

  /// Decodes a line given as UTF-8 bytes.
  package init(utf8 bytes: some Collection<UInt8>) {
    if let planner = bytes.withContiguousStorageIfAvailable({ MarkPlanner(utf8Buffer: $0) }) {
      self = planner
    } else {
      self = Array(bytes).withUnsafeBufferPointer { MarkPlanner(utf8Buffer: $0) }
    }
  }

  private init(utf8Buffer bytes: UnsafeBufferPointer<UInt8>) {
    var scalars: [Unicode.Scalar] = []
    var offsets: [Int] = []
    scalars.reserveCapacity(bytes.count)
    offsets.reserveCapacity(bytes.count + 1)
    var offset = 0
    while offset < bytes.count {
      let decoded = UTF8Decoder.decode(bytes, at: offset)
      scalars.append(Unicode.Scalar(decoded.value) ?? "\u{FFFD}")
      offsets.append(offset)
      offset += decoded.length
    }
    offsets.append(offset)
    self.init(scalars: scalars, offsets: offsets)
  }

  /// Decodes a line given as a string.
  package init(_ text: some StringProtocol) {
    var scalars: [Unicode.Scalar] = []
    var offsets: [Int] = []
    var offset = 0
    for scalar in text.unicodeScalars {
      scalars.append(scalar)
      offsets.append(offset)
      offset += UTF8.width(scalar)
    }
    offsets.append(offset)
    self.init(scalars: scalars, offsets: offsets)
  }

  private init(scalars: [Unicode.Scalar], offsets: [Int]) {
    self.scalars = scalars
    self.offsets = offsets
    var classes: [BidiClass] = []
    classes.reserveCapacity(scalars.count)
    var paragraphs: [Range<Int>] = []
    var paragraphStart = 0
    var hasControls = false
    for (index, scalar) in scalars.enumerated() {
      let bidiClass = BidiProperties.bidiClass(scalar.value)
      classes.append(bidiClass)
      switch bidiClass {
      case .B:
        paragraphs.append(paragraphStart..<index + 1)
        paragraphStart = index + 1
      case .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI:
        hasControls = true
      default:
        break
      }
    }
    if paragraphStart < scalars.count || paragraphs.isEmpty {
      paragraphs.append(paragraphStart..<scalars.count)
    }
    self.classes = classes
    self.paragraphIndices = paragraphs
    self.structure =
      hasControls ? ExplicitStructure(classes: classes, paragraphs: paragraphs) : nil
  }

  /// The line's length in UTF-8 bytes.
  package var utf8Count: Int { offsets[offsets.count - 1] }

  /// The line's UAX #9 paragraphs as UTF-8 ranges, in order. Each ends after
  /// its paragraph separator (Bidi_Class B), the last one at the end of the
  /// line; an empty line has one empty paragraph.
  package var paragraphs: [Range<Int>] {
    paragraphIndices.map { offsets[$0.lowerBound]..<offsets[$0.upperBound] }
  }
}

// MARK: Offsets and ranges

extension MarkPlanner {
  /// The scalar index at a UTF-8 offset, or nil when the offset is outside
  /// the line or inside a scalar.
  func scalarIndex(atOffset offset: Int) -> Int? {
    guard offset >= 0, offset <= utf8Count else { return nil }
    var low = 0
    var high = offsets.count - 1
    while low < high {
      let middle = (low + high) / 2
      if offsets[middle] < offset { low = middle + 1 } else { high = middle }
    }
    return offsets[low] == offset ? low : nil
  }

  /// Checks a range strictly: in the line and on scalar boundaries.
  func scalarRange(strictly range: Range<Int>) throws(MarkError) -> Range<Int> {
    guard range.lowerBound >= 0, range.upperBound <= utf8Count else {
      throw .rangeOutOfBounds(range, utf8Count: utf8Count)
    }
    guard let start = scalarIndex(atOffset: range.lowerBound) else {
      throw .notOnScalarBoundary(range.lowerBound)
    }
    guard let end = scalarIndex(atOffset: range.upperBound) else {
      throw .notOnScalarBoundary(range.upperBound)
    }
    return start..<end
  }

  /// A range leniently: clamped to the line, its ends moved outward to
  /// scalar boundaries; nil means the whole line.
  func scalarRange(leniently range: Range<Int>?) -> Range<Int> {
    guard let range else { return 0..<scalars.count }
    let lower = min(max(range.lowerBound, 0), utf8Count)
    let upper = min(max(range.upperBound, lower), utf8Count)
    // The last scalar starting at or before `lower`.
    var low = 0
    var high = offsets.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if offsets[middle] <= lower { low = middle } else { high = middle - 1 }
    }
    let start = low
    // The first boundary at or after `upper`.
    high = offsets.count - 1
    while low < high {
      let middle = (low + high) / 2
      if offsets[middle] < upper { low = middle + 1 } else { high = middle }
    }
    return start..<low
  }

  /// The index of the paragraph holding a scalar index (the last paragraph
  /// for the end of the line).
  func paragraphIndex(ofScalar index: Int) -> Int {
    var low = 0
    var high = paragraphIndices.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if paragraphIndices[middle].lowerBound <= index { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The scalar range of a paragraph without its separator.
  func content(ofParagraph paragraph: Int) -> Range<Int> {
    let bounds = paragraphIndices[paragraph]
    if let last = bounds.last, classes[last] == .B {
      return bounds.lowerBound..<last
    }
    return bounds
  }

  /// A direction list read leniently: missing entries repeat the last one
  /// given, and an empty list means LTR.
  func direction(ofParagraph paragraph: Int, in directions: [BidiDirection]) -> BidiDirection {
    if paragraph < directions.count { return directions[paragraph] }
    return directions.last ?? .leftToRight
  }
}
