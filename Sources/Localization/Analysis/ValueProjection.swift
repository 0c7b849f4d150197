import UnicodeBidi

/// One paragraph of a value as the bidi algorithm sees it: its text with
/// markup left out and each placeholder one U+FFFC OBJECT REPLACEMENT
/// CHARACTER (Bidi_Class ON), or, *filled*, each text placeholder a Latin
/// word and each numeric one digits (Protocol/localization.md). Every scalar keeps the
/// decoded range it stands for, so results map back to the value and from
/// there to the document.
struct ValueProjection {
  /// The scalars (the paragraph's separator excluded).
  var scalars: [UInt32] = []
  /// For each scalar, the decoded bytes it stands for.
  var ranges: [Range<Int>] = []
  /// For each scalar, its UTF-8 offset in `utf8`, and the total at the end.
  var offsets: [Int] = [0]
  /// Whether the scalar is (part of) a placeholder.
  var isPlaceholder: [Bool] = []
  /// The decoded range of the paragraph's content (separator excluded).
  var content: Range<Int>

  /// What stands for a text placeholder and a numeric one when filled.
  static let textFill = "Apple Pay"
  static let numberFill = "42"

  /// Projects paragraph `paragraph` of `value`. It costs the paragraph's
  /// length (and a binary search in the value's placeholders and markup),
  /// not the value's, so that analysing every paragraph of a value with
  /// many is linear in the value.
  init(_ value: LocalizedValue, paragraph: Int, filled: Bool) {
    let bounds = value.paragraphs[paragraph]
    content = bounds
    var text = value.text
    text.withUTF8 { project(value, $0, bounds, filled: filled) }
  }

  private mutating func project(
    _ value: LocalizedValue, _ bytes: UnsafeBufferPointer<UInt8>, _ bounds: Range<Int>, filled: Bool
  ) {
    // The separator (Bidi_Class B) at its end is not content.
    let end =
      bounds.upperBound
      - ParagraphSeparator.length(endingAt: bounds.upperBound, from: bounds.lowerBound, in: bytes)
    content = bounds.lowerBound..<end
    let placeholders = Self.overlapping(value.placeholders, bounds.lowerBound..<end) { $0.range }
    let markup = Self.overlapping(value.markup, bounds.lowerBound..<end) { $0 }
    let spans = (placeholders.map(\.range) + markup).sorted { $0.lowerBound < $1.lowerBound }
    var placeholderAt: [Int: ValuePlaceholder] = [:]
    for placeholder in placeholders { placeholderAt[placeholder.range.lowerBound] = placeholder }
    var next = 0
    var index = bounds.lowerBound
    reserve(bytes, index..<end)
    while index < end {
      while next < spans.count, spans[next].upperBound <= index { next += 1 }
      if next < spans.count, spans[next].lowerBound <= index {
        let span = spans[next]
        if let placeholder = placeholderAt[span.lowerBound], placeholder.range == span {
          let range = span.lowerBound..<min(span.upperBound, end)
          if filled {
            for scalar in (placeholder.isNumeric ? Self.numberFill : Self.textFill).unicodeScalars {
              append(scalar.value, range, placeholder: true)
            }
          } else {
            append(0xFFFC, range, placeholder: true)
          }
        }
        index = span.upperBound
        continue
      }
      let decoded = UTF8Decoder.decode(bytes, at: index)
      append(decoded.value, index..<index + decoded.length, placeholder: false)
      index += decoded.length
    }
  }

  /// The items of `items` (sorted by the start of their `range`s, which do
  /// not overlap) whose ranges overlap `bounds` or start in it, found by a
  /// binary search.
  static func overlapping<T>(_ items: [T], _ bounds: Range<Int>, range: (T) -> Range<Int>) -> ArraySlice<T> {
    var low = 0
    var high = items.count
    while low < high {
      let middle = (low + high) / 2
      if range(items[middle]).lowerBound < bounds.lowerBound { low = middle + 1 } else { high = middle }
    }
    var first = low
    while first > 0, range(items[first - 1]).upperBound > bounds.lowerBound { first -= 1 }
    var last = low
    while last < items.count, range(items[last]).lowerBound < bounds.upperBound { last += 1 }
    return items[first..<last]
  }

  /// Reserves room for the scalars of `bytes[range]` (its lead bytes: a
  /// filled placeholder can still make the arrays grow).
  private mutating func reserve(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    var count = 0
    for index in range where !UTF8Decoder.isContinuation(bytes[index]) { count += 1 }
    scalars.reserveCapacity(count)
    ranges.reserveCapacity(count)
    offsets.reserveCapacity(count + 1)
    isPlaceholder.reserveCapacity(count)
  }

  private mutating func append(_ scalar: UInt32, _ range: Range<Int>, placeholder: Bool) {
    scalars.append(scalar)
    ranges.append(range)
    isPlaceholder.append(placeholder)
    offsets.append(offsets[offsets.count - 1] &+ UTF8Encoder.width(scalar))
  }

  /// The projected text as UTF-8.
  var utf8: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(offsets[offsets.count - 1])
    for scalar in scalars { UTF8Encoder.append(scalar, to: &bytes) }
    return bytes
  }

  /// The scalar index at a UTF-8 offset of `utf8` (the count for the end).
  func index(ofUTF8 offset: Int) -> Int {
    var low = 0
    var high = offsets.count - 1
    while low < high {
      let middle = (low + high) / 2
      if offsets[middle] < offset { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Where an insertion before scalar `index` goes in the decoded text:
  /// right before that scalar, or, with `leaning` left, right after the one
  /// before it (so that markup between them stays outside a closer).
  func decodedInsertion(at index: Int, leaningLeft: Bool) -> Int {
    if scalars.isEmpty { return content.lowerBound }
    if index >= scalars.count { return ranges[scalars.count - 1].upperBound }
    if index == 0 { return ranges[0].lowerBound }
    return leaningLeft ? ranges[index - 1].upperBound : ranges[index].lowerBound
  }

  /// The decoded range of scalars `range`.
  func decodedRange(_ range: Range<Int>) -> Range<Int> {
    guard !range.isEmpty else {
      let at = decodedInsertion(at: range.lowerBound, leaningLeft: false)
      return at..<at
    }
    return ranges[range.lowerBound].lowerBound..<ranges[range.upperBound - 1].upperBound
  }
}
