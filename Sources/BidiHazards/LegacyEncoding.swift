/// The 8-bit encodings right-to-left text was saved in before UTF-8, told
/// from bytes that are not UTF-8 so that a structured file's syntax error
/// and a plain line's `bidi.invalidUtf8` can say how to convert the file.
/// Subtitles, old localization files and notes are often still in them.
/// Nothing is decoded: `check` reads UTF-8 and UTF-16 only (a byte order
/// mark), and guessing an encoding silently would change what it reports.
package enum LegacyEncoding: String, Sendable, Hashable {
  /// Windows-1256: Arabic, Persian, Urdu.
  case windows1256 = "WINDOWS-1256"
  /// Windows-1255 (or ISO-8859-8, whose letters are at the same bytes): Hebrew.
  case windows1255 = "WINDOWS-1255"

  /// The script the encoding is for, as a message says it.
  package var script: String {
    switch self {
    case .windows1256: "Arabic script"
    case .windows1255: "Hebrew"
    }
  }

  /// The encoding `bytes` (a sample from the first byte that is not UTF-8)
  /// look written in, or nil when they do not look like either. Each letter
  /// of these scripts is one byte above 0x7F, so most such bytes stand next
  /// to another (in Latin-1 text an accented letter stands among ASCII
  /// ones). Arabic letters in Windows-1256 are mostly 0xC1–0xDF, alef
  /// (0xC7) among the most frequent, with lam, meem, noon, heh, waw and yeh
  /// at 0xE1–0xED (all-capital Cyrillic is 0xC0–0xDF alone); Hebrew letters are 0xE0–0xFA in
  /// Windows-1255 and ISO-8859-8, and Hebrew text has nearly no other byte
  /// above 0x7F (Cyrillic in Windows-1251 has ы, ь, я at 0xFB, 0xFC, 0xFF).
  package static func guess(_ bytes: some Sequence<UInt8>) -> LegacyEncoding? {
    var high = 0
    var paired = 0
    var arabic = 0
    var alef = 0
    var lamToYeh = 0
    var hebrew = 0
    var notHebrew = 0
    var previousHigh = false
    var previousCounted = false
    for byte in bytes {
      let isHigh = byte >= 0x80
      defer { previousHigh = isHigh }
      guard isHigh else {
        previousCounted = false
        continue
      }
      high += 1
      if previousHigh {
        paired += previousCounted ? 1 : 2
        previousCounted = true
      }
      switch byte {
      case 0xC7:
        alef += 1
        arabic += 1
      case 0xC1...0xDF: arabic += 1
      case 0xE1, 0xE3...0xE6, 0xEC, 0xED:
        lamToYeh += 1
        hebrew += 1
      case 0xE0...0xFA: hebrew += 1
      case 0xFB, 0xFC, 0xFF: notHebrew += 1
      default: break
      }
    }
    guard high >= 8, paired * 2 >= high else { return nil }
    if arabic * 4 >= high, alef * 20 >= high, lamToYeh * 7 >= high { return .windows1256 }
    if arabic * 20 <= high, notHebrew == 0, hebrew * 10 >= high * 9 { return .windows1255 }
    return nil
  }

  /// What an error about a byte that is not UTF-8 adds when the text after
  /// it looks written in a legacy encoding: the command that converts it.
  package static func hint(_ bytes: some Sequence<UInt8>) -> String {
    guard let encoding = guess(bytes) else { return "" }
    return "; it looks like \(encoding.rawValue) (\(encoding.script)): `iconv -f \(encoding.rawValue) -t UTF-8`"
      + " converts it"
  }
}
