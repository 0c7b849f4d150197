import CHTMLEntities
import UnicodeBidi

/// HTML entities and backslash escapes as cmark decodes them (houdini's
/// unescape_ent, cmark_strbuf_unescape): `&name;` from the HTML5 list
/// (`CHTMLEntities`, the table Subtitles reads too), `&#digits;` and
/// `&#xhex;` (one to eight digits; 0, surrogates and values past U+10FFFF
/// give U+FFFD).
enum Entities {
  /// The UTF-8 of the named reference of `length` bytes at `index` (without
  /// `&` and `;`); nil when HTML has no such name.
  static func named(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> [UInt8]? {
    let found = che_find(bytes.baseAddress! + index, length)
    guard found >= 0 else { return nil }
    var value = UTF8Encoder.bytes(che_code_point(found, 0))
    let second = che_code_point(found, 1)
    if second != 0 { value += UTF8Encoder.bytes(second) }
    return value
  }

  /// The entity whose name starts at `index` (just after a `&`): its
  /// decoded UTF-8 and the number of bytes it takes after the `&` (through
  /// its `;`); nil when there is none.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (value: [UInt8], length: Int)? {
    let size = end - index
    guard size > 0 else { return nil }
    if bytes[index] == UInt8(ascii: "#") {
      guard size >= 3 else { return nil }
      var cursor = index + 1
      var code = 0
      var digits = 0
      if isDigit(bytes[cursor]) {
        while cursor < end && isDigit(bytes[cursor]) {
          code = min(code * 10 + Int(bytes[cursor] - UInt8(ascii: "0")), 0x110000)
          cursor += 1
          digits += 1
        }
      } else if bytes[cursor] | 0x20 == UInt8(ascii: "x") {
        cursor += 1
        while cursor < end, let value = hexValue(bytes[cursor]) {
          code = min(code * 16 + value, 0x110000)
          cursor += 1
          digits += 1
        }
      }
      guard digits >= 1 && digits <= 8 && cursor < end && bytes[cursor] == UInt8(ascii: ";") else { return nil }
      if code == 0 || (code >= 0xD800 && code < 0xE000) || code >= 0x110000 { code = 0xFFFD }
      return (UTF8Encoder.bytes(UInt32(code)), cursor + 1 - index)
    }
    let limit = min(size, 32)
    var length = 2
    while length < limit {
      let byte = bytes[index + length]
      if byte == 0x20 { return nil }
      if byte == UInt8(ascii: ";") {
        guard let value = named(bytes, at: index, length: length) else { return nil }
        return (value, length + 1)
      }
      length += 1
    }
    return nil
  }

  /// A fenced code block's info string from the bytes after its fence:
  /// entities decoded, trimmed, backslash escapes removed (cmark's order).
  static func infoString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    // Most info strings (`swift`, none) hold no entity, escape or NUL:
    // trimmed, they are themselves.
    let special = range.contains { index in
      let byte = bytes[index]
      return byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\\") || byte == 0
    }
    if !special {
      var low = range.lowerBound
      var high = range.upperBound
      while high > low && LinkSyntax.isSpace(bytes[high - 1]) { high -= 1 }
      while low < high && LinkSyntax.isSpace(bytes[low]) { low += 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[low..<high]), as: UTF8.self)
    }
    var decoded: [UInt8] = []
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = bytes[index]
      if byte == UInt8(ascii: "&"), let (value, length) = decode(bytes, at: index + 1, end: range.upperBound) {
        decoded += value
        index += 1 + length
      } else {
        decoded.append(byte == 0 ? 0xEF : byte)
        if byte == 0 { decoded += [0xBF, 0xBD] }
        index += 1
      }
    }
    while let last = decoded.last, LinkSyntax.isSpace(last) { decoded.removeLast() }
    let start = decoded.firstIndex(where: { !LinkSyntax.isSpace($0) }) ?? decoded.count
    var result: [UInt8] = []
    var k = start
    while k < decoded.count {
      if decoded[k] == UInt8(ascii: "\\") && k + 1 < decoded.count && LinkSyntax.isPunctuation(decoded[k + 1]) {
        k += 1
      }
      result.append(decoded[k])
      k += 1
    }
    return String(decoding: result, as: UTF8.self)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
    default: return nil
    }
  }
}
