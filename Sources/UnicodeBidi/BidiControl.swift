import CByteScan

/// The explicit bidirectional formatting characters and marks of UAX #9
/// (Table 1 "Bidirectional Character Types"): what hazard detection looks
/// for, mark planning inserts and editors show by name.
///
/// Their code points and bidi classes are fixed by the standard, so this type
/// needs no Unicode data tables.
public enum BidiControl: UInt32, CaseIterable, Sendable, Hashable {
  /// U+061C ARABIC LETTER MARK (bidi class AL, invisible).
  case alm = 0x061C
  /// U+200E LEFT-TO-RIGHT MARK.
  case lrm = 0x200E
  /// U+200F RIGHT-TO-LEFT MARK.
  case rlm = 0x200F
  /// U+202A LEFT-TO-RIGHT EMBEDDING.
  case lre = 0x202A
  /// U+202B RIGHT-TO-LEFT EMBEDDING.
  case rle = 0x202B
  /// U+202C POP DIRECTIONAL FORMATTING.
  case pdf = 0x202C
  /// U+202D LEFT-TO-RIGHT OVERRIDE.
  case lro = 0x202D
  /// U+202E RIGHT-TO-LEFT OVERRIDE.
  case rlo = 0x202E
  /// U+2066 LEFT-TO-RIGHT ISOLATE.
  case lri = 0x2066
  /// U+2067 RIGHT-TO-LEFT ISOLATE.
  case rli = 0x2067
  /// U+2068 FIRST STRONG ISOLATE.
  case fsi = 0x2068
  /// U+2069 POP DIRECTIONAL ISOLATE.
  case pdi = 0x2069

  /// The control for a Unicode scalar value, or nil if it is not one of them.
  @inlinable
  public init?(scalar value: UInt32) {
    self.init(rawValue: value)
  }

  /// The control as a Unicode scalar.
  public var scalar: Unicode.Scalar {
    // Every raw value is a scalar value (U+061C, U+200E…U+2069).
    Unicode.Scalar(rawValue) ?? "\u{FFFD}"
  }

  /// The code point, as written in messages: `U+202E`.
  public var codePointText: String {
    "U+" + hex4(rawValue)
  }

  /// The short name shown in editors: `RLO`.
  public var shortName: String {
    switch self {
    case .alm: "ALM"
    case .lrm: "LRM"
    case .rlm: "RLM"
    case .lre: "LRE"
    case .rle: "RLE"
    case .pdf: "PDF"
    case .lro: "LRO"
    case .rlo: "RLO"
    case .lri: "LRI"
    case .rli: "RLI"
    case .fsi: "FSI"
    case .pdi: "PDI"
    }
  }

  /// The Unicode character name: `RIGHT-TO-LEFT OVERRIDE`.
  public var name: String {
    switch self {
    case .alm: "ARABIC LETTER MARK"
    case .lrm: "LEFT-TO-RIGHT MARK"
    case .rlm: "RIGHT-TO-LEFT MARK"
    case .lre: "LEFT-TO-RIGHT EMBEDDING"
    case .rle: "RIGHT-TO-LEFT EMBEDDING"
    case .pdf: "POP DIRECTIONAL FORMATTING"
    case .lro: "LEFT-TO-RIGHT OVERRIDE"
    case .rlo: "RIGHT-TO-LEFT OVERRIDE"
    case .lri: "LEFT-TO-RIGHT ISOLATE"
    case .rli: "RIGHT-TO-LEFT ISOLATE"
    case .fsi: "FIRST STRONG ISOLATE"
    case .pdi: "POP DIRECTIONAL ISOLATE"
    }
  }

  /// `U+202E RIGHT-TO-LEFT OVERRIDE`.
  public var displayName: String {
    codePointText + " " + name
  }

  /// What the character does to the text after it, for messages.
  public var effect: String {
    switch self {
    case .alm: "is an invisible Arabic letter mark that acts as a right-to-left letter"
    case .lrm: "is an invisible left-to-right mark"
    case .rlm: "is an invisible right-to-left mark"
    case .lre: "embeds the text after it as left to right"
    case .rle: "embeds the text after it as right to left"
    case .pdf: "closes an embedding or override"
    case .lro: "forces the text after it to display left to right"
    case .rlo: "forces the text after it to display right to left, in reverse order"
    case .lri: "isolates the text after it as left to right"
    case .rli: "isolates the text after it as right to left"
    case .fsi: "isolates the text after it in the direction of its first strong letter"
    case .pdi: "closes an isolate"
    }
  }

  /// LRE, RLE, LRO, RLO, LRI, RLI and FSI: they open a scope on the stack.
  public var isOpener: Bool {
    isEmbeddingOrOverride || isIsolateOpener
  }

  /// LRE, RLE, LRO or RLO (closed by PDF).
  public var isEmbeddingOrOverride: Bool {
    switch self {
    case .lre, .rle, .lro, .rlo: true
    default: false
    }
  }

