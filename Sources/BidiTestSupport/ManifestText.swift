/// How the localization corpus's manifest (Tests/LocalizationTests/Corpus)
/// and the independent checkers' protocol write text on one line; the
/// corpus tests of LocalizationTests and BidiServerTests both read it.
package enum ManifestText {
  /// Text written on one line of the manifest or the checker's protocol:
  /// `\\`, `\n`, `\r`, `\t`, and `\u{X}` for every other control, format
  /// character or separator (bidi controls included), so that they show.
  package static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default:
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  package static func unescape(_ text: Substring) -> String {
    var result = ""
    var iterator = text.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      guard scalar == "\\", let next = iterator.next() else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch next {
      case "n": result += "\n"
      case "r": result += "\r"
      case "t": result += "\t"
      case "u":
        _ = iterator.next()  // {
        var hex = ""
        while let digit = iterator.next(), digit != "}" { hex.unicodeScalars.append(digit) }
        result.unicodeScalars.append(Unicode.Scalar(UInt32(hex, radix: 16) ?? 0xFFFD) ?? "\u{FFFD}")
      default: result.unicodeScalars.append(next)
      }
    }
    return result
  }
}
