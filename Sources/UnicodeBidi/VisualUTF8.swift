import CUnicodeBidiData

// A display line written as UTF-8 straight from its runs (L2), clusters
// (L3) and mirrored glyphs (L4), for writers of text such as
// `bidi-lsp visual`: no map, no per-line array.

extension BidiLine {
  /// The most bytes `writeVisualUTF8` writes for a line of `utf8Length`
  /// bytes: three (a U+FFFD) for each byte of an ill-formed sequence, five
  /// (`[LRI]`) for a control of three bytes, six for ALM's two.
  public static func visualUTF8Bound(utf8Length: Int) -> Int { 3 * utf8Length }

  /// Writes the display line as UTF-8 to `output`, left to right (the text
  /// `visualText(mirrored:controls:)` returns); each byte of an ill-formed
  /// sequence is written as one U+FFFD. `output` has room for
  /// `visualUTF8Bound(utf8Length:)` bytes of the line; returns the number
  /// of bytes written.
  public func writeVisualUTF8(
    mirrored: Bool = true, controls: ControlDisplay = .keep, to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let written = VisualControls(controls)
    return write(VisualUTF8Writer(storage, written, mirrored: mirrored, joiner: NoJoiner()), to: output)
  }

  /// Writes the display line as `writeVisualUTF8(controls: .keep)` does,
  /// but each control it keeps (isolates, marks, ALM) by its short name in
  /// angle brackets (`<RLI>`): the visual order a diagnostic message
  /// quotes, which the controls cannot reorder. The same bound applies.
  package func writeVisualUTF8NamingKeptControls(to output: UnsafeMutablePointer<UInt8>) -> Int {
    write(VisualUTF8Writer(storage, .keptByName, mirrored: true, joiner: NoJoiner()), to: output)
  }

  @inline(__always)
  func write<Joiner>(_ writer: VisualUTF8Writer<Joiner>, to output: UnsafeMutablePointer<UInt8>) -> Int {
    let clusters = layout.marks == .afterBase
    return layout.withRuns { runs, count in writer.write(runs, count, clusters: clusters, storage, to: output) }
  }
}

extension BidiParagraph {
  /// Writes the whole paragraph as one display line (`line()`) as
  /// `BidiLine.writeVisualUTF8NamingKeptControls` does, without making
  /// the line: its runs (L1–L2) are found on the stack
  /// (`LineLayout.withWholeLineRuns`). For `bidi-lsp check`, which writes
  /// a line's visual order once. The same bound applies.
  package func writeLineVisualUTF8NamingKeptControls(to output: UnsafeMutablePointer<UInt8>) -> Int {
    writeLine(VisualUTF8Writer(storage, .keptByName, mirrored: true, joiner: NoJoiner()), clusters: false, to: output)
  }

  /// Writes the whole paragraph as one display line
  /// (`line(combiningMarks:)`) as `BidiLine.writeVisualUTF8` does, without
  /// making the line (`LineLayout.withWholeLineRuns`). For `bidi-lsp
  /// visual`. The same bound applies.
  package func writeLineVisualUTF8(
    combiningMarks: CombiningMarkOrder, mirrored: Bool, controls: ControlDisplay,
    to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    writeLine(
      VisualUTF8Writer(storage, VisualControls(controls), mirrored: mirrored, joiner: NoJoiner()),
      clusters: combiningMarks == .afterBase, to: output)
  }

  /// Writes the whole paragraph as one display line as
  /// `BidiLine.writeVisualUTF8(joining:)` does, without making the line.
  /// The same bound applies.
  package func writeLineVisualUTF8(
    joining joiner: VisualJoiner, combiningMarks: CombiningMarkOrder, mirrored: Bool, controls: ControlDisplay,
    to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var joiner = joiner
    joiner.offset = 0
    return writeLine(
      VisualUTF8Writer(storage, VisualControls(controls), mirrored: mirrored, joiner: joiner),
      clusters: combiningMarks == .afterBase, to: output)
  }

  /// The whole paragraph's runs (L1–L2, on the stack) written by `writer`.
  @inline(__always)
  func writeLine<Joiner>(
    _ writer: VisualUTF8Writer<Joiner>, clusters: Bool, to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    LineLayout.withWholeLineRuns(storage) { runs, count in
      writer.write(runs, count, clusters: clusters, storage, to: output)
    }
  }
}

/// What `BidiLine.writeVisualUTF8` writes of the bidi controls:
/// `ControlDisplay`'s choices, and those `keep` keeps written by name in
/// angle brackets.
enum VisualControls {
  case keep, strip, names, keptByName

