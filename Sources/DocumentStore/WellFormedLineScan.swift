import CByteScan
import UnicodeBidi

/// Line splitting for UTF-8 that is already known to be well-formed (a
/// Swift `String`, or a string jansson decoded and validated): the same
/// answer as `UTF8Decoder.scanLine`, without validating again, 32 bytes
/// at a time (AVX2; else 16) whatever the script.
///
/// In well-formed UTF-8 a line's scalars are its bytes less its continuation
/// bytes (`10xxxxxx`), and its UTF-16 units are its scalars plus its
/// four-byte sequences (lead bytes `11110xxx`, the only bytes ≥ 0xF0), so
/// both are counted on whole blocks without decoding a character.
enum WellFormedLineScan {
  /// The content of the line that starts at `start` in `bytes` (well-formed
  /// UTF-8): up to the first `\n` or `\r`, or the end, with its UTF-16 and
  /// scalar counts. The bytes are counted by `cbs_well_formed_line` (32 or
  /// 16 at a time).
  static func scanLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UTF8LineScan {
    guard let base = bytes.baseAddress, start < bytes.count else {
      return UTF8LineScan(contentEnd: max(start, bytes.count), utf16Count: 0, scalarCount: 0)
    }
    var continuations = 0
    var fourByteLeads = 0
    let end = Int(cbs_well_formed_line(base, start, bytes.count, &continuations, &fourByteLeads))
    let scalars = end &- start &- continuations
    return UTF8LineScan(contentEnd: end, utf16Count: scalars &+ fourByteLeads, scalarCount: scalars)
  }
}
