import BidiMarks
import StructuredText

/// The placeholder grammars other than ICU's, over a value's decoded text
/// (its UTF-8 bytes). Each finds placeholders left to right; the caller
/// keeps the ones outside spans already taken.
enum FormatPlaceholders {
  /// printf forms, by BidiMarks' grammar (the one printf grammar of the
  /// project), extended over `%#@name@` substitutions and `%arg`.
  static func printf(_ bytes: [UInt8], catalogArgument: Bool?) -> [TextAtom] {
    guard bytes.contains(UInt8(ascii: "%")) else { return [] }
    var found: [TextAtom] = []
    for placeholder in Placeholder.scan(utf8: bytes) where placeholder.kind == .printf {
      var end = placeholder.range.upperBound
      let conversion = bytes[end - 1]
      var numeric = numericConversions.contains(conversion)
      if conversion == UInt8(ascii: "@"), bytes[end - 2] == UInt8(ascii: "#") {
        // `%#@name@`: a substitution by name.
        var probe = end
        while probe < bytes.count, isNameByte(bytes[probe]) { probe += 1 }
        if probe > end, probe < bytes.count, bytes[probe] == UInt8(ascii: "@") { end = probe + 1 }
      } else if let catalogArgument, conversion == UInt8(ascii: "a"), end - placeholder.range.lowerBound == 2,
        end + 1 < bytes.count, bytes[end] == UInt8(ascii: "r"), bytes[end + 1] == UInt8(ascii: "g")
      {
        end += 2
        numeric = catalogArgument
      }
      found.append(TextAtom(range: placeholder.range.lowerBound..<end, kind: .printf, isNumeric: numeric))
    }
    return found
  }

  /// printf conversions that can only become numbers.
  static let numericConversions: Set<UInt8> = Set("diuxXoOfFeEgGaADU".utf8)

  /// Python `%(name)` followed by a printf conversion; the name runs to
  /// the parenthesis that closes its `(` (as Python reads it), and a `%(`
  /// never closed is text.
  static func pythonPercent(_ bytes: [UInt8]) -> [TextAtom] {
    var found: [TextAtom] = []
    var closers: [Int: Int]?
    var index = 0
    while index + 1 < bytes.count {
      guard bytes[index] == UInt8(ascii: "%") else {
        index += 1
        continue
      }
      if bytes[index + 1] == UInt8(ascii: "%") {
        index += 2
        continue
      }
      if bytes[index + 1] == UInt8(ascii: "("), closers == nil { closers = closingParentheses(bytes) }
      guard bytes[index + 1] == UInt8(ascii: "("), let close = closers?[index + 1] else {
        index += 1
        continue
      }
      var probe = close + 1
      while probe < bytes.count, "-+ #0".utf8.contains(bytes[probe]) { probe += 1 }
      while probe < bytes.count, isDigit(bytes[probe]) || bytes[probe] == UInt8(ascii: ".") { probe += 1 }
      if probe < bytes.count, "diouxXeEfFgGcrsa".utf8.contains(bytes[probe]) {
        let name = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
        found.append(
          TextAtom(
            range: index..<probe + 1, kind: .pythonPercent,
            isNumeric: numericConversions.contains(bytes[probe]), name: name))
        index = probe + 1
      } else {
        index += 1
      }
    }
    return found
  }

