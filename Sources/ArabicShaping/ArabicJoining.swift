import CArabicShapingData
import UnicodeBidi

/// Arabic cursive joining (The Unicode Standard, 9.2 “Arabic”; the
/// Joining_Type of ArabicShaping.txt) and the presentation forms that show
/// it: the choice of each letter's isolated, final, initial or medial form
/// and of the lam-alef ligatures, in logical order, for text displayed where
/// nothing else shapes it (a terminal).
///
/// The rules, those of GNU FriBidi's shaper:
/// - Two characters join when, skipping the transparent ones between them
///   (Joining_Type T: marks, most format characters), the first can join
///   the one after it and the second the one before it, and they are at the
///   same embedding level. At an odd (right-to-left) level the one after is
///   on the left: R joins only the character before, L only the one after,
///   D and C (tatweel, ZWJ) both ways, U (ZWNJ, spaces, digits…) never. At
///   an even level, where an override has put Arabic letters left to right,
///   the sides swap, so that each letter still joins the neighbour it is
///   drawn beside.
/// - A character X9 removes (class BN such as ZWJ, embeddings, overrides)
///   has no level: it matches every level. A transparent character at
///   another level than the character before it ends a join.
/// - A letter with presentation forms takes the form of the sides it joins
///   on: none isolated, the right final, the left initial, both medial; a
///   letter without that form (or without forms: Syriac, N'Ko, letters
///   added after Arabic Presentation Forms-B) keeps its code point, and so
///   do characters of Joining_Type U, C and T.
/// - LAM joined to an ALEF right after it (U+0622, U+0623, U+0625, U+0627,
///   no mark between) becomes the lam-alef ligature, final when the lam
///   joins the letter before it, isolated otherwise; the ligature stands
///   at the alef's place (so that the alef's marks follow it) and the lam
///   is written as nothing.
public enum ArabicJoining {
  /// The level bit of a character that has no level of its own.
  public static let levelless = BidiLine.removedLevelBit

  /// The value `shape` stores for a character written as nothing.
  public static let omitted = BidiLine.omittedScalar

  /// The Unicode version of the joining tables.
  public static let unicodeVersion = ASD_UNICODE_VERSION

  /// Writes to `output` what each character of `scalars` (one text in
  /// logical order, a display line) shows as, at the embedding levels
  /// `levels` (`levelless` marking a character without one); returns false,
  /// writing nothing, when no character would change.
  public static func shape(
    _ scalars: UnsafeBufferPointer<UInt32>, levels: UnsafeBufferPointer<UInt8>,
    into output: UnsafeMutablePointer<UInt32>
  ) -> Bool {
    let count = scalars.count
    precondition(levels.count == count, "one level per character")
    guard let input = scalars.baseAddress, let level = levels.baseAddress, mayChange(input, count) else {
      return false
    }
    output.update(from: input, count: count)
    var state = JoiningState()
    for i in 0..<count {
      let properties = asd_properties(input[i])
      let here = level[i]
      // Branch-free where the text decides (letters, spaces, marks mixed):
      // 0 or 1 in bytes.
      state.pending &= Self.bit(sameLevel(state.level, here))
      if properties & UInt8(ASD_TYPE_MASK) == UInt8(ASD_T) { continue }
      // A character without a level joins as at an odd one.
      let odd = (here | here &>> 7) & 1
      let joins = state.pending & Self.side(properties, right: odd)
      if state.properties & UInt8(ASD_HAS_FORMS) != 0 {
        state.settle(input, output, joinedAfter: joins, next: i == state.index &+ 1 ? properties : 0)
      }
      state.index = i
      state.properties = properties
      state.level = here
      state.odd = odd
      state.joinedBefore = joins
      state.pending = Self.side(properties, right: odd ^ 1)
    }
    if state.properties & UInt8(ASD_HAS_FORMS) != 0 {
      state.settle(input, output, joinedAfter: 0, next: 0)
    }
    return true
  }

  /// Whether some character of the text has presentation forms: all are in
  /// U+0621...U+06FF.
  @inline(__always)
  static func mayChange(_ scalars: UnsafePointer<UInt32>, _ count: Int) -> Bool {
    for i in 0..<count where scalars[i] &- 0x621 < 0xDF { return true }
    return false
  }

  /// Two levels match when equal or when either has none.
  @inline(__always)
  static func sameLevel(_ a: UInt8, _ b: UInt8) -> Bool { a == b || (a | b) & levelless != 0 }

  /// 1 when the character of `properties` joins on its right side
  /// (`right` 1) or its left (`right` 0), else 0: its right is the side of
  /// the character before it at an odd level, of the one after at an even.
  @inline(__always)
  static func side(_ properties: UInt8, right: UInt8) -> UInt8 {
    // Bit 6: joins on its right; bit 7: on its left.
    properties &>> (7 &- right) & 1
  }

  /// 1 for true, 0 for false.
  @inline(__always)
  static func bit(_ b: Bool) -> UInt8 { b ? 1 : 0 }
}

/// The last character of `ArabicJoining.shape`'s scan that is not
/// transparent, whose form is settled once the next one is known.
private struct JoiningState {
  /// Its index (-1 before the first) and properties byte, its level and
  /// parity (1 odd).
  var index = -1
  var properties: UInt8 = 0
  var level: UInt8 = 0
  var odd: UInt8 = 1
  /// 1 when it joins the character before it.
  var joinedBefore: UInt8 = 0
  /// 1 while it can still join the next character.
  var pending: UInt8 = 0
  /// It became the second letter of a lam-alef ligature: its form is set.
  var inLigature = false

  /// Writes the form of the character at `index`, which has forms and
  /// joins the next character (`joinedAfter` 1) or not; when it is a lam
  /// joined to an alef right after it (`next`, that one's properties, 0
  /// when it is not the next to join), the ligature instead.
  @inline(__always)
  mutating func settle(
    _ input: UnsafePointer<UInt32>, _ output: UnsafeMutablePointer<UInt32>, joinedAfter: UInt8, next: UInt8
  ) {
    if inLigature {
      inLigature = false
      return
    }
    if joinedAfter != 0 && properties & UInt8(ASD_LAM) != 0 && next & UInt8(ASD_ALEF) != 0 {
      let ligature = asd_lam_alef(input[index + 1], Int32(joinedBefore))
      if ligature != 0 {
        output[index] = ArabicJoining.omitted
        output[index + 1] = UInt32(ligature)
        // The alef's own form is not written when it is settled.
        inLigature = true
        return
      }
    }
    // The forms are in the order isolated, final (joined on the right),
    // initial (on the left), medial (both): right + 2 * left.
    let right = odd != 0 ? joinedBefore : joinedAfter
    let left = odd != 0 ? joinedAfter : joinedBefore
    let scalar = input[index]
    let shaped = asd_form(scalar, UInt32(right | left &<< 1))
    output[index] = shaped != 0 ? UInt32(shaped) : scalar
  }
}
