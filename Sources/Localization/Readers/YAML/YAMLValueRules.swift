import StructuredText
import UnicodeBidi

/// What makes a YAML scalar a value, and what in its text is not shown:
/// a plain scalar is a value only when YAML 1.1 (PyYAML's and Ruby
/// Psych's resolution) reads it as a string, not as null, a boolean, a
/// number, a timestamp or `<<`/`=`; Symfony's pluralization intervals
/// (`{0} …|{1} …|]1,Inf[ …`) and their `|` are markup (Symfony shows one
/// segment, without its interval).
enum YAMLValueRules {
  /// Whether a plain scalar's text resolves to a string (YAML 1.1).
  static func isString(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    switch text {
    case "", "~", "null", "Null", "NULL", "<<", "=": return false
    case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
      "off", "Off", "OFF":
      return false
    default:
      return !isNumber(bytes) && !isTimestamp(bytes)
    }
  }

  private static func isNumber(_ bytes: [UInt8]) -> Bool {
    var i = 0
    let signed = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+")
    if signed { i = 1 }
    let rest = bytes[i...]
    func all(_ slice: ArraySlice<UInt8>, _ allowed: (UInt8) -> Bool) -> Bool {
      !slice.isEmpty && slice.allSatisfy(allowed)
    }
    let digitOrUnderscore = { (b: UInt8) in isDigit(b) || b == UInt8(ascii: "_") }
    // .inf / .nan
    if rest.elementsEqual(".inf".utf8) || rest.elementsEqual(".Inf".utf8) || rest.elementsEqual(".INF".utf8) {
      return true
    }
    if !signed, rest.elementsEqual(".nan".utf8) || rest.elementsEqual(".NaN".utf8) || rest.elementsEqual(".NAN".utf8) {
      return true
    }
    guard let first = rest.first else { return false }
    // 0b…, 0x…, 0… (octal), decimal, sexagesimal.
    if first == UInt8(ascii: "0"), rest.count > 1 {
      let body = rest.dropFirst(2)
      switch rest[rest.startIndex + 1] {
      case UInt8(ascii: "b"): if all(body, { $0 == 0x30 || $0 == 0x31 || $0 == 0x5F }) { return true }
      case UInt8(ascii: "x"): if all(body, { hexValue($0) != nil || $0 == 0x5F }) { return true }
      default: if all(rest.dropFirst(), { ($0 >= 0x30 && $0 <= 0x37) || $0 == 0x5F }) { return true }
      }
    }
    if rest.elementsEqual("0".utf8) { return true }
    if isDigit(first), first != UInt8(ascii: "0"), all(rest, digitOrUnderscore) { return true }
    if isSexagesimal(rest, fractional: false) { return true }
    // Floats: digits . digits? exponent?, or . digits (unsigned), or sexagesimal . digits.
    if let dot = rest.firstIndex(of: UInt8(ascii: ".")) {
      let whole = rest[..<dot]
      var fraction = rest[(dot + 1)...]
      var exponentOK = true
      if let e = fraction.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
        let exponent = fraction[(e + 1)...]
        exponentOK =
          exponent.count >= 2 && (exponent.first == UInt8(ascii: "-") || exponent.first == UInt8(ascii: "+"))
          && exponent.dropFirst().allSatisfy(isDigit)
        fraction = fraction[..<e]
      }
      let fractionOK = fraction.allSatisfy(digitOrUnderscore)
      if exponentOK, fractionOK, let head = whole.first, isDigit(head), whole.allSatisfy(digitOrUnderscore) {
        return true
      }
      if exponentOK, fractionOK, whole.isEmpty, !signed, let lead = fraction.first, isDigit(lead) { return true }
      if fractionOK, isSexagesimal(whole, fractional: true), !rest.contains(where: { $0 == 0x65 || $0 == 0x45 }) {
        return true
      }
    }
    return false
  }

  /// `[0-9][0-9_]*(:[0-5]?[0-9])+` (the integer form starts with 1-9).
  private static func isSexagesimal(_ bytes: ArraySlice<UInt8>, fractional: Bool) -> Bool {
    let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    guard parts.count >= 2, let head = parts.first, let lead = head.first, isDigit(lead),
      fractional || lead != UInt8(ascii: "0"), head.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: "_") })
    else { return false }
    return parts.dropFirst().allSatisfy { part in
      (part.count == 1 && isDigit(part.first!))
        || (part.count == 2 && part.first! >= 0x30 && part.first! <= 0x35 && isDigit(part.last!))
    }
  }

  /// YAML 1.1 timestamps: `2001-12-14`, `2001-12-14t21:59:43.10-05:00`, `2001-12-14 21:59:43.10 -5`.
  private static func isTimestamp(_ bytes: [UInt8]) -> Bool {
    var i = 0
    func digits(_ minimum: Int, _ maximum: Int) -> Bool {
      let start = i
      while i < bytes.count, i - start < maximum, isDigit(bytes[i]) { i += 1 }
      return i - start >= minimum
    }
    func take(_ byte: UInt8) -> Bool {
      guard i < bytes.count, bytes[i] == byte else { return false }
      i += 1
      return true
    }
    guard digits(4, 4), take(0x2D) else { return false }
    let dateStart = i
    if digits(2, 2), take(0x2D), digits(2, 2), i == bytes.count { return true }
    i = dateStart
    guard digits(1, 2), take(0x2D), digits(1, 2) else { return false }
    if i < bytes.count, bytes[i] == UInt8(ascii: "T") || bytes[i] == UInt8(ascii: "t") {
      i += 1
    } else {
      let spaces = i
      while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
      guard i > spaces else { return false }
    }
    guard digits(1, 2), take(0x3A), digits(2, 2), take(0x3A), digits(2, 2) else { return false }
    if take(0x2E) { _ = digits(0, Int.max) }
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    if i == bytes.count { return true }
    if take(UInt8(ascii: "Z")) { return i == bytes.count }
    guard take(0x2D) || take(0x2B), digits(1, 2) else { return false }
    if take(0x3A) { guard digits(2, 2) else { return false } }
    return i == bytes.count
  }

  /// Symfony's pluralization syntax in a message holding `|`: the interval
  /// at the start of each segment (`{0}`, `{1,2}`, `[2,Inf[`, `]1,Inf]`)
  /// and each `|` separator (`||` is a literal pipe), as markup ranges.
  static func symfonyPluralMarkup(_ bytes: [UInt8]) -> [Range<Int>] {
    guard bytes.contains(UInt8(ascii: "|")) else { return [] }
    var ranges: [Range<Int>] = []
    var segmentStart = 0
    var index = 0
    func interval(at start: Int) {
      var i = start
      while i < bytes.count, bytes[i] == 0x20 { i += 1 }
      guard i < bytes.count else { return }
      let open = bytes[i]
      let closers: [UInt8] =
        open == UInt8(ascii: "{") ? [UInt8(ascii: "}")] : [UInt8(ascii: "]"), UInt8(ascii: "[")]
      guard open == UInt8(ascii: "{") || open == UInt8(ascii: "[") || open == UInt8(ascii: "]") else { return }
      var j = i + 1
      while j < bytes.count, "0123456789,-+ Inf".utf8.contains(bytes[j]) { j += 1 }
      guard j < bytes.count, j > i + 1, closers.contains(bytes[j]) else { return }
      ranges.append(i..<j + 1)
    }
    interval(at: 0)
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "|") {
        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "|") {
          index += 2
          continue
        }
        ranges.append(index..<index + 1)
        segmentStart = index + 1
        interval(at: segmentStart)
      }
      index += 1
    }
    return ranges.sorted { $0.lowerBound < $1.lowerBound }
  }
}
