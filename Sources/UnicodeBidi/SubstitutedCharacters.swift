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
    joiner.start = layout.range.lowerBound
    joiner.end = layout.range.upperBound
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

/// Shapes some characters of a display line for
/// `BidiLine.writeVisualUTF8(joining:)`: the letters of class AL of scalar
/// values `first..<first + count` (all below U+0800), from their logical
/// neighbours.
///
/// The writer shapes most of them itself, from tables: `properties`, the
/// property byte of each scalar value below U+0800, and `punctuation`, of
/// U+2000...U+207F (the bidi controls) (`formsBit`: the letter has forms;
/// `joinsRightBit`, `joinsLeftBit`: it can join the character before it,
/// after it, at an odd level; type `transparent` in the low three bits: a
/// mark or control that joins are found across; 0: a character that joins
/// nothing); `forms`, the UTF-8 of each letter's four forms from
/// `formsBase` on (isolated, final, initial, medial: the form's index is 1
/// for a join on the right plus 2 for one on the left; the bytes from the
/// low one, their count in the high byte); `ligatures`, the UTF-8 of the
/// lam-alef ligature of each alef from `ligatureBase` on (isolated, final,
/// two for each scalar value; 0 for none). In a right-to-left run, a letter
/// whose neighbours are each either a letter with forms at its level or a
/// character that joins nothing (after transparent ones) takes the form of
/// the joins the two letters' bytes give, and an alef (`alefBit`) after a
/// lam (`lamBit`) the ligature, the lam written as nothing. The rest (a
/// mark, a ZWJ or another level beside it, left-to-right runs) the writer
/// hands to `write`, with `context`, the character's index in the line and
/// where to write: it writes the character as it shows, moves the output
/// pointer past it and returns true, or returns false and leaves it to the
/// writer. It is never called for a character the line's writer drops or
/// names (controls, removed characters). A C function and pointers:
/// nothing to retain in the writer's loop.
public struct VisualJoiner {
  public typealias Write =
    @convention(c) (
      _ context: UnsafeRawPointer, _ index: Int, _ output: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>
    ) -> Bool

  /// The bits of `properties`' bytes.
  public static let formsBit: UInt8 = 0x08
  public static let lamBit: UInt8 = 0x10
  public static let alefBit: UInt8 = 0x20
  public static let joinsRightBit: UInt8 = 0x40
  public static let joinsLeftBit: UInt8 = 0x80
  /// The joining type of the transparent characters, in the low three bits.
  public static let transparent: UInt8 = 5

  let first: UInt32
  let count: UInt32
  let properties: UnsafePointer<UInt8>
  /// `forms` moved back by `formsBase`'s four entries: indexed by a scalar
  /// value times four.
  let formsOrigin: UnsafePointer<UInt32>
  let punctuation: UnsafePointer<UInt8>
  let ligatures: UnsafePointer<UInt32>
  let ligatureBase: UInt32
  /// The scalar values `ligatures` covers from `ligatureBase` on.
  let ligatureSpan: UInt32
  let context: UnsafeRawPointer
  let function: Write
  /// The line's characters in the paragraph, `start..<end`.
  var start = 0
  var end = 0

  public init(
    letters first: UInt32, count: UInt32, properties: UnsafePointer<UInt8>, forms: UnsafePointer<UInt32>,
    formsBase: UInt32, punctuation: UnsafePointer<UInt8>, ligatures: UnsafeBufferPointer<UInt32>,
    ligatureBase: UInt32, context: UnsafeRawPointer, write: Write
  ) {
    precondition(first &+ count <= 0x800 && first >= formsBase, "letters of two bytes, each with its forms")
    self.first = first
    self.count = count
    self.properties = properties
    formsOrigin = forms - Int(formsBase) * 4
    self.punctuation = punctuation
    self.ligatures = ligatures.baseAddress!
    self.ligatureBase = ligatureBase
    ligatureSpan = UInt32(ligatures.count / 2)
    self.context = context
    function = write
  }
}

/// What writes some letters of a line for `VisualUTF8Writer`: a
/// `VisualJoiner`, or `NoJoiner`.
protocol LetterJoining {
  /// Whether it may write scalar value `s` of class `c`.
  func takes(_ s: UInt32, _ c: BidiClass) -> Bool
  /// Writes the letter at paragraph index `i` (`VisualJoiner`'s `write`).
  func write(_ i: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Bool
  /// The property byte of `s` (`VisualJoiner.properties`), or 0x07 (no
  /// forms, may join: the joiner decides) where the tables have none.
  func properties(_ s: UInt32) -> UInt8
  /// The property byte of `s`, below U+0800.
  func directProperties(_ s: UInt32) -> UInt8
  /// Writes form `form` of `s`, a letter it takes with `VisualJoiner.formsBit`.
  func store(_ s: UInt32, _ form: UInt8, _ p: inout UnsafeMutablePointer<UInt8>)
  /// The UTF-8 of the lam-alef ligature of alef `s`, final with `final` 1
  /// (as `VisualJoiner.ligatures` holds it), or 0.
  func ligature(_ s: UInt32, _ final: UInt8) -> UInt32
  /// The line's characters in the paragraph.
  var start: Int { get }
  var end: Int { get }
}

extension VisualJoiner: LetterJoining {
  @inline(__always)
  func takes(_ s: UInt32, _ c: BidiClass) -> Bool { c == .AL && s &- first < count }

  @inline(__always)
  func write(_ i: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Bool { function(context, i &- start, &p) }

  @inline(__always)
  func properties(_ s: UInt32) -> UInt8 {
    s < 0x800 ? properties[Int(s)] : s &- 0x2000 < 0x80 ? punctuation[Int(s &- 0x2000)] : 0x07
  }

  @inline(__always)
  func directProperties(_ s: UInt32) -> UInt8 { properties[Int(s)] }

  @inline(__always)
  func ligature(_ s: UInt32, _ final: UInt8) -> UInt32 {
    let k = s &- ligatureBase
    return k < ligatureSpan ? ligatures[Int(k &<< 1 | UInt32(final))] : 0
  }

  @inline(__always)
  func store(_ s: UInt32, _ form: UInt8, _ p: inout UnsafeMutablePointer<UInt8>) {
    let bytes = formsOrigin[Int(s) &<< 2 | Int(form)]
    UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: UInt32.self)
    p += Int(bytes &>> 24)
  }
}

/// The writer of lines without a joiner.
struct NoJoiner: LetterJoining {
  @inline(__always)
  func takes(_ s: UInt32, _ c: BidiClass) -> Bool { false }

  @inline(__always)
  func write(_ i: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Bool { false }

  @inline(__always)
  func properties(_ s: UInt32) -> UInt8 { 0 }

  @inline(__always)
  func directProperties(_ s: UInt32) -> UInt8 { 0 }

  @inline(__always)
  func store(_ s: UInt32, _ form: UInt8, _ p: inout UnsafeMutablePointer<UInt8>) {}

  @inline(__always)
  func ligature(_ s: UInt32, _ final: UInt8) -> UInt32 { 0 }

  var start: Int { 0 }
  var end: Int { 0 }
}