  /// The writer's choice for a caller's `ControlDisplay`.
  init(_ display: ControlDisplay) {
    switch display {
    case .keep: self = .keep
    case .strip: self = .strip
    case .names: self = .names
    }
  }
}

/// Writes characters of a paragraph as UTF-8 (`BidiLine.writeVisualUTF8`),
/// a run at a time. The loops of the left-to-right runs and of L3's
/// right-to-left runs are inlined into the one loop over the runs (a call a
/// run cost more than its spills: most runs are a word or two).
struct VisualUTF8Writer<Joiner: LetterJoining> {
  typealias Controls = VisualControls

  let scalars: UnsafeMutablePointer<UInt32>
  /// Writes the letters it takes itself (`BidiLine.writeVisualUTF8(joining:)`;
  /// `NoJoiner` takes none, and the writer is specialised without it).
  let joiner: Joiner
  let classes: UnsafeMutablePointer<BidiClass>
  let levels: UnsafeMutablePointer<UInt8>
  let controls: Controls
  /// L4 applies to the right-to-left runs.
  let mirrored: Bool

  init(_ storage: ParagraphStorage, _ controls: Controls, mirrored: Bool, joiner: Joiner) {
    scalars = storage.scalars
    self.joiner = joiner
    classes = storage.classes
    levels = storage.levels
    self.controls = controls
    self.mirrored = mirrored
  }

  /// Writes the `count` runs from `runs` on, in visual order (L2), each
  /// left to right or right to left by its level, the latter with L3's
  /// clusters when `clusters`; returns the number of bytes written.
  @inline(__always)
  func write(
    _ runs: UnsafePointer<BidiRun>, _ count: Int, clusters: Bool, _ storage: ParagraphStorage,
    to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var p = output
    for k in 0..<count {
      let run = runs[k]
      if run.level & 1 == 0 {
        p = leftToRight(run.start, run.end, p)
      } else if clusters {
        p = rightToLeftClusters(storage, run, p)
      } else {
        p = rightToLeft(run.start, run.end, p)
      }
    }
    return p - output
  }

  /// Characters `first..<end` in logical order from `p` on; returns the
  /// end of what was written. Printable ASCII goes four characters at a
  /// time.
  @inline(__always)
  func leftToRight(_ first: Int, _ end: Int, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    var p = p
    var i = first
    // While four are left, four at a time where they are printable ASCII;
    // then the last three at most one at a time (a test of what is left at
    // each character changed once in most runs).
    while i &+ 4 <= end {
      let a = UnsafeRawPointer(scalars + i).loadUnaligned(as: UInt64.self)
      let b = UnsafeRawPointer(scalars + i + 2).loadUnaligned(as: UInt64.self)
      if (a | b) & 0xFFFF_FF80_FFFF_FF80 == 0, case let packed = Self.packASCII(a, b), Self.arePrintable(packed) {
        UnsafeMutableRawPointer(p).storeBytes(of: packed, as: UInt32.self)
        p += 4
        i &+= 4
        continue
      }
      p =
        joiner.takes(scalars[i], classes[i])
        ? joinedLetter(i, rightToLeft: false, p) : character(i, rightToLeft: false, p)
      i &+= 1
    }
    while i < end {
      p =
        joiner.takes(scalars[i], classes[i])
        ? joinedLetter(i, rightToLeft: false, p) : character(i, rightToLeft: false, p)
      i &+= 1
    }
    return p
  }

  /// Characters `first..<end`, a right-to-left run, in reverse order.
  /// Letters of one or two bytes and spaces, most of such a run, take one
  /// test (`isLetterOrSpace`), not one at each change from a word to a
  /// space.
  @inline(never)
  func rightToLeft(_ first: Int, _ end: Int, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    var p = p
    var i = end
    while i > first {
      i &-= 1
      let s = scalars[i]
      let c = classes[i]
      if joiner.takes(s, c) {
        p = joinedLetter(i, rightToLeft: true, p)
      } else if Self.isLetterOrSpace(s, c) {
        Self.encodeLetterOrSpace(s, &p)
      } else {
        p = character(i, rightToLeft: true, p, namingIsolates: true)
      }
    }
    return p
  }

