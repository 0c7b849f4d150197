import ByteWords

/// Writes compact JSON text straight into a byte buffer, value by value.
///
/// A large answer (a million paragraph entries, a map of every unit of a
/// 12 MB line) is encoded entry by entry into the outgoing bytes instead of
/// being built as one tree of values first, and those bytes are kept as a
/// list of chunks of about `chunkSize` bytes, never as one growing array
/// (which would double, and copy, its capacity again and again): the memory
/// a response needs is its encoded bytes plus whatever one entry takes while
/// it is written.
///
/// Commas are placed by the writer: after `beginObject`/`beginArray` or a
/// `key`, the next value needs none; after a value or a closed container,
/// the next one does. Keys are written as given (escaped like strings);
/// the writer does not check that keys are unique or that every container
/// is closed: the typed results that drive it do.
package struct JSONWriter: Sendable {
  /// The size past which the chunk being written is set aside at the next
  /// value boundary.
  static let chunkSize = 256 << 10
  /// Full chunks, in order, then the one being written.
  private var chunks: [[UInt8]] = []
  private var bytes: [UInt8] = []
  private var chunksCount = 0
  private var needsComma = false
  /// The request whose answer this is, when long arrays should stop once
  /// it is cancelled (see `isInterrupted`).
  package var interruption: RequestContext?
  /// Set once a long array found `interruption` cancelled and stopped
  /// writing: the text is then incomplete, and the answer must be -32800.
  package private(set) var isInterrupted = false

  /// Whether every character past U+007F is written as a `\u` escape (a
  /// UTF-16 surrogate pair past U+FFFF), so that the text is ASCII and no
  /// bidi control in a string can reorder what is shown around it.
  package let asciiOnly: Bool

  package init(asciiOnly: Bool = false) {
    self.asciiOnly = asciiOnly
  }

  /// Elements of a long array written between two cancellation checks.
  static let interruptionInterval = 1 << 16

  /// Whether the request has been cancelled (checked by the writer of a
  /// long array every `interruptionInterval` elements); sets `isInterrupted`.
  package mutating func pollInterruption() -> Bool {
    if !isInterrupted, let interruption, interruption.isCancelled { isInterrupted = true }
    return isInterrupted
  }

  /// The number of bytes written so far.
  package var count: Int { chunksCount + bytes.count }

  /// The JSON text written so far, contiguous (a copy).
  package var text: [UInt8] {
    var all: [UInt8] = []
    all.reserveCapacity(count)
    for chunk in chunks { all += chunk }
    return all + bytes
  }

  /// Appends the text written so far to `output` and empties the writer,
  /// which keeps its buffer for the next values.
  package mutating func moveText(appendingTo output: inout [UInt8]) {
    for chunk in chunks { output += chunk }
    output += bytes
    chunks = []
    chunksCount = 0
    bytes.removeAll(keepingCapacity: true)
    needsComma = false
  }

  /// Removes and returns the bytes as chunks, leaving the writer empty.
  mutating func takeChunks() -> [[UInt8]] {
    defer {
      chunks = []
      bytes = []
      chunksCount = 0
      needsComma = false
    }
    return bytes.isEmpty ? chunks : chunks + [bytes]
  }

  @inline(__always)
  private mutating func separate() {
    if bytes.count >= Self.chunkSize { setChunkAside() }
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  private mutating func setChunkAside() {
    chunksCount += bytes.count
    chunks.append(bytes)
    bytes = []
    // Room for the value that crosses the size, so the chunk rarely grows.
    bytes.reserveCapacity(Self.chunkSize + (8 << 10))
  }

  // MARK: Containers

  package mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  package mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  package mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  package mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// An object member's key; its value comes next.
  package mutating func key(_ name: String) {
    separate()
    appendQuoted(name)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  // MARK: Scalars

  package mutating func null() {
    separate()
    bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
    needsComma = true
  }

  package mutating func bool(_ value: Bool) {
    separate()
    if value {
      bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
    } else {
      bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
    }
    needsComma = true
  }

  package mutating func integer(_ value: Int) {
    separate()
    appendDigits(Int64(value))
    needsComma = true
  }

  /// A finite number in its shortest exact form; NaN and the infinities,
  /// which JSON cannot express, as `null` (as `JSONValue.encoded()` does).
  package mutating func double(_ value: Double) {
    guard value.isFinite else { return null() }
    separate()
    bytes.append(contentsOf: value.description.utf8)
    needsComma = true
  }

  package mutating func string(_ value: String) {
    separate()
    appendQuoted(value)
    needsComma = true
  }

  /// A string written from Unicode scalar values; values that are not
  /// scalars are written as U+FFFD.
  package mutating func string(scalars: some Sequence<UInt32>) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    for value in scalars {
      let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
      if scalar.value < 0x80 {
        appendEscaped(UInt8(scalar.value))
      } else if asciiOnly {
        for unit in scalar.utf16 { appendEscape(unit) }
      } else {
        UTF8.encode(scalar) { bytes.append($0) }
      }
    }
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// Any value, written recursively.
  package mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .integer(let number):
      separate()
      appendDigits(Int64(number))
      needsComma = true
    case .double(let number): double(number)
    case .string(let text): string(text)
    case .longString(let text):
      separate()
      text.withUTF8 { appendQuoted($0) }
      needsComma = true
    case .array(let elements):
      beginArray()
      for element in elements { self.value(element) }
      endArray()
    case .object(let members):
      beginObject()
      for (name, member) in members {
        key(name)
        self.value(member)
      }
      endObject()
    }
  }

  /// A value that encodes itself.
  package mutating func value(_ value: some JSONEncodable) {
    value.encode(to: &self)
  }

  /// An array of integers, written without building any intermediate value.
  package mutating func integers(_ values: some Sequence<Int>) {
    beginArray()
    for value in values { integer(value) }
    endArray()
  }

  /// An array of integers (the common case, not generic: per-unit maps of
  /// millions of entries). Stops early once `interruption` is cancelled.
  package mutating func integers(_ values: [Int]) {
    beginArray()
    values.withUnsafeBufferPointer { buffer in
      var start = 0
      while start < buffer.count {
        let end = min(start + Self.interruptionInterval, buffer.count)
        appendIntegers(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        start = end
        if start < buffer.count, pollInterruption() { return }
      }
    }
    endArray()
  }

  /// Bytes of integers staged on the stack before each bulk append.
  private static let stageSize = 4096

  /// Array elements, commas included, formatted into a stack buffer and
  /// appended a few kilobytes at a time (a chunk is set aside only between
  /// two of those appends, so always at a value boundary).
  private mutating func appendIntegers(_ values: UnsafeBufferPointer<Int>) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.stageSize) { stage in
      let base = stage.baseAddress!
      var n = 0
      var comma = needsComma
      for value in values {
        // A comma, a sign and 19 digits.
        if n > Self.stageSize - 21 {
          bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
          if bytes.count >= Self.chunkSize { setChunkAside() }
          n = 0
        }
        if comma { base[n] = UInt8(ascii: ","); n += 1 }
        n += Self.formatDigits(Int64(value), base + n)
        comma = true
      }
      bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
      needsComma = comma
    }
  }

  /// "00" to "99", for two digits at a time.
  private static let digitPairs: StaticString = """
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
    5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
    """

  // MARK: Members

  /// `"key": value` for the common member types.
  package mutating func member(_ name: String, _ value: Int) {
    key(name)
    integer(value)
  }

  package mutating func member(_ name: String, _ value: String) {
    key(name)
    string(value)
  }

  package mutating func member(_ name: String, _ value: Bool) {
    key(name)
    bool(value)
  }

  package mutating func member(_ name: String, _ value: JSONValue) {
    key(name)
    self.value(value)
  }

  package mutating func member(_ name: String, _ value: some JSONEncodable) {
    key(name)
    value.encode(to: &self)
  }

  /// The member only when `value` is not nil.
  package mutating func member(_ name: String, ifPresent value: (some JSONEncodable)?) {
    if let value { member(name, value) }
  }

  // MARK: Bytes

  /// The decimal digits of `value`, written from a buffer on the stack (no
  /// String per number: a 12 MB line's maps hold tens of millions).
  @inline(__always)
  private mutating func appendDigits(_ value: Int64) {
    if value >= 0 && value < 10 {
      bytes.append(0x30 + UInt8(value))
      return
    }
    // 19 digits and a sign fit in 24 bytes.
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &buffer) { raw in
      let start = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: Self.formatDigits(value, start)))
    }
  }

  /// Writes the decimal form of `value` at `output` (room for 20 bytes);
  /// returns its length. Two digits per division.
  @inline(__always)
  static func formatDigits(_ value: Int64, _ output: UnsafeMutablePointer<UInt8>) -> Int {
    var magnitude = value.magnitude
    // The sign, then as many digits as powers of ten up to the magnitude
    // (at most 19: an Int64's magnitude is below 10^19).
    var length = value < 0 ? 2 : 1
    var bound: UInt64 = 10
    while magnitude >= bound {
      length += 1
      if bound > UInt64.max / 10 { break }
      bound *= 10
    }
    if value < 0 { output.pointee = UInt8(ascii: "-") }
    var index = output + length
    let pairs = digitPairs.utf8Start
    while magnitude >= 100 {
      let pair = Int(magnitude % 100) &* 2
      magnitude /= 100
      index -= 2
      index[0] = pairs[pair]
      index[1] = pairs[pair + 1]
    }
    if magnitude >= 10 {
      index -= 2
      index[0] = pairs[Int(magnitude) &* 2]
      index[1] = pairs[Int(magnitude) &* 2 + 1]
    } else {
      index -= 1
      index[0] = 0x30 + UInt8(truncatingIfNeeded: magnitude)
    }
    return length
  }

  private mutating func appendQuoted(_ text: String) {
    var text = text
    text.withUTF8 { appendQuoted($0) }
  }

  /// A string's UTF-8 (well-formed: a `String`'s, or jansson's validated
  /// bytes) between quotes: the stretches that need no escape appended whole
  /// (found eight bytes at a time), the rest escaped. In ASCII-only mode the
  /// rest of the string from its first byte past 0x7F is written by
  /// `appendASCIIOnly`.
  private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    if let base = utf8.baseAddress {
      let n = utf8.count
      var start = 0
      var i = 0
      while i < n {
        while i + 8 <= n {
          let word = ByteWord.load(base, i)
          if Self.mayNeedEscape(word) || (asciiOnly && ByteWord.hasNonASCII(word)) { break }
          i += 8
        }
        guard i < n else { break }
        let byte = base[i]
        if byte >= 0x80 && asciiOnly {
          bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start))
          appendASCIIOnly(UnsafeBufferPointer(start: base + i, count: n - i))
          start = n
          break
        }
        i += 1
        guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - 1 - start))
        appendEscaped(byte)
        start = i
      }
      bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: n - start))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// `utf8` (well-formed) in UTF-16 units, each written as it is or escaped:
  /// a unit past 0x7F as `\u` and four hexadecimal digits (a character past
  /// U+FFFF is a surrogate pair), in capitals as jansson writes them.
  private mutating func appendASCIIOnly(_ utf8: UnsafeBufferPointer<UInt8>) {
    // No UTF-8 byte becomes more than six bytes of escape.
    let written = [UInt8](unsafeUninitializedCapacity: utf8.count * 6) { output, count in
      guard let out = output.baseAddress else { return }
      var k = 0
      _ = transcode(utf8.makeIterator(), from: UTF8.self, to: UTF16.self, stoppingOnError: false) { unit in
        if unit >= 0x80 || unit < 0x20 || unit == 0x22 || unit == 0x5C {
          k += Self.writeEscape(unit, to: out + k)
        } else {
          out[k] = UInt8(truncatingIfNeeded: unit)
          k += 1
        }
      }
      count = k
    }
    bytes.append(contentsOf: written)
  }

  /// Writes the JSON escape of `unit` (a quote, a backslash, a control
  /// character, or in ASCII-only text a unit past 0x7F) at `out`; its length.
  @inline(__always)
  private static func writeEscape(_ unit: UInt16, to out: UnsafeMutablePointer<UInt8>) -> Int {
    out[0] = 0x5C
    switch unit {
    case 0x22, 0x5C: out[1] = UInt8(unit)
    case 0x0A: out[1] = UInt8(ascii: "n")
    case 0x0D: out[1] = UInt8(ascii: "r")
    case 0x09: out[1] = UInt8(ascii: "t")
    case 0x08: out[1] = UInt8(ascii: "b")
    case 0x0C: out[1] = UInt8(ascii: "f")
    default:
      out[1] = UInt8(ascii: "u")
      out[2] = hexDigit(UInt8(truncatingIfNeeded: unit >> 12))
      out[3] = hexDigit(UInt8(truncatingIfNeeded: unit >> 8) & 0xF)
      out[4] = hexDigit(UInt8(truncatingIfNeeded: unit >> 4) & 0xF)
      out[5] = hexDigit(UInt8(truncatingIfNeeded: unit) & 0xF)
      return 6
    }
    return 2
  }

  /// False only when no byte of `word` is below 0x20, a quote or a
  /// backslash (true may be a false alarm, never a miss).
  @inline(__always)
  static func mayNeedEscape(_ word: UInt64) -> Bool {
    // A byte below 0x20, a quote, a backslash (each test exact up to the
    // first byte it finds, which is all a "maybe" needs).
    let control = ByteWord.firstBytesBelow(word, 0x20)
    let quote = ByteWord.firstZeroBytes(word ^ ByteWord.broadcast(0x22))
    let backslash = ByteWord.firstZeroBytes(word ^ ByteWord.broadcast(0x5C))
    return control | quote | backslash != 0
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? 0x30 + value : 0x41 + value - 10
  }

  /// One byte of a string's UTF-8, escaped as JSON requires (quote,
  /// backslash, control characters); bytes of multi-byte characters are
  /// written as they are.
  @inline(__always)
  private mutating func appendEscaped(_ byte: UInt8) {
    guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { return bytes.append(byte) }
    appendEscape(UInt16(byte))
  }

  /// `writeEscape`'s bytes for `unit`, from the stack.
  @inline(__always)
  private mutating func appendEscape(_ unit: UInt16) {
    var escape: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &escape) { raw in
      let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: Self.writeEscape(unit, to: out)))
    }
  }
}

/// A value that writes itself as JSON: the typed results of the protocol,
/// encoded once, entry by entry.
package protocol JSONEncodable {
  func encode(to writer: inout JSONWriter)
}

extension Int: JSONEncodable {
  package func encode(to writer: inout JSONWriter) { writer.integer(self) }
}

extension String: JSONEncodable {
  package func encode(to writer: inout JSONWriter) { writer.string(self) }
}

extension Bool: JSONEncodable {
  package func encode(to writer: inout JSONWriter) { writer.bool(self) }
}

extension JSONValue: JSONEncodable {
  package func encode(to writer: inout JSONWriter) { writer.value(self) }
}

extension Array: JSONEncodable where Element: JSONEncodable {
  /// Stops early, like `integers`, once the writer's `interruption` is
  /// cancelled (asked every `interruptionInterval` elements).
  package func encode(to writer: inout JSONWriter) {
    writer.beginArray()
    var untilPoll = JSONWriter.interruptionInterval
    for element in self {
      untilPoll -= 1
      if untilPoll == 0 {
        untilPoll = JSONWriter.interruptionInterval
        if writer.pollInterruption() { return }
      }
      element.encode(to: &writer)
    }
    writer.endArray()
  }
}
