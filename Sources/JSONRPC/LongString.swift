/// A long string value as jansson decoded it: its UTF-8 bytes, held in
/// jansson's own buffer (jansson has validated them and rejected lone
/// surrogate escapes), never copied into a Swift `String` unless asked.
///
/// The decoder makes one for every string of at least `minimumCount` bytes,
/// so that a `didOpen` of 100 MB reaches the document store as the bytes
/// jansson produced, without a copy and a second validation pass. It is the
/// `.longString` case of `JSONValue`, which equals, hashes and encodes as the
/// `.string` of the same text. Immutable, so safe to share between threads
/// (jansson's reference count is atomic).
package final class LongString: @unchecked Sendable {
  /// Decoded strings of at least this many bytes are kept as a `LongString`.
  package static var minimumCount: Int { 1 << 16 }

  /// A reference to a jansson string value (released in `deinit`).
  private let value: JanssonValue
  private let bytes: UnsafeBufferPointer<UInt8>

  /// Takes a new reference to the jansson string `value`.
  init(retaining value: JanssonValue) {
    self.value = jansson_incref(value)
    let raw = jansson_string_bytes(value)
    bytes = UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
  }

  deinit { jansson_decref(value) }

  /// The number of UTF-8 bytes.
  package var count: Int { bytes.count }

  /// Calls `body` with the bytes: well-formed UTF-8 (U+0000 included).
  package func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try body(bytes)
  }

  /// A new reference to the jansson string, for encoding without a copy.
  func janssonReference() -> JanssonValue { jansson_incref(value) }

  /// The text as a `String` (a copy, validated again by Swift).
  package var string: String { String(decoding: bytes, as: UTF8.self) }
}
