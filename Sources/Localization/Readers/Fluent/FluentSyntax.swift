import StructuredText
import UnicodeBidi

/// The syntax of Fluent patterns and placeables (Project Fluent 1.0, as
/// `fluent.syntax` parses it), read from a cursor into `FluentPattern`s:
/// where each piece of a pattern's text is, where each placeable is and
/// whether it is numeric, and the variants of its select expressions. The
/// text itself is built afterwards (`FluentValueBuilder`), once the
/// pattern's common indent is known.
struct FluentPattern {
  enum Piece {
    /// Text characters on one line, columns `from..<to`.
    case text(line: Int, from: Int, to: Int)
    /// Line breaks: one `\n` for the end of each of these lines (the
    /// pattern's line and blank lines after it).
    case breaks(lines: [Int])
    /// A continuation line's indent, `width` spaces: those beyond the
    /// pattern's common indent are text.
    case indent(line: Int, width: Int)
    /// A placeable other than a string literal: a placeholder, its source kept.
    case placeable(FluentPlaceable)
    /// A string literal placeable (`{ "{" }`, Fluent's escape): its value
    /// is text, read from between its quotes.
    case literal(start: SourcePosition, end: SourcePosition, quotes: Range<Int>)
  }

  var pieces: [Piece] = []
  var commonIndent = Int.max
}

/// A placeable `{ … }` kept as a placeholder.
struct FluentPlaceable {
  var start: SourcePosition
  var end: SourcePosition
  var isNumeric: Bool
  /// The variable of a plain `{ $name }`: numeric inside a plural select on it.
  var variable: String?
  /// The select expressions inside it, in document order (nested ones
  /// included), each a list of variants.
  var selects: [[FluentVariant]] = []
}

struct FluentVariant {
  /// `select:one`, `select:0`.
  var name: String
  var pattern: FluentPattern
}

/// A Fluent syntax error: the message and where.
struct FluentError: Error {
  var message: String
  var position: SourcePosition
}

/// The parser of patterns and placeables over a cursor (recursive, its
/// depth bounded by `maximumDepth` placeables).
struct FluentSyntax {
  /// Placeables nested deeper than this are refused (real files nest two or three).
  static let maximumDepth = 40
  /// CLDR plural categories: a select over them (or over numbers) is a plural.
  static let pluralCategories: Set<String> = ["zero", "one", "two", "few", "many", "other"]

