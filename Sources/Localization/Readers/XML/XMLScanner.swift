import StructuredText
import UnicodeBidi

/// A start or end tag as the XML formats see it.
struct XMLTag {
  /// The qualified name (`xliff:g`) and its local part (`g`).
  var name: String
  var localName: String
  var attributes: [(name: String, value: String)]
  var isSelfClosing: Bool
  /// The tag's source text, line ends as `\n`, and where it starts.
  var raw: [UInt8]
  var start: SourcePosition

  func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name || $0.name.hasSuffix(":" + name) }?.value
  }
}

/// What an XML format does with the document's events.
protocol XMLHandler {
  /// The value being read, if any.
  var capture: ValueCapture? { get set }
  /// Inside a value: character data goes to `literal` and `decoded`.
  var isCapturing: Bool { get }
  /// A start tag; its frame (unless self-closing) is already on `state.frames`.
  mutating func start(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink)
  /// An end tag (or the end of a self-closing one); its frame is still on `state.frames`.
  mutating func end(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink)
  /// A character of character data written as itself at the cursor: the
  /// handler consumes exactly it. `inCDATA` for a CDATA section's.
  mutating func literal(_ cursor: inout Cursor, inCDATA: Bool)
  /// A character written as an entity or character reference.
  mutating func decoded(_ value: UInt32, from start: SourcePosition, to end: SourcePosition, spelling: MarkSpelling?)
}

