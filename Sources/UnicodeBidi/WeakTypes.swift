// UAX #9, 3.3.4 Resolving Weak Types: W1–W7, applied to one isolating run
// sequence in a single forward pass over runs of one class. Each rule is
// applied as if the ones before it had been applied to the whole sequence:
// the pass carries what W1–W3 leave behind (the type after W1 of the
// previous character, the last strong type) and looks one character ahead
// where W4 and W5 need the type after W1–W3 of the next one.

extension ParagraphResolver {
  /// W1–W7 for `sequence`, reading `sequence.source` and handing `sink`
  /// the final weak type of every character, a run of one type at a time,
  /// in order. The types are L, R (for R and AL, W3), EN, AN and the NIs
  /// (W6 makes the separators and terminators left ON). The sink may write
  /// `sequence.types[start..<end]` even when that is the source: the pass
  /// has read what it needs of them by then.
  @inline(__always)
  func resolveWeakTypes<Sink: WeakTypeSink>(_ sequence: IsolatingRunSequence, into sink: inout Sink) {
    let source = sequence.source
    let m = sequence.count
    // W1: the type after W1 of the previous character (sos at the start).
    var previous = sequence.sos
    // W2, W3 and W7: the last strong type, L, R or AL (sos at the start).
    var lastStrong = sequence.sos
    // W4 and W5: the type after W4 of the previous character.
    var before = sequence.sos

    var k = 0
    while k < m {
      let raw = source[k]
      var end = ClassScan.runEnd(source, k, m)
      if Sink.takesStretches && stretches && (raw == .R || raw == .AL || raw == .L) {
        // Letters of one direction, neutrals, marks and the separators ES
        // and CS (the words, spaces and punctuation of text in one
        // direction) in one step where W1–W7 change no strong type but AL's
        // (W3): up to the first character that is not one of those, they
        // all resolve to the letters' direction (N1 for the neutrals
        // between them, and for the separators, which W6 makes ON: W4
        // needs a number on each side, and the stretch starts with a
        // letter and holds none), except the neutrals after the last
        // letter, which wait for what follows. The sink may end
        // the stretch sooner (before a paired bracket, for N0).
        // The direction chooses constants, not code: it changes from one
        // stretch to the next in mixed text.
        let leftToRight = raw == .L
        let stretch = sink.stretchLimit(k, ClassScan.stretchEnd(source, end, m, leftToRight: leftToRight))
        if stretch > end {
          // The letters of the stretch's direction, as class bits.
          let letters: UInt32 = leftToRight ? BidiClass.L.bit : BidiClass.R.bit | BidiClass.AL.bit
          var last = stretch &- 1
          while letters & source[last].bit == 0 { last &-= 1 }
          lastStrong = source[last]
          // W1: marks right after the last letter take its type.
          var strongEnd = last &+ 1
          while strongEnd < stretch && source[strongEnd] == .NSM { strongEnd &+= 1 }
          // W1's type of the stretch's last character, for a mark after it.
          var base = stretch &- 1
          while source[base] == .NSM { base &-= 1 }
          previous = base < stretch &- 1 ? Self.markType(after: source[base]) : source[base]
          before = Self.afterW2W3(previous, lastStrong)
          sink.take(k, strongEnd, lastStrong == .L ? .L : .R)
          if strongEnd < stretch { sink.take(strongEnd, stretch, .ON) }
          k = stretch
          continue
        }
      }
      // W1.
      let w1 = raw == .NSM ? Self.markType(after: previous) : raw
      previous = w1
      let c = Self.afterW2W3(w1, lastStrong)
      if w1 == .L || w1 == .R || w1 == .AL { lastStrong = w1 }
      switch c {
      case .ES, .CS:
        // W4: a single ES between two EN becomes EN; a single CS between
        // two numbers of the same type becomes that type. The next
        // character's type after W1–W3 decides; an NSM there would take
        // this separator's type, so only a different class can pair.
        var w = c
        if end == k &+ 1 && end < m && source[end] != .NSM {
          let after = Self.afterW2W3(source[end], lastStrong)
          if before == after && (after == .EN || (after == .AN && c == .CS)) { w = after }
        }
        before = w
        // W6 for what stays a separator; W7.
        sink.take(k, end, w == .ES || w == .CS ? .ON : Self.afterW7(w, lastStrong))
      case .ET:
        // W5: a sequence of ET (with the NSMs that W1 makes ET) next to an
        // EN becomes EN; then W7, or W6 for the others. W4 cannot have made
        // the character after the sequence EN: its neighbour before is ET.
        while end < m && (source[end] == .ET || source[end] == .NSM) { end &+= 1 }
        let number = before == .EN || (end < m && Self.afterW2W3(source[end], lastStrong) == .EN)
        previous = .ET
        before = .ET
        sink.take(k, end, number ? Self.afterW7(.EN, lastStrong) : .ON)
      case .EN where Sink.takesStretches && stretches, .AN where Sink.takesStretches && stretches:
        // A number with its single separators (`1,234.5`, `١٢٣٫٥`) in one
        // step: W4 gives each the number's type.
        end = Self.numberEnd(source, end, m, c, lastStrong)
        previous = source[end &- 1]
        before = c
        sink.take(k, end, Self.afterW7(c, lastStrong))
      default:
        before = c
        sink.take(k, end, Self.afterW7(c, lastStrong))
      }
      k = end
    }
  }

