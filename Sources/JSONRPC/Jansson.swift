// The one place that calls libjansson. Every C function the module uses is
// wrapped here once, as an internal `jansson_*` function (the swift-system
// `Syscalls.swift` pattern), so the rest of the module never deals with C
// pointers or jansson's ownership rules directly.
//
// Ownership: constructors and loaders return a *new reference* that the
// caller releases with `jansson_decref`; `*_get` and iteration return
// *borrowed* references; `*_new` setters steal the reference they are given.
//
// Memory: jansson allocates through `JanssonMemory` (huge pages for large
// blocks); every wrapper that can allocate installs it first.

import CJansson

typealias JanssonValue = OpaquePointer

// MARK: Types

enum JanssonType {
  case object, array, string, integer, real, `true`, `false`, null
}

func jansson_type(_ value: JanssonValue) -> JanssonType {
  switch UnsafeMutablePointer<json_t>(value).pointee.type {
  case JSON_OBJECT: return .object
  case JSON_ARRAY: return .array
  case JSON_STRING: return .string
  case JSON_INTEGER: return .integer
  case JSON_REAL: return .real
  case JSON_TRUE: return .true
  case JSON_FALSE: return .false
  default: return .null
  }
}

// MARK: Reference counting

func jansson_decref(_ value: JanssonValue) {
  json_decref(UnsafeMutablePointer<json_t>(value))
}

/// Takes a new reference to `value` and returns it.
func jansson_incref(_ value: JanssonValue) -> JanssonValue {
  OpaquePointer(json_incref(UnsafeMutablePointer<json_t>(value)))
}

// MARK: Construction (new references; nil when out of memory or invalid)

func jansson_object() -> JanssonValue? {
  guard JanssonMemory.installed else { return nil }
  return OpaquePointer(json_object())
}
func jansson_array() -> JanssonValue? {
  guard JanssonMemory.installed else { return nil }
  return OpaquePointer(json_array())
}
func jansson_null() -> JanssonValue? { OpaquePointer(json_null()) }
func jansson_bool(_ value: Bool) -> JanssonValue? {
  OpaquePointer(value ? json_true() : json_false())
}
func jansson_integer(_ value: Int64) -> JanssonValue? {
  guard JanssonMemory.installed else { return nil }
  return OpaquePointer(json_integer(json_int_t(value)))
}
/// nil for NaN and the infinities, which JSON cannot represent.
func jansson_real(_ value: Double) -> JanssonValue? {
  guard JanssonMemory.installed else { return nil }
  return OpaquePointer(json_real(value))
}

/// Calls `body` with a non-null base address for `bytes` (jansson rejects
/// NULL even for zero lengths).
private func withBase<R>(
  _ bytes: UnsafeRawBufferPointer, _ body: (UnsafePointer<CChar>) -> R
) -> R {
  if let base = bytes.baseAddress { return body(base.assumingMemoryBound(to: CChar.self)) }
  var empty: CChar = 0
  return withUnsafePointer(to: &empty) { body($0) }
}

/// A string from UTF-8 bytes (which may contain NUL), copied by jansson and
/// not validated again: Swift strings are valid UTF-8 already.
func jansson_string(_ utf8: UnsafeRawBufferPointer) -> JanssonValue? {
  guard JanssonMemory.installed else { return nil }
  return withBase(utf8) { OpaquePointer(json_stringn_nocheck($0, utf8.count)) }
}

/// Appends `value` (the reference is stolen, even on failure). Returns success.
func jansson_array_append_new(_ array: JanssonValue, _ value: JanssonValue) -> Bool {
  json_array_append_new(UnsafeMutablePointer(array), UnsafeMutablePointer(value)) == 0
}

/// Sets `key` (UTF-8) to `value` (stolen, even on failure). Returns success.
func jansson_object_set_new(
  _ object: JanssonValue, _ key: UnsafeRawBufferPointer, _ value: JanssonValue
) -> Bool {
  withBase(key) {
    json_object_setn_new_nocheck(
      UnsafeMutablePointer(object), $0, key.count, UnsafeMutablePointer(value)) == 0
  }
}

// MARK: Access (borrowed references)

func jansson_integer_value(_ value: JanssonValue) -> Int64 {
  Int64(json_integer_value(UnsafeMutablePointer(value)))
}
func jansson_real_value(_ value: JanssonValue) -> Double {
  json_real_value(UnsafeMutablePointer(value))
}

/// The bytes of a string value: exactly `json_string_length` bytes, which
/// may include U+0000 (never read up to a terminating NUL).
func jansson_string_bytes(_ value: JanssonValue) -> UnsafeRawBufferPointer {
  let length = json_string_length(UnsafeMutablePointer(value))
  guard let base = json_string_value(UnsafeMutablePointer(value)) else {
    return UnsafeRawBufferPointer(start: nil, count: 0)
  }
  return UnsafeRawBufferPointer(start: base, count: length)
}

func jansson_array_size(_ array: JanssonValue) -> Int {
  json_array_size(UnsafeMutablePointer(array))
}
func jansson_array_get(_ array: JanssonValue, _ index: Int) -> JanssonValue? {
  OpaquePointer(json_array_get(UnsafeMutablePointer(array), index))
}
/// Replaces element `index` with `null`, releasing the old element now.
func jansson_array_release_element(_ array: JanssonValue, _ index: Int) {
  _ = json_array_set_new(UnsafeMutablePointer(array), index, json_null())
}

