/// Why a byte sequence is not JSON that this module can represent.
///
/// `message` is jansson's own text (for example `too big integer`,
/// `maximum parsing depth reached`, `invalid Unicode '\uD800'`,
/// `unable to decode byte 0xff`); `line`, `column` and `position` locate it
/// (1-based line and column, 0-based byte position, as jansson reports them).
package struct JSONDecodeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The broad reason, for callers that branch on it.
  package enum Kind: Hashable, Sendable {
    /// Not JSON syntax (including lone surrogate escapes and bad tokens).
    case invalidSyntax
    /// The bytes are not UTF-8.
    case invalidUTF8
    /// Input ended inside a value (including empty input).
    case prematureEndOfInput
    /// Bytes follow the first complete value.
    case endOfInputExpected
    /// A number beyond what a 64-bit integer or a double can hold.
    case numericOverflow
    /// Arrays/objects nested deeper than the parser allows (2048).
    case nestingTooDeep
    /// U+0000 in an object key.
    case nullCharacterInKey
    /// jansson ran out of memory.
    case outOfMemory
    case other
  }

  package var kind: Kind
  package var message: String
  package var line: Int
  package var column: Int
  package var position: Int

  package init(kind: Kind, message: String, line: Int = 0, column: Int = 0, position: Int = 0) {
    self.kind = kind
    self.message = message
    self.line = line
    self.column = column
    self.position = position
  }

  init(_ error: JanssonError) {
    self.init(
      kind: error.kind, message: error.text, line: error.line, column: error.column,
      position: error.position)
  }

  /// E.g. `too big integer near '18446744073709551616' (line 1, column 20, position 20)`.
  package var description: String {
    "\(message) (line \(line), column \(column), position \(position))"
  }
}

// MARK: Decoding

extension JSONValue {
  /// Decodes one JSON text (any value at top level; strings may hold U+0000).
  package init(decoding bytes: UnsafeRawBufferPointer) throws(JSONDecodeError) {
    switch jansson_loadb(bytes) {
    case .success(let root): self = JSONValue.consume(root)
    case .failure(let error): throw JSONDecodeError(error)
    }
  }

  /// Decodes one JSON text from bytes.
  package init(decoding bytes: [UInt8]) throws(JSONDecodeError) {
    let result = bytes.withUnsafeBytes { jansson_loadb($0) }
    switch result {
    case .success(let root): self = JSONValue.consume(root)
    case .failure(let error): throw JSONDecodeError(error)
    }
  }

  /// Decodes one JSON text from a string's UTF-8.
  package init(decoding text: String) throws(JSONDecodeError) {
    try self.init(decoding: Array(text.utf8))
  }

  /// Decodes one JSON text pulled through `read` as it arrives: `read`
  /// fills the buffer it is given with the next bytes (jansson asks for
  /// about a kilobyte at a time) and returns how many it wrote, 0 at the
  /// end of the text. The connection's reader decodes a body this way
  /// while the rest of it is still arriving.
  package init(decodingFrom read: (UnsafeMutableRawBufferPointer) -> Int) throws(JSONDecodeError) {
    switch jansson_load_callback(read) {
    case .success(let root): self = JSONValue.consume(root)
    case .failure(let error): throw JSONDecodeError(error)
    }
  }

