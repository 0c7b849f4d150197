import StructuredText
import UnicodeBidi

/// Apple `.strings` (an old-style property list of strings): entries
/// `"key" = "value";`, keys and values quoted (or bare words of
/// `A–Z a–z 0–9 _ $ + / : . -`), `/* */` and `//` comments between tokens.
/// Escapes in quoted strings: `\"` `\'` `\\` `\n` `\t` `\r` `\a` `\b` `\f`
/// `\v`, octal `\NNN`, `\UXXXX` and `\uXXXX` (UTF-16 units, surrogate pairs
/// joined); any other escaped character stands for itself. A line break
/// inside quotes is part of the value. An entry `"key";` has no value.
/// Boundaries: the start of each line between entries.
enum StringsReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    let rules = PlaceholderRules.of(.strings)
    while true {
      guard skipTrivia(&cursor, &sink, boundaries: state) else { return }
      guard cursor.byte != nil else { return }
      guard let key = token(&cursor, &sink, what: "a key") else { return }
      guard skipTrivia(&cursor, &sink, boundaries: nil) else { return }
      if cursor.byte == UInt8(ascii: ";") {
        cursor.advance()
        continue
      }
      guard cursor.byte == UInt8(ascii: "=") else {
        sink.fail(
          "expected = after the key"
            + (cursor.byte == nil ? ", found the end of the file" : ""), at: cursor.position)
        return
      }
      cursor.advance()
      guard skipTrivia(&cursor, &sink, boundaries: nil) else { return }
      guard let value = token(&cursor, &sink, what: "a value") else { return }
      guard skipTrivia(&cursor, &sink, boundaries: nil) else { return }
      guard cursor.byte == UInt8(ascii: ";") else {
        sink.fail("expected ; after the value (each entry ends with a semicolon)", at: cursor.position)
        return
      }
      cursor.advance()
      var built = value.builder.value(key: key.builder.string, start: value.start, end: value.end)
      built.attachKey(key.builder)
      sink.add(built, rules: rules)
    }
  }

  /// Skips white space and comments. With `boundaries`, each line start
  /// reached outside a comment is an entry boundary. False when reading must stop.
  static func skipTrivia(_ cursor: inout Cursor, _ sink: inout ReadSink, boundaries: ReaderState?) -> Bool {
    while true {
      if let boundaries, !sink.boundary(cursor, boundaries) { return false }
      guard let byte = cursor.byte else { return true }
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B:
        cursor.advance()
      case 0xEF where cursor.position == SourcePosition(line: 0, column: 0) && cursor.matches("\u{FEFF}"):
        cursor.advance(by: 3)
      case UInt8(ascii: "/") where cursor.peek(1) == UInt8(ascii: "/"):
        cursor.skipLine()
      case UInt8(ascii: "/") where cursor.peek(1) == UInt8(ascii: "*"):
        let start = cursor.position
        cursor.advance(by: 2)
        while cursor.byte != nil && !(cursor.byte == UInt8(ascii: "*") && cursor.peek(1) == UInt8(ascii: "/")) {
          cursor.advance()
        }
        guard cursor.byte != nil else {
          sink.fail("unterminated comment: the /* is never closed by */", at: start)
          return false
        }
        cursor.advance(by: 2)
      default:
        return true
      }
    }
  }

  struct Token {
    var builder: TextBuilder
    var start: SourcePosition
    var end: SourcePosition
  }

  /// A quoted string or a bare word.
  static func token(_ cursor: inout Cursor, _ sink: inout ReadSink, what: String) -> Token? {
    guard let byte = cursor.byte else {
      sink.fail("expected \(what), found the end of the file", at: cursor.position)
      return nil
    }
    if byte == UInt8(ascii: "\"") {
      let quote = cursor.position
      cursor.advance()
      let start = cursor.position
      var builder = TextBuilder(baseLine: start.line)
      while let current = cursor.byte, current != UInt8(ascii: "\"") {
        if current == UInt8(ascii: "\\") {
          escape(&cursor, &builder)
        } else if current == 0x0A {
          builder.appendLiteral(from: &cursor)
        } else {
          builder.appendLiteralRun(from: &cursor) { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
      }
      guard cursor.byte != nil else {
        sink.fail("unterminated string: the \" is never closed", at: quote)
        return nil
      }
      let end = cursor.position
      cursor.advance()
      return Token(builder: builder, start: start, end: end)
    }
    guard isBareWordByte(byte) else {
      sink.fail("expected \(what) (a quoted string), found \(describe(byte))", at: cursor.position)
      return nil
    }
    let start = cursor.position
    var builder = TextBuilder(baseLine: start.line)
    if cursor.byte != nil { builder.appendLiteralRun(from: &cursor) { !isBareWordByte($0) } }
    return Token(builder: builder, start: start, end: cursor.position)
  }

  private static func isBareWordByte(_ byte: UInt8) -> Bool {
    isNameByte(byte) || "$+/:.-".utf8.contains(byte)
  }

  /// Decodes the escape at the cursor (a backslash) into `builder`:
  /// `CEscapes`, `\UXXXX` and `\uXXXX`, and an escaped line break, which
  /// is a line break of the value.
  static func escape(_ cursor: inout Cursor, _ builder: inout TextBuilder) {
    let start = cursor.position
    cursor.advance()
    let isU = { (letter: UInt8) in letter == UInt8(ascii: "U") || letter == UInt8(ascii: "u") }
    if CEscapes.decode(&cursor, &builder, from: start, special: isU) { return }
    guard let letter = cursor.byte else { return }
    guard isU(letter) else {
      // A line break.
      cursor.advance()
      builder.append(0x0A, from: start, to: cursor.position, spelling: nil)
      return
    }
    cursor.advance()
    guard let (unit, upper) = hex4(&cursor) else {
      builder.append(UInt32(letter), from: start, to: cursor.position, spelling: nil)
      return
    }
    let spelling: MarkSpelling =
      letter == UInt8(ascii: "U") ? .backslashUpperU(uppercaseHex: upper) : .backslashLowerU(uppercaseHex: upper)
    let value = scalar(ofEscapedUnit: unit, &cursor, lowHalfMayUseUpperU: true)
    builder.append(value, from: start, to: cursor.position, spelling: spelling)
  }

  /// The scalar of a `\uXXXX` escape whose digits gave `unit` (the cursor
  /// after them): a high surrogate followed by the `\u` escape of a low one
  /// (or `\U`, when `lowHalfMayUseUpperU`) is joined with it, the cursor
  /// moved past that escape; a lone surrogate is U+FFFD. Shared by the
  /// `.strings`, `.properties` and JSON readers.
  static func scalar(ofEscapedUnit unit: UInt32, _ cursor: inout Cursor, lowHalfMayUseUpperU: Bool = false) -> UInt32 {
    var value = unit
    if value >= 0xD800 && value < 0xDC00, cursor.byte == UInt8(ascii: "\\"),
      cursor.peek(1) == UInt8(ascii: "u") || (lowHalfMayUseUpperU && cursor.peek(1) == UInt8(ascii: "U"))
    {
      var lookahead = cursor
      lookahead.advance(by: 2)
      if let (low, _) = hex4(&lookahead), low >= 0xDC00 && low < 0xE000 {
        value = 0x10000 + (value - 0xD800) << 10 + (low - 0xDC00)
        cursor = lookahead
      }
    }
    return value >= 0xD800 && value < 0xE000 ? 0xFFFD : value
  }

  /// Four hex digits at the cursor (consumed), and whether any letter among
  /// them is upper case.
  static func hex4(_ cursor: inout Cursor) -> (UInt32, Bool)? {
    var value: UInt32 = 0
    var upper = true
    var sawLetter = false
    for k in 0..<4 {
      guard let byte = cursor.peek(k), let digit = hexValue(byte) else { return nil }
      value = value << 4 | digit
      if byte >= UInt8(ascii: "a") {
        upper = false
        sawLetter = true
      } else if byte >= UInt8(ascii: "A") {
        sawLetter = true
      }
    }
    cursor.advance(by: 4)
    return (value, upper || !sawLetter)
  }
}

/// A byte named for a message: `'x'`, or its hex value.
func describe(_ byte: UInt8) -> String {
  if byte == 0x0A { return "a line break" }
  if byte >= 0x21 && byte < 0x7F { return "'" + String(UnicodeScalar(byte)) + "'" }
  return "byte 0x" + String(byte, radix: 16, uppercase: true)
}
