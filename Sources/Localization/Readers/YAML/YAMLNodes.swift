import StructuredText
import UnicodeBidi

/// The nodes after a key or a sequence's `-` in the YAML subset: a scalar
/// (a value when it is a string), or a flow sequence or mapping of scalars.
extension YAMLReader {
  /// The node at the cursor, on the line of a key or item at `indent`; the
  /// cursor ends at the start of the line after it.
  static func node(
    _ cursor: inout Cursor, _ sink: inout ReadSink, indent: Int, key: String, variant: String?, locale: String?,
    keyBuilder: TextBuilder?
  ) throws(YAMLError) {
    switch cursor.byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      let scalar = try YAMLScalars.quoted(&cursor)
      try finishLine(&cursor)
      emit(scalar, &sink, key: key, variant: variant, locale: locale, keyBuilder: keyBuilder)
    case UInt8(ascii: "|"), UInt8(ascii: ">"):
      let scalar = try YAMLScalars.block(&cursor, parentIndent: indent)
      emit(scalar, &sink, key: key, variant: variant, locale: locale, keyBuilder: keyBuilder)
    case UInt8(ascii: "["):
      try flowSequence(&cursor, &sink, key: key, variant: variant, locale: locale)
      try finishLine(&cursor)
    case UInt8(ascii: "{"):
      try flowMapping(&cursor, &sink, key: key, locale: locale)
      try finishLine(&cursor)
    default:
      try checkPlain(cursor, flow: false)
      let scalar = YAMLScalars.plain(&cursor, indent: indent + 1, flow: false)
      try finishLine(&cursor)
      emit(scalar, &sink, key: key, variant: variant, locale: locale, keyBuilder: keyBuilder)
    }
  }

  static func checkPlain(_ cursor: Cursor, flow: Bool) throws(YAMLError) {
    guard let byte = cursor.byte, !YAMLScalars.startsPlain(cursor, flow: flow) else { return }
    let message: String
    switch byte {
    case UInt8(ascii: "&"), UInt8(ascii: "*"): message = "anchors and aliases (&name, *name) are not read by bidi-lsp"
    case UInt8(ascii: "!"): message = "tags (!tag) are not read by bidi-lsp"
    case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
      message = "\(describe(byte)) followed by a space starts no value here (quote the text)"
    default: message = "\(describe(byte)) cannot start a plain scalar (quote the text)"
    }
    throw YAMLError(message: message, position: cursor.position)
  }

  /// A string scalar as a value.
  static func emit(
    _ scalar: YAMLScalar, _ sink: inout ReadSink, key: String, variant: String?, locale: String?,
    keyBuilder: TextBuilder?
  ) {
    var builder = scalar.builder
    let text = builder.string
    if scalar.isPlain && !YAMLValueRules.isString(text) { return }
    builder.markup = YAMLValueRules.symfonyPluralMarkup(Array(text.utf8))
    var value = builder.value(key: key, start: scalar.start, end: scalar.end)
    value.variant = variant
    value.locale = locale
    value.layoutWhiteSpace = scalar.layout
    if let keyBuilder { value.attachKey(keyBuilder) }
    sink.add(value, rules: .of(.yaml))
  }

  /// Spaces, line breaks and comments inside a flow collection.
  private static func skipFlowBlank(_ cursor: inout Cursor) {
    while let byte = cursor.byte {
      if byte == 0x20 || byte == 0x09 || byte == 0x0A {
        cursor.advance()
      } else if byte == UInt8(ascii: "#") {
        cursor.skip(toColumn: cursor.runEnd { _ in false })
      } else {
        return
      }
    }
  }

  /// A scalar inside a flow collection.
  private static func flowScalar(_ cursor: inout Cursor) throws(YAMLError) -> YAMLScalar {
    switch cursor.byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      return try YAMLScalars.quoted(&cursor)
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      throw YAMLError(
        message: "flow collections inside flow collections are not read by bidi-lsp", position: cursor.position)
    default:
      try checkPlain(cursor, flow: true)
      return YAMLScalars.plain(&cursor, indent: 0, flow: true)
    }
  }

  /// `[a, "b", c]`: each item a value (variant `item:0`…).
  static func flowSequence(
    _ cursor: inout Cursor, _ sink: inout ReadSink, key: String, variant: String?, locale: String?
  ) throws(YAMLError) {
    let open = cursor.position
    cursor.advance()
    var number = 0
    while true {
      skipFlowBlank(&cursor)
      guard let byte = cursor.byte else {
        throw YAMLError(message: "unterminated flow sequence: the [ is never closed", position: open)
      }
      if byte == UInt8(ascii: "]") {
        cursor.advance()
        return
      }
      let scalar = try flowScalar(&cursor)
      let item = "item:\(number)"
      emit(scalar, &sink, key: key, variant: variant.map { $0 + "/" + item } ?? item, locale: locale, keyBuilder: nil)
      number += 1
      skipFlowBlank(&cursor)
      if cursor.byte == UInt8(ascii: ",") {
        cursor.advance()
      } else if cursor.byte != UInt8(ascii: "]") {
        throw YAMLError(message: "expected , or ] in a flow sequence", position: cursor.position)
      }
    }
  }

  /// `{a: b, c: "d"}`: each value keyed by its key after the mapping's.
  static func flowMapping(_ cursor: inout Cursor, _ sink: inout ReadSink, key: String, locale: String?)
    throws(YAMLError)
  {
    let open = cursor.position
    cursor.advance()
    while true {
      skipFlowBlank(&cursor)
      guard let byte = cursor.byte else {
        throw YAMLError(message: "unterminated flow mapping: the { is never closed", position: open)
      }
      if byte == UInt8(ascii: "}") {
        cursor.advance()
        return
      }
      let name = try flowScalar(&cursor).builder
      _ = cursor.skipSpaces()
      guard cursor.byte == UInt8(ascii: ":"), YAMLScalars.endsToken(cursor.peek(1), flow: true) else {
        throw YAMLError(message: "expected : after the key in a flow mapping", position: cursor.position)
      }
      cursor.advance()
      skipFlowBlank(&cursor)
      let path = key.isEmpty ? name.string : key + "." + name.string
      if cursor.byte != UInt8(ascii: ","), cursor.byte != UInt8(ascii: "}") {
        emit(try flowScalar(&cursor), &sink, key: path, variant: nil, locale: locale, keyBuilder: name)
        skipFlowBlank(&cursor)
      }
      if cursor.byte == UInt8(ascii: ",") {
        cursor.advance()
      } else if cursor.byte != UInt8(ascii: "}") {
        throw YAMLError(message: "expected , or } in a flow mapping", position: cursor.position)
      }
    }
  }
}