  /// LRO or RLO.
  public var isOverride: Bool {
    self == .lro || self == .rlo
  }

  /// LRI, RLI or FSI (closed by PDI).
  public var isIsolateOpener: Bool {
    switch self {
    case .lri, .rli, .fsi: true
    default: false
    }
  }

  /// PDF or PDI.
  public var isCloser: Bool {
    self == .pdf || self == .pdi
  }

  /// LRM, RLM or ALM: marks that open nothing.
  public var isMark: Bool {
    self == .lrm || self == .rlm || self == .alm
  }

  /// The closer that ends this opener's scope: PDF or PDI (nil for others).
  public var closer: BidiControl? {
    if isEmbeddingOrOverride { return .pdf }
    if isIsolateOpener { return .pdi }
    return nil
  }

  /// The embedding with the same direction as this override (LRO → LRE,
  /// RLO → RLE); nil for others.
  public var embeddingForOverride: BidiControl? {
    switch self {
    case .lro: .lre
    case .rlo: .rle
    default: nil
    }
  }

  /// The character's UTF-8 encoding.
  public var utf8: [UInt8] {
    UTF8Encoder.bytes(rawValue)
  }

  /// The length of the character's UTF-8 encoding (2 for ALM, else 3).
  public var utf8Count: Int {
    self == .alm ? 2 : 3
  }

  /// The control encoded in UTF-8 at `offset` of `bytes`, if any.
  @inlinable
  public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> BidiControl? {
    let b0 = bytes[offset]
    if b0 == 0xE2 {
      guard offset + 2 < bytes.count else { return nil }
      let b1 = bytes[offset + 1]
      let b2 = bytes[offset + 2]
      if b1 == 0x80 {
        switch b2 {
        case 0x8E: return .lrm
        case 0x8F: return .rlm
        case 0xAA: return .lre
        case 0xAB: return .rle
        case 0xAC: return .pdf
        case 0xAD: return .lro
        case 0xAE: return .rlo
        default: return nil
        }
      }
      if b1 == 0x81 {
        switch b2 {
        case 0xA6: return .lri
        case 0xA7: return .rli
        case 0xA8: return .fsi
        case 0xA9: return .pdi
        default: return nil
        }
      }
      return nil
    }
    if b0 == 0xD8, offset + 1 < bytes.count, bytes[offset + 1] == 0x9C {
      return .alm
    }
    return nil
  }
}

extension BidiControl {
  /// The first sequence at or after `start` (which must begin one) that
  /// encodes a bidi control or is ill-formed (as `UTF8Decoder` reads it):
  /// its offset and the control, nil where it is ill-formed; `bytes.count`
  /// and nil when there is none. What a hazard scan looks for: ASCII and
  /// well-formed two-byte sequences (most right-to-left scripts) are
  /// passed over sixteen bytes at a time (`cbs_find_bidi_controls`, in C).
  @inlinable
  public static func nextControlOrInvalid(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
    offset: Int, control: BidiControl?
  ) {
    guard let base = bytes.baseAddress else { return (0, nil) }
    var i = start
    while i < bytes.count {
      var offset = 0
      var scalar: UInt32 = 0
      var end = 0
      if cbs_find_bidi_controls(base, i, bytes.count, &offset, &scalar, 1, &end) == 1 {
        return (offset, BidiControl(rawValue: scalar))
      }
      guard end < bytes.count else { break }
      // A sequence the scan leaves to the decoder: no control, perhaps
      // ill-formed.
      let decoded = UTF8Decoder.decodeMultibyte(bytes, at: end)
      if !decoded.isValid { return (end, nil) }
      i = end + decoded.length
    }
    return (bytes.count, nil)
  }

  /// Appends the bidi controls of `bytes[start...]` (`start` begins a
  /// sequence) to `controls`, with their offsets, up to the first
  /// ill-formed sequence; returns its offset, or `bytes.count`. The C scan
  /// writes them straight into the list's storage (no conversion per
  /// control); a list with little room left gets room for one every 16
  /// bytes of the rest: lines with controls tend to have many.
  public static func appendControls(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to controls: inout BidiControlList
  )
    -> Int
  {
    guard let base = bytes.baseAddress else { return 0 }
    var i = start
    while i < bytes.count {
      if controls.room < 8 { controls.makeRoom(max(8, (bytes.count &- i) / 16)) }
      var end = 0
      let room = controls.room
      let count = controls.withStorage { offsets, codePoints in
        cbs_find_bidi_controls(base, i, bytes.count, offsets, codePoints, room, &end)
      }
      controls.count &+= count
      i = end
      if count == room || i >= bytes.count { continue }
      // A sequence the scan leaves to the decoder: no control, perhaps
      // ill-formed.
      let decoded = UTF8Decoder.decodeMultibyte(bytes, at: i)
      if !decoded.isValid { return i }
      i += decoded.length
    }
    return bytes.count
  }

