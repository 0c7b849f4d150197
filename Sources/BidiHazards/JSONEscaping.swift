import UnicodeBidi

/// Writes `text` as a JSON string literal, quotes included (RFC 8259).
/// Control characters become escapes; so do U+2028 and U+2029 (for
/// JavaScript readers) and the bidi controls (so a reader of the raw output
/// sees them named instead of reordering the text).
public func jsonStringLiteral(_ text: String) -> String {
  var out = "\""
  out.reserveCapacity(text.utf8.count + 2)
  for scalar in text.unicodeScalars {
    switch scalar.value {
    case 0x22: out += "\\\""
    case 0x5C: out += "\\\\"
    case 0x0A: out += "\\n"
    case 0x0D: out += "\\r"
    case 0x09: out += "\\t"
    case 0x08: out += "\\b"
    case 0x0C: out += "\\f"
    case 0x00..<0x20, 0x7F, 0x2028, 0x2029:
      out += "\\u" + hex4(scalar.value)
    default:
      if BidiControl(scalar: scalar.value) != nil {
        out += "\\u" + hex4(scalar.value)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  out += "\""
  return out
}