  /// The brace arguments of .NET composite formatting (`{0}`, `{0,-8}`,
  /// `{0:N2}`) or Python `str.format` (`{}`, `{name}`, `{0.attr}`,
  /// `{name!r:>10}`); `{{` and `}}` are literal braces.
  static func braces(_ bytes: [UInt8], python: Bool) -> [TextAtom] {
    var found: [TextAtom] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")) && index + 1 < bytes.count
        && bytes[index + 1] == byte
      {
        index += 2
        continue
      }
      guard byte == UInt8(ascii: "{") else {
        index += 1
        continue
      }
      var probe = index + 1
      var fieldEnd = probe
      if python {
        while probe < bytes.count, isNameByte(bytes[probe]) || "[].".utf8.contains(bytes[probe]) { probe += 1 }
        fieldEnd = probe
        if probe + 1 < bytes.count, bytes[probe] == UInt8(ascii: "!") { probe += 2 }
      } else {
        while probe < bytes.count, bytes[probe] == 0x20 { probe += 1 }
        let digits = probe
        while probe < bytes.count, isDigit(bytes[probe]) { probe += 1 }
        guard probe > digits else {
          index += 1
          continue
        }
        fieldEnd = probe
        while probe < bytes.count, bytes[probe] == 0x20 { probe += 1 }
        if probe < bytes.count, bytes[probe] == UInt8(ascii: ",") {
          probe += 1
          while probe < bytes.count, bytes[probe] == 0x20 || bytes[probe] == UInt8(ascii: "-") { probe += 1 }
          let width = probe
          while probe < bytes.count, isDigit(bytes[probe]) { probe += 1 }
          guard probe > width else {
            index += 1
            continue
          }
          while probe < bytes.count, bytes[probe] == 0x20 { probe += 1 }
        }
      }
      var format: ArraySlice<UInt8> = []
      if probe < bytes.count, bytes[probe] == UInt8(ascii: ":") {
        let start = probe + 1
        probe = start
        while probe < bytes.count, bytes[probe] != UInt8(ascii: "}"), bytes[probe] != UInt8(ascii: "{") { probe += 1 }
        format = bytes[start..<min(probe, bytes.count)]
      }
      guard probe < bytes.count, bytes[probe] == UInt8(ascii: "}") else {
        index += 1
        continue
      }
      let name = String(decoding: bytes[(index + 1)..<fieldEnd], as: UTF8.self)
      let numeric = python ? isPythonNumeric(format) : isDotnetNumeric(format)
      found.append(TextAtom(range: index..<probe + 1, kind: .braces, isNumeric: numeric, name: name))
      index = probe + 1
    }
    return found
  }

  /// A .NET numeric format: a standard one (`N2`, `D`, `C`, `P0`, `E3`,
  /// `F`, `G`, `X4`, `R`) or a custom one made of `0 # . , %` and friends.
  static func isDotnetNumeric(_ format: ArraySlice<UInt8>) -> Bool {
    guard let first = format.first else { return false }
    if "NnDdCcPpEeFfGgXxRr".utf8.contains(first), format.dropFirst().allSatisfy(isDigit) { return true }
    return format.allSatisfy { "0#.,%‰;E+- ".utf8.contains($0) } && format.contains { $0 == 0x30 || $0 == 0x23 }
  }

  /// A Python format specification ending in a numeric presentation type.
  static func isPythonNumeric(_ format: ArraySlice<UInt8>) -> Bool {
    guard let last = format.last else { return false }
    return "bdeEfFgGnoxX%".utf8.contains(last)
  }

  /// i18next `{{name}}`, `{{- name}}`, `{{name, format}}` (numeric for a
  /// `number` format) and, with `nesting`, `$t(key)` (parentheses balanced).
  static func i18next(_ bytes: [UInt8], nesting: Bool = true) -> [TextAtom] {
    var found: [TextAtom] = []
    var closers: [Int: Int]?
    var index = 0
    while index + 1 < bytes.count {
      if bytes[index] == UInt8(ascii: "{"), bytes[index + 1] == UInt8(ascii: "{") {
        var probe = index + 2
        while probe + 1 < bytes.count, !(bytes[probe] == UInt8(ascii: "}") && bytes[probe + 1] == UInt8(ascii: "}")),
          bytes[probe] != UInt8(ascii: "{")
        {
          probe += 1
        }
        if probe + 1 < bytes.count, bytes[probe] == UInt8(ascii: "}"), bytes[probe + 1] == UInt8(ascii: "}") {
          let inner = String(decoding: bytes[(index + 2)..<probe], as: UTF8.self)
          var parts = inner.split(separator: ",", maxSplits: 1).map { $0.trimmingSpaces }
          if parts.first?.hasPrefix("-") == true { parts[0] = String(parts[0].dropFirst()).trimmingSpaces }
          if let name = parts.first, !name.isEmpty {
            let numeric = parts.count > 1 && parts[1].hasPrefix("number")
            found.append(
              TextAtom(range: index..<probe + 2, kind: .doubleBraces, isNumeric: numeric, name: name))
            index = probe + 2
            continue
          }
        }
      } else if nesting, bytes[index] == UInt8(ascii: "$"), index + 2 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "t"),
        bytes[index + 2] == UInt8(ascii: "(")
      {
        if closers == nil { closers = closingParentheses(bytes) }
        if let probe = closers?[index + 2] {
          found.append(TextAtom(range: index..<probe + 1, kind: .nesting, isNumeric: false))
          index = probe + 1
          continue
        }
      }
      index += 1
    }
    return found
  }
}

/// For each `(` of `bytes` that a `)` closes (parentheses nested), the
/// offset of that `)`: one pass with a stack, so that scans from many
/// unclosed `(` stay linear.
func closingParentheses(_ bytes: [UInt8]) -> [Int: Int] {
  var result: [Int: Int] = [:]
  var open: [Int] = []
  for (index, byte) in bytes.enumerated() {
    if byte == UInt8(ascii: "(") {
      open.append(index)
    } else if byte == UInt8(ascii: ")"), let opener = open.popLast() {
      result[opener] = index
    }
  }
  return result
}

@inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

