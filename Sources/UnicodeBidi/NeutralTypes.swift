// UAX #9, 3.3.5 Resolving Neutral and Isolate Formatting Types: N1 and N2,
// fused with I1–I2 (the next phase): each character's final type goes in,
// its level comes out. N0 (paired brackets) is in BracketPairs.swift.

/// N1–N2 and I1–I2 for one isolating run sequence, fed one final weak type
/// at a time in logical order; writes the levels.
struct NeutralResolver: WeakTypeSink {
  /// Where the level of the sequence's k-th character goes: `levels[k]`.
  let levels: UnsafeMutablePointer<UInt8>
  let level: UInt8
  let embedding: BidiClass
  let eos: BidiClass
  let raises: ImplicitRaises
  /// The raises applied, or'ed: 0 when every level is the sequence's.
  var raised: UInt8 = 0
  /// The direction before a run of NIs (sos at the start).
  var before: BidiClass
  /// The first NI of the current run of them, or -1.
  var neutralStart = -1

  @inline(__always)
  init(_ sequence: IsolatingRunSequence, levels: UnsafeMutablePointer<UInt8>) {
    self.levels = levels
    level = sequence.level
    embedding = sequence.embeddingDirection
    eos = sequence.eos
    raises = ImplicitRaises(level: sequence.level)
    before = sequence.sos
  }

  /// Resolves the characters `start..<end`, all of type `c` (L, R, EN, AN
  /// or an NI).
  @inline(__always)
  mutating func take(_ start: Int, _ end: Int, _ c: BidiClass) {
    if BidiClassSet.neutralOrIsolate.contains(c) {
      if neutralStart < 0 { neutralStart = start }
      return
    }
    // EN and AN count as R for N1.
    let direction: BidiClass = c == .L ? .L : .R
    if neutralStart >= 0 {
      // N1: NIs between two strong types of one direction take it.
      // N2: any other NIs take the embedding direction.
      let raise = raises[before == direction ? direction : embedding]
      raised |= raise
      write(neutralStart, start, level &+ raise)
      neutralStart = -1
    }
    before = direction
    // I1–I2.
    let raise = raises[c]
    raised |= raise
    write(start, end, level &+ raise)
  }

  /// N1–I2 for the whole sequence once its types `types[0..<count]` are
  /// final (after W1–W7 and N0), a run of one type at a time; returns
  /// `finish(count)`. A function of its own, small enough that `take`
  /// is inlined and the resolver's state stays in registers.
  @inline(never)
  static func resolve(_ resolver: NeutralResolver, _ types: UnsafePointer<BidiClass>, _ count: Int) -> Bool {
    var resolver = resolver
    var k = 0
    while k < count {
      let c = types[k]
      let end = ClassScan.runEnd(types, k, count)
      resolver.take(k, end, c)
      k = end
    }
    return resolver.finish(count)
  }

  /// Sets the level of the characters `start..<end`. The levels lie in a
  /// paragraph's storage or the resolver's scratch memory, both with
  /// `ClassScan.slack` bytes after them.
  @inline(__always)
  func write(_ start: Int, _ end: Int, _ value: UInt8) {
    ByteFill.fillWithSlack(UnsafeMutableRawPointer(levels + start), value, end &- start)
  }

  /// N1–N2 for the NIs at the end of the sequence of `count` characters,
  /// against eos. Returns true when every level is the sequence's level.
  @inline(__always)
  mutating func finish(_ count: Int) -> Bool {
    if neutralStart >= 0 {
      let raise = raises[before == eos ? before : embedding]
      raised |= raise
      write(neutralStart, count, level &+ raise)
      neutralStart = -1
    }
    return raised == 0
  }
}

/// Sets short runs of bytes without a call: most runs of one type or level
/// are a word or a space long.
enum ByteFill {
  @inline(__always)
  static func fill(_ p: UnsafeMutableRawPointer, _ value: UInt8, _ count: Int) {
    let word = UInt64(value) &* 0x0101_0101_0101_0101
    switch count {
    case 0:
      return
    case 1:
      p.storeBytes(of: value, as: UInt8.self)
    case 2...3:
      // Two overlapping stores cover every length in the range.
      p.storeBytes(of: UInt16(truncatingIfNeeded: word), toByteOffset: 0, as: UInt16.self)
      p.storeBytes(of: UInt16(truncatingIfNeeded: word), toByteOffset: count &- 2, as: UInt16.self)
    case 4...7:
      p.storeBytes(of: UInt32(truncatingIfNeeded: word), toByteOffset: 0, as: UInt32.self)
      p.storeBytes(of: UInt32(truncatingIfNeeded: word), toByteOffset: count &- 4, as: UInt32.self)
    case 8...16:
      p.storeBytes(of: word, toByteOffset: 0, as: UInt64.self)
      p.storeBytes(of: word, toByteOffset: count &- 8, as: UInt64.self)
    default:
      p.initializeMemory(as: UInt8.self, repeating: value, count: count)
    }
  }
}

extension ByteFill {
  /// `fill`, where the 8 bytes from `p` on are memory of the same buffer
  /// (`ClassScan.slack` past its end): up to 8 bytes are set by a
  /// read-modify-write of one word, keeping the bytes past `count`, so
  /// that the length of a run (a word or a space, in mixed text) costs no
  /// mispredicted branch between sizes.
  @inline(__always)
  static func fillWithSlack(_ p: UnsafeMutableRawPointer, _ value: UInt8, _ count: Int) {
    guard count <= 8 else {
      fill(p, value, count)
      return
    }
    let word = UInt64(value) &* 0x0101_0101_0101_0101
    // The bytes past the first `count` (in memory order) are kept; the
    // shift is made in two steps, as one by 64 would be masked to 0.
    let kept: UInt64 = count == 0 ? ~0 : (~0 &<< UInt64(truncatingIfNeeded: count &* 8 &- 1)) &<< 1
    let old = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
    p.storeBytes(of: (old & kept | word & ~kept).littleEndian, as: UInt64.self)
  }
}

/// Copies short runs of bytes without a call, as `ByteFill.fillWithSlack`
/// sets them: the pieces of a gathered isolating run sequence are mostly a
/// word or two. Both buffers have `ClassScan.slack` bytes after them (the
/// resolver's scratch memory, a paragraph's levels).
enum ByteCopy {
  @inline(__always)
  static func copyWithSlack(_ to: UnsafeMutableRawPointer, _ from: UnsafeRawPointer, _ count: Int) {
    if count <= 8 {
      // One read-modify-write of a word, as `fillWithSlack`.
      let kept: UInt64 = count == 0 ? ~0 : (~0 &<< UInt64(truncatingIfNeeded: count &* 8 &- 1)) &<< 1
      let new = UInt64(littleEndian: from.loadUnaligned(as: UInt64.self))
      let old = UInt64(littleEndian: to.loadUnaligned(as: UInt64.self))
      to.storeBytes(of: (old & kept | new & ~kept).littleEndian, as: UInt64.self)
    } else if count <= 16 {
      // Two overlapping words, both loaded first.
      let head = from.loadUnaligned(as: UInt64.self)
      let tail = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      to.storeBytes(of: head, toByteOffset: 0, as: UInt64.self)
      to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
    } else {
      to.copyMemory(from: from, byteCount: count)
    }
  }
}
