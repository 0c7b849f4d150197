import CArabicShapingData
import UnicodeBidi

/// Writes display lines of `UnicodeBidi` with their Arabic letters joined
/// (`ArabicJoining`): the line's writer shapes each letter of
/// U+0621...U+06FF when it reaches it in visual order
/// (`BidiLine.writeVisualUTF8(joining:)`), from the joining tables where
/// its neighbours are letters of its word or characters that join nothing,
/// else through the shaper, which chooses its form from its logical
/// neighbours at the paragraph's levels (`JoiningText.shown`). No pass over
/// the line of its own, no copy of it.
public struct ArabicShaper: ~Copyable {
  public init() {}

  /// Writes the display line as `BidiLine.writeVisualUTF8` does, with its
  /// Arabic shaped; the same bound applies. Returns the bytes written.
  public mutating func writeVisualUTF8(
    _ line: BidiLine, mirrored: Bool = true, controls: ControlDisplay = .keep, to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    line.withLogicalCharacters { scalars, levels in
      guard let text = JoiningText(scalars, levels) else {
        return line.writeVisualUTF8(mirrored: mirrored, controls: controls, to: output)
      }
      return text.withJoiner { line.writeVisualUTF8(joining: $0, mirrored: mirrored, controls: controls, to: output) }
    }
  }

  /// The display line's visual text (`BidiLine.visualText`) with its
  /// Arabic shaped.
  public mutating func visualText(_ line: BidiLine, mirrored: Bool = true, controls: ControlDisplay = .keep) -> String {
    line.withLogicalCharacters { scalars, levels in
      guard let text = JoiningText(scalars, levels) else {
        return line.visualText(mirrored: mirrored, controls: controls)
      }
      return text.withJoiner { line.visualText(joining: $0, mirrored: mirrored, controls: controls) }
    }
  }
}

extension JoiningText {
  /// The line's text, or nil when it is empty. (A line without letters
  /// of U+0621...U+06FF is not scanned for them: its writer never calls
  /// the joiner.)
  init?(_ scalars: UnsafeBufferPointer<UInt32>, _ levels: UnsafeBufferPointer<UInt8>) {
    guard let s = scalars.baseAddress, let l = levels.baseAddress else { return nil }
    self.init(scalars: s, levels: l, count: scalars.count)
  }

  /// Calls `body` with the joiner of `BidiLine.writeVisualUTF8(joining:)`
  /// for this text: the joining tables, for the letters the line's writer
  /// shapes itself, and `write` for the others.
  func withJoiner<R>(_ body: (VisualJoiner) -> R) -> R {
    withUnsafePointer(to: self) { text in
      body(
        VisualJoiner(
          letters: ArabicJoining.firstShaped, count: ArabicJoining.shapedCount,
          properties: asd_direct_properties(), forms: asd_utf8_forms_table(), formsBase: UInt32(ASD_FORMS_BASE),
          punctuation: asd_block_properties(0x2000),
          ligatures: UnsafeBufferPointer(start: asd_utf8_lam_alef_table(), count: Self.ligatureEntries),
          ligatureBase: UInt32(ASD_LAM_ALEF_FIRST), context: text
        ) { context, i, output in
          context.assumingMemoryBound(to: JoiningText.self).pointee.write(i, &output.pointee)
        })
    }
  }

  /// The entries of `asd_utf8_lam_alef`.
  static let ligatureEntries = MemoryLayout.size(ofValue: asd_utf8_lam_alef) / MemoryLayout<UInt32>.size

  /// Writes character `i` (a letter of U+0621...U+06FF) as it shows
  /// (`shown`) and returns true; returns false, writing nothing, for a
  /// character without forms, which the line's writer writes.
  @inline(__always)
  func write(_ i: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Bool {
    guard asd_properties(scalars[i]) & UInt8(ASD_HAS_FORMS) != 0 else { return false }
    let v = shown(i)
    if v != omitted { Self.encode(v, &p) }
    return true
  }

  /// The UTF-8 of a form or a character of U+0621...U+06FF (a store of
  /// four bytes for three: the letter replaced has two, and the writer's
  /// bound three bytes for each).
  @inline(__always)
  static func encode(_ v: UInt32, _ p: inout UnsafeMutablePointer<UInt8>) {
    if v < 0x800 {
      let bytes = (0xC0 | v &>> 6) | (0x80 | v & 0x3F) &<< 8
      UnsafeMutableRawPointer(p).storeBytes(of: UInt16(truncatingIfNeeded: bytes), as: UInt16.self)
      p += 2
    } else {
      let bytes = (0xE0 | v &>> 12) | (0x80 | v &>> 6 & 0x3F) &<< 8 | (0x80 | v & 0x3F) &<< 16
      UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: UInt32.self)
      p += 3
    }
  }
}
