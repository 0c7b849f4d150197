/// The twelve bidi controls as the tests know them, written down from
/// UAX #9 and the Unicode names list (not taken from the code under test).
package enum TestControls {
  /// Every control: code point, short name and Unicode name.
  package static let all: [(scalar: Unicode.Scalar, short: String, name: String)] = [
    ("\u{061C}", "ALM", "ARABIC LETTER MARK"),
    ("\u{200E}", "LRM", "LEFT-TO-RIGHT MARK"),
    ("\u{200F}", "RLM", "RIGHT-TO-LEFT MARK"),
    ("\u{202A}", "LRE", "LEFT-TO-RIGHT EMBEDDING"),
    ("\u{202B}", "RLE", "RIGHT-TO-LEFT EMBEDDING"),
    ("\u{202C}", "PDF", "POP DIRECTIONAL FORMATTING"),
    ("\u{202D}", "LRO", "LEFT-TO-RIGHT OVERRIDE"),
    ("\u{202E}", "RLO", "RIGHT-TO-LEFT OVERRIDE"),
    ("\u{2066}", "LRI", "LEFT-TO-RIGHT ISOLATE"),
    ("\u{2067}", "RLI", "RIGHT-TO-LEFT ISOLATE"),
    ("\u{2068}", "FSI", "FIRST STRONG ISOLATE"),
    ("\u{2069}", "PDI", "POP DIRECTIONAL ISOLATE"),
  ]

  package static let lrm: Unicode.Scalar = "\u{200E}"
  package static let rlm: Unicode.Scalar = "\u{200F}"
  package static let alm: Unicode.Scalar = "\u{061C}"
  package static let lre: Unicode.Scalar = "\u{202A}"
  package static let rle: Unicode.Scalar = "\u{202B}"
  package static let pdf: Unicode.Scalar = "\u{202C}"
  package static let lro: Unicode.Scalar = "\u{202D}"
  package static let rlo: Unicode.Scalar = "\u{202E}"
  package static let lri: Unicode.Scalar = "\u{2066}"
  package static let rli: Unicode.Scalar = "\u{2067}"
  package static let fsi: Unicode.Scalar = "\u{2068}"
  package static let pdi: Unicode.Scalar = "\u{2069}"

  /// Whether `scalar` is one of the twelve.
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  /// LRE, RLE, LRO, RLO, LRI, RLI, FSI.
  package static func isOpener(_ scalar: Unicode.Scalar) -> Bool {
    [0x202A, 0x202B, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068].contains(scalar.value)
  }

  package static func isIsolateInitiator(_ scalar: Unicode.Scalar) -> Bool { (0x2066...0x2068).contains(scalar.value) }

  /// `U+202E RIGHT-TO-LEFT OVERRIDE`, or nil if `scalar` is not a control.
  package static func displayName(_ scalar: Unicode.Scalar) -> String? {
    guard let control = all.first(where: { $0.scalar == scalar }) else { return nil }
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + " " + control.name
  }

  /// `text` with each control written by its short name (`<RLI>`), as
  /// diagnostic messages quote a line's visual order.
  package static func named(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if let control = all.first(where: { $0.scalar == scalar }) {
        result += "<\(control.short)>"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Text with its invisible controls and U+2029 spelled out, for messages.
  package static func visible(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    var result = ""
    for scalar in scalars {
      if let control = all.first(where: { $0.scalar == scalar }) {
        result += "<\(control.short)>"
      } else if scalar == "\u{2029}" {
        result += "<PS>"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  package static func visible(_ text: String) -> String { visible(text.unicodeScalars) }

  /// The indices of the controls left unpaired on one line, by the rules of
  /// the `bidi.unpaired` diagnostic (Protocol/specification.md,
  /// "textDocument/publishDiagnostics"; GCC's `-Wbidi-chars=unpaired`):
  /// openers form a stack; PDF
  /// closes the innermost open embedding or override only if no isolate is
  /// open inside it; PDI closes the innermost isolate and everything opened
  /// after it. Both openers left open and closers with nothing to close count.
  package static func unpaired(_ line: [Unicode.Scalar]) -> [Int] {
    var stack: [(index: Int, isolate: Bool)] = []
    var result: [Int] = []
    for (index, scalar) in line.enumerated() {
      switch scalar.value {
      case 0x202A, 0x202B, 0x202D, 0x202E:
        stack.append((index, false))
      case 0x2066, 0x2067, 0x2068:
        stack.append((index, true))
      case 0x202C:
        if let top = stack.last, !top.isolate { stack.removeLast() } else { result.append(index) }
      case 0x2069:
        if let isolate = stack.lastIndex(where: { $0.isolate }) {
          stack.removeSubrange(isolate...)
        } else {
          result.append(index)
        }
      default:
        break
      }
    }
    return (result + stack.map(\.index)).sorted()
  }
}
