import ByteWords

// Word-at-a-time scans and writes of the byte arrays the phases share (a
// paragraph's classes, levels and types, the resolver's scratch copies):
// runs of one class or level found eight bytes at a time, and short runs
// set or copied without a loop. `ClassScan`'s scans and the writes named
// `…WithSlack` touch up to `ClassScan.slack` bytes past a buffer's end, which
// `ParagraphStorage` and the resolver's scratch memory leave free.

/// Run ends of one class in arrays of class bytes, eight at a time: the
/// comparison that ends a run of under eight (most runs in mixed text: a
/// word or a space) is then the first and is predicted, where a loop over
/// the bytes mispredicts its exit at every run. The words read may reach
/// `slack` bytes past the end of the array (`ParagraphStorage` and the
/// resolver's scratch memory leave that room); the bytes past `count` are
/// not used.
enum ClassScan {
  static let slack = 8

  /// The end of the run of `p[start]` in `p[start..<count]`.
  @inline(__always)
  static func runEnd(_ p: UnsafePointer<BidiClass>, _ start: Int, _ count: Int) -> Int {
    let bytes = UnsafeRawPointer(p)
    let pattern = ByteWord.broadcast(bytes.load(fromByteOffset: start, as: UInt8.self))
    var j = start &+ 1
    while j < count {
      let x = ByteWord.load(bytes, j) ^ pattern
      if x != 0 { return min(j &+ ByteWord.firstNonZero(x), count) }
      j &+= 8
    }
    return count
  }

  /// The first position in `start..<count` whose class X1–X8 handle (B, BN
  /// and the explicit controls: raw values 9, 10 and 14…22), or `count`.
  @inline(__always)
  static func nextExplicit(_ p: UnsafePointer<BidiClass>, _ start: Int, _ count: Int) -> Int {
    let bytes = UnsafeRawPointer(p)
    let ones = ByteWord.ones
    var j = start
    while j < count {
      let x = ByteWord.load(bytes, j)
      // Bit 7 of each byte: set by adding 0x72 for 14 and above, by 0x77
      // for 9 and above, by 0x75 for 11 and above (the classes are below
      // 23, so no byte carries into the next one before `count`).
      let found = ((x &+ 0x72 &* ones) | ((x &+ 0x77 &* ones) & ~(x &+ 0x75 &* ones))) & ByteWord.highBits
      if found != 0 { return min(j &+ ByteWord.firstFlagged(found), count) }
      j &+= 8
    }
    return count
  }
}

extension ClassScan {
  /// The first position in `start..<count` whose class is not one of the
  /// letters of one direction (L with `leftToRight`, else R and AL), NSM,
  /// ES, CS, B, S, WS, ON and the isolate controls (LRI, RLI, FSI, PDI), or
  /// `count`: the end of a stretch of text in one direction whose weak
  /// types need no rule but W1, W3 and W6 (a separator with no number
  /// beside it, W4 not applying, becomes ON). The direction only chooses
  /// two constants, without a branch.
  @inline(__always)
  static func stretchEnd(_ p: UnsafePointer<BidiClass>, _ start: Int, _ count: Int, leftToRight: Bool) -> Int {
    let bytes = UnsafeRawPointer(p)
    let ones = ByteWord.ones
    // Bit 7 of x + (0x80 - n) is set where the class is n or above (the
    // classes are below 23: no carry into the next byte). Not in the
    // stretch: R…EN (1…3) for L; L (0) and EN (3) for R; ET, AN (5, 6), BN
    // (9), LRE…PDF (14…18) for both.
    let lowest = (leftToRight ? 0x7F : 0x7D) &* ones
    let zeroFlags = leftToRight ? 0 : ByteWord.highBits
    var j = start
    while j < count {
      let x = ByteWord.load(bytes, j)
      let atLeastLowest = x &+ lowest
      let atLeast4 = x &+ 0x7C &* ones
      let atLeast5 = x &+ 0x7B &* ones
      let atLeast7 = x &+ 0x79 &* ones
      let atLeast9 = x &+ 0x77 &* ones
      let atLeast10 = x &+ 0x76 &* ones
      let atLeast14 = x &+ 0x72 &* ones
      let atLeast19 = x &+ 0x6D &* ones
      let zero = ~(x &+ 0x7F &* ones) & zeroFlags
      let found =
        (zero | atLeastLowest & ~atLeast4 | atLeast5 & ~atLeast7 | atLeast9 & ~atLeast10 | atLeast14 & ~atLeast19)
        & ByteWord.highBits
      if found != 0 { return min(j &+ ByteWord.firstFlagged(found), count) }
      j &+= 8
    }
    return count
  }

