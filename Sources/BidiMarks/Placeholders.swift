import UnicodeBidi

/// A format placeholder found in a line: the grammar of `bidi/insertMarks`
/// mode `placeholders`.
///
/// The text is scanned once from left to right, one paragraph at a time. At
/// each character the forms below are tried in this order, the first that
/// matches is taken whole, and scanning resumes after it, so placeholders
/// never overlap or nest. Only ASCII characters make up placeholders (the
/// content of `\(…)` excepted). A *name* is an ASCII letter or `_` followed
/// by ASCII letters, digits and `_`, possibly several joined by `.`
/// (`user.name`); *digits* are ASCII digits.
///
/// 1. **printf** (C, Objective-C and Foundation format strings, gettext):
///    `%` [*argument*] [*flags*] [*width*] [*precision*] [*length*]
///    *conversion*, where
///    - *argument* is digits followed by `$` (`%1$@`);
///    - *flags* is any sequence of `-` `+` space `#` `0` `'`;
///    - *width* is digits or `*`;
///    - *precision* is `.` followed by digits, by `*`, or by nothing;
///    - *length* is one of `hh` `h` `ll` `l` `L` `q` `j` `z` `t`;
///    - *conversion* is one of `@ d i u x X o O f F e E g G c C s S p a A`.
///
///    `%%` is a literal percent sign: it is skipped whole, so neither of its
///    `%` starts a placeholder (`%%d` is text; `%%%d` is text then `%d`). A
///    `%` that does not start the form above is text. A placeholder whose
///    flags hold a space is accepted only when the character after it is not
///    an ASCII letter or digit, so that prose such as `50% off` or
///    `100 % de` is not read as `% o` or `% d`.
/// 2. **Swift interpolation**: `\(`, then any text with balanced
///    parentheses, then `)`. The backslash must not be escaped: an even
///    number of backslashes (possibly none) comes before it. With no
///    balancing `)` in the paragraph it is text.
/// 3. **`{{name}}`** (Mustache, Handlebars, Jinja, i18next): `{{`, optional
///    spaces, a name, optional spaces, `}}`. Tried before form 5.
/// 4. **`${name}`** (JavaScript template literals, shell): `${`, a name, `}`.
/// 5. **`{0}` / `{name}`** (.NET composite formatting, Python
///    `str.format`, ICU MessageFormat simple arguments): `{`, a key (digits or
///    a name), optionally `,` with an optional `-` and digits (an alignment),
///    optionally `:` with one or more printable ASCII characters other than
///    `{` and `}` (a format specification), then `}`. So `{0:N2}`, `{0,-8}`,
///    `{price:.2f}` and `{0:yyyy-MM-dd}` are placeholders; `{}`, `{ 0 }` and
///    `{0, number}` are not.
///
/// A placeholder is *already isolated* when the character before it is an
/// isolate initiator (FSI, LRI or RLI) whose matching PDI is the character
/// after it; both styles leave such placeholders alone, and style `marks`
/// also leaves alone one that the mark of its paragraph's direction follows.
package struct Placeholder: Hashable, Sendable {
  /// The syntax a placeholder is written in.
  package enum Kind: Hashable, Sendable {
    /// `%@`, `%1$d`, `%.2f`, `%lld`…
    case printf
    /// `\(…)`.
    case swiftInterpolation
    /// `{{name}}`.
    case doubleBraces
    /// `${name}`.
    case dollarBraces
    /// `{0}`, `{name}`, `{0:N2}`…
    case braces
  }

  /// Its UTF-8 range in the line.
  package var range: Range<Int>
  /// Its syntax.
  package var kind: Kind

  package init(range: Range<Int>, kind: Kind) {
    self.range = range
    self.kind = kind
  }
}

extension MarkPlanner {
  /// Every placeholder of the line that lies inside `range` (UTF-8 offsets,
  /// nil for the whole line), in order. See `Placeholder` for the grammar.
  package func placeholders(in range: Range<Int>? = nil) -> [Placeholder] {
    placeholderSpans(in: range).map {
      Placeholder(range: offsets[$0.span.lowerBound]..<offsets[$0.span.upperBound], kind: $0.kind)
    }
  }