/// A non-validating XML reader for the XML formats (property lists, XLIFF,
/// .resx, Android resources): elements on an explicit stack in
/// `ReaderState.frames` (no recursion), the five predefined entities and
/// character references, CDATA, comments, processing instructions and a
/// DOCTYPE skipped. Reports the first well-formedness error: a mismatched
/// or missing end tag, an unknown entity, an unterminated construct, text
/// after the root element. Boundaries: line starts in character data
/// outside values.
enum XMLScanner {
  static func read<Handler: XMLHandler>(
    _ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink, _ handler: inout Handler
  ) {
    // phase 0: before the root, 1: inside it, 2: after it.
    while true {
      if !handler.isCapturing, !sink.boundary(cursor, state) { return }
      guard let byte = cursor.byte else {
        if let open = state.frames.last {
          sink.fail("unexpected end of the file: <\(open.name)> is not closed", at: cursor.position)
        } else if state.phase == 0 {
          sink.fail("the file holds no XML element", at: cursor.position)
        }
        return
      }
      if byte == UInt8(ascii: "<") {
        guard markup(&cursor, &state, &sink, &handler) else { return }
        continue
      }
      if byte == UInt8(ascii: "&") {
        let start = cursor.position
        guard let (value, spelling) = entity(&cursor, &sink) else { return }
        if handler.isCapturing {
          handler.decoded(value, from: start, to: cursor.position, spelling: spelling)
        } else if state.frames.isEmpty {
          sink.fail("text outside the root element", at: start)
          return
        }
        continue
      }
      if handler.isCapturing {
        handler.literal(&cursor, inCDATA: false)
      } else {
        if state.frames.isEmpty, !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
          if byte == 0xEF, cursor.position == SourcePosition(line: 0, column: 0), cursor.matches("\u{FEFF}") {
            cursor.advance(by: 3)
            continue
          }
          sink.fail(
            state.phase == 0 ? "expected an XML element, found \(describe(byte))" : "text after the root element",
            at: cursor.position)
          return
        }
        cursor.advance()
      }
    }
  }

  /// Reads what starts at a `<`; false on an error.
  private static func markup<Handler: XMLHandler>(
    _ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink, _ handler: inout Handler
  ) -> Bool {
    let start = cursor.position
    if cursor.matches("<!--") {
      cursor.advance(by: 4)
      guard skip(until: "-->", &cursor) else {
        sink.fail("unterminated comment: <!-- is never closed by -->", at: start)
        return false
      }
      return true
    }
    if cursor.matches("<![CDATA[") {
      cursor.advance(by: 9)
      // Entities are not read in CDATA: a mark inserted there is the character itself.
      handler.capture?.builder.literalOnly = true
      defer { handler.capture?.builder.literalOnly = false }
      while cursor.byte != nil && !cursor.matches("]]>") {
        if handler.isCapturing {
          handler.literal(&cursor, inCDATA: true)
        } else {
          cursor.advance()
        }
      }
      guard cursor.byte != nil else {
        sink.fail("unterminated CDATA section: <![CDATA[ is never closed by ]]>", at: start)
        return false
      }
      cursor.advance(by: 3)
      return true
    }
    if cursor.matches("<?") {
      cursor.advance(by: 2)
      guard skip(until: "?>", &cursor) else {
        sink.fail("unterminated processing instruction: <? is never closed by ?>", at: start)
        return false
      }
      return true
    }
    if cursor.matches("<!") {
      // A DOCTYPE, its internal subset included.
      var depth = 0
      while let byte = cursor.byte {
        cursor.advance()
        if byte == UInt8(ascii: "[") { depth += 1 }
        if byte == UInt8(ascii: "]") { depth -= 1 }
        if byte == UInt8(ascii: ">") && depth <= 0 { return true }
      }
      sink.fail("unterminated declaration <!…>", at: start)
      return false
    }
    var raw: [UInt8] = [UInt8(ascii: "<")]
    cursor.advance()
    let closing = cursor.byte == UInt8(ascii: "/")
    if closing {
      raw.append(UInt8(ascii: "/"))
      cursor.advance()
    }
    let name = xmlName(&cursor, &raw)
    guard !name.isEmpty else {
      sink.fail(
        "expected an element name after <, found \(cursor.byte.map(describe) ?? "the end of the file")"
          + " (a < in text must be written &lt;)", at: start)
      return false
    }
    var attributes: [(name: String, value: String)] = []
    var selfClosing = false
    while true {
      skipSpace(&cursor, &raw)
      guard let byte = cursor.byte else {
        sink.fail("unterminated tag <\(name)", at: start)
        return false
      }
      if byte == UInt8(ascii: ">") {
        raw.append(byte)
        cursor.advance()
        break
      }
      if byte == UInt8(ascii: "/") && !closing && cursor.peek(1) == UInt8(ascii: ">") {
        raw += [byte, UInt8(ascii: ">")]
        cursor.advance(by: 2)
        selfClosing = true
        break
      }
      guard !closing else {
        sink.fail("expected > to end </\(name)", at: cursor.position)
        return false
      }
      let attributeStart = cursor.position
      let attributeName = xmlName(&cursor, &raw)
      skipSpace(&cursor, &raw)
      guard !attributeName.isEmpty, cursor.byte == UInt8(ascii: "=") else {
        sink.fail("expected an attribute (name=\"value\") in <\(name)>, found \(describe(byte))", at: attributeStart)
        return false
      }
      raw.append(UInt8(ascii: "="))
      cursor.advance()
      skipSpace(&cursor, &raw)
      guard let quote = cursor.byte, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
        sink.fail("expected a quoted value for attribute \(attributeName)", at: cursor.position)
        return false
      }
      raw.append(quote)
      cursor.advance()
      var value: [UInt8] = []
      while let current = cursor.byte, current != quote {
        if current == UInt8(ascii: "<") {
          sink.fail("< is not allowed in an attribute value", at: cursor.position)
          return false
        }
        if current == UInt8(ascii: "&") {
          var source: [UInt8] = []
          var k = 0
          while let next = cursor.peek(k), k < 16 {
            source.append(next)
            k += 1
            if next == UInt8(ascii: ";") { break }
          }
          guard let (scalar, _) = entity(&cursor, &sink) else { return false }
          UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { value.append($0) }
          raw += source
          continue
        }
        value.append(current)
        raw.append(current)
        cursor.advance()
      }
      guard cursor.byte == quote else {
        sink.fail("unterminated attribute value of \(attributeName)", at: attributeStart)
        return false
      }
      raw.append(quote)
      cursor.advance()
      attributes.append((attributeName, String(decoding: value, as: UTF8.self)))
    }
    // (Most names have no prefix: no split, no new string.)
    let localName =
      name.utf8.contains(UInt8(ascii: ":")) ? name.split(separator: ":").last.map(String.init) ?? name : name
    let tag = XMLTag(
      name: name, localName: localName, attributes: attributes, isSelfClosing: selfClosing, raw: raw, start: start)
    if closing {
      guard let open = state.frames.last else {
        sink.fail("end tag </\(name)> with no element open", at: start)
        return false
      }
      guard open.name == name else {
        sink.fail("end tag </\(name)> does not match <\(open.name)>", at: start)
        return false
      }
      handler.end(tag, &state, &sink)
      state.frames.removeLast()
      if state.frames.isEmpty { state.phase = 2 }
      return sink.error == nil
    }
    if state.phase == 2 && state.frames.isEmpty {
      sink.fail("a second root element <\(name)> after the first one ended", at: start)
      return false
    }
    state.phase = 1
    if selfClosing {
      state.frames.append(.init(kind: 0, name: name))
      handler.start(tag, &state, &sink)
      // A start tag the handler refused (a syntax error) has no end: a
      // value open around it must not end at it.
      if sink.error == nil { handler.end(tag, &state, &sink) }
      state.frames.removeLast()
      if state.frames.isEmpty { state.phase = 2 }
    } else {
      state.frames.append(.init(kind: 0, name: name))
      handler.start(tag, &state, &sink)
    }
    return sink.error == nil
  }

  private static func skip(until end: String, _ cursor: inout Cursor) -> Bool {
    let first = end.utf8.first!
    while let byte = cursor.byte {
      if byte == first && cursor.matches(end) {
        cursor.advance(by: end.utf8.count)
        return true
      }
      cursor.advance()
    }
    return false
  }

  private static func skipSpace(_ cursor: inout Cursor, _ raw: inout [UInt8]) {
    while let byte = cursor.byte, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      raw.append(byte)
      cursor.advance()
    }
  }

  private static func xmlName(_ cursor: inout Cursor, _ raw: inout [UInt8]) -> String {
    var name: [UInt8] = []
    while let byte = cursor.byte,
      isNameByte(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        || byte >= 0x80
    {
      name.append(byte)
      raw.append(byte)
      cursor.advance()
    }
    return String(decoding: name, as: UTF8.self)
  }

  /// An entity or character reference at the cursor (a `&`), decoded.
  static func entity(_ cursor: inout Cursor, _ sink: inout ReadSink) -> (UInt32, MarkSpelling?)? {
    let start = cursor.position
    var name: [UInt8] = []
    var k = 1
    while let byte = cursor.peek(k), byte != UInt8(ascii: ";"), name.count < 12 {
      name.append(byte)
      k += 1
    }
    guard cursor.peek(k) == UInt8(ascii: ";") else {
      sink.fail("a bare & in text (write &amp;), or an entity without its ;", at: start)
      return nil
    }
    let text = String(decoding: name, as: UTF8.self)
    var value: UInt32?
    var spelling: MarkSpelling?
    switch text {
    case "lt": value = 0x3C
    case "gt": value = 0x3E
    case "amp": value = 0x26
    case "quot": value = 0x22
    case "apos": value = 0x27
    default:
      if text.hasPrefix("#x") || text.hasPrefix("#X"), text.count > 2 {
        let digits = text.dropFirst(2)
        value = UInt32(digits, radix: 16)
        let letters = digits.filter { $0.isLetter }
        spelling = .xmlHex(uppercaseHex: letters.isEmpty || letters.allSatisfy(\.isUppercase))
      } else if text.hasPrefix("#"), text.count > 1 {
        value = UInt32(text.dropFirst(), radix: 10)
        spelling = .xmlDecimal
      }
    }
    guard let value, value <= 0x10FFFF, !(0xD800..<0xE000).contains(value), value != 0 else {
      sink.fail("unknown entity &\(text); (XML knows &lt; &gt; &amp; &quot; &apos; and &#…;)", at: start)
      return nil
    }
    cursor.advance(by: k + 1)
    return (value, spelling)
  }
}