  /// W4 ahead of the pass: the end of the number of type `c` (EN or AN
  /// after W1–W3) whose first run of digits ends at `end`. A single
  /// separator (ES or CS between EN, CS between AN) followed by digits of
  /// the same type after W2 takes that type, and the number goes on; the
  /// pass's state after it is then what the runs one at a time would leave
  /// (no strong type inside, the last type after W4 is `c`).
  @inline(__always)
  static func numberEnd(
    _ source: UnsafePointer<BidiClass>, _ end: Int, _ m: Int, _ c: BidiClass, _ lastStrong: BidiClass
  ) -> Int {
    var end = end
    while end &+ 1 < m {
      let separator = source[end]
      guard separator == .CS || (separator == .ES && c == .EN) else { break }
      let digit = source[end &+ 1]
      guard (digit == .EN || digit == .AN) && afterW2W3(digit, lastStrong) == c else { break }
      end = ClassScan.runEnd(source, end &+ 1, m)
    }
    return end
  }

  /// W2–W3 on a type after W1, `lastStrong` the last strong type before it.
  @inline(__always)
  static func afterW2W3(_ c: BidiClass, _ lastStrong: BidiClass) -> BidiClass {
    switch c {
    case .EN where lastStrong == .AL: return .AN  // W2
    case .AL: return .R  // W3
    default: return c
    }
  }

  /// W1: the type of an NSM after a character of type `previous` after W1.
  @inline(__always)
  static func markType(after previous: BidiClass) -> BidiClass {
    switch previous {
    case .LRI, .RLI, .FSI, .PDI: return .ON
    default: return previous
    }
  }

  /// W7: EN after L (or sos L) becomes L.
  @inline(__always)
  static func afterW7(_ c: BidiClass, _ lastStrong: BidiClass) -> BidiClass {
    c == .EN && lastStrong == .L ? .L : c
  }
}

/// What takes the final weak types of `resolveWeakTypes`, a run at a time.
protocol WeakTypeSink {
  /// True when the sink may be handed a stretch of letters of one
  /// direction with the neutrals and marks between them as one run of L or
  /// R (what N1 makes of those neutrals), up to `stretchLimit`.
  static var takesStretches: Bool { get }
  /// How far a stretch starting at `start` that could reach `end` may go.
  mutating func stretchLimit(_ start: Int, _ end: Int) -> Int
  mutating func take(_ start: Int, _ end: Int, _ c: BidiClass)
}

