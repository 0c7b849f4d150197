import UnicodeBidi

/// Maps offsets of an entry's decoded text (UTF-8 bytes of its text) back to the
/// document. The text is cut into segments, in order: a *verbatim* segment
/// is source bytes copied as they are (on one line, byte for byte), any
/// other segment stands for source text that decoding changed (an escape,
/// an entity, a line break, collapsed whitespace): its decoded bytes all map
/// to the start of that source text, the position of its escape.
package struct SourceMap: Hashable, Sendable {
  package struct Segment: Hashable, Sendable {
    /// The first decoded byte of the segment.
    package var decoded: Int
    /// The source it stands for; lines are relative to the entry's first line.
    package var start: SourcePosition
    package var end: SourcePosition
    package var verbatim: Bool

    package init(decoded: Int, start: SourcePosition, end: SourcePosition, verbatim: Bool) {
      self.decoded = decoded
      self.start = start
      self.end = end
      self.verbatim = verbatim
    }
  }

  package var segments: [Segment] = []
  /// The decoded length.
  package var length = 0

  package init() {}

  /// The segment holding decoded offset `offset` (the last one for the end).
  package func segmentIndex(holding offset: Int) -> Int {
    var low = 0
    var high = segments.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if segments[middle].decoded <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The end of segment `index` in decoded bytes.
  package func decodedEnd(of index: Int) -> Int {
    index + 1 < segments.count ? segments[index + 1].decoded : length
  }

  /// Where the decoded character at `offset` starts in the source (the
  /// start of its escape); for `offset == length`, where the last
  /// character's source ends. Nil for a text with no segments.
  package func sourceStart(ofDecoded offset: Int) -> SourcePosition? {
    guard !segments.isEmpty else { return nil }
    if offset >= length { return segments[segments.count - 1].end }
    let segment = segments[segmentIndex(holding: offset)]
    if segment.verbatim {
      return SourcePosition(line: segment.start.line, column: segment.start.column + offset - segment.decoded)
    }
    return segment.start
  }

  /// Where the decoded character ending at `offset` ends in the source
  /// (the end of its escape).
  package func sourceEnd(ofDecoded offset: Int) -> SourcePosition? {
    guard !segments.isEmpty else { return nil }
    if offset <= 0 { return segments[0].start }
    let index = segmentIndex(holding: offset - 1)
    let segment = segments[index]
    if segment.verbatim {
      return SourcePosition(line: segment.start.line, column: segment.start.column + offset - segment.decoded)
    }
    return segment.end
  }

  /// The source ranges a decoded range covers, one per segment it touches
  /// (decoding may put piece delimiters or comments between them).
  package func sourceRanges(ofDecoded range: Range<Int>) -> [SourceRange] {
    guard !segments.isEmpty, !range.isEmpty else { return [] }
    var result: [SourceRange] = []
    var index = segmentIndex(holding: range.lowerBound)
    var offset = range.lowerBound
    while offset < range.upperBound, index < segments.count {
      let end = min(decodedEnd(of: index), range.upperBound)
      if let start = sourceStart(ofDecoded: offset), let stop = sourceEnd(ofDecoded: end) {
        if let last = result.last, last.end == start {
          result[result.count - 1].end = stop
        } else {
          result.append(SourceRange(start: start, end: stop))
        }
      }
      offset = end
      index += 1
    }
    return result
  }

  /// The map of a slice of the text, re-based at its start.
  package func slice(_ range: Range<Int>) -> SourceMap {
    var result = SourceMap()
    result.length = range.count
    guard !segments.isEmpty, !range.isEmpty else { return result }
    var index = segmentIndex(holding: range.lowerBound)
    while index < segments.count, segments[index].decoded < range.upperBound {
      var segment = segments[index]
      let start = max(segment.decoded, range.lowerBound)
      if segment.verbatim {
        let skip = start - segment.decoded
        segment.start.column += skip
        let end = min(decodedEnd(of: index), range.upperBound)
        segment.end = SourcePosition(line: segment.start.line, column: segment.start.column + end - start)
      }
      segment.decoded = start - range.lowerBound
      result.segments.append(segment)
      index += 1
    }
    return result
  }
}