  /// Whether one of `p[0..<count]` is in the class set `set` (bits as
  /// `BidiClass.bit`): the classes of eight a step gathered as bits (two
  /// instructions each, where shifting the set by each class made the
  /// compiler emulate eight variable vector shifts), the last one to seven
  /// without a branch each.
  @inline(__always)
  static func containsAny(_ p: UnsafePointer<BidiClass>, _ count: Int, _ set: UInt32) -> Bool {
    guard count > 0 else { return false }
    let bytes = UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self)
    var i = 0
    while i &+ 8 <= count {
      var a: UInt32 = 1 &<< UInt32(bytes[i])
      var b: UInt32 = 1 &<< UInt32(bytes[i &+ 1])
      a |= 1 &<< UInt32(bytes[i &+ 2])
      b |= 1 &<< UInt32(bytes[i &+ 3])
      a |= 1 &<< UInt32(bytes[i &+ 4])
      b |= 1 &<< UInt32(bytes[i &+ 5])
      a |= 1 &<< UInt32(bytes[i &+ 6])
      b |= 1 &<< UInt32(bytes[i &+ 7])
      if (a | b) & set != 0 { return true }
      i &+= 8
    }
    // Reading the last class again changes nothing.
    let last = count &- 1
    var a: UInt32 = 1 &<< UInt32(bytes[min(i, last)])
    var b: UInt32 = 1 &<< UInt32(bytes[min(i &+ 1, last)])
    a |= 1 &<< UInt32(bytes[min(i &+ 2, last)])
    b |= 1 &<< UInt32(bytes[min(i &+ 3, last)])
    a |= 1 &<< UInt32(bytes[min(i &+ 4, last)])
    b |= 1 &<< UInt32(bytes[min(i &+ 5, last)])
    a |= 1 &<< UInt32(bytes[min(i &+ 6, last)])
    return (a | b) & set != 0
  }
}

/// Scans of level bytes eight at a time (bit 7, the removed mark, ignored):
/// most runs of one level are longer than a word.
enum LevelScan {
  static let low = ByteWord.lowBits