  /// The controls by the low seven bits of their code points (distinct for
  /// the twelve: 1C, 0E, 0F, 2A–2E, 66–69); LRM elsewhere (a code point
  /// that is not a control is told by its raw value differing).
  @usableFromInline
  static let byLowBits: [BidiControl] = {
    var table = [BidiControl](repeating: .lrm, count: 128)
    for control in allCases { table[Int(control.rawValue & 0x7F)] = control }
    return table
  }()

  /// Every control in a line (UTF-8 bytes), with its byte offset, in order;
  /// for inlay hints that show the invisible characters by name.
  public static func occurrences(in line: UnsafeBufferPointer<UInt8>) -> [(offset: Int, control: BidiControl)] {
    var found: [(offset: Int, control: BidiControl)] = []
    var i = 0
    while i < line.count {
      let b = line[i]
      if b == 0xE2 || b == 0xD8, let control = decode(line, at: i) {
        found.append((i, control))
        i += control.utf8Count
      } else {
        i += 1
      }
    }
    return found
  }

  /// Every control in a line, with its byte offset, in order.
  public static func occurrences(in line: [UInt8]) -> [(offset: Int, control: BidiControl)] {
    line.withUnsafeBufferPointer { occurrences(in: $0) }
  }
}

/// The bidi controls of a line, in order: their byte offsets and code
/// points (U+061C, U+200E…U+2069) in two arrays that the C scan of
/// `BidiControl.appendControls` writes in place. Its storage is kept when
/// emptied, for the next line.
public struct BidiControlList: RandomAccessCollection, Sendable {
  /// The storage: the first `count` entries are the controls.
  public private(set) var offsets: [Int] = []
  public private(set) var codePoints: [UInt32] = []
  public fileprivate(set) var count = 0

  public init() {}

  /// A list of the given controls (for tests and small callers).
  public init(_ controls: [(offset: Int, control: BidiControl)]) {
    offsets = controls.map(\.offset)
    codePoints = controls.map(\.control.rawValue)
    count = controls.count
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public subscript(position: Int) -> (offset: Int, control: BidiControl) {
    precondition(position >= 0 && position < count, "index out of range")
    return (offsets[position], BidiControl.known(codePoints[position]))
  }

  /// Empties the list, keeping its storage.
  public mutating func removeAll() { count = 0 }

  /// The entries of the storage after the controls.
  fileprivate var room: Int { offsets.count &- count }

  /// Grows the storage to hold at least `more` entries after the controls
  /// (doubling, so that a long line grows it a few times only).
  fileprivate mutating func makeRoom(_ more: Int) {
    let size = Swift.max(count + more, offsets.count * 2)
    offsets.append(contentsOf: repeatElement(0, count: size - offsets.count))
    codePoints.append(contentsOf: repeatElement(0, count: size - codePoints.count))
  }

  /// Calls `body` with where the next control's offset and code point go.
  @inline(__always)
  fileprivate mutating func withStorage<R>(
    _ body: (UnsafeMutablePointer<Int>, UnsafeMutablePointer<UInt32>) -> R
  ) -> R {
    let start = count
    return offsets.withUnsafeMutableBufferPointer { offsets in
      codePoints.withUnsafeMutableBufferPointer { codePoints in
        body(offsets.baseAddress! + start, codePoints.baseAddress! + start)
      }
    }
  }
}

extension BidiControl {
  /// The control whose code point `value` is (one of the twelve, as the C
  /// scan writes them), by table: no check, no jump on the value.
  @inlinable
  public static func known(_ value: UInt32) -> BidiControl {
    let control = byLowBits[Int(truncatingIfNeeded: value & 0x7F)]
    assert(control.rawValue == value, "not a bidi control")
    return control
  }

  /// Whether the code point of a control opens a scope: LRE, RLE, LRO,
  /// RLO, LRI, RLI or FSI.
  @inlinable
  public static func isOpener(_ value: UInt32) -> Bool {
    (value &- 0x202A < 5 && value != 0x202C) || value &- 0x2066 < 3
  }

  /// Whether the code point of a control is LRI, RLI or FSI.
  @inlinable
  public static func isIsolateOpener(_ value: UInt32) -> Bool { value &- 0x2066 < 3 }

  /// Whether the code point of a control is LRE, RLE, LRO or RLO.
  @inlinable
  public static func isEmbeddingOrOverride(_ value: UInt32) -> Bool { value &- 0x202A < 5 && value != 0x202C }

  /// Whether the code point of a control is LRO or RLO.
  @inlinable
  public static func isOverride(_ value: UInt32) -> Bool { value &- 0x202D < 2 }

  /// The UTF-8 length of a control by its code point (2 for ALM, else 3).
  @inlinable
  public static func utf8Count(_ value: UInt32) -> Int { value == 0x061C ? 2 : 3 }
}

/// Four or more upper-case hex digits.
package func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return digits.count >= 4 ? digits : String(repeating: "0", count: 4 - digits.count) + digits
}
