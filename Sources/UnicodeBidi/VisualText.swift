import CUnicodeBidiData

/// How the bidi controls appear in a display line's visual text.
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
  /// controls shown as `controls` says. Ill-formed input reads as U+FFFD.
  public func visualText(mirrored: Bool = true, controls: ControlDisplay = .keep) -> String {
    let start = layout.range.lowerBound
    var text = String()
    text.reserveCapacity(layout.range.count)
    layout.forEachVisualSpan(storage) { first, end in
      for i in first..<end {
        var scalar = storage.scalars[i]
        if controls != .keep, let control = BidiControl(scalar: scalar) {
          if controls == .names { text += "[" + control.shortName + "]" }
          continue
        }
        if storage.isRemoved(i) { continue }
        if scalar > 0x10FFFF {
          scalar = 0xFFFD
        } else if mirrored && layout.levelByte(storage, i - start) & 1 == 1 {
          // L4.
          scalar = ubd_mirroring_glyph(scalar)
        }
        text.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}")
      }
    }
    return text
  }
}
