// UAX #9, 3.3.5 Resolving Neutral and Isolate Formatting Types: N1 and N2,
// fused with I1–I2 (the next phase): each character's final type goes in,
// its level comes out. N0 (paired brackets) is in BracketPairs.swift.

/// N1–N2 and I1–I2 for one isolating run sequence, fed one final weak type
/// at a time in logical order; writes the levels.
struct NeutralResolver: WeakTypeSink {
  static var takesStretches: Bool { true }
  /// Where the level of the sequence's k-th character goes: `levels[k]`.
  let levels: UnsafeMutablePointer<UInt8>
  let level: UInt8
  let embedding: BidiClass
  let sos: BidiClass
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
    sos = sequence.sos
    eos = sequence.eos
    raises = ImplicitRaises(level: sequence.level)
    before = sequence.sos
  }

  @inline(__always)
  func stretchLimit(_ start: Int, _ end: Int) -> Int { end }

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

extension NeutralResolver {
  /// N1–I2 again, after N0, around the characters `start..<end` of a
  /// sequence whose final types are `types[0..<count]`: a bracket that N0
  /// gave a strong type and the marks that took it. The levels resolved
  /// before N0 (each bracket an NI) change only there and in the runs of
  /// NIs either side of them, whose neighbouring strong type N0 may have
  /// changed; every other character keeps its type and, if an NI, the
  /// types either side of its run.
  @inline(never)
  mutating func resolveAgain(_ types: UnsafePointer<BidiClass>, _ count: Int, _ start: Int, _ end: Int) {
    let neutrals = BidiClassSet.neutralOrIsolate
    var first = start
    while first > 0 && neutrals.contains(types[first &- 1]) { first &-= 1 }
    var last = end
    while last < count && neutrals.contains(types[last]) { last &+= 1 }
    // N1: the direction before the NIs (EN and AN count as R), sos at the
    // start.
    before = first > 0 ? (types[first &- 1] == .L ? .L : .R) : sos
    neutralStart = -1
    for k in first..<last { take(k, k &+ 1, types[k]) }
    if neutralStart >= 0 {
      // N1–N2 for the NIs after the bracket, against the type after them
      // (eos at the end).
      let after: BidiClass = last < count ? (types[last] == .L ? .L : .R) : eos
      let raise = raises[before == after ? before : embedding]
      raised |= raise
      write(neutralStart, last, level &+ raise)
      neutralStart = -1
    }
  }

  /// Whether every one of the `count` levels is the sequence's level.
  func allAtLevel(_ count: Int) -> Bool {
    for k in 0..<count where levels[k] != level { return false }
    return true
  }
}

/// Hands each final weak type both to `writer`, which writes it for N0,
/// and to `neutral`, which resolves the levels as if N0 changed nothing
/// (`ParagraphResolver.resolveImplicitTypes`); the stretches are those the
/// writer allows.
struct WeakTypesAndLevels<Writer: WeakTypeSink>: WeakTypeSink {
  static var takesStretches: Bool { Writer.takesStretches }
  var writer: Writer
  var neutral: NeutralResolver

  @inline(__always)
  mutating func stretchLimit(_ start: Int, _ end: Int) -> Int { writer.stretchLimit(start, end) }

  @inline(__always)
  mutating func take(_ start: Int, _ end: Int, _ c: BidiClass) {
    writer.take(start, end, c)
    neutral.take(start, end, c)
  }
}