  /// The right-to-left run `run` with L3: its clusters (a base and its
  /// combining marks) in reverse order, each in logical order.
  @inline(__always)
  func rightToLeftClusters(
    _ storage: ParagraphStorage, _ run: BidiRun, _ p: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    var p = p
    var end = run.end
    let start = run.start
    while end > start {
      // Two-byte letters (R or AL, never a combining mark, so each an item
      // of its own) first, and printable ASCII (never a mark), without the
      // search for marks.
      let last = end &- 1
      let s = scalars[last]
      let c = classes[last]
      if Self.isLetterOrSpace(s, c) {
        // (The joiner's letters are among these.)
        if joiner.takes(s, c) {
          // A word of shaped letters, written by the joiner down to the
          // first character it leaves.
          // (Through a copy: `p` itself stays in a register.)
          var q = p
          let next = joiner.write(last, start, &q)
          if next != last {
            p = q
            end = next &+ 1
            continue
          }
        }
        Self.encodeLetterOrSpace(s, &p)
        end = last
        continue
      }
      if s &- 0x20 < 0x5F {
        p.pointee = UInt8(truncatingIfNeeded: mirrored && c == .ON ? ubd_mirroring_glyph(s) : s)
        p += 1
        end = last
        continue
      }
      if Self.isLetterOfThreeBytes(s, c) {
        // Presentation forms of shaped Arabic (FB50...FEFC), Hebrew's, the
        // Arabic extensions: never a mark, removed or mirrored either.
        Self.encodeThreeBytes(s, &p)
        end = last
        continue
      }
      if isDropped(last, s) {
        // Removed by X9 or a stripped control: never a mark, an item of its
        // own, written as nothing.
        end = last
        continue
      }
      let item = CombiningMarks.itemBefore(end, storage, runStart: start)
      if item.alone {
        var i = end
        while i > item.first {
          i -= 1
          p =
            joiner.takes(scalars[i], classes[i])
            ? joinedLetter(i, rightToLeft: true, p) : character(i, rightToLeft: true, p)
        }
      } else {
        for i in item.first..<end {
          p =
            joiner.takes(scalars[i], classes[i])
            ? joinedLetter(i, rightToLeft: true, p) : character(i, rightToLeft: true, p)
        }
      }
      end = item.first
    }
    return p
  }

  /// True when the four ASCII bytes in `packed` (`packASCII` of four
  /// values below 0x80) are printable, 0x20...0x7E: adding 0x60 sets bit 7
  /// of each byte of 0x20 or more, adding 1 sets it only for 0x7F (no sum
  /// carries into the next byte).
  @inline(__always)
  static func arePrintable(_ packed: UInt32) -> Bool {
    (packed &+ 0x6060_6060) & ~(packed &+ 0x0101_0101) & 0x8080_8080 == 0x8080_8080
  }

  /// The low bytes of the four scalar values in `a` and `b` (two each, the
  /// first in the low half), in order.
  @inline(__always)
  static func packASCII(_ a: UInt64, _ b: UInt64) -> UInt32 {
    let low = UInt32(truncatingIfNeeded: a | a &>> 24) & 0xFFFF
    let high = UInt32(truncatingIfNeeded: b | b &>> 24) & 0xFFFF
    return low | high &<< 16
  }

  /// Character `i`, of a left-to-right or a right-to-left run: printable
  /// ASCII and the other characters that are written as they are (in a
  /// right-to-left run mirrored with `mirrored`, L4: only class ON has
  /// mirrored glyphs) inline, the rest by `special`. Returns the end of
  /// what was written.
  /// With `namingIsolates` (a constant where it is inlined), an isolate
  /// control is named there and then when the controls are named, without
  /// the tests of the other special characters: the common control of the
  /// lines `bidi-lsp check` quotes.
  @inline(__always)
  func character(
    _ i: Int, rightToLeft: Bool, _ p: UnsafeMutablePointer<UInt8>, namingIsolates: Bool = false
  ) -> UnsafeMutablePointer<UInt8> {
    var p = p
    let mirrored = rightToLeft && self.mirrored
    var s = scalars[i]
    if rightToLeft {
      // Right to left: most characters are letters of two bytes (Hebrew,
      // Arabic…), R or AL, never removed nor mirrored; of the controls only
      // ALM is among them.
      let c = classes[i]
      if (c == .R || c == .AL) && s < 0x800 && s != 0x61C {
        Self.encodeTwoBytes(s, &p)
        return p
      }
      if Self.isLetterOfThreeBytes(s, c) {
        Self.encodeThreeBytes(s, &p)
        return p
      }
    }
    if s &- 0x20 < 0x5F {
      // Printable ASCII: never removed, never a control; a mirrored glyph
      // of ASCII is ASCII.
      if mirrored && classes[i] == .ON { s = ubd_mirroring_glyph(s) }
      p.pointee = UInt8(truncatingIfNeeded: s)
      return p + 1
    }
    if namingIsolates && controls == .keptByName && s &- 0x2066 < 4 {
      // An isolate control, which X9 never removes, by name.
      return Self.writeName(VisualControlNames.entry(s), open: 0x3C, close: 0x3E, p)
    }
    // Removed by X9, ill-formed, or (when they are changed) a control that
    // X9 keeps: an isolate, LRM, RLM or ALM (U+061C, U+200E...U+2069 hold
    // them all).
    if levels[i] & ParagraphStorage.removedBit != 0
      || ((s &- 0x200E < 0x5C || s == 0x61C || s > 0x10FFFF) && isSpecial(s))
    {
      // Without names, a control (removed or stripped) is written as
      // nothing.
      let named =
        controls == .names || (controls == .keptByName && levels[i] & ParagraphStorage.removedBit == 0)
      return named || s > 0x10FFFF ? special(s, p) : p
    }
    if mirrored && classes[i] == .ON { s = ubd_mirroring_glyph(s) }
    Self.encode(s, &p)
    return p
  }

