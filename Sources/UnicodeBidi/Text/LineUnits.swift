/// Converts offsets within one line between UTF-8 bytes and the units of a
/// `PositionEncoding`, in the manner of rust-analyzer's line index: built
/// once per line, it answers many conversions without counting from the
/// line's start each time.
///
/// The line is UTF-8 without its terminator; an ill-formed sequence counts
/// as one U+FFFD per maximal subpart (see `UTF8Decoder`). Every conversion
/// follows the same rules: an offset inside a character (a continuation
/// byte, the second unit of a surrogate pair) moves to that character's
/// start; an offset past the end clamps to the end, a negative one to 0.
///
/// Building it walks the line once and records, every `stride` bytes, how
/// many units lie before that point; a conversion then walks at most
/// `stride` bytes from the nearest record. ASCII lines and UTF-8 offsets
/// need no records. For a single conversion, the static functions count
/// only up to the offset.
public struct LineUnits: Sendable {
  /// The encoding `character` offsets count.
  public let encoding: PositionEncoding
  private let storage: [UInt8]
  private let start: Int
  /// The line's length in bytes.
  public let utf8Count: Int
  /// The line's length in units of `encoding`.
  public let count: Int
  /// Whether byte offsets are unit offsets and character boundaries (ASCII).
  private let isASCII: Bool
  /// Sequence-start byte offsets, ascending, and the units before each.
  private var byteMarks: [Int] = []
  private var unitMarks: [Int] = []

  static let stride = 256

  /// The converter for `storage[range]` (the whole of `storage` when nil).
  public init(_ storage: [UInt8], range: Range<Int>? = nil, encoding: PositionEncoding) {
    self.init(storage, range: range ?? 0..<storage.count, encoding: encoding, isASCII: nil)
  }

  /// As `init(_:range:encoding:)`, with the line's ASCII-ness when the
  /// caller knows it (then an ASCII line costs nothing to build).
  package init(_ storage: [UInt8], range: Range<Int>, encoding: PositionEncoding, isASCII known: Bool?) {
    self.encoding = encoding
    self.storage = storage
    start = range.lowerBound
    utf8Count = range.count
    var ascii = known ?? true
    var bytesAt: [Int] = []
    var unitsAt: [Int] = []
    var total = range.count
    if known == nil || known == false {
      storage.withUnsafeBufferPointer { all in
        let bytes = UnsafeBufferPointer(rebasing: all[range])
        if known == nil { ascii = !bytes.contains { $0 >= 0x80 } }
        guard !ascii else { return }
        // UTF-8 offsets need no records: a character's start is found from
        // the bytes around it.
        guard encoding != .utf8 else { return }
        bytesAt.reserveCapacity(bytes.count / Self.stride + 1)
        unitsAt.reserveCapacity(bytes.count / Self.stride + 1)
        var offset = 0
        var units = 0
        var next = 0
        while offset < bytes.count {
          if offset >= next {
            bytesAt.append(offset)
            unitsAt.append(units)
            next = offset + Self.stride
          }
          let length = UTF8Decoder.decode(bytes, at: offset).length
          units += encoding.units(ofSequence: length)
          offset += length
        }
        total = units
      }
    }
    isASCII = ascii
    count = total
    byteMarks = bytesAt
    unitMarks = unitsAt
  }

  /// The offset in units of `encoding` of byte offset `utf8Offset`.
  public func character(atUTF8Offset utf8Offset: Int) -> Int {
    if utf8Offset <= 0 { return 0 }
    if utf8Offset >= utf8Count { return count }
    if isASCII { return utf8Offset }
    return withBytes { bytes in
      if encoding == .utf8 { return UTF8Decoder.sequenceStart(bytes, containing: utf8Offset) }
      let mark = Self.lastMark(atOrBefore: utf8Offset, in: byteMarks)
      return Self.walk(bytes, from: byteMarks[mark], units: unitMarks[mark], toByte: utf8Offset, encoding).units
    }
  }

