import StructuredText
import UnicodeBidi

/// Java `.properties`: logical lines `key=value`, `key: value` or
/// `key value`; `#` and `!` start comment lines; a line ending in an odd
/// number of backslashes continues on the next, whose leading white space
/// is skipped. Escapes: `\t \n \r \f`, `\uXXXX`, and a backslash before any
/// other character stands for that character. The value runs from its first
/// character after the separator (and white space) to the end of its
/// logical line. Boundaries: the start of every line that is not a continuation.
enum PropertiesReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    let rules = PlaceholderRules.of(.properties)
    while cursor.byte != nil {
      guard sink.boundary(cursor, state) else { return }
      if cursor.position == SourcePosition(line: 0, column: 0), cursor.matches("\u{FEFF}") { cursor.advance(by: 3) }
      skipBlanks(&cursor)
      guard let first = cursor.byte else { return }
      if first == 0x0A || first == UInt8(ascii: "#") || first == UInt8(ascii: "!") {
        cursor.skipLine()
        continue
      }
      // The key.
      var key = TextBuilder(baseLine: cursor.position.line)
      while let byte = cursor.byte, byte != 0x0A {
        if byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":") || byte == 0x20 || byte == 0x09 || byte == 0x0C {
          break
        }
        if byte == UInt8(ascii: "\\") {
          guard escape(&cursor, &key, &sink) else { return }
        } else {
          key.appendLiteral(from: &cursor)
        }
      }
      skipBlanks(&cursor)
      if cursor.byte == UInt8(ascii: "=") || cursor.byte == UInt8(ascii: ":") {
        cursor.advance()
        skipBlanks(&cursor)
      }
      let start = cursor.position
      var value = TextBuilder(baseLine: start.line)
      var end = start
      var started = false
      while let byte = cursor.byte, byte != 0x0A {
        if byte == UInt8(ascii: "\\") {
          if cursor.peek(1) == 0x0A || cursor.peek(1) == nil {
            // A continuation: the next line's leading white space is skipped.
            cursor.advance(by: 2)
            skipBlanks(&cursor)
            continue
          }
          guard escape(&cursor, &value, &sink) else { return }
        } else {
          value.appendLiteral(from: &cursor)
        }
        started = true
        end = cursor.position
      }
      if !started { end = start }
      cursor.advance()
      var built = value.value(key: key.string, start: start, end: end)
      built.attachKey(key)
      sink.add(built, rules: rules)
    }
  }

  private static func skipBlanks(_ cursor: inout Cursor) {
    while let byte = cursor.byte, byte == 0x20 || byte == 0x09 || byte == 0x0C { cursor.advance() }
  }

  private static func escape(_ cursor: inout Cursor, _ builder: inout TextBuilder, _ sink: inout ReadSink) -> Bool {
    let start = cursor.position
    cursor.advance()
    guard let letter = cursor.byte else { return true }
    switch letter {
    case UInt8(ascii: "u"):
      cursor.advance()
      guard let (unit, upper) = StringsReader.hex4(&cursor) else {
        sink.fail("malformed \\uXXXX escape: four hex digits must follow \\u", at: start)
        return false
      }
      let value = StringsReader.scalar(ofEscapedUnit: unit, &cursor)
      builder.append(value, from: start, to: cursor.position, spelling: .backslashLowerU(uppercaseHex: upper))
      return true
    case UInt8(ascii: "t"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "f"):
      let value: UInt32 =
        letter == UInt8(ascii: "t")
        ? 0x09 : letter == UInt8(ascii: "n") ? 0x0A : letter == UInt8(ascii: "r") ? 0x0D : 0x0C
      cursor.advance()
      builder.append(value, from: start, to: cursor.position, spelling: nil)
      return true
    default:
      guard let (scalar, length, _) = cursor.scalar() else { return true }
      cursor.advance(by: length)
      builder.append(scalar, from: start, to: cursor.position, spelling: nil)
      return true
    }
  }
}
