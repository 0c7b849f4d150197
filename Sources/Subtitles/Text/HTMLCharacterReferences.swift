import CHTMLEntities

/// HTML's character references as the WebVTT cue text parser decodes them
/// (WebVTT's tokenizer hands `&` to HTML's "consume a character reference"
/// since w3c/webvtt#253): every named reference of the WHATWG table (the
/// legacy ones also without their semicolon), decimal and hexadecimal
/// numeric references with HTML's replacements. The names are
/// `CHTMLEntities`' table, which Markdown reads too. Firefox's vtt.js decodes
/// only `&amp;` `&lt;` `&gt;` `&lrm;` `&rlm;` `&nbsp;`: files that keep to
/// those read the same everywhere.
enum HTMLCharacterReferences {
  /// A reference at the start of `bytes` (which starts with `&`): its length
  /// in bytes and the scalars it stands for; nil when the `&` starts none
  /// (it is then text).
  static func match(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (length: Int, scalars: [UInt32])? {
    let count = bytes.count
    var index = start + 1
    guard index < count else { return nil }
    if bytes[index] == UInt8(ascii: "#") {
      index += 1
      let hex = index < count && (bytes[index] | 0x20) == UInt8(ascii: "x")
      if hex { index += 1 }
      let digitsStart = index
      var value: UInt32 = 0
      while index < count, let digit = digitValue(bytes[index], hex: hex) {
        value = min(value &* (hex ? 16 : 10) &+ digit, 0x11_0000)
        index += 1
      }
      guard index > digitsStart else { return nil }
      if index < count, bytes[index] == UInt8(ascii: ";") { index += 1 }
      return (index - start, [numericScalar(value)])
    }
    var end = index
    while end < count, isASCIIAlphanumeric(bytes[end]) { end += 1 }
    let run = end - index
    guard run > 0 else { return nil }
    if end < count, bytes[end] == UInt8(ascii: ";"), run <= Int(CHE_LONGEST_NAME),
      let found = find(bytes, index..<end)
    {
      return (end + 1 - start, scalars(found))
    }
    // The legacy names match without a semicolon, the longest first.
    for length in stride(from: min(run, Int(CHE_LONGEST_LEGACY_NAME)), through: 2, by: -1) {
      if let found = find(bytes, index..<index + length), che_is_legacy(found) != 0 {
        return (length + 1, scalars(found))
      }
    }
    return nil
  }

  /// The number of names in the table (2,125; 106 of them also legacy).
  static var nameCount: Int { Int(CHE_NAME_COUNT) }

  /// The scalars of a name written with its semicolon (`amp`), for tests.
  static func scalars(named name: String) -> (scalars: [UInt32], legacy: Bool)? {
    var name = name
    return name.withUTF8 { bytes in
      find(bytes, 0..<bytes.count).map { (scalars($0), che_is_legacy($0) != 0) }
    }
  }

  /// The index of the name at `range` in `CHTMLEntities`' table.
  private static func find(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int32? {
    guard !range.isEmpty, let base = bytes.baseAddress else { return nil }
    let found = che_find(base + range.lowerBound, range.count)
    return found >= 0 ? found : nil
  }

  private static func scalars(_ found: Int32) -> [UInt32] {
    let second = che_code_point(found, 1)
    return second == 0 ? [che_code_point(found, 0)] : [che_code_point(found, 0), second]
  }

  /// HTML's "numeric character reference end state": NUL, surrogates and
  /// values past U+10FFFF become U+FFFD, 0x80–0x9F are read as windows-1252;
  /// other controls and noncharacters stay (parse errors only).
  static func numericScalar(_ value: UInt32) -> UInt32 {
    if value == 0 || value > 0x10_FFFF || (0xD800...0xDFFF).contains(value) { return 0xFFFD }
    if (0x80...0x9F).contains(value) {
      let replacement = windows1252[Int(value - 0x80)]
      return replacement == 0 ? value : replacement
    }
    return value
  }

  /// Windows-1252's characters for 0x80–0x9F (0: the five it leaves undefined, kept as they are).
  private static let windows1252: [UInt32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E,
    0x0178,
  ]

  private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
  }
}
