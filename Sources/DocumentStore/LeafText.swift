/// Per-line sizes inside a leaf. 12 bytes a line; the content length and the
/// terminator are read from the bytes and the next line's start.
struct LineRecord: Sendable {
  /// Offset of the line's first byte in the leaf's bytes.
  var start: UInt32
  /// UTF-16 code units of content.
  var utf16: UInt32
  /// Unicode scalars of content.
  var scalars: UInt32
}

/// The text of a leaf: a block of complete lines, their bytes contiguous
/// (terminators included) and one `LineRecord` per line.
struct LeafText: Sendable {
  var bytes: [UInt8]
  var records: [LineRecord]

  static let empty = LeafText(bytes: [], records: [])

  var lineCount: Int { records.count }

  /// Byte range of line `j`, terminator included.
  @inline(__always)
  func bounds(of j: Int) -> Range<Int> {
    let start = Int(records[j].start)
    let end = j + 1 < records.count ? Int(records[j + 1].start) : bytes.count
    return start..<end
  }

  @inline(__always)
  func terminator(of bounds: Range<Int>) -> LineTerminator {
    guard let last = bounds.last else { return .none }
    switch bytes[last] {
    case 0x0A:
      return bounds.count >= 2 && bytes[last - 1] == 0x0D ? .crlf : .lf
    case 0x0D:
      return .cr
    default:
      return .none
    }
  }

  func line(_ j: Int) -> Line {
    let range = bounds(of: j)
    let terminator = terminator(of: range)
    return Line(
      storage: bytes, start: range.lowerBound,
      utf8Count: range.count - terminator.utf8Count,
      utf16Count: Int(records[j].utf16), utf32Count: Int(records[j].scalars),
      terminator: terminator)
  }

  func metrics() -> TextMetrics {
    var metrics = TextMetrics.zero
    metrics.lineCount = records.count
    for j in records.indices {
      metrics.contentUTF16 += Int(records[j].utf16)
      metrics.contentUTF32 += Int(records[j].scalars)
      metrics.terminatorUnits += terminator(of: bounds(of: j)).utf8Count
    }
    metrics.contentUTF8 = bytes.count - metrics.terminatorUnits
    return metrics
  }

  /// The lines `range` as a leaf of their own.
  func slice(lines range: Range<Int>) -> LeafText {
    guard !range.isEmpty else { return .empty }
    let first = Int(records[range.lowerBound].start)
    let end = range.upperBound < records.count ? Int(records[range.upperBound].start) : bytes.count
    let shift = UInt32(first)
    return LeafText(
      bytes: Array(bytes[first..<end]),
      records: records[range].map { LineRecord(start: $0.start - shift, utf16: $0.utf16, scalars: $0.scalars) })
  }
}

/// Splits UTF-8 text into lines and packs them into leaves in one linear pass.
enum LeafPacker {
  /// The longest line a leaf can record (its offsets are 32-bit).
  static let maximumLineLength = Int(UInt32.max)

  /// Splits `input` into lines at `\n`, `\r\n` and `\r` and packs them into
  /// leaves of at most `maxLeafBytes` bytes (a longer line gets a leaf of its
  /// own), sized evenly. With `endsDocument` the text after the last
  /// terminator is a line (possibly empty); otherwise `input` is a run of
  /// complete lines that ends with a terminator.
  static func pack(
    _ input: UnsafeBufferPointer<UInt8>, endsDocument: Bool, maxLeafBytes: Int
  ) throws(DocumentError) -> [LeafText] {
    let count = input.count
    guard let base = input.baseAddress, count > 0 else {
      return endsDocument ? [LeafText(bytes: [], records: [LineRecord(start: 0, utf16: 0, scalars: 0)])] : []
    }
    let leafCount = max(1, (count + maxLeafBytes - 1) / maxLeafBytes)
    let target = (count + leafCount - 1) / leafCount
    var leaves: [LeafText] = []
    leaves.reserveCapacity(leafCount + 1)
    var records: [LineRecord] = []
    var leafStart = 0
    var i = 0

    func flush(upTo end: Int) {
      leaves.append(
        LeafText(
          bytes: copy(UnsafeBufferPointer(start: base + leafStart, count: end - leafStart)),
          records: copy(records)))
      records.removeAll(keepingCapacity: true)
      leafStart = end
    }

    while true {
      let lineStart = i
      let scan = try UTF8Scan.scanLine(base, from: i, count: count)
      let contentLength = scan.contentEnd - lineStart
      if contentLength >= maximumLineLength { throw .lineTooLong(utf8Count: contentLength) }
      var end = scan.contentEnd
      let terminated = end < count
      if terminated {
        end += 1
        if base[end - 1] == 0x0D && end < count && base[end] == 0x0A { end += 1 }
      }
      let leafBytes = lineStart - leafStart
      if !records.isEmpty && (leafBytes >= target || leafBytes + (end - lineStart) > maxLeafBytes) {
        flush(upTo: lineStart)
      }
      let scalars = contentLength - scan.continuationBytes
      records.append(
        LineRecord(
          start: UInt32(lineStart - leafStart), utf16: UInt32(scalars + scan.astralScalars),
          scalars: UInt32(scalars)))
      i = end
      if !terminated { break }
      if i == count {
        if endsDocument {
          // The empty last line joins the current leaf unless it is already too big.
          if count - leafStart > maxLeafBytes { flush(upTo: count) }
          records.append(LineRecord(start: UInt32(count - leafStart), utf16: 0, scalars: 0))
        }
        break
      }
    }
    flush(upTo: count)
    return leaves
  }

  /// A copy with no spare capacity.
  private static func copy<T>(_ source: UnsafeBufferPointer<T>) -> [T] {
    [T](unsafeUninitializedCapacity: source.count) { buffer, initialized in
      if let from = source.baseAddress, let to = buffer.baseAddress {
        to.initialize(from: from, count: source.count)
      }
      initialized = source.count
    }
  }

  private static func copy<T>(_ source: [T]) -> [T] {
    source.withUnsafeBufferPointer { copy($0) }
  }
}
