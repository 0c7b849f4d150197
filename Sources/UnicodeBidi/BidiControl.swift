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
    encodeUTF8(rawValue)
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
  /// The offset of the first sequence at or after `start` that encodes a
  /// bidi control or is ill-formed (as `UTF8Decoder` reads it), else
  /// `bytes.count`: what a hazard scan skips to. `start` must begin a
  /// sequence. ASCII and well-formed two-byte sequences (most right-to-left
  /// scripts) are skipped sixteen bytes at a time (`cbs_skip_plain_utf8`),
  /// eight in the last sixteen, the rest one by one.
  @inlinable
  public static func nextControlOrInvalid(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var i = start
    while i < count {
      // Sixteen bytes at a time (SSE2), then eight, up to the end.
      i = cbs_skip_plain_utf8(base, i, count)
      while count &- i < 17 && i + 8 <= count {
        let skip = plainSkip(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
        i += skip
        if skip < 7 { break }
      }
      guard i < count else { break }
      let lead = base[i]
      if lead < 0x80 {
        i += 1
        continue
      }
      if lead >= 0xC2 && lead <= 0xDF && i + 1 < count && UTF8Decoder.isContinuation(base[i + 1]) {
        if lead == 0xD8 && base[i + 1] == 0x9C { return i }  // U+061C ALM
        i += 2
        continue
      }
      // E2 begins every control but ALM (U+2000–U+2FFF, always well-formed
      // with two continuation bytes).
      if lead == 0xE2 && i + 2 < count && UTF8Decoder.isContinuation(base[i + 1])
        && UTF8Decoder.isContinuation(base[i + 2])
      {
        if decode(bytes, at: i) != nil { return i }
        i += 3
        continue
      }
      let decoded = UTF8Decoder.decodeMultibyte(bytes, at: i)
      if !decoded.isValid || BidiControl(scalar: decoded.value) != nil { return i }
      i += decoded.length
    }
    return count
  }

  /// How many of the eight bytes `word` (the first in its low byte, which
  /// begins a sequence) can be skipped as holding no control and nothing
  /// ill-formed: 8; 7 when the last is the lead byte of a two-byte
  /// sequence; otherwise the offset of the first byte the byte-by-byte path
  /// must decide (a byte of E0 or above, C0, C1, a misplaced continuation
  /// byte, the lead of a broken sequence, U+061C ALM), below 7. Each byte's
  /// top bit stands for it in the masks.
  @inlinable @inline(__always)
  static func plainSkip(_ word: UInt64) -> Int {
    let high: UInt64 = 0x8080_8080_8080_8080
    let top = word & high
    if top == 0 { return 8 }
    let bit6 = (word << 1) & high
    let bit5 = (word << 2) & high
    let leads = top & bit6 & ~bit5
    // Leads of three- and four-byte sequences (and F5–FF): every control but ALM.
    var stops = top & bit6 & bit5
    // C0 and C1 (110 0000x): over-long leads.
    stops |= leads & ~(((word << 3) | (word << 4) | (word << 5) | (word << 6)) & high)
    // A continuation byte where none follows a lead, or none where one does.
    stops |= (top & ~bit6) ^ (leads << 8)
    // ALM is D8 9C: a D8 lead whose next byte is 9C.
    func equal(_ byte: UInt64) -> UInt64 {
      let x = word ^ (byte &* 0x0101_0101_0101_0101)
      return ~(((x & ~high) &+ ~high) | x | ~high)
    }
    stops |= equal(0xD8) & (equal(0x9C) >> 8)
    if stops == 0 { return leads >> 63 != 0 ? 7 : 8 }
    let first = stops.trailingZeroBitCount >> 3
    // A lead just before the stop is part of what must be decided.
    return first > 0 && (leads >> (first * 8 - 1)) & 1 != 0 ? first - 1 : first
  }

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

/// Four or more upper-case hex digits.
package func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return digits.count >= 4 ? digits : String(repeating: "0", count: 4 - digits.count) + digits
}

/// The UTF-8 encoding of a scalar value (U+FFFD for invalid values).
func encodeUTF8(_ value: UInt32) -> [UInt8] {
  guard let scalar = Unicode.Scalar(value) else { return [0xEF, 0xBF, 0xBD] }
  return Array(String(Character(scalar)).utf8)
}