  @inline(__always)
  static func load(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt64 { ByteWord.load(p, i) }

  /// The number of `i` in `1..<count` where `levels[i]` differs from
  /// `levels[i - 1]`.
  @inline(__always)
  static func changes(_ levels: UnsafePointer<UInt8>, _ count: Int) -> Int {
    var total = 0
    var i = 1
    while i &+ 8 <= count {
      let x = (load(levels, i) ^ load(levels, i &- 1)) & low
      // Bit 7 of each byte of x that is not zero.
      total &+= ((x &+ low) & ~low).nonzeroBitCount
      i &+= 8
    }
    while i < count {
      if (levels[i] ^ levels[i &- 1]) & 0x7F != 0 { total &+= 1 }
      i &+= 1
    }
    return total
  }

  /// Whether one of `levels[0..<count]` has the removed mark (bit 7).
  @inline(__always)
  static func containsRemoved(_ levels: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var i = 0
    var marks: UInt64 = 0
    while i &+ 8 <= count {
      marks |= load(levels, i)
      i &+= 8
    }
    while i < count {
      marks |= UInt64(levels[i])
      i &+= 1
    }
    return ByteWord.hasNonASCII(marks)
  }

  /// A mask of the places in `from..<to` (`from` ≥ 1, at most 64 of them)
  /// where the level (bit 7, the removed mark, ignored) differs from the
  /// one before: bit k for `from + k`. Eight places a word, the bytes that
  /// differ gathered into eight bits by one multiplication.
  @inline(__always)
  static func changes(_ levels: UnsafePointer<UInt8>, from: Int, to: Int) -> UInt64 {
    var mask: UInt64 = 0
    var i = from
    while i &+ 8 <= to {
      let x = (load(levels, i) ^ load(levels, i &- 1)) & low
      mask |= ByteWord.nonZeroMask(x) &<< UInt64(truncatingIfNeeded: i &- from)
      i &+= 8
    }
    while i < to {
      let differs: UInt64 = (levels[i] ^ levels[i &- 1]) & 0x7F != 0 ? 1 : 0
      mask |= differs &<< UInt64(truncatingIfNeeded: i &- from)
      i &+= 1
    }
    return mask
  }

  /// The end of the run of bytes equal to `levels[start]` (`start < count`),
  /// the removed mark included.
  @inline(__always)
  static func runEnd(exactly levels: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
    let level = levels[start]
    let pattern = ByteWord.broadcast(level)
    var j = start &+ 1
    while j &+ 8 <= count {
      let x = load(levels, j) ^ pattern
      if x != 0 { return j &+ ByteWord.firstNonZero(x) }
      j &+= 8
    }
    while j < count && levels[j] == level { j &+= 1 }
    return j
  }

  /// The end of the run of one level that starts at `start` (`< count`).
  @inline(__always)
  static func runEnd(_ levels: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
    let level = levels[start] & 0x7F
    let pattern = ByteWord.broadcast(level)
    var j = start &+ 1
    while j &+ 8 <= count {
      let x = (load(levels, j) ^ pattern) & low
      if x != 0 { return j &+ ByteWord.firstNonZero(x) }
      j &+= 8
    }
    while j < count && levels[j] & 0x7F == level { j &+= 1 }
    return j
  }
}

/// Sets short runs of bytes without a call: most runs of one type or level
/// are a word or a space long.
enum ByteFill {
  @inline(__always)
  static func fill(_ p: UnsafeMutableRawPointer, _ value: UInt8, _ count: Int) {
    let word = ByteWord.broadcast(value)
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
    let word = ByteWord.broadcast(value)
    // The bytes past the first `count` (in memory order) are kept.
    let kept = ByteWord.bytesAfter(count)
    let old = ByteWord.load(p, 0)
    p.storeBytes(of: (old & kept | word & ~kept).littleEndian, as: UInt64.self)
  }
}

extension ByteFill {
  /// `fill`, where the 8 bytes past `p + count` may be overwritten (they
  /// are memory of the same buffer, its slack at the end, and are written
  /// again later): up to 16 bytes are set by two stores, so that the length
  /// of a run costs no mispredicted branch between sizes.
  @inline(__always)
  static func fillAhead(_ p: UnsafeMutableRawPointer, _ value: UInt8, _ count: Int) {
    guard count <= 16 else {
      fill(p, value, count)
      return
    }
    let word = ByteWord.broadcast(value).littleEndian
    p.storeBytes(of: word, as: UInt64.self)
    p.storeBytes(of: word, toByteOffset: max(count, 8) &- 8, as: UInt64.self)
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
      let kept = ByteWord.bytesAfter(count)
      let new = ByteWord.load(from, 0)
      let old = ByteWord.load(UnsafeRawPointer(to), 0)
      to.storeBytes(of: (old & kept | new & ~kept).littleEndian, as: UInt64.self)
    } else if count <= 16 {
      // Two overlapping words, both loaded first.
      let head = ByteWord.load(from, 0)
      let tail = ByteWord.load(from, count &- 8)
      to.storeBytes(of: head.littleEndian, toByteOffset: 0, as: UInt64.self)
      to.storeBytes(of: tail.littleEndian, toByteOffset: count &- 8, as: UInt64.self)
    } else {
      to.copyMemory(from: from, byteCount: count)
    }
  }
}