  static func isIdentifierStart(_ byte: UInt8?) -> Bool {
    guard let byte else { return false }
    return (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
  }

  static func isIdentifierByte(_ byte: UInt8) -> Bool {
    isNameByte(byte) || byte == UInt8(ascii: "-")
  }

  /// An identifier at the cursor (`[a-zA-Z][a-zA-Z0-9_-]*`).
  static func identifier(_ cursor: inout Cursor) throws(FluentError) -> String {
    guard isIdentifierStart(cursor.byte) else {
      throw FluentError(
        message: "expected an identifier (a letter, then letters, digits, _ or -)", position: cursor.position)
    }
    var bytes: [UInt8] = []
    while let byte = cursor.byte, isIdentifierByte(byte) {
      bytes.append(byte)
      cursor.advance()
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Skips spaces and line ends (Fluent's blank inside placeables).
  static func skipBlank(_ cursor: inout Cursor) {
    while let byte = cursor.byte, byte == 0x20 || byte == 0x0A { cursor.advance() }
  }

  static func expect(_ byte: UInt8, _ cursor: inout Cursor, _ what: String) throws(FluentError) {
    guard cursor.byte == byte else {
      throw FluentError(
        message: "expected \(what), found \(cursor.byte.map(describe) ?? "the end of the file")",
        position: cursor.position)
    }
    cursor.advance()
  }

  /// From a line end, past the blank lines after it: the line ends passed
  /// (the line's own first) and the cursor at the start of the next line
  /// holding something (or at the end of the file).
  static func blankBlock(_ cursor: inout Cursor) -> [Int] {
    var lines: [Int] = []
    while cursor.byte == 0x0A {
      lines.append(cursor.line)
      cursor.advance()
      var probe = cursor
      _ = probe.skipSpaces()
      if probe.byte == 0x0A {
        cursor = probe
      } else if probe.byte == nil {
        cursor = probe
        break
      }
    }
    return lines
  }

  /// Whether the line at the cursor (its start) continues a pattern: it
  /// starts with `{` after any spaces, or is indented and starts with none
  /// of `} . [ *`.
  static func isContinuation(_ cursor: Cursor) -> Bool {
    var probe = cursor
    let indent = probe.skipSpaces()
    guard let byte = probe.byte else { return false }
    if byte == UInt8(ascii: "{") { return true }
    return indent > 0 && !"}.[*".utf8.contains(byte)
  }

  /// An inline or block pattern after `=` or a variant key, or nil when
  /// there is none (the cursor then stays where it was).
  mutating func maybePattern(_ cursor: inout Cursor, depth: Int) throws(FluentError) -> FluentPattern? {
    var probe = cursor
    _ = probe.skipSpaces()
    if let byte = probe.byte, byte != 0x0A {
      cursor = probe
      return try pattern(&cursor, block: false, depth: depth)
    }
    guard probe.byte == 0x0A else { return nil }
    var block = probe
    _ = Self.blankBlock(&block)
    guard block.column == 0, Self.isContinuation(block) else { return nil }
    cursor = block
    return try pattern(&cursor, block: true, depth: depth)
  }

  /// A pattern from the cursor (a block pattern at the start of its first
  /// line) to the line end not followed by a continuation line.
  private mutating func pattern(_ cursor: inout Cursor, block: Bool, depth: Int) throws(FluentError) -> FluentPattern {
    var result = FluentPattern()
    if block {
      let line = cursor.line
      let width = cursor.skipSpaces()
      result.pieces.append(.indent(line: line, width: width))
      result.commonIndent = width
    }
    while let byte = cursor.byte {
      switch byte {
      case 0x0A:
        var probe = cursor
        let lines = Self.blankBlock(&probe)
        guard probe.column == 0, probe.line > cursor.line, Self.isContinuation(probe) else { return result }
        cursor = probe
        let line = cursor.line
        let width = cursor.skipSpaces()
        result.commonIndent = min(result.commonIndent, width)
        result.pieces.append(.breaks(lines: lines))
        result.pieces.append(.indent(line: line, width: width))
      case UInt8(ascii: "}"):
        throw FluentError(
          message: "a } in text closes no placeable (write it as { \"}\" })", position: cursor.position)
      case UInt8(ascii: "{"):
        result.pieces.append(try placeable(&cursor, depth: depth + 1))
      default:
        let line = cursor.line
        let from = cursor.column
        let end = cursor.runEnd { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
        result.pieces.append(.text(line: line, from: from, to: end))
        cursor.skip(toColumn: end)
      }
    }
    return result
  }

  /// A placeable at the cursor (`{`).
  private mutating func placeable(_ cursor: inout Cursor, depth: Int) throws(FluentError) -> FluentPattern.Piece {
    guard depth <= Self.maximumDepth else {
      throw FluentError(
        message: "placeables nested more than \(Self.maximumDepth) deep", position: cursor.position)
    }
    let start = cursor.position
    cursor.advance()
    Self.skipBlank(&cursor)
    var selects: [[FluentVariant]] = []
    let expression = try self.expression(&cursor, depth: depth, selects: &selects)
    try Self.expect(UInt8(ascii: "}"), &cursor, "} to close the placeable")
    if case .string(let quotes) = expression.kind {
      return .literal(start: start, end: cursor.position, quotes: quotes)
    }
    var variable: String?
    if case .variable(let name) = expression.kind { variable = name }
    return .placeable(
      FluentPlaceable(
        start: start, end: cursor.position, isNumeric: expression.isNumeric, variable: variable, selects: selects))
  }

  struct Expression {
    enum Kind {
      case string(quotes: Range<Int>)
      case number, variable(String), function(String), term(attribute: Bool)
      case message(String, attribute: Bool)
      case placeable, select
    }
    var kind: Kind
    var isNumeric: Bool
    /// The variable it reads: `$n` itself, or the first argument of a call (`NUMBER($n)`).
    var variable: String?
  }

  /// An expression inside a placeable: an inline expression, or a select
  /// expression over one (its variants appended to `selects`).
  private mutating func expression(_ cursor: inout Cursor, depth: Int, selects: inout [[FluentVariant]])
    throws(FluentError) -> Expression
  {
    let selectorStart = cursor.position
    let selector = try inline(&cursor, depth: depth, selects: &selects)
    Self.skipBlank(&cursor)
    guard cursor.byte == UInt8(ascii: "-"), cursor.peek(1) == UInt8(ascii: ">") else {
      if case .term(attribute: true) = selector.kind {
        throw FluentError(message: "a term's attribute can only be a selector", position: selectorStart)
      }
      return selector
    }
    switch selector.kind {
    case .string, .number, .variable, .function, .term(attribute: true): break
    default:
      throw FluentError(
        message: "this expression cannot be a selector (use a variable, a literal, a function or a term's attribute)",
        position: selectorStart)
    }
    cursor.advance(by: 2)
    _ = cursor.skipSpaces()
    guard cursor.byte == 0x0A else {
      throw FluentError(
        message: "the variants of a select expression start on the next line", position: cursor.position)
    }
    // The variants: `[key] pattern` lines, one `*[key]` the default.
    var keys: [String] = []
    let index = selects.count
    selects.append([])
    var hasDefault = false
    Self.skipBlank(&cursor)
    while cursor.byte == UInt8(ascii: "*") || (cursor.byte == UInt8(ascii: "[") && cursor.peek(1) != UInt8(ascii: "["))
    {
      if cursor.byte == UInt8(ascii: "*") {
        guard !hasDefault else {
          throw FluentError(message: "a select expression has one default variant (*[…])", position: cursor.position)
        }
        hasDefault = true
        cursor.advance()
      }
      try Self.expect(UInt8(ascii: "["), &cursor, "[ to open the variant key")
      Self.skipBlank(&cursor)
      let key = try variantKey(&cursor)
      Self.skipBlank(&cursor)
      try Self.expect(UInt8(ascii: "]"), &cursor, "] to close the variant key")
      keys.append(key)
      guard let pattern = try maybePattern(&cursor, depth: depth) else {
        throw FluentError(message: "a variant needs a value", position: cursor.position)
      }
      selects[index].append(FluentVariant(name: "select:" + key, pattern: pattern))
      guard cursor.byte == 0x0A || cursor.byte == nil else {
        throw FluentError(message: "expected the end of the line after a variant", position: cursor.position)
      }
      Self.skipBlank(&cursor)
    }
    guard !keys.isEmpty else {
      throw FluentError(message: "a select expression needs variants ([key] value)", position: cursor.position)
    }
    guard hasDefault else {
      throw FluentError(
        message: "a select expression needs a default variant (*[key] value)", position: cursor.position)
    }
    // A plural: a NUMBER() or number selector, or keys that are all plural
    // categories or numbers (not only `other`). `{ $n }` inside a plural on
    // `$n` is numeric, as an ICU `{n}` inside a plural on n.
    let categories = keys.allSatisfy { key in
      Self.pluralCategories.contains(key) || key.utf8.first.map { isDigit($0) || $0 == UInt8(ascii: "-") } == true
    }
    let plural = isNumericSelector(selector) || (categories && keys.contains { $0 != "other" })
    if plural, let name = selector.variable {
      for variant in selects[index].indices { Self.markNumeric(name, in: &selects[index][variant].pattern) }
    }
    return Expression(kind: .select, isNumeric: plural)
  }

  /// Makes every plain `{ $name }` of a pattern (its variants' included) numeric.
  private static func markNumeric(_ name: String, in pattern: inout FluentPattern) {
    for index in pattern.pieces.indices {
      guard case .placeable(var placeable) = pattern.pieces[index] else { continue }
      if placeable.variable == name { placeable.isNumeric = true }
      for select in placeable.selects.indices {
        for variant in placeable.selects[select].indices {
          markNumeric(name, in: &placeable.selects[select][variant].pattern)
        }
      }
      pattern.pieces[index] = .placeable(placeable)
    }
  }

  private func isNumericSelector(_ selector: Expression) -> Bool {
    switch selector.kind {
    case .number: true
    case .function(let name): name == "NUMBER"
    default: false
    }
  }

  private func variantKey(_ cursor: inout Cursor) throws(FluentError) -> String {
    if let byte = cursor.byte, isDigit(byte) || byte == UInt8(ascii: "-") {
      return try Self.number(&cursor)
    }
    return try Self.identifier(&cursor)
  }

  static func number(_ cursor: inout Cursor) throws(FluentError) -> String {
    var text = ""
    if cursor.byte == UInt8(ascii: "-") {
      text = "-"
      cursor.advance()
    }
    func digits(_ cursor: inout Cursor) throws(FluentError) -> String {
      var found = ""
      while let byte = cursor.byte, isDigit(byte) {
        found.append(Character(Unicode.Scalar(byte)))
        cursor.advance()
      }
      guard !found.isEmpty else { throw FluentError(message: "expected a digit", position: cursor.position) }
      return found
    }
    text += try digits(&cursor)
    if cursor.byte == UInt8(ascii: ".") {
      cursor.advance()
      text += "." + (try digits(&cursor))
    }
    return text
  }

  /// An inline expression: a literal, a variable, a term or message
  /// reference, a function call, or a nested placeable.
  private mutating func inline(_ cursor: inout Cursor, depth: Int, selects: inout [[FluentVariant]])
    throws(FluentError) -> Expression
  {
    guard let byte = cursor.byte else {
      throw FluentError(message: "expected an expression, found the end of the file", position: cursor.position)
    }
    if byte == UInt8(ascii: "{") {
      guard depth < Self.maximumDepth else {
        throw FluentError(message: "placeables nested more than \(Self.maximumDepth) deep", position: cursor.position)
      }
      cursor.advance()
      Self.skipBlank(&cursor)
      let inner = try expression(&cursor, depth: depth + 1, selects: &selects)
      try Self.expect(UInt8(ascii: "}"), &cursor, "} to close the placeable")
      return Expression(kind: .placeable, isNumeric: inner.isNumeric)
    }
    if isDigit(byte) || (byte == UInt8(ascii: "-") && cursor.peek(1).map(isDigit) == true) {
      _ = try Self.number(&cursor)
      return Expression(kind: .number, isNumeric: true)
    }
    if byte == UInt8(ascii: "\"") {
      let quotes = try Self.stringLiteral(&cursor)
      return Expression(kind: .string(quotes: quotes), isNumeric: false)
    }
    if byte == UInt8(ascii: "$") {
      cursor.advance()
      let name = try Self.identifier(&cursor)
      return Expression(kind: .variable(name), isNumeric: false, variable: name)
    }
    if byte == UInt8(ascii: "-") {
      cursor.advance()
      _ = try Self.identifier(&cursor)
      var attribute = false
      if cursor.byte == UInt8(ascii: ".") {
        cursor.advance()
        _ = try Self.identifier(&cursor)
        attribute = true
      }
      var probe = cursor
      Self.skipBlank(&probe)
      if probe.byte == UInt8(ascii: "(") {
        cursor = probe
        try arguments(&cursor, depth: depth, selects: &selects)
      }
      return Expression(kind: .term(attribute: attribute), isNumeric: false)
    }
    guard Self.isIdentifierStart(byte) else {
      throw FluentError(
        message: "expected an expression (a $variable, a message or -term, a FUNCTION(), a \"string\" or a number),"
          + " found \(describe(byte))", position: cursor.position)
    }
    let start = cursor.position
    let name = try Self.identifier(&cursor)
    var probe = cursor
    Self.skipBlank(&probe)
    if probe.byte == UInt8(ascii: "(") {
      guard name.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || isDigit($0) || $0 == 0x5F || $0 == 0x2D }) else {
        throw FluentError(message: "a function's name is upper case (\(name.uppercased()))", position: start)
      }
      cursor = probe
      let first = try arguments(&cursor, depth: depth, selects: &selects)
      return Expression(kind: .function(name), isNumeric: name == "NUMBER", variable: first)
    }
    var attribute = false
    if cursor.byte == UInt8(ascii: ".") {
      cursor.advance()
      _ = try Self.identifier(&cursor)
      attribute = true
    }
    return Expression(kind: .message(name, attribute: attribute), isNumeric: false)
  }

  /// Call arguments `(positional…, name: literal…)`; the variable of the first, if it is one.
  @discardableResult
  private mutating func arguments(_ cursor: inout Cursor, depth: Int, selects: inout [[FluentVariant]])
    throws(FluentError) -> String?
  {
    var first: String?
    var count = 0
    cursor.advance()
    Self.skipBlank(&cursor)
    var names: Set<String> = []
    while cursor.byte != UInt8(ascii: ")") {
      let start = cursor.position
      let argument = try inline(&cursor, depth: depth, selects: &selects)
      if count == 0, case .variable(let name) = argument.kind { first = name }
      count += 1
      Self.skipBlank(&cursor)
      if cursor.byte == UInt8(ascii: ":") {
        guard case .message(let name, attribute: false) = argument.kind else {
          throw FluentError(message: "a named argument's name is an identifier", position: start)
        }
        cursor.advance()
        Self.skipBlank(&cursor)
        if cursor.byte == UInt8(ascii: "\"") {
          _ = try Self.stringLiteral(&cursor)
        } else if let byte = cursor.byte, isDigit(byte) || byte == UInt8(ascii: "-") {
          _ = try Self.number(&cursor)
        } else {
          throw FluentError(message: "a named argument's value is a string or a number", position: cursor.position)
        }
        guard names.insert(name).inserted else {
          throw FluentError(message: "the named argument \(name) is given twice", position: start)
        }
      } else if !names.isEmpty {
        throw FluentError(message: "positional arguments come before named ones", position: start)
      }
      Self.skipBlank(&cursor)
      guard cursor.byte == UInt8(ascii: ",") else { break }
      cursor.advance()
      Self.skipBlank(&cursor)
    }
    try Self.expect(UInt8(ascii: ")"), &cursor, ") to close the arguments")
    return first
  }

  /// A string literal at the cursor (`"`): the columns between its quotes
  /// (it holds no line break). Escapes: `\\` `\"` `\uXXXX` `\UXXXXXX`.
  static func stringLiteral(_ cursor: inout Cursor) throws(FluentError) -> Range<Int> {
    let quote = cursor.position
    cursor.advance()
    let start = cursor.column
    while let byte = cursor.byte, byte != UInt8(ascii: "\""), byte != 0x0A {
      if byte == UInt8(ascii: "\\") {
        let escape = cursor.position
        cursor.advance()
        switch cursor.byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "\""): cursor.advance()
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
          let count = cursor.byte == UInt8(ascii: "u") ? 4 : 6
          cursor.advance()
          for _ in 0..<count {
            guard let digit = cursor.byte, hexValue(digit) != nil else {
              throw FluentError(message: "a \\u escape takes 4 hex digits, \\U 6", position: escape)
            }
            cursor.advance()
          }
        default:
          throw FluentError(message: "unknown escape in a string literal (\\\\, \\\", \\u, \\U)", position: escape)
        }
      } else {
        cursor.advance()
      }
    }
    guard cursor.byte == UInt8(ascii: "\"") else {
      throw FluentError(message: "unterminated string literal: the \" is not closed on its line", position: quote)
    }
    let end = cursor.column
    cursor.advance()
    return start..<end
  }
}
