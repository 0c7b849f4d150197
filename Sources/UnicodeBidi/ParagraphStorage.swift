import CUnicodeBidiData

/// The per-character arrays of an analysed paragraph, in one allocation:
/// the scalar values, their original Bidi_Class, their resolved levels, and
/// the positions of the paired brackets.
///
/// A level byte holds the level in its low 7 bits; bit 7 marks a character
/// removed by X9, whose low bits are then meaningless until a line places it.
final class ParagraphStorage: @unchecked Sendable {
  // Written only while `BidiParagraph.init` runs, read-only once the
  // paragraph exists; @unchecked Sendable for that reason.
  private(set) var count: Int
  let scalars: UnsafeMutablePointer<UInt32>
  let classes: UnsafeMutablePointer<BidiClass>
  let levels: UnsafeMutablePointer<UInt8>
  /// The classes that occur in the paragraph.
  private(set) var present = BidiClassSet(bits: 0)
  /// The positions of the paired brackets (Bidi_Paired_Bracket_Type not
  /// None), in order: `bracketPositions[0..<bracketCount]`.
  let bracketPositions: UnsafeMutablePointer<Int32>
  private(set) var bracketCount = 0
  /// True when some character is a paired bracket.
  var hasBrackets: Bool { bracketCount > 0 }
  /// True when every scalar is below U+0080 (all encodings count alike).
  private(set) var isASCII = true
  /// True when every scalar is below U+10000 (UTF-16 counts like UTF-32).
  private(set) var isBMP = true
  var paragraphLevel: UInt8 = 0
  /// True when every character resolved to `paragraphLevel` and none was
  /// removed, so that every line is one run in logical or reverse order.
  var isUniform = false

  static let removedBit: UInt8 = 0x80

  /// Room for `capacity` characters; `count` is set by the caller.
  private init(capacity: Int) {
    self.count = capacity
    let raw = UnsafeMutableRawPointer.allocate(byteCount: max(capacity, 1) * 10, alignment: 4)
    scalars = raw.bindMemory(to: UInt32.self, capacity: capacity)
    bracketPositions = (raw + capacity * 4).bindMemory(to: Int32.self, capacity: capacity)
    classes = (raw + capacity * 8).bindMemory(to: BidiClass.self, capacity: capacity)
    levels = (raw + capacity * 9).bindMemory(to: UInt8.self, capacity: capacity)
  }

  deinit {
    UnsafeMutableRawPointer(scalars).deallocate()
  }

  /// Copies scalar values and looks up their classes.
  convenience init(scalars input: UnsafeBufferPointer<UInt32>) {
    self.init(capacity: input.count)
    var bits: UInt32 = 0
    var union: UInt32 = 0  // all scalars or'ed: below 0x80 (0x10000) iff each is
    var brackets = 0
    for i in 0..<input.count {
      store(input[i], at: i, &bits, &union, &brackets)
    }
    record(bits: bits, union: union, brackets: brackets)
  }

  /// Decodes UTF-8 and looks up the classes. Each byte of an ill-formed
  /// sequence becomes one character, stored as 0x110000 + the byte: class
  /// ON, one unit wide in every encoding, shown as U+FFFD.
  convenience init(utf8 input: UnsafeBufferPointer<UInt8>) {
    // There are at most as many characters as bytes.
    self.init(capacity: input.count)
    var bits: UInt32 = 0
    var union: UInt32 = 0  // all scalars or'ed: below 0x80 (0x10000) iff each is
    var brackets = 0
    var i = 0
    var at = 0
    let n = input.count
    while at < n {
      var scalar = UInt32(input[at])
      if scalar < 0x80 {
        at += 1
      } else if scalar >= 0xC2 && scalar <= 0xDF && at + 1 < n && input[at + 1] & 0xC0 == 0x80 {
        // Two bytes: Hebrew, Arabic and most other right-to-left scripts.
        scalar = (scalar & 0x1F) << 6 | UInt32(input[at + 1] & 0x3F)
        at += 2
      } else {
        let length: Int
        (scalar, length) = UTF8Scanner.decodeMultibyte(input, at: at)
        at += length
      }
      store(scalar, at: i, &bits, &union, &brackets)
      i += 1
    }
    count = i
    record(bits: bits, union: union, brackets: brackets)
  }

  /// Stores character `i`: its scalar and class, and what the paragraph
  /// records of it (the classes present, the union of the scalars, bracket
  /// positions).
  @inline(__always)
  private func store(
    _ scalar: UInt32, at i: Int, _ bits: inout UInt32, _ union: inout UInt32, _ brackets: inout Int
  ) {
    let properties = ubd_properties(scalar)
    scalars[i] = scalar
    let c = BidiClass(propertyByte: properties)
    classes[i] = c
    bits |= c.bit
    if properties & 0x60 != 0 {
      bracketPositions[brackets] = Int32(i)
      brackets += 1
    }
    union |= scalar
  }

  private func record(bits: UInt32, union: UInt32, brackets: Int) {
    present = BidiClassSet(bits: bits)
    bracketCount = brackets
    isASCII = union < 0x80
    isBMP = union < 0x10000
  }

  /// True when every scalar takes one unit of `encoding`.
  func unitsAreCharacters(_ encoding: BidiEncoding) -> Bool {
    switch encoding {
    case .utf32: return true
    case .utf16: return isBMP
    case .utf8: return isASCII
    }
  }

  /// The number of units of the characters `range`.
  func unitCount(_ range: Range<Int>, in encoding: BidiEncoding) -> Int {
    if unitsAreCharacters(encoding) { return range.count }
    var total = 0
    for i in range { total += encoding.width(scalars[i]) }
    return total
  }

  @inline(__always)
  func isRemoved(_ i: Int) -> Bool { levels[i] & Self.removedBit != 0 }
}

/// A forward UTF-8 decoder over a byte buffer (see `ParagraphStorage`).
struct UTF8Scanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The next scalar value and its length in bytes.
  @inline(__always)
  mutating func next() -> (UInt32, Int)? {
    guard position < bytes.count else { return nil }
    let b0 = bytes[position]
    if b0 < 0x80 {
      position += 1
      return (UInt32(b0), 1)
    }
    let (scalar, length) = Self.decodeMultibyte(bytes, at: position)
    position += length
    return (scalar, length)
  }

  /// Decodes the sequence at `at`, whose first byte is not ASCII.
  @inline(__always)
  static func decodeMultibyte(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> (UInt32, Int) {
    let b0 = bytes[at]
    let available = bytes.count - at
    @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
      guard k < available else { return nil }
      let b = bytes[at + k]
      return b >= low && b <= high ? UInt32(b & 0x3F) : nil
    }
    let invalid = (0x110000 | UInt32(b0), 1)
    switch b0 {
    case 0xC2...0xDF:
      guard let c1 = continuation(1) else { return invalid }
      return (UInt32(b0 & 0x1F) << 6 | c1, 2)
    case 0xE0...0xEF:
      let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
      let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
      guard let c1 = continuation(1, low, high), let c2 = continuation(2) else { return invalid }
      return (UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2, 3)
    case 0xF0...0xF4:
      let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
      let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
      guard let c1 = continuation(1, low, high), let c2 = continuation(2), let c3 = continuation(3)
      else { return invalid }
      return (UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3, 4)
    default:
      return invalid
    }
  }
}