@inline(__always) func isNameByte(_ byte: UInt8) -> Bool {
  (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || isDigit(byte) || byte == UInt8(ascii: "_")
}

extension StringProtocol {
  /// The text without ASCII spaces and tabs at either end.
  var trimmingSpaces: String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}

extension FormatPlaceholders {
  /// Qt's `QString::arg` markers `%1`…`%99` (text: an argument may be
  /// either), `%L1` (a localized number: numeric), and `tr()`'s plural count
  /// `%n` / `%Ln` (numeric). Any other `%` is text.
  static func qt(_ bytes: [UInt8]) -> [TextAtom] {
    var found: [TextAtom] = []
    var index = 0
    while index + 1 < bytes.count {
      guard bytes[index] == UInt8(ascii: "%") else {
        index += 1
        continue
      }
      var probe = index + 1
      let localized = bytes[probe] == UInt8(ascii: "L")
      if localized { probe += 1 }
      if probe < bytes.count, bytes[probe] == UInt8(ascii: "n") {
        found.append(TextAtom(range: index..<probe + 1, kind: .qt, isNumeric: true, name: "n"))
        index = probe + 1
        continue
      }
      let digits = probe
      while probe < bytes.count, probe - digits < 2, isDigit(bytes[probe]) { probe += 1 }
      guard probe > digits, bytes[digits] != UInt8(ascii: "0") else {
        index += 1
        continue
      }
      let name = String(decoding: bytes[digits..<probe], as: UTF8.self)
      found.append(TextAtom(range: index..<probe, kind: .qt, isNumeric: localized, name: name))
      index = probe
    }
    return found
  }

  /// WebExtension placeholders: `$NAME$` (letters, digits, `_`, `@`;
  /// defined in the message's `placeholders`) and substitutions `$1`…`$9`,
  /// all text (the messages say nothing of types); `$$` is a dollar sign.
  static func webExtension(_ bytes: [UInt8]) -> [TextAtom] {
    var found: [TextAtom] = []
    var index = 0
    while index + 1 < bytes.count {
      guard bytes[index] == UInt8(ascii: "$") else {
        index += 1
        continue
      }
      let next = bytes[index + 1]
      if next == UInt8(ascii: "$") {
        index += 2
        continue
      }
      if isDigit(next), next != UInt8(ascii: "0") {
        found.append(TextAtom(range: index..<index + 2, kind: .webExtension, isNumeric: false))
        index += 2
        continue
      }
      var probe = index + 1
      while probe < bytes.count, isNameByte(bytes[probe]) || bytes[probe] == UInt8(ascii: "@") { probe += 1 }
      if probe > index + 1, probe < bytes.count, bytes[probe] == UInt8(ascii: "$") {
        let name = String(decoding: bytes[(index + 1)..<probe], as: UTF8.self)
        found.append(TextAtom(range: index..<probe + 1, kind: .webExtension, isNumeric: false, name: name))
        index = probe + 1
      } else {
        index += 1
      }
    }
    return found
  }
}

extension FormatPlaceholders {
  /// Ruby's (Rails I18n) `%{name}` (text, but `%{count}`, the plural
  /// count Rails passes, is numeric) and `%<name>` followed by a format
  /// conversion (`%<amount>.2f`: numeric by its conversion); `%%` is a percent sign.
  static func ruby(_ bytes: [UInt8]) -> [TextAtom] {
    var found: [TextAtom] = []
    var index = 0
    while index + 1 < bytes.count {
      guard bytes[index] == UInt8(ascii: "%") else {
        index += 1
        continue
      }
      let opener = bytes[index + 1]
      if opener == UInt8(ascii: "%") {
        index += 2
        continue
      }
      guard opener == UInt8(ascii: "{") || opener == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      let closer = opener == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ">")
      var probe = index + 2
      while probe < bytes.count, isNameByte(bytes[probe]) { probe += 1 }
      guard probe > index + 2, probe < bytes.count, bytes[probe] == closer else {
        index += 1
        continue
      }
      let name = String(decoding: bytes[(index + 2)..<probe], as: UTF8.self)
      var end = probe + 1
      var numeric = name == "count"
      if opener == UInt8(ascii: "<") {
        while end < bytes.count, "-+ #0".utf8.contains(bytes[end]) { end += 1 }
        while end < bytes.count, isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
        guard end < bytes.count, "bBdiouxXeEfgGaAcps".utf8.contains(bytes[end]) else {
          index += 1
          continue
        }
        numeric = numericConversions.contains(bytes[end])
        end += 1
      }
      found.append(TextAtom(range: index..<end, kind: .ruby, isNumeric: numeric, name: name))
      index = end
    }
    return found
  }

  /// Symfony's `%name%` parameters (letters, digits, `_`, `.`, `-`; text,
  /// but `%count%`, the number a plural message is chosen by, is numeric).
  static func symfony(_ bytes: [UInt8]) -> [TextAtom] {
    var found: [TextAtom] = []
    var index = 0
    while index + 2 < bytes.count {
      guard bytes[index] == UInt8(ascii: "%"),
        isNameByte(bytes[index + 1]) && !isDigit(bytes[index + 1])
      else {
        index += 1
        continue
      }
      var probe = index + 1
      while probe < bytes.count, isNameByte(bytes[probe]) || bytes[probe] == 0x2E || bytes[probe] == 0x2D { probe += 1 }
      guard probe < bytes.count, bytes[probe] == UInt8(ascii: "%") else {
        index += 1
        continue
      }
      let name = String(decoding: bytes[(index + 1)..<probe], as: UTF8.self)
      found.append(TextAtom(range: index..<probe + 1, kind: .symfony, isNumeric: name == "count", name: name))
      index = probe + 1
    }
    return found
  }
}
