/// How a file writes a bidi control (or any character it escapes): the
/// character itself, or one of the formats' escapes. Marks inserted by a
/// plan are written this way (Protocol/localization.md: "as the file must hold it").
package enum MarkSpelling: Hashable, Sendable {
  /// The character itself, in UTF-8.
  case literal
  /// `\u200F` (JSON, `.properties`, Android); `uppercaseHex` writes `\u200F`, else `\u200f`.
  case backslashLowerU(uppercaseHex: Bool)
  /// `\U200F` (Apple `.strings`).
  case backslashUpperU(uppercaseHex: Bool)
  /// `&#x200F;` (XML); `uppercaseHex` writes `200F`, else `200f`.
  case xmlHex(uppercaseHex: Bool)
  /// `&#8207;` (XML).
  case xmlDecimal

  /// The text that stands for `scalar` in this spelling.
  package func spell(_ scalar: Unicode.Scalar) -> String {
    let value = scalar.value
    switch self {
    case .literal:
      return String(Character(scalar))
    case .backslashLowerU(let upper):
      return "\\u" + hex(value, upper: upper, width: 4)
    case .backslashUpperU(let upper):
      return "\\U" + hex(value, upper: upper, width: 4)
    case .xmlHex(let upper):
      return "&#x" + hex(value, upper: upper, width: 1) + ";"
    case .xmlDecimal:
      return "&#" + String(value) + ";"
    }
  }

  /// Every scalar of `text` spelled this way.
  package func spell(_ text: String) -> String {
    if self == .literal { return text }
    var result = ""
    for scalar in text.unicodeScalars { result += spell(scalar) }
    return result
  }

  private func hex(_ value: UInt32, upper: Bool, width: Int) -> String {
    // A `\u` escape holds one UTF-16 unit; bidi controls are all in the BMP.
    let digits = String(value, radix: 16, uppercase: upper)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