func jansson_object_size(_ object: JanssonValue) -> Int {
  json_object_size(UnsafeMutablePointer(object))
}

/// Visits an object's members in insertion order. The body may release the
/// visited value with `jansson_object_release_value(object, iterator)`.
func jansson_object_iterate(
  _ object: JanssonValue,
  _ body: (
    _ iterator: UnsafeMutableRawPointer, _ key: UnsafeRawBufferPointer, _ value: JanssonValue
  ) throws -> Void
) rethrows {
  let pointer = UnsafeMutablePointer<json_t>(object)
  var iterator = json_object_iter(pointer)
  while let current = iterator {
    guard let key = json_object_iter_key(current), let value = json_object_iter_value(current)
    else { return }
    let keyBytes = UnsafeRawBufferPointer(start: key, count: json_object_iter_key_len(current))
    try body(current, keyBytes, OpaquePointer(value))
    iterator = json_object_iter_next(pointer, current)
  }
}

/// Replaces the value at `iterator` with `null`, releasing the old value now.
func jansson_object_release_value(_ object: JanssonValue, _ iterator: UnsafeMutableRawPointer) {
  _ = json_object_iter_set_new(UnsafeMutablePointer(object), iterator, json_null())
}

// MARK: Decoding

/// The flags of every decode: any value at top level (a bare `42` is JSON,
/// just not a message), and U+0000 allowed inside strings.
private let decodeFlags = Int(JSON_DECODE_ANY | JSON_ALLOW_NUL)

/// jansson's `json_error_t`, in Swift.
struct JanssonError: Error {
  var text: String
  var line: Int
  var column: Int
  var position: Int
  var code: json_error_code

  /// The reason, from jansson's error code.
  var kind: JSONDecodeError.Kind {
    switch code {
    case json_error_invalid_syntax, json_error_invalid_format: return .invalidSyntax
    case json_error_invalid_utf8: return .invalidUTF8
    case json_error_premature_end_of_input: return .prematureEndOfInput
    case json_error_end_of_input_expected: return .endOfInputExpected
    case json_error_numeric_overflow: return .numericOverflow
    case json_error_stack_overflow: return .nestingTooDeep
    case json_error_null_byte_in_key, json_error_null_character: return .nullCharacterInKey
    case json_error_out_of_memory: return .outOfMemory
    default: return .other
    }
  }
}

private func makeError(_ error: inout json_error_t) -> JanssonError {
  let code = json_error_code(&error)
  let text = withUnsafeBytes(of: &error.text) { raw -> String in
    let bytes = raw.prefix(Int(JSON_ERROR_TEXT_LENGTH) - 1)
    let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
    return String(decoding: bytes[..<end], as: UTF8.self)
  }
  return JanssonError(
    text: text, line: Int(error.line), column: Int(error.column),
    position: Int(error.position), code: code)
}

/// Parses one JSON text from contiguous bytes. New reference on success.
func jansson_loadb(_ bytes: UnsafeRawBufferPointer) -> Result<JanssonValue, JanssonError> {
  precondition(JanssonMemory.installed)
  var error = json_error_t()
  let root = JanssonMemory.decoding { withBase(bytes) { json_loadb($0, bytes.count, decodeFlags, &error) } }
  guard let root else { return .failure(makeError(&error)) }
  return .success(OpaquePointer(root))
}

/// Parses one JSON text pulled through `read`, which fills the buffer it is
/// given and returns the number of bytes written (0 at the end of input).
func jansson_load_callback(
  _ read: (UnsafeMutableRawBufferPointer) -> Int
) -> Result<JanssonValue, JanssonError> {
  precondition(JanssonMemory.installed)
  typealias Reader = (UnsafeMutableRawBufferPointer) -> Int
  return withoutActuallyEscaping(read) { read in
    var reader: Reader = read
    return withUnsafeMutablePointer(to: &reader) { context in
      var error = json_error_t()
      let root = JanssonMemory.decoding {
        json_load_callback(
          { buffer, length, data in
            guard let buffer, let data else { return 0 }
            let reader = data.assumingMemoryBound(to: Reader.self).pointee
            return reader(UnsafeMutableRawBufferPointer(start: buffer, count: length))
          }, context, decodeFlags, &error)
      }
      guard let root else { return .failure(makeError(&error)) }
      return .success(OpaquePointer(root))
    }
  }
}

// MARK: Encoding

/// Compact output, members in insertion order, any value at top level.
private let encodeFlags = Int(JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)

/// Serialises `value` to UTF-8 in two linear passes: one measures, one writes
/// into a buffer of exactly that size. nil if jansson fails.
func jansson_dumpb(_ value: JanssonValue) -> [UInt8]? {
  let pointer = UnsafeMutablePointer<json_t>(value)
  let size = json_dumpb(pointer, nil, 0, encodeFlags)
  guard size > 0 else { return nil }
  var written = 0
  let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
    if let base = buffer.baseAddress {
      written = base.withMemoryRebound(to: CChar.self, capacity: size) {
        json_dumpb(pointer, $0, size, encodeFlags)
      }
    }
    count = written == size ? size : 0
  }
  return written == size ? bytes : nil
}
