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
///
/// Each character's form is found from its neighbours on both sides
/// (`JoiningText.shown`), so that a writer can shape a letter when it
/// reaches it, in visual order (`ArabicShaper`).
public enum ArabicJoining {
  /// The level bit of a character that has no level of its own.
  public static let levelless = BidiLine.removedLevelBit

  /// The value `shape` stores for a character written as nothing.
  public static let omitted = BidiLine.omittedScalar

  /// The Unicode version of the joining tables.
  public static let unicodeVersion = ASD_UNICODE_VERSION

  /// The characters that may show as something else: all those with
  /// presentation forms, U+0621...U+06FF.
  static let firstShaped: UInt32 = 0x621
  static let shapedCount: UInt32 = 0xDF

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
    let text = JoiningText(scalars: input, levels: level, count: count)
    for i in 0..<count { output[i] = text.shown(i) }
    return true
  }

  /// Whether some character of the text has presentation forms.
  @inline(__always)
  static func mayChange(_ scalars: UnsafePointer<UInt32>, _ count: Int) -> Bool {
    for i in 0..<count where scalars[i] &- firstShaped < shapedCount { return true }
    return false
  }
}

/// A text in logical order with its levels (`ArabicJoining.shape`'s), and
/// the form of each of its characters.
struct JoiningText {
  let scalars: UnsafePointer<UInt32>
  let levels: UnsafePointer<UInt8>
  let count: Int
  /// `ArabicJoining.levelless` and `omitted`, read once.
  let levelless = ArabicJoining.levelless
  let omitted = ArabicJoining.omitted

  /// What character `i` shows as: a presentation form, a lam-alef
  /// ligature, `ArabicJoining.omitted` (the lam of one), or itself.
  func shown(_ i: Int) -> UInt32 {
    let s = scalars[i]
    guard s &- ArabicJoining.firstShaped < ArabicJoining.shapedCount else { return s }
    // Letters of U+0621...U+06FF: never removed by X9, so each has a level.
    let properties = asd_properties(s)
    guard properties & UInt8(ASD_HAS_FORMS) != 0 else { return s }
    if properties & UInt8(ASD_ALEF) != 0 && i > 0 && Self.has(scalars[i - 1], UInt8(ASD_LAM))
      && joinsBefore(i) != 0
    {
      // The lam right before joins this alef.
      let ligature = asd_lam_alef(s, Int32(joinsBefore(i - 1)))
      if ligature != 0 { return UInt32(ligature) }
    }
    if properties & UInt8(ASD_LAM) != 0 && i + 1 < count && Self.has(scalars[i + 1], UInt8(ASD_ALEF))
      && joinsAfter(i) != 0 && asd_lam_alef(scalars[i + 1], 0) != 0
    {
      return omitted
    }
    let odd = levels[i] & 1
    let before = joinsBefore(i)
    let after = joinsAfter(i)
    let right = odd != 0 ? before : after
    let left = odd != 0 ? after : before
    let form = asd_form(s, UInt32(right | left &<< 1))
    return form != 0 ? UInt32(form) : s
  }

  /// Whether `s`, a character of U+0621...U+06FF (or any other, read as
  /// without the bit), has property bit `bit`.
  @inline(__always)
  static func has(_ s: UInt32, _ bit: UInt8) -> Bool {
    s &- ArabicJoining.firstShaped < ArabicJoining.shapedCount && asd_properties(s) & bit != 0
  }

  /// 1 when character `i` (not transparent, with a level) joins the
  /// character before it, else 0.
  @inline(never)
  func joinsBefore(_ i: Int) -> UInt8 {
    let level = levels[i]
    guard Self.before(asd_properties(scalars[i]), odd: Self.odd(level)) != 0 else { return 0 }
    // A transparent character at another level than the one before it
    // ends the join, unless that one has no level.
    var clash = false
    var j = i
    while j > 0 {
      j &-= 1
      let properties = asd_properties(scalars[j])
      if properties == 0 { return 0 }
      let other = levels[j]
      if properties & UInt8(ASD_TYPE_MASK) == UInt8(ASD_T) {
        if other != level && other & levelless == 0 { clash = true }
        continue
      }
      if other & levelless != 0 { return Self.after(properties, odd: 1) }
      return other == level && !clash ? Self.after(properties, odd: Self.odd(other)) : 0
    }
    return 0
  }

  /// 1 when character `i` (not transparent, with a level) joins the
  /// character after it, else 0.
  @inline(never)
  func joinsAfter(_ i: Int) -> UInt8 {
    let level = levels[i]
    guard Self.after(asd_properties(scalars[i]), odd: Self.odd(level)) != 0 else { return 0 }
    var j = i &+ 1
    while j < count {
      let properties = asd_properties(scalars[j])
      if properties == 0 { return 0 }
      let other = levels[j]
      if other != level && other & levelless == 0 { return 0 }
      if properties & UInt8(ASD_TYPE_MASK) != UInt8(ASD_T) { return Self.before(properties, odd: Self.odd(other)) }
      j &+= 1
    }
    return 0
  }

  /// 1 at an odd level or none, else 0.
  @inline(__always)
  static func odd(_ level: UInt8) -> UInt8 { (level | level &>> 7) & 1 }

  /// 1 when a character of `properties` at a level of parity `odd` can
  /// join the character before it: on its right side (bit 6) at an odd
  /// level, on its left (bit 7) at an even.
  @inline(__always)
  static func before(_ properties: UInt8, odd: UInt8) -> UInt8 { properties &>> (7 &- odd) & 1 }

  /// 1 when it can join the character after it.
  @inline(__always)
  static func after(_ properties: UInt8, odd: UInt8) -> UInt8 { properties &>> (6 &+ odd) & 1 }
}
