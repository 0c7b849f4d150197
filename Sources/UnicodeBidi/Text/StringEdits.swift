// Two small string helpers every module that writes messages and test
// output needs, written once (no Foundation on the product's paths).

extension StringProtocol {
  /// This text with every occurrence of `target` replaced by `replacement`.
  package func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return String(self) }
    var result = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }

  /// This text with every scalar that is not printable ASCII written as
  /// `\u{XXXX}`, so that invisible controls show (for descriptions and
  /// test messages).
  package var escapingNonASCII: String {
    var shown = ""
    for scalar in unicodeScalars {
      if scalar.isASCII && scalar.value >= 0x20 {
        shown.unicodeScalars.append(scalar)
      } else {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return shown
  }
}
