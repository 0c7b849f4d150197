import UnicodeBidi

/// The clean-line scan of `bidi-lsp check`: finds the bytes where a line
/// can have a finding at all — the start of a bidi control or of an
/// ill-formed UTF-8 sequence — without tokenizing. A line with neither has
/// no hazard whatever its language, so only the lines up to the last such
/// byte need `HazardScanner` (whose tokenizer state must still be carried
/// through the clean lines before them).
///
/// The controls' UTF-8 is fixed: U+200E/F are E2 80 8E/8F, U+202A–E are
/// E2 80 AA–AE, U+2066–9 are E2 81 A6–A9, U+061C is D8 9C. ASCII is skipped
/// eight bytes at a time; other sequences are validated as they pass.
package enum HazardBytes {
  /// The offset of the first byte at or after `start` that begins a bidi
  /// control or an ill-formed sequence (a sequence cut off by the end of
  /// `bytes` counts as ill-formed: callers reading in blocks carry the last
  /// three bytes over), or nil if there is none.
  package static func firstHazard(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let n = bytes.count
    var i = start
    while i < n {
      while i + 8 <= n && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
        i += 8
      }
      guard i < n else { return nil }
      let b0 = base[i]
      if b0 < 0x80 {
        i += 1
        continue
      }
      // Two-byte sequences (Arabic, Hebrew…): ALM is D8 9C.
      if b0 >= 0xC2 && b0 <= 0xDF && i + 1 < n && UTF8Decoder.isContinuation(base[i + 1]) {
        if b0 == 0xD8 && base[i + 1] == 0x9C { return i }
        i += 2
        continue
      }
      if b0 == 0xE2 && i + 2 < n {
        let b1 = base[i + 1]
        let b2 = base[i + 2]
        if (b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xAA && b2 <= 0xAE)))
          || (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9)
        {
          return i
        }
      }
      let decoded = UTF8Decoder.decodeMultibyte(bytes, at: i)
      guard decoded.isValid else { return i }
      i += decoded.length
    }
    return nil
  }
}
