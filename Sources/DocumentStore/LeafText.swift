import UnicodeBidi

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

  /// The number of bytes of line `j`'s content (terminator excluded).
  @inline(__always)
  func contentLength(of j: Int) -> Int {
    let range = bounds(of: j)
    return range.count - terminator(of: range).utf8Count
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

  func metrics() -> TextMetrics { metrics(ofFirst: records.count) }

  /// Sizes of the first `count` lines.
  func metrics(ofFirst count: Int) -> TextMetrics {
    var metrics = TextMetrics.zero
    metrics.lineCount = count
    for j in 0..<count {
      metrics.contentUTF16 += Int(records[j].utf16)
      metrics.contentUTF32 += Int(records[j].scalars)
      metrics.terminatorUnits += terminator(of: bounds(of: j)).utf8Count
    }
    let end = count < records.count ? Int(records[count].start) : bytes.count
    metrics.contentUTF8 = end - metrics.terminatorUnits
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

/// Packs lines of a contiguous UTF-8 buffer into leaves, in one linear pass.
///
/// Lines come either from scanning (`scan`, which splits at `\n`, `\r\n`
/// and `\r` and validates UTF-8) or, for lines an edit did not touch, from
/// their known records (`addKnownLine`), so that an edit scans only the
/// lines it touches. Leaves are filled up to `maxLeafBytes` (a longer line
/// gets a leaf of its own) and sized evenly.
struct LeafPacker {
  /// The longest line a leaf can record (its offsets are 32-bit).
  static let maximumLineLength = Int(UInt32.max)

  private let base: UnsafePointer<UInt8>?
  private let maxLeafBytes: Int
  private let target: Int
  private var leaves: [LeafText] = []
  private var records: [LineRecord] = []
  private var leafStart = 0
  /// The end of the last line added.
  private var addedEnd = 0

  /// A packer over `input`, whose lines must then be added in order, covering it all.
  init(_ input: UnsafeBufferPointer<UInt8>, maxLeafBytes: Int) {
    base = input.baseAddress
    self.maxLeafBytes = maxLeafBytes
    let leafCount = max(1, (input.count + maxLeafBytes - 1) / maxLeafBytes)
    target = (input.count + leafCount - 1) / leafCount
    leaves.reserveCapacity(leafCount + 1)
  }

  /// Adds the line at `start..<end` (terminator included) with known counts.
  mutating func addLine(start: Int, end: Int, utf16: Int, scalars: Int) {
    let leafBytes = start - leafStart
    if !records.isEmpty && (leafBytes >= target || leafBytes + (end - start) > maxLeafBytes) {
      flush(upTo: start)
    }
    records.append(LineRecord(start: UInt32(start - leafStart), utf16: UInt32(utf16), scalars: UInt32(scalars)))
    addedEnd = end
  }

  /// Scans and adds the lines in `range`. Unless `endsDocument`, `range`
  /// ends with a terminator (or is empty); with `endsDocument` the text after
  /// its last terminator is a line too, possibly empty. With `wellFormed`
  /// the bytes are known to be UTF-8 and only counted.
  mutating func scan(_ range: Range<Int>, endsDocument: Bool, wellFormed: Bool = false) throws(DocumentError) {
    var i = range.lowerBound
    let count = range.upperBound
    guard let base, i < count else {
      if endsDocument { addFinalEmptyLine(at: count) }
      return
    }
    let input = UnsafeBufferPointer(start: base, count: count)
    while true {
      let lineStart = i
      let scan: UTF8LineScan
      if wellFormed {
        scan = WellFormedLineScan.scanLine(input, from: i)
      } else {
        do {
          scan = try UTF8Decoder.scanLine(input, from: i)
        } catch {
          throw .invalidUTF8
        }
      }
      let contentLength = scan.contentEnd - lineStart
      if contentLength >= Self.maximumLineLength { throw .lineTooLong(utf8Count: contentLength) }
      var end = scan.contentEnd
      let terminated = end < count
      if terminated {
        end += 1
        if base[end - 1] == 0x0D && end < count && base[end] == 0x0A { end += 1 }
      }
      addLine(start: lineStart, end: end, utf16: scan.utf16Count, scalars: scan.scalarCount)
      i = end
      if !terminated { return }
      if i == count {
        if endsDocument { addFinalEmptyLine(at: count) }
        return
      }
    }
  }

  /// The empty last line joins the current leaf unless that is already too big.
  private mutating func addFinalEmptyLine(at offset: Int) {
    if !records.isEmpty && offset - leafStart > maxLeafBytes { flush(upTo: offset) }
    records.append(LineRecord(start: UInt32(offset - leafStart), utf16: 0, scalars: 0))
    addedEnd = offset
  }

  /// The leaves, once every line has been added.
  mutating func finish() -> [LeafText] {
    if !records.isEmpty { flush(upTo: addedEnd) }
    return leaves
  }

  private mutating func flush(upTo end: Int) {
    let bytes: [UInt8]
    if let base {
      bytes = Self.copy(UnsafeBufferPointer(start: base + leafStart, count: end - leafStart))
    } else {
      bytes = []
    }
    leaves.append(LeafText(bytes: bytes, records: records.withUnsafeBufferPointer { Self.copy($0) }))
    records.removeAll(keepingCapacity: true)
    leafStart = end
  }

  /// A copy with no spare capacity. (Never `unsafeUninitializedCapacity: 0`:
  /// that writes the count of the empty-array singleton every thread shares,
  /// a data race TSan reports.)
  private static func copy<T>(_ source: UnsafeBufferPointer<T>) -> [T] {
    guard !source.isEmpty else { return [] }
    return [T](unsafeUninitializedCapacity: source.count) { buffer, initialized in
      if let from = source.baseAddress, let to = buffer.baseAddress {
        to.initialize(from: from, count: source.count)
      }
      initialized = source.count
    }
  }
}
