import CArabicShapingData
import UnicodeBidi

/// Writes display lines of `UnicodeBidi` with their Arabic letters joined
/// (`ArabicJoining`): the line's writer hands each letter of
/// U+0621...U+06FF to the shaper when it reaches it in visual order
/// (`BidiLine.writeVisualUTF8(joining:)`), and the shaper writes it in its
/// form, chosen from its logical neighbours at the paragraph's levels. No
/// pass over the line of its own, no copy of it.
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

  /// Writes the whole paragraph as one display line
  /// (`line(combiningMarks:)`), as `writeVisualUTF8` writes that line,
  /// without making it (`BidiParagraph.writeLineVisualUTF8`).
  package mutating func writeLineVisualUTF8(
    _ paragraph: BidiParagraph, combiningMarks: CombiningMarkOrder, mirrored: Bool, controls: ControlDisplay,
    to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    paragraph.withLogicalCharacters { scalars, levels in
      guard let text = JoiningText(scalars, levels) else {
        return paragraph.writeLineVisualUTF8(
          combiningMarks: combiningMarks, mirrored: mirrored, controls: controls, to: output)
      }
      return text.withJoiner {
        paragraph.writeLineVisualUTF8(
          joining: $0, combiningMarks: combiningMarks, mirrored: mirrored, controls: controls, to: output)
      }
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
  /// for this text.
  func withJoiner<R>(_ body: (VisualJoiner) -> R) -> R {
    withUnsafePointer(to: self) { text in
      body(
        VisualJoiner(letters: ArabicJoining.firstShaped, count: ArabicJoining.shapedCount, context: text) {
          context, i, lowest, output in
          var p = output.pointee
          let next = context.assumingMemoryBound(to: JoiningText.self).pointee.write(i, lowest, &p)
          output.pointee = p
          return next
        })
    }
  }

  /// Writes character `i` (a letter of U+0621...U+06FF) as it shows, then,
  /// in a right-to-left run, the letters before it down to `lowest` while
  /// each is a letter with forms right before the last at its level (or a
  /// space before the next such word), and returns the index of the first
  /// character not written; a character without forms is left to the
  /// line's writer.
  ///
  /// The letters of a word at one odd level are the common case: the
  /// join between each and the one before it is found once, from the two
  /// letters' properties, and serves as the side of both; the search of
  /// `joinsBefore`/`joinsAfter` (marks, controls, other levels) only at
  /// the word's ends, and `shown` where the levels are even.
  @inline(__always)
  func write(_ i: Int, _ lowest: Int, _ p: inout UnsafeMutablePointer<UInt8>) -> Int {
    var s = scalars[i]
    var current = asd_properties(s)
    guard current & UInt8(ASD_HAS_FORMS) != 0 else { return i }
    let level = levels[i]
    if level & 1 == 0 || current & UInt8(ASD_LAM) != 0 {
      // A letter by itself: at an even level, or a lam (which may be the
      // first of a ligature whose alef the writer wrote with its marks).
      let v = shown(i)
      if v != omitted { Self.encode(v, &p) }
      return i &- 1
    }
    var i = i
    // Whether the letter at `i` joins the one after it (a space after it
    // is the common case: no search).
    var left: UInt8 = 0
    if i &+ 1 < count && asd_properties(scalars[i &+ 1]) != 0 { left = joinsAfter(i) }
    while true {
      // The letters of a word: while the character before is a letter with
      // forms at the same level (so never transparent), the join is the two
      // letters' sides (at an odd level this one's right, bit 6, and the
      // one before's left, bit 7). No call in this loop.
      var previous: UInt8 = 0
      var t: UInt32 = 0
      while i > lowest {
        t = scalars[i &- 1]
        guard t &- ArabicJoining.firstShaped < ArabicJoining.shapedCount && levels[i &- 1] == level else { break }
        previous = asd_properties(t) & Self.withForms(asd_properties(t))
        // An alef after a lam (ASD_LAM is ASD_ALEF >> 1): the ligature.
        guard previous != 0 && current & previous &<< 1 & UInt8(ASD_ALEF) == 0 else { break }
        let right = current &>> 6 & previous &>> 7 & 1
        Self.store(s, right | left &<< 1, &p)
        i &-= 1
        s = t
        current = previous
        left = right
        previous = 0
      }
      if previous == 0 {
        if current & UInt8(ASD_ALEF) != 0 && i > 0 && Self.has(scalars[i &- 1], UInt8(ASD_LAM)) {
          // An alef after a lam the loop did not reach (another level, or
          // before `lowest`): as it shows, ligature or not.
          Self.encode(shown(i), &p)
          return i &- 1
        }
        // The word's last letter: after a character of Joining_Type U
        // (a space…) it joins nothing there; else the search.
        let right = i > 0 && asd_properties(scalars[i &- 1]) == 0 ? 0 : joinsBefore(i)
        Self.store(s, right | left &<< 1, &p)
        i &-= 1
        // A space, then the last letter of another word of the run at the
        // same level: on with that word, without returning to the writer
        // (which writes a space as it is). The space joins nothing.
        guard i > lowest && scalars[i] == 0x20 else { return i }
        t = scalars[i &- 1]
        guard t &- ArabicJoining.firstShaped < ArabicJoining.shapedCount && levels[i &- 1] == level else { return i }
        previous = asd_properties(t) & Self.withForms(asd_properties(t))
        guard previous != 0 else { return i }
        p.pointee = 0x20
        p += 1
        i &-= 1
        s = t
        current = previous
        left = 0
        continue
      }
      // The alef at `i` after a lam at `i - 1`, at its level: the
      // ligature, and the lam written as nothing.
      let lam = previous
      let ligature = lamAlef(i)
      guard ligature != 0 else {
        // (No ligature of this alef: each letter as it shows.)
        Self.encode(shown(i), &p)
        return i &- 1
      }
      Self.encode(ligature, &p)
      i &-= 1
      // Then the letter before the lam, if it continues the word: the lam's
      // join on its right is that letter's on its left.
      guard i > lowest else { return i &- 1 }
      t = scalars[i &- 1]
      guard t &- ArabicJoining.firstShaped < ArabicJoining.shapedCount && levels[i &- 1] == level else {
        return i &- 1
      }
      previous = asd_properties(t) & Self.withForms(asd_properties(t))
      guard previous != 0 else { return i &- 1 }
      left = lam &>> 6 & previous &>> 7 & 1
      i &-= 1
      s = t
      current = previous
    }
  }

  /// 0xFF for properties with ASD_HAS_FORMS, else 0.
  @inline(__always)
  static func withForms(_ properties: UInt8) -> UInt8 { 0 &- (properties &>> 3 & 1) }

  /// The lam-alef ligature of the alef at `i` and the lam before it (which
  /// join), final or isolated as the lam joins the letter before it; 0
  /// when there is none.
  @inline(never)
  func lamAlef(_ i: Int) -> UInt32 {
    UInt32(asd_lam_alef(scalars[i], Int32(joinsBefore(i &- 1))))
  }

  /// The UTF-8 of form `form` of `s` (or of `s` where it has none), in one
  /// store of four bytes (the fourth overwritten by what follows; the
  /// letter replaced has two bytes and the writer's bound three for each).
  @inline(__always)
  static func store(_ s: UInt32, _ form: UInt8, _ p: inout UnsafeMutablePointer<UInt8>) {
    let bytes = asd_utf8_form(s, UInt32(form))
    UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: UInt32.self)
    p += Int(bytes &>> 24)
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