  /// Character `i`, one the joiner takes: as the joiner writes it, or as
  /// `character` does when it leaves it. Out of line: the writer without a
  /// joiner (`NoJoiner`, which takes none) keeps `character` inlined and
  /// nothing else.
  @inline(never)
  func joinedLetter(_ i: Int, rightToLeft: Bool, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    if let q = joined(i, p) { return q }
    return character(i, rightToLeft: rightToLeft, p)
  }

  /// Character `i` written by `joiner`, or nil when it leaves it to the
  /// writer; returns the end of what was written.
  @inline(never)
  func joined(_ i: Int, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>? {
    var p = p
    return joiner.write(i, i, &p) != i ? p : nil
  }

  /// Whether character `i` (scalar value `s`) is written as nothing: a
  /// character removed by X9 or a control that X9 keeps, unless
  /// `controls` names them, and the latter only when it strips them.
  @inline(__always)
  func isDropped(_ i: Int, _ s: UInt32) -> Bool {
    switch controls {
    case .names: return false
    case .keep, .keptByName: return levels[i] & ParagraphStorage.removedBit != 0
    case .strip: return levels[i] & ParagraphStorage.removedBit != 0 || Self.isKeptControl(s)
    }
  }

  /// Whether a character that is not removed is written by `special`.
  @inline(__always)
  func isSpecial(_ s: UInt32) -> Bool {
    s > 0x10FFFF || (controls != .keep && Self.isKeptControl(s))
  }

  /// The bidi controls that X9 does not remove.
  @inline(__always)
  static func isKeptControl(_ s: UInt32) -> Bool {
    s == 0x61C || s &- 0x200E < 2 || s &- 0x2066 < 4
  }

  /// A character removed by X9, an ill-formed sequence, or a control that
  /// `controls` strips or names.
  private func special(_ s: UInt32, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    var p = p
    if s > 0x10FFFF {
      // One U+FFFD per byte of the maximal subpart (its length is in the
      // mark's low bits).
      for _ in 0..<Int(s & 0xFF) { Self.encode(0xFFFD, &p) }
      return p
    }
    // The control's short name from `controlNames` (a removed character
    // that is not a control, such as a BN, has no entry there).
    let entry = VisualControlNames.entry(s)
    guard controls == .names || controls == .keptByName, entry >> 32 == UInt64(s) else { return p }
    let angled = controls == .keptByName
    // < or [, > or ]
    return Self.writeName(entry, open: angled ? 0x3C : 0x5B, close: angled ? 0x3E : 0x5D, p)
  }

  /// The short name of `entry` (`VisualControlNames.entry`) between `open`
  /// and `close`; returns the end of what was written.
  @inline(__always)
  static func writeName(
    _ entry: UInt64, open: UInt32, close: UInt8, _ p: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    // The opening bracket and the three letters in one store (within the
    // bound: five bytes for a control of two or three).
    let word = open | UInt32(truncatingIfNeeded: entry) &<< 8
    UnsafeMutableRawPointer(p).storeBytes(of: word.littleEndian, as: UInt32.self)
    p[4] = close
    return p + 5
  }

  /// Whether `s` (of class `c`) is a letter of one or two bytes, R or AL
  /// but not ALM, or a space (WS: U+0020, U+000C): most characters of
  /// right-to-left text, none of them removed, mirrored or a combining
  /// mark. One test for all, so that the branch does not change at every
  /// word.
  @inline(__always)
  static func isLetterOrSpace(_ s: UInt32, _ c: BidiClass) -> Bool {
    let classes = BidiClass.R.bit | BidiClass.AL.bit | BidiClass.WS.bit
    // Bytes, not `&&`: each test would be a branch of its own.
    return Self.bit(classes &>> UInt32(c.rawValue) & 1 != 0) & Self.bit(s < 0x800) & Self.bit(s != 0x61C) != 0
  }

  /// 1 for true, 0 for false.
  @inline(__always)
  static func bit(_ b: Bool) -> UInt8 { unsafeBitCast(b, to: UInt8.self) }

  /// The UTF-8 of a scalar value below U+0800 without a branch: two bytes
  /// are stored (the second, after one of ASCII, is overwritten by whatever
  /// comes next, within the bound).
  @inline(__always)
  static func encodeLetterOrSpace(_ s: UInt32, _ p: inout UnsafeMutablePointer<UInt8>) {
    let two = (0xC0 | s &>> 6) | (0x80 | s & 0x3F) &<< 8
    let ascii = s < 0x80
    UnsafeMutableRawPointer(p).storeBytes(of: UInt16(truncatingIfNeeded: ascii ? s : two), as: UInt16.self)
    p += ascii ? 1 : 2
  }

  /// Whether `s` (of class `c`) is a letter of three bytes, R or AL of
  /// U+0800...U+FFFF other than RLM (the one control among them): as the
  /// letters of two bytes, never removed, mirrored or a combining mark.
  @inline(__always)
  static func isLetterOfThreeBytes(_ s: UInt32, _ c: BidiClass) -> Bool {
    (c == .R || c == .AL) && s &- 0x800 < 0xF800 && s != 0x200F
  }

  /// The UTF-8 of scalar value `v`, U+0800...U+FFFF.
  @inline(__always)
  static func encodeThreeBytes(_ v: UInt32, _ p: inout UnsafeMutablePointer<UInt8>) {
    p[0] = UInt8(truncatingIfNeeded: 0xE0 | v >> 12)
    p[1] = UInt8(truncatingIfNeeded: 0x80 | (v >> 6) & 0x3F)
    p[2] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
    p += 3
  }

  /// The UTF-8 of scalar value `v`, U+0080...U+07FF.
  @inline(__always)
  static func encodeTwoBytes(_ v: UInt32, _ p: inout UnsafeMutablePointer<UInt8>) {
    p[0] = UInt8(truncatingIfNeeded: 0xC0 | v >> 6)
    p[1] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
    p += 2
  }

  /// The UTF-8 of scalar value `v`.
  @inline(__always)
  static func encode(_ v: UInt32, _ p: inout UnsafeMutablePointer<UInt8>) {
    p += UTF8Encoder.write(v, to: p)
  }
}

/// The short names of the bidi controls (`BidiControl.shortName`, three
/// ASCII letters each) for `VisualUTF8Writer.special`, which names a
/// control without making a `BidiControl` and iterating a `String`.
package enum VisualControlNames {
  /// By the low seven bits of `scalar` (distinct for the twelve, as
  /// `BidiControl.byLowBits`): the code point of a control in the high
  /// half, the name's bytes in the low one (the first letter lowest);
  /// where there is none, a high half no scalar value has (not 0: U+0000,
  /// a BN, is removed by X9 and comes to `special` too). A switch of
  /// constants, which the compiler makes a table: no global to initialise
  /// at each use.
  @inline(__always)
  package static func entry(_ scalar: UInt32) -> UInt64 {
    switch scalar & 0x7F {
    case 0x1C: 0x061C << 32 | 0x4D_4C41  // ALM
    case 0x0E: 0x200E << 32 | 0x4D_524C  // LRM
    case 0x0F: 0x200F << 32 | 0x4D_4C52  // RLM
    case 0x2A: 0x202A << 32 | 0x45_524C  // LRE
    case 0x2B: 0x202B << 32 | 0x45_4C52  // RLE
    case 0x2C: 0x202C << 32 | 0x46_4450  // PDF
    case 0x2D: 0x202D << 32 | 0x4F_524C  // LRO
    case 0x2E: 0x202E << 32 | 0x4F_4C52  // RLO
    case 0x66: 0x2066 << 32 | 0x49_524C  // LRI
    case 0x67: 0x2067 << 32 | 0x49_4C52  // RLI
    case 0x68: 0x2068 << 32 | 0x49_5346  // FSI
    case 0x69: 0x2069 << 32 | 0x49_4450  // PDI
    default: 0xFFFF_FFFF << 32
    }
  }

  /// The name `entry` holds for `scalar`, or nil if it holds none.
  package static func name(of scalar: UInt32) -> String? {
    let entry = entry(scalar)
    guard entry >> 32 == UInt64(scalar) else { return nil }
    let bytes = (0..<3).map { UInt8(truncatingIfNeeded: entry >> (8 * $0)) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