  /// Mode `placeholders`: the edits that protect every placeholder inside
  /// `range` (nil for the whole line) that is not already isolated.
  ///
  /// - `.isolate` wraps each in U+2068 FSI … U+2069 PDI.
  /// - `.marks` puts the mark of its paragraph's direction right after it
  ///   (LRM for ltr, RLM for rtl), unless that mark is already there; an
  ///   opposite mark (LRM, RLM or ALM) right after it is replaced.
  ///
  /// `directions` holds the direction of each paragraph of the line (as in
  /// `paragraphs`); missing entries repeat the last one, and an empty list
  /// means ltr. Only style `.marks` reads it.
  package func placeholderEdits(
    style: PlaceholderStyle, directions: [BidiDirection] = [], in range: Range<Int>? = nil
  ) -> [MarkEdit] {
    var list = EditList()
    for found in placeholderSpans(in: range) {
      let span = found.span
      if isIsolate(from: span.lowerBound - 1, to: span.upperBound) { continue }
      switch style {
      case .isolate:
        list.insert(Controls.fsi, at: span.lowerBound)
        list.insert(Controls.pdi, at: span.upperBound)
      case .marks:
        let paragraph = paragraphIndex(ofScalar: span.lowerBound)
        let mark = direction(ofParagraph: paragraph, in: directions).mark
        let after = span.upperBound
        if after < scalars.count && scalars[after] == mark { continue }
        if after < scalars.count && Controls.isMark(scalars[after]) {
          list.replace(after..<after + 1, with: String(Character(mark)))
        } else {
          list.insert(mark, at: after)
        }
      }
    }
    return list.edits(offsets: offsets)
  }

  /// The placeholders inside a range, in scalar indices.
  func placeholderSpans(in range: Range<Int>?) -> [(span: Range<Int>, kind: Placeholder.Kind)] {
    let limit = scalarRange(leniently: range)
    var found: [(span: Range<Int>, kind: Placeholder.Kind)] = []
    for paragraph in paragraphIndices.indices {
      let bounds = content(ofParagraph: paragraph)
      guard bounds.overlaps(limit) else { continue }
      var scanner = PlaceholderScanner(scalars: scalars, bounds: bounds)
      while let next = scanner.next() {
        if next.span.lowerBound >= limit.lowerBound && next.span.upperBound <= limit.upperBound {
          found.append(next)
        }
      }
    }
    return found
  }
}

/// Finds placeholders in one paragraph, left to right (the grammar is on
/// `Placeholder`).
struct PlaceholderScanner {
  private let scalars: [Unicode.Scalar]
  private let bounds: Range<Int>
  private var index: Int
  /// How many backslashes come right before `index`.
  private var backslashes = 0
  /// For each `(` of the paragraph, its matching `)`; built on first need.
  private var closingParenthesis: [Int: Int]?

  init(scalars: [Unicode.Scalar], bounds: Range<Int>) {
    self.scalars = scalars
    self.bounds = bounds
    self.index = bounds.lowerBound
  }

  mutating func next() -> (span: Range<Int>, kind: Placeholder.Kind)? {
    while index < bounds.upperBound {
      let start = index
      let found: (end: Int, kind: Placeholder.Kind)?
      switch scalars[start] {
      case "%":
        if at(start + 1) == "%" {
          index = start + 2
          backslashes = 0
          continue
        }
        found = printf(from: start).map { ($0, .printf) }
      case "\\":
        found = backslashes % 2 == 0 ? interpolation(from: start).map { ($0, .swiftInterpolation) } : nil
      case "$":
        found = dollarBraces(from: start).map { ($0, .dollarBraces) }
      case "{":
        if let end = doubleBraces(from: start) {
          found = (end, .doubleBraces)
        } else {
          found = braces(from: start).map { ($0, .braces) }
        }
      default:
        found = nil
      }
      if let found {
        index = found.end
        backslashes = 0
        return (start..<found.end, found.kind)
      }
      backslashes = scalars[start] == "\\" ? backslashes + 1 : 0
      index = start + 1
    }
    return nil
  }

  // MARK: Characters

  private func at(_ position: Int) -> Unicode.Scalar? {
    position < bounds.upperBound ? scalars[position] : nil
  }

  private func isDigit(_ position: Int) -> Bool {
    guard let scalar = at(position) else { return false }
    return scalar >= "0" && scalar <= "9"
  }

  private func isNameStart(_ position: Int) -> Bool {
    guard let scalar = at(position) else { return false }
    return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
  }

  private func isNameContinue(_ position: Int) -> Bool {
    isNameStart(position) || isDigit(position)
  }

  private func skipDigits(from position: Int) -> Int {
    var end = position
    while isDigit(end) { end += 1 }
    return end
  }

  /// The end of a (dotted) name starting at `position`, or nil.
  private func name(from position: Int) -> Int? {
    guard isNameStart(position) else { return nil }
    var end = position + 1
    while true {
      while isNameContinue(end) { end += 1 }
      guard at(end) == ".", isNameStart(end + 1) else { return end }
      end += 2
    }
  }

  private func skipSpaces(from position: Int) -> Int {
    var end = position
    while at(end) == " " { end += 1 }
    return end
  }

  // MARK: Forms

