import UnicodeBidi

/// One paragraph of an entry as the bidi algorithm sees it: its text with
/// markup left out and each atom that stands for other text (a placeholder)
/// one U+FFFC OBJECT REPLACEMENT CHARACTER (Bidi_Class ON), or, *filled*,
/// a Latin word or digits; an atom that shows its own text (a code span)
/// keeps it. Every scalar keeps the decoded range it stands for, so results
/// map back to the entry and from there to the document.
package struct ParagraphProjection: Sendable {
  /// The scalars (the paragraph's separator excluded).
  package var scalars: [UInt32] = []
  /// For each scalar, the decoded bytes it stands for.
  package var ranges: [Range<Int>] = []
  /// For each scalar, its UTF-8 offset in `utf8`, and the total at the end.
  package var offsets: [Int] = [0]
  /// The scalars of each atom of the paragraph, in order.
  package var atomScalars: [Range<Int>] = []
  /// The decoded range of the paragraph's content (separator excluded).
  package var content: Range<Int>

  /// What stands for a text placeholder and a numeric one when filled.
  package static let textFill = "Apple Pay"
  package static let numberFill = "42"

  /// Projects paragraph `paragraph` of `entry`. It costs the paragraph's
  /// length (and a binary search in the entry's atoms and markup), not the
  /// entry's, so that analysing every paragraph of an entry with many is
  /// linear in the entry.
  package init(_ entry: TextEntry, paragraph: Int, filled: Bool) {
    let bounds = entry.paragraphs[paragraph]
    content = bounds
    var text = entry.text
    text.withUTF8 { project(entry, $0, bounds, filled: filled) }
  }

  private mutating func project(
    _ value: TextEntry, _ bytes: UnsafeBufferPointer<UInt8>, _ bounds: Range<Int>, filled: Bool
  ) {
    // The separator (Bidi_Class B) at its end is not content.
    let end =
      bounds.upperBound
      - ParagraphSeparator.length(endingAt: bounds.upperBound, from: bounds.lowerBound, in: bytes)
    content = bounds.lowerBound..<end
    let atoms = Self.overlapping(value.atoms, bounds.lowerBound..<end) { $0.range }
    let markup = Self.overlapping(value.markup, bounds.lowerBound..<end) { $0 }
    let references = Self.overlapping(value.characterReferences, bounds.lowerBound..<end) { $0.range }
    if atoms.isEmpty && markup.isEmpty && references.isEmpty {
      projectText(bytes, bounds.lowerBound..<end)
      return
    }
    let spans = (atoms.map(\.range) + markup + references.map(\.range)).sorted { $0.lowerBound < $1.lowerBound }
    var atomAt: [Int: TextAtom] = [:]
    for atom in atoms { atomAt[atom.range.lowerBound] = atom }
    var referenceAt: [Int: UInt32] = [:]
    for reference in references { referenceAt[reference.range.lowerBound] = reference.scalar }
    var next = 0
    var index = bounds.lowerBound
    reserve(bytes, index..<end)
    while index < end {
      while next < spans.count, spans[next].upperBound <= index { next += 1 }
      if next < spans.count, spans[next].lowerBound <= index {
        let span = spans[next]
        if let scalar = referenceAt[span.lowerBound] {
          // A character reference is the one character it stands for.
          append(scalar, span)
        } else if let atom = atomAt[span.lowerBound], atom.range == span {
          let range = span.lowerBound..<min(span.upperBound, end)
          let first = scalars.count
          if atom.showsText {
            var k = range.lowerBound
            while k < range.upperBound {
              let decoded = UTF8Decoder.decode(bytes, at: k)
              append(decoded.value, k..<k + decoded.length)
              k += decoded.length
            }
          } else if filled {
            for scalar in (atom.isNumeric ? Self.numberFill : Self.textFill).unicodeScalars {
              append(scalar.value, range)
            }
          } else {
            append(0xFFFC, range)
          }
          atomScalars.append(first..<scalars.count)
        }
        index = span.upperBound
        continue
      }
      let decoded = UTF8Decoder.decode(bytes, at: index)
      append(decoded.value, index..<index + decoded.length)
      index += decoded.length
    }
  }

  /// A paragraph of text alone (no atom, markup or character reference):
  /// each scalar of `bytes[range]` stands for its own bytes. The arrays are
  /// filled in one pass, sized by the byte count (an entry's text is a
  /// `String`: well-formed UTF-8, each scalar as long as its encoding).
  private mutating func projectText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    let capacity = range.count
    guard capacity > 0 else {
      // Not `unsafeUninitializedCapacity: 0`: it writes the count of the
      // shared empty array, a data race with any thread reading one.
      (ranges, scalars, offsets) = ([], [], [0])
      return
    }
    var count = 0
    ranges = [Range<Int>](unsafeUninitializedCapacity: capacity) { rangesOut, rangesCount in
      scalars = [UInt32](unsafeUninitializedCapacity: capacity) { scalarsOut, scalarsCount in
        offsets = [Int](unsafeUninitializedCapacity: capacity + 1) { offsetsOut, offsetsCount in
          offsetsOut[0] = 0
          var index = range.lowerBound
          while index < range.upperBound {
            let byte = bytes[index]
            var length = 1
            if byte < 0x80 {
              scalarsOut[count] = UInt32(byte)
            } else {
              let decoded = UTF8Decoder.decode(bytes, at: index)
              scalarsOut[count] = decoded.value
              length = decoded.length
            }
            rangesOut[count] = index..<index + length
            offsetsOut[count + 1] = index + length - range.lowerBound
            index += length
            count += 1
          }
          offsetsCount = count + 1
        }
        scalarsCount = count
      }
      rangesCount = count
    }
  }

  /// The items of `items` (sorted by the start of their `range`s, which do
  /// not overlap) whose ranges overlap `bounds` or start in it, found by a
  /// binary search.
  package static func overlapping<T>(_ items: [T], _ bounds: Range<Int>, range: (T) -> Range<Int>) -> ArraySlice<T> {
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
  }

  @inline(__always)
  private mutating func append(_ scalar: UInt32, _ range: Range<Int>) {
    scalars.append(scalar)
    ranges.append(range)
    offsets.append(offsets[offsets.count - 1] &+ UTF8Encoder.width(scalar))
  }

  /// The atom holding scalar boundary `index` strictly inside it (after its
  /// first scalar, before its end), if any: no edit goes there.
  package func atom(strictlyAround index: Int) -> Range<Int>? {
    var low = 0
    var high = atomScalars.count
    while low < high {
      let middle = (low + high) / 2
      if atomScalars[middle].upperBound <= index { low = middle + 1 } else { high = middle }
    }
    guard low < atomScalars.count, atomScalars[low].lowerBound < index, index < atomScalars[low].upperBound
    else { return nil }
    return atomScalars[low]
  }

  /// The projected text as UTF-8.
  package var utf8: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(offsets[offsets.count - 1])
    for scalar in scalars { UTF8Encoder.append(scalar, to: &bytes) }
    return bytes
  }

  /// The scalar index at a UTF-8 offset of `utf8` (the count for the end).
  package func index(ofUTF8 offset: Int) -> Int {
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
  package func decodedInsertion(at index: Int, leaningLeft: Bool) -> Int {
    if scalars.isEmpty { return content.lowerBound }
    if index >= scalars.count { return ranges[scalars.count - 1].upperBound }
    if index == 0 { return ranges[0].lowerBound }
    return leaningLeft ? ranges[index - 1].upperBound : ranges[index].lowerBound
  }

  /// The decoded range of scalars `range`.
  package func decodedRange(_ range: Range<Int>) -> Range<Int> {
    guard !range.isEmpty else {
      let at = decodedInsertion(at: range.lowerBound, leaningLeft: false)
      return at..<at
    }
    return ranges[range.lowerBound].lowerBound..<ranges[range.upperBound - 1].upperBound
  }
}
