extension String {
  /// A string of `bytes`, which the caller knows to be well-formed UTF-8
  /// (bytes it wrote itself by encoding scalar values, or copied from
  /// strings): copied once, not validated again as
  /// `String(decoding:as:)` and `String(unsafeUninitializedCapacity:)`
  /// validate. Bytes that are not well-formed UTF-8 make a broken string:
  /// never pass bytes read from a file that were not checked.
  package init(wellFormedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    self = unsafe String(copying: UTF8Span(unchecked: bytes.span))
  }
}