  /// `%` [N$] [flags] [width] [.precision] [length] conversion.
  private func printf(from start: Int) -> Int? {
    var position = start + 1
    let argumentEnd = skipDigits(from: position)
    if argumentEnd > position && at(argumentEnd) == "$" { position = argumentEnd + 1 }
    var spaceFlag = false
    flags: while let scalar = at(position) {
      switch scalar {
      case "-", "+", "#", "0", "'": position += 1
      case " ": spaceFlag = true; position += 1
      default: break flags
      }
    }
    if at(position) == "*" { position += 1 } else { position = skipDigits(from: position) }
    if at(position) == "." {
      position += 1
      if at(position) == "*" { position += 1 } else { position = skipDigits(from: position) }
    }
    switch at(position) {
    case "h": position += at(position + 1) == "h" ? 2 : 1
    case "l": position += at(position + 1) == "l" ? 2 : 1
    case "L", "q", "j", "z", "t": position += 1
    default: break
    }
    guard let conversion = at(position), "@diuxXoOfFeEgGcCsSpaA".unicodeScalars.contains(conversion)
    else { return nil }
    let end = position + 1
    if spaceFlag && (isDigit(end) || (isNameStart(end) && at(end) != "_")) { return nil }
    return end
  }

  /// `\(` … `)` with balanced parentheses.
  private mutating func interpolation(from start: Int) -> Int? {
    guard at(start + 1) == "(" else { return nil }
    if closingParenthesis == nil { closingParenthesis = matchParentheses() }
    guard let close = closingParenthesis?[start + 1] else { return nil }
    return close + 1
  }

  /// Every `(` of the paragraph with its matching `)`, in one pass.
  private func matchParentheses() -> [Int: Int] {
    var open: [Int] = []
    var matches: [Int: Int] = [:]
    for position in bounds {
      switch scalars[position] {
      case "(": open.append(position)
      case ")": if let opener = open.popLast() { matches[opener] = position }
      default: break
      }
    }
    return matches
  }

  /// `{{` spaces name spaces `}}`.
  private func doubleBraces(from start: Int) -> Int? {
    guard at(start + 1) == "{", let nameEnd = name(from: skipSpaces(from: start + 2)) else {
      return nil
    }
    let close = skipSpaces(from: nameEnd)
    guard at(close) == "}", at(close + 1) == "}" else { return nil }
    return close + 2
  }

  /// `${` name `}`.
  private func dollarBraces(from start: Int) -> Int? {
    guard at(start + 1) == "{", let nameEnd = name(from: start + 2), at(nameEnd) == "}" else {
      return nil
    }
    return nameEnd + 1
  }

  /// `{` key [`,` [-] digits] [`:` format] `}`.
  private func braces(from start: Int) -> Int? {
    var position = start + 1
    if isDigit(position) {
      position = skipDigits(from: position)
    } else if let nameEnd = name(from: position) {
      position = nameEnd
    } else {
      return nil
    }
    if at(position) == "," {
      var alignment = position + 1
      if at(alignment) == "-" { alignment += 1 }
      let digitsEnd = skipDigits(from: alignment)
      guard digitsEnd > alignment else { return nil }
      position = digitsEnd
    }
    if at(position) == ":" {
      let formatStart = position + 1
      position = formatStart
      while let scalar = at(position), scalar.value >= 0x20, scalar.value < 0x7F,
        scalar != "{", scalar != "}"
      {
        position += 1
      }
      guard position > formatStart else { return nil }
    }
    return at(position) == "}" ? position + 1 : nil
  }
}

extension Placeholder {
  /// Every placeholder of UTF-8 text, in order: what
  /// `MarkPlanner(utf8: bytes).placeholders()` finds, without decoding the
  /// text to scalars or looking up their bidi classes. The grammar reads
  /// ASCII only, so the scanner walks the bytes (each byte of a multi-byte
  /// scalar stands for a scalar no form accepts); only a byte that can
  /// begin a paragraph separator (`mayBeginSeparator`) is decoded, to split
  /// the paragraphs where the planner splits them.
  package static func scan(utf8 bytes: [UInt8]) -> [Placeholder] {
    var units: [Unicode.Scalar] = []
    units.reserveCapacity(bytes.count)
    var paragraphs: [Range<Int>] = []
    bytes.withUnsafeBufferPointer { buffer in
      var start = 0
      for (index, byte) in buffer.enumerated() {
        units.append(byte < 0x80 ? Unicode.Scalar(byte) : "\u{FFFD}")
        guard mayBeginSeparator(byte) else { continue }
        let decoded = UTF8Decoder.decode(buffer, at: index)
        guard BidiProperties.bidiClass(decoded.value) == .B else { continue }
        paragraphs.append(start..<index)
        start = index + decoded.length
      }
      if start < buffer.count || paragraphs.isEmpty { paragraphs.append(start..<buffer.count) }
    }
    var found: [Placeholder] = []
    for bounds in paragraphs {
      var scanner = PlaceholderScanner(scalars: units, bounds: bounds)
      while let next = scanner.next() { found.append(Placeholder(range: next.span, kind: next.kind)) }
    }
    return found
  }

  /// Whether a byte can be the first of a character of Bidi_Class B (U+000A,
  /// U+000D, U+001C…U+001E, U+0085, U+2029); a test checks every such character.
  @inline(__always) package static func mayBeginSeparator(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0xC2 || byte == 0xE2
  }
}
