import UnicodeBidi

/// The clean-line scan of `bidi-lsp check`: finds the bytes where a line
/// can have a finding at all — the start of a bidi control or of an
/// ill-formed UTF-8 sequence — without tokenizing. A line with neither has
/// no hazard whatever its language, so only the lines up to the last such
/// byte need `HazardScanner` (whose tokenizer state must still be carried
/// through the clean lines before them).
///
/// It is `BidiControl.nextControlOrInvalid`: the same C scan
/// (`cbs_find_bidi_controls`) as `HazardScanner`'s `appendControls`, so the
/// two cannot disagree.
package enum HazardBytes {
  /// The offset of the first byte at or after `start` (which begins a
  /// sequence) that begins a bidi control or an ill-formed sequence (a
  /// sequence cut off by the end of `bytes` counts as ill-formed: callers
  /// reading in blocks carry the last three bytes over), or nil if there is
  /// none.
  package static func firstHazard(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
    let found = BidiControl.nextControlOrInvalid(bytes, from: start).offset
    return found < bytes.count ? found : nil
  }
}
