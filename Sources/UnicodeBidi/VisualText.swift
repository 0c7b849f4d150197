/// How the bidi controls appear in a display line's visual text (on the
/// wire, `controls`: `"keep"`, `"strip"` or `"names"`).
public enum ControlDisplay: String, Sendable, CaseIterable {
  /// As UAX #9 displays them: the characters X9 removes (embeddings,
  /// overrides, PDF, class BN) dropped; isolates, marks and ALM kept.
  case keep
  /// Every bidi control dropped as well (what `fribidi --clean` prints).
  case strip
  /// Each bidi control, the removed ones included, written by its short
  /// name in brackets (`[RLO]`) where it stands in visual order; the other
  /// characters X9 removes dropped.
  case names
}

extension BidiLine {
  /// The display line as text, left to right: the scalars in visual order
  /// (with `mirrored`, L4's mirrored glyphs at odd levels), the bidi
  /// controls shown as `controls` says. Each byte of an ill-formed sequence
  /// reads as one U+FFFD. Written by `writeVisualUTF8`, a run at a time.
  public func visualText(mirrored: Bool = true, controls: ControlDisplay = .keep) -> String {
    let bound = Self.visualUTF8Bound(utf8Length: range(in: .utf8).count)
    guard bound > 0 else { return "" }
    return String(unsafeUninitializedCapacity: bound) { buffer in
      writeVisualUTF8(mirrored: mirrored, controls: controls, to: buffer.baseAddress!)
    }
  }
}