  /// Decodes a message body, taking its bytes (`body` is empty afterwards)
  /// and releasing memory as early as possible: each chunk of the body is
  /// freed as soon as jansson has read it, and each value of jansson's tree
  /// as soon as it has been converted. A long string is not copied at all
  /// (`LongString` keeps jansson's bytes), so it exists in one form only
  /// once the body is read.
  package init(decoding body: MessageBody) throws(JSONDecodeError) {
    var chunks = body.takeChunks()
    var chunkIndex = 0
    var offset = 0
    let result = jansson_load_callback { buffer in
      var written = 0
      while written < buffer.count, chunkIndex < chunks.count {
        let available = chunks[chunkIndex].count - offset
        if available == 0 {
          chunks[chunkIndex] = []  // read: release it now
          chunkIndex += 1
          offset = 0
          continue
        }
        let count = min(available, buffer.count - written)
        chunks[chunkIndex].withUnsafeBytes { source in
          let slice = UnsafeRawBufferPointer(rebasing: source[offset..<offset + count])
          UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count])
            .copyMemory(from: slice)
        }
        written += count
        offset += count
      }
      return written
    }
    chunks = []
    switch result {
    case .success(let root): self = JSONValue.consume(root)
    case .failure(let error): throw JSONDecodeError(error)
    }
  }

  /// Converts a jansson tree that the caller owns exclusively and releases it.
  /// Each child is released as soon as it is converted (a long string's
  /// bytes live on in its `LongString`).
  private static func consume(_ root: JanssonValue) -> JSONValue {
    let value = convert(root)
    jansson_decref(root)
    return value
  }

  private static func convert(_ value: JanssonValue) -> JSONValue {
    switch jansson_type(value) {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .integer: return .integer(jansson_integer_value(value))
    case .real: return .double(jansson_real_value(value))
    case .string:
      let bytes = jansson_string_bytes(value)
      if bytes.count >= LongString.minimumCount { return .longString(LongString(retaining: value)) }
      return .string(makeString(bytes))
    case .array:
      let count = jansson_array_size(value)
      var array: [JSONValue] = []
      array.reserveCapacity(count)
      for index in 0..<count {
        guard let element = jansson_array_get(value, index) else { break }
        array.append(convert(element))
        jansson_array_release_element(value, index)
      }
      return .array(array)
    case .object:
      var object = JSONObject()
      object.reserveCapacity(jansson_object_size(value))
      jansson_object_iterate(value) { iterator, key, member in
        let converted = convert(member)
        jansson_object_release_value(value, iterator)
        object[makeString(key)] = converted
      }
      return .object(object)
    }
  }

  /// One copy of the bytes, which jansson has already checked to be UTF-8.
  private static func makeString(_ bytes: UnsafeRawBufferPointer) -> String {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return "" }
    let buffer = UnsafeBufferPointer(
      start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    return String(decoding: buffer, as: UTF8.self)
  }
}

// MARK: Encoding

extension JSONValue {
  /// The compact JSON text of the value, as UTF-8, with object members in
  /// their order. Non-finite doubles (which JSON cannot express) encode as
  /// `null`. Linear in the size of the output. (ASCII-only text, every
  /// character past U+007F escaped: `JSONWriter(asciiOnly: true)`.)
  package func encoded() -> [UInt8] {
    guard let tree = JSONValue.build(self) else { return Array("null".utf8) }
    defer { jansson_decref(tree) }
    return jansson_dumpb(tree) ?? Array("null".utf8)
  }

  /// The compact JSON text of the value.
  package func encodedString() -> String {
    String(decoding: encoded(), as: UTF8.self)
  }

  /// A new jansson reference for `value`; nil only if jansson runs out of memory.
  private static func build(_ value: JSONValue) -> JanssonValue? {
    switch value {
    case .null: return jansson_null()
    case .bool(let flag): return jansson_bool(flag)
    case .integer(let number): return jansson_integer(number)
    case .double(let number): return number.isFinite ? jansson_real(number) : jansson_null()
    case .string(let string):
      var string = string
      return string.withUTF8 { jansson_string(UnsafeRawBufferPointer($0)) }
    case .longString(let string): return string.janssonReference()
    case .array(let elements):
      guard let array = jansson_array() else { return nil }
      for element in elements {
        guard let child = build(element), jansson_array_append_new(array, child) else {
          jansson_decref(array)
          return nil
        }
      }
      return array
    case .object(let members):
      guard let object = jansson_object() else { return nil }
      for (key, member) in members {
        var key = key
        guard let child = build(member),
          key.withUTF8({ jansson_object_set_new(object, UnsafeRawBufferPointer($0), child) })
        else {
          jansson_decref(object)
          return nil
        }
      }
      return object
    }
  }
}
