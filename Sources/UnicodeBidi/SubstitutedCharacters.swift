// A display line written with some characters replaced: the hook of a
// shaper (Arabic joining, the `ArabicShaping` module), which reads the
// line's characters in logical order with their levels and writes the
// letters it shapes itself when the line's writer reaches them.

extension BidiLine {
  /// For a shaper, a character written as nothing (the second letter of a ligature written whole at
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
  /// does, but each character of `joiner`'s range as `joiner` writes it
  /// (the letters of a shaper, chosen from their logical neighbours while
  /// the line is written: no pass of its own, no copy). The same bound
  /// applies as long as the joiner writes at most three times the bytes
  /// of the characters it writes (and stores at most one byte more, which
  /// what follows overwrites).
  public func writeVisualUTF8(
    joining joiner: VisualJoiner, mirrored: Bool = true, controls: ControlDisplay = .keep,
    to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let written = VisualControls(controls)
    var joiner = joiner
    joiner.offset = layout.range.lowerBound
    return write(VisualUTF8Writer(storage, written, mirrored: mirrored, joiner: joiner), to: output)
  }

  /// The display line as text with `joiner`'s characters written by it, as
  /// `writeVisualUTF8(joining:)` writes it.
  public func visualText(joining joiner: VisualJoiner, mirrored: Bool = true, controls: ControlDisplay = .keep)
    -> String
  {
    let bound = Self.visualUTF8Bound(utf8Length: range(in: .utf8).count)
    guard bound > 0 else { return "" }
    return String(unsafeUninitializedCapacity: bound) { buffer in
      writeVisualUTF8(joining: joiner, mirrored: mirrored, controls: controls, to: buffer.baseAddress!)
    }
  }
}

extension BidiParagraph {
  /// Calls `body` with the paragraph's characters and levels as
  /// `BidiLine.withLogicalCharacters` gives those of its whole line
  /// (`line()`).
  package func withLogicalCharacters<R>(
    _ body: (_ scalars: UnsafeBufferPointer<UInt32>, _ levels: UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    try body(
      UnsafeBufferPointer(start: storage.scalars, count: storage.count),
      UnsafeBufferPointer(start: storage.levels, count: storage.count))
  }
}

/// Writes some characters of a display line itself for
/// `BidiLine.writeVisualUTF8(joining:)`: the letters of class AL of scalar
/// values `first..<first + count`. The writer calls `write` at each one it
/// reaches, with `context`, the character's index in the line, the lowest
/// index it may write down to (the start of a right-to-left run, or the
/// index itself) and where to write. `write` writes the characters from the
/// index down, each in its visual place (a right-to-left run is written
/// backwards), moves the output pointer past them, and returns the index of
/// the next character it leaves to the writer; returning the index itself,
/// it leaves that one to the writer too. It is never called for a
/// character the line's writer drops or names (controls, removed
/// characters), nor for a combining mark that L3 moves. A C function and a
/// pointer: nothing to retain in the writer's loop.
public struct VisualJoiner {
  public typealias Write =
    @convention(c) (
      _ context: UnsafeRawPointer, _ index: Int, _ lowest: Int,
      _ output: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>
    ) -> Int

  let first: UInt32
  let count: UInt32
  let context: UnsafeRawPointer
  let function: Write
  /// The index of the line's first character in the paragraph.
  var offset = 0

  public init(letters first: UInt32, count: UInt32, context: UnsafeRawPointer, write: Write) {
    self.first = first
    self.count = count
    self.context = context
    function = write
  }

  /// Whether the joiner writes scalar value `s` of class `c`.
  @inline(__always)
  func takes(_ s: UInt32, _ c: BidiClass) -> Bool { s &- first < count && c == .AL }

  /// Calls `write` with paragraph indices.
  @inline(__always)
  func write(_ i: Int, _ lowest: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Int {
    function(context, i &- offset, lowest &- offset, &p) &+ offset
  }
}

/// What writes some letters of a line for `VisualUTF8Writer`: a
/// `VisualJoiner`, or `NoJoiner`.
protocol LetterJoining {
  /// Whether it may write scalar value `s` of class `c`.
  func takes(_ s: UInt32, _ c: BidiClass) -> Bool
  /// Writes from paragraph index `i` down (`VisualJoiner`'s `write`).
  func write(_ i: Int, _ lowest: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Int
}

extension VisualJoiner: LetterJoining {}

/// The writer of lines without a joiner.
struct NoJoiner: LetterJoining {
  @inline(__always)
  func takes(_ s: UInt32, _ c: BidiClass) -> Bool { false }

  @inline(__always)
  func write(_ i: Int, _ lowest: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Int { i }
}
