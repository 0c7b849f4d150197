import StructuredText
import UnicodeBidi

/// The escapes of C string literals that the `.strings` and `.po` readers
/// share: the one-letter escapes `\n \t \r \a \b \f \v`, up to three octal
/// digits, and an escaped character standing for itself. Each reader adds
/// its own (`\U`/`\u` in `.strings`, `\x` in `.po`) and decides what an
/// escaped line break is.
enum CEscapes {
  /// The character a one-letter escape stands for, if `letter` is one.
  static func letter(_ letter: UInt8) -> UInt32? {
    switch letter {
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "t"): 0x09
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "a"): 0x07
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "v"): 0x0B
    default: nil
    }
  }

  /// Decodes the common escapes whose backslash started at `start`, the
  /// cursor on the letter after it; false (nothing consumed) for a letter
  /// the reader decodes itself (`special`) or a line break.
  static func decode(
    _ cursor: inout Cursor, _ builder: inout TextBuilder, from start: SourcePosition, special: (UInt8) -> Bool
  ) -> Bool {
    guard let letter = cursor.byte, letter != 0x0A, !special(letter) else { return false }
    if let value = Self.letter(letter) {
      cursor.advance()
      builder.append(value, from: start, to: cursor.position, spelling: nil)
      return true
    }
    if letter >= UInt8(ascii: "0") && letter <= UInt8(ascii: "7") {
      var value: UInt32 = 0
      var digits = 0
      while digits < 3, let digit = cursor.byte, digit >= 0x30, digit <= 0x37 {
        value = value * 8 + UInt32(digit - 0x30)
        digits += 1
        cursor.advance()
      }
      builder.append(value, from: start, to: cursor.position, spelling: nil)
      return true
    }
    // Any other escaped character stands for itself.
    guard let (scalar, length, _) = cursor.scalar() else { return false }
    cursor.advance(by: length)
    builder.append(scalar, from: start, to: cursor.position, spelling: nil)
    return true
  }
}