/// Writes the final weak types of a gathered sequence back into its types
/// (for N0), which lie in the resolver's scratch memory (`ClassScan.slack`
/// bytes after their end), taking stretches that end before the sequence's
/// next paired bracket, as `ContiguousWeakTypeWriter` does: the paragraph's
/// bracket positions are found in the sequence's pieces as the stretches
/// go, both in order.
struct GatheredWeakTypeWriter: WeakTypeSink {
  static var takesStretches: Bool { true }
  let types: UnsafeMutablePointer<BidiClass>
  /// The paragraph's bracket positions from the first one at or after the
  /// sequence's first piece.
  let brackets: UnsafeBufferPointer<Int32>
  let pieces: UnsafePointer<SequencePiece>
  let pieceCount: Int
  let count: Int
  /// The next bracket to look for in the pieces, and the piece to look in.
  var bracket = 0
  var piece = 0
  /// The sequence position of the next bracket in the sequence, `Int.max`
  /// past the last, -1 before the first is found.
  var next = -1

  init(_ sequence: IsolatingRunSequence, brackets: UnsafeBufferPointer<Int32>) {
    types = sequence.types
    self.brackets = brackets
    // A gathered sequence has its pieces.
    pieces = sequence.pieces!
    pieceCount = sequence.pieceCount
    count = sequence.count
  }

  @inline(__always)
  mutating func stretchLimit(_ start: Int, _ end: Int) -> Int {
    if next < start { findNext(atOrAfter: start) }
    return min(end, next)
  }

  /// Finds the first bracket of the sequence at or after sequence position
  /// `start`.
  private mutating func findNext(atOrAfter start: Int) {
    while bracket < brackets.count {
      let position = Int(brackets[bracket])
      // The piece that holds `position`, or the first after it.
      while piece < pieceCount {
        let pieceEnd = piece &+ 1 < pieceCount ? Int(pieces[piece &+ 1].offset) : count
        if position < Int(pieces[piece].start) &+ pieceEnd &- Int(pieces[piece].offset) { break }
        piece &+= 1
      }
      guard piece < pieceCount else { break }
      if position >= Int(pieces[piece].start) {
        // In the sequence.
        next = Int(pieces[piece].offset) &+ position &- Int(pieces[piece].start)
        if next >= start { return }
      }
      bracket &+= 1
    }
    next = Int.max
  }

  @inline(__always)
  func take(_ start: Int, _ end: Int, _ c: BidiClass) {
    ByteFill.fillWithSlack(UnsafeMutableRawPointer(types + start), c.rawValue, end &- start)
  }
}

/// The writer of the final weak types for a contiguous sequence (at paragraph offset
/// `offset`), taking stretches that end before the next paired bracket:
/// N0 then finds the same pairs (their brackets keep ON) and the same
/// strong types. A neutral written L or R lies between letters of that
/// direction in its stretch, which holds no bracket, so a pair enclosing
/// it encloses them too (N0 b, c), and the search before an opening bracket
/// (N0 c) meets the stretch's last letter first.
struct ContiguousWeakTypeWriter: WeakTypeSink {
  static var takesStretches: Bool { true }
  let types: UnsafeMutablePointer<BidiClass>
  /// The paragraph's bracket positions from the first one at or after the
  /// sequence's start.
  let brackets: UnsafeBufferPointer<Int32>
  let offset: Int
  var next = 0

  init(types: UnsafeMutablePointer<BidiClass>, brackets: UnsafeBufferPointer<Int32>, offset: Int) {
    self.types = types
    self.brackets = brackets
    self.offset = offset
  }

  @inline(__always)
  mutating func stretchLimit(_ start: Int, _ end: Int) -> Int {
    while next < brackets.count && Int(brackets[next]) < offset &+ start { next &+= 1 }
    guard next < brackets.count else { return end }
    return min(end, Int(brackets[next]) &- offset)
  }

  @inline(__always)
  func take(_ start: Int, _ end: Int, _ c: BidiClass) {
    ByteFill.fillWithSlack(UnsafeMutableRawPointer(types + start), c.rawValue, end &- start)
  }
}
