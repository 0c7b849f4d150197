/// One paragraph of a value as the bidi algorithm sees it: its text with
/// markup left out and each placeholder one U+FFFC OBJECT REPLACEMENT
/// CHARACTER (Bidi_Class ON), or, *filled*, each text placeholder a Latin
/// word and each numeric one digits (contract §7). Every scalar keeps the
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

  init(_ value: LocalizedValue, paragraph: Int, filled: Bool) {
    let bounds = value.paragraphs[paragraph]
    let bytes = Array(value.text.utf8)
    var end = bounds.upperBound
    // The separator (Bidi_Class B) at its end is not content.
    if end > bounds.lowerBound {
      if bytes[end - 1] == 0x0A {
        end -= 1
        if end > bounds.lowerBound, bytes[end - 1] == 0x0D { end -= 1 }
      } else if bytes[end - 1] == 0x0D || (bytes[end - 1] >= 0x1C && bytes[end - 1] <= 0x1E) {
        end -= 1
      } else if end - bounds.lowerBound >= 2, bytes[end - 2] == 0xC2, bytes[end - 1] == 0x85 {
        end -= 2
      } else if end - bounds.lowerBound >= 3, bytes[end - 3] == 0xE2, bytes[end - 2] == 0x80, bytes[end - 1] == 0xA9 {
        end -= 3
      }
    }
    content = bounds.lowerBound..<end
    let spans = ValueFinisher.spans(of: value)
    var placeholderAt: [Int: ValuePlaceholder] = [:]
    for placeholder in value.placeholders { placeholderAt[placeholder.range.lowerBound] = placeholder }
    var next = 0
    var index = bounds.lowerBound
    reserve(end - index)
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
      let (scalar, length) = decode(bytes, at: index)
      append(scalar, index..<index + length, placeholder: false)
      index += length
    }
  }

  private mutating func reserve(_ count: Int) {
    scalars.reserveCapacity(count)
    ranges.reserveCapacity(count)
    offsets.reserveCapacity(count + 1)
    isPlaceholder.reserveCapacity(count)
  }

  private mutating func append(_ scalar: UInt32, _ range: Range<Int>, placeholder: Bool) {
    scalars.append(scalar)
    ranges.append(range)
    isPlaceholder.append(placeholder)
    offsets.append(offsets[offsets.count - 1] + UTF8.width(Unicode.Scalar(scalar) ?? "\u{FFFD}"))
  }

  /// The projected text as UTF-8.
  var utf8: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(offsets[offsets.count - 1])
    for scalar in scalars { UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { bytes.append($0) } }
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

/// Decodes the scalar of valid UTF-8 at `index` (value texts are valid:
/// readers replace invalid bytes).
@inline(__always)
func decode(_ bytes: [UInt8], at index: Int) -> (UInt32, Int) {
  let b0 = UInt32(bytes[index])
  if b0 < 0x80 { return (b0, 1) }
  if b0 >= 0xF0, index + 3 < bytes.count {
    return (
      (b0 & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
        | UInt32(bytes[index + 3] & 0x3F), 4
    )
  }
  if b0 >= 0xE0, index + 2 < bytes.count {
    return ((b0 & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
  }
  if b0 >= 0xC0, index + 1 < bytes.count { return ((b0 & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
  return (0xFFFD, 1)
}
