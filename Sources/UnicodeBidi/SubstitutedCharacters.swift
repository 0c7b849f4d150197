// A display line written with some characters replaced: the hook of a
// shaper (Arabic joining, the `ArabicShaping` module), which reads the
// line's characters in logical order with their levels, chooses what each
// shows as, and has the line written in visual order with its choices.

extension BidiLine {
  /// In the scalars of `writeVisualUTF8(substituting:)`, a character
  /// written as nothing (the second letter of a ligature written whole at
  /// the first). Past U+10FFFF, so never a character.
  public static let omittedScalar: UInt32 = ParagraphStorage.illFormedMark(length: 0)

  /// In the levels of `withLogicalCharacters`, the bit of a character X9
  /// removes (embeddings, overrides, PDF, class BN such as ZWJ): it has no
  /// level of its own.
  public static let removedLevelBit: UInt8 = ParagraphStorage.removedBit

  /// Calls `body` with the line's characters in logical order and their
  /// resolved embedding levels (the paragraph's, before L1, which only
  /// moves whitespace and isolates): `scalars[i]` is the line's character
  /// `i`, a value past U+10FFFF standing for an ill-formed sequence, and
  /// `levels[i]` has `removedLevelBit` for a character X9 removes.
  public func withLogicalCharacters<R>(
    _ body: (_ scalars: UnsafeBufferPointer<UInt32>, _ levels: UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    let range = layout.range
    return try body(
      UnsafeBufferPointer(start: storage.scalars + range.lowerBound, count: range.count),
      UnsafeBufferPointer(start: storage.levels + range.lowerBound, count: range.count))
  }

  /// Writes the display line as `writeVisualUTF8(mirrored:controls:to:)`
  /// does, but the line's character `i` as `scalars[i]` (one per character
  /// of the line, in logical order; `omittedScalar` for none). A
  /// substituted character keeps the bidi class, level and place of the
  /// character it replaces; L4 mirrors it if it is of class ON. The same
  /// bound applies as long as no value needs more UTF-8 bytes than three
  /// times those of the character it replaces.
  public func writeVisualUTF8(
    substituting scalars: UnsafePointer<UInt32>, mirrored: Bool = true, controls: ControlDisplay = .keep,
    to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let written = VisualUTF8Writer.Controls(controls)
    // Indexed as the paragraph's scalars: the writer never reads past the
    // line's characters.
    let indexed = UnsafeMutablePointer(mutating: scalars) - layout.range.lowerBound
    return write(VisualUTF8Writer(storage, written, mirrored: mirrored, scalars: indexed), to: output)
  }

  /// The display line as text with the line's characters replaced by
  /// `scalars`, as `writeVisualUTF8(substituting:)` writes it.
  public func visualText(
    substituting scalars: UnsafePointer<UInt32>, mirrored: Bool = true, controls: ControlDisplay = .keep
  )
    -> String
  {
    let bound = Self.visualUTF8Bound(utf8Length: range(in: .utf8).count)
    guard bound > 0 else { return "" }
    return String(unsafeUninitializedCapacity: bound) { buffer in
      writeVisualUTF8(substituting: scalars, mirrored: mirrored, controls: controls, to: buffer.baseAddress!)
    }
  }
}