  /// The byte offset of `character` (counted in units of `encoding`).
  public func utf8Offset(ofCharacter character: Int) -> Int {
    if character <= 0 { return 0 }
    if character >= count { return utf8Count }
    if isASCII { return character }
    return withBytes { bytes in
      if encoding == .utf8 { return UTF8Decoder.sequenceStart(bytes, containing: character) }
      let mark = Self.lastMark(atOrBefore: character, in: unitMarks)
      return Self.walk(bytes, from: byteMarks[mark], units: unitMarks[mark], toUnits: character, encoding).byte
    }
  }

  private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<(start + utf8Count)])) }
  }

  /// The index of the last mark at or before `value` (marks[0] is 0).
  private static func lastMark(atOrBefore value: Int, in marks: [Int]) -> Int {
    var low = 0
    var high = marks.count
    while high - low > 1 {
      let mid = (low + high) / 2
      if marks[mid] <= value { low = mid } else { high = mid }
    }
    return low
  }

  // MARK: Single conversions

  /// The offset in units of `encoding` of byte offset `utf8Offset` of
  /// `line`, counting from its start (rules as for the instance method).
  public static func character(
    atUTF8Offset utf8Offset: Int, in line: UnsafeBufferPointer<UInt8>, _ encoding: PositionEncoding
  ) -> Int {
    if utf8Offset <= 0 { return 0 }
    if utf8Offset >= line.count { return walk(line, from: 0, units: 0, toByte: line.count, encoding).units }
    if encoding == .utf8 { return UTF8Decoder.sequenceStart(line, containing: utf8Offset) }
    return walk(line, from: 0, units: 0, toByte: utf8Offset, encoding).units
  }

  /// The byte offset of `character` (in units of `encoding`) of `line`,
  /// counting from its start (rules as for the instance method).
  public static func utf8Offset(
    ofCharacter character: Int, in line: UnsafeBufferPointer<UInt8>, _ encoding: PositionEncoding
  ) -> Int {
    if character <= 0 { return 0 }
    if character >= line.count && encoding == .utf8 { return line.count }
    if encoding == .utf8 { return UTF8Decoder.sequenceStart(line, containing: character) }
    return walk(line, from: 0, units: 0, toUnits: character, encoding).byte
  }

  /// The length of `line` in units of `encoding`.
  public static func count(of line: UnsafeBufferPointer<UInt8>, in encoding: PositionEncoding) -> Int {
    walk(line, from: 0, units: 0, toByte: line.count, encoding).units
  }

  // MARK: Walking

  /// Advances whole sequences from `byte` (a sequence start, `units` before
  /// it) while they end at or before `target`.
  @inline(__always)
  static func walk(
    _ bytes: UnsafeBufferPointer<UInt8>, from byte: Int, units: Int, toByte target: Int,
    _ encoding: PositionEncoding
  ) -> (byte: Int, units: Int) {
    var offset = byte
    var total = units
    while offset < target {
      // (`decode`: ASCII and two-byte sequences without a call.)
      let length = UTF8Decoder.decode(bytes, at: offset).length
      if offset + length > target { break }  // `target` is inside this sequence
      total += encoding.units(ofSequence: length)
      offset += length
    }
    return (offset, total)
  }

  /// Advances whole sequences from `byte` (a sequence start, `units` before
  /// it) while they end at or before unit `target`.
  @inline(__always)
  static func walk(
    _ bytes: UnsafeBufferPointer<UInt8>, from byte: Int, units: Int, toUnits target: Int,
    _ encoding: PositionEncoding
  ) -> (byte: Int, units: Int) {
    var offset = byte
    var total = units
    while offset < bytes.count {
      // (`decode`: ASCII and two-byte sequences without a call.)
      let length = UTF8Decoder.decode(bytes, at: offset).length
      let width = encoding.units(ofSequence: length)
      if total + width > target { break }  // `target` is here or inside this sequence
      total += width
      offset += length
    }
    return (offset, total)
  }
}
