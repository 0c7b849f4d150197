// The byte foundation: arithmetic on eight bytes at a time in one UInt64
// ("SWAR"), for the scans that look for a few byte values in long text (line
// breaks, bytes JSON must escape, non-ASCII bytes, a run of one class or
// level). Every module that reads bytes a word at a time uses these, so each
// trick is written, and checked (ByteWordsTests), once. Public only so that
// UnicodeBidi's public inlinable scans can use it.
//
// A word is read little-endian: byte k of the text is bits 8k…8k+7, so the
// lowest flagged byte is the first one in the text. A *flag* is bit 7 of a
// byte of a result word; the other bits of a flags word are clear.

/// Word-at-a-time byte arithmetic.
public enum ByteWord {
  /// 0x01 in every byte.
  public static let ones: UInt64 = 0x0101_0101_0101_0101
  /// 0x80 in every byte: the flags.
  public static let highBits: UInt64 = 0x8080_8080_8080_8080
  /// 0x7F in every byte.
  public static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

  /// The eight bytes at `offset` from `base`, byte k of the text in bits 8k…8k+7.
  @inlinable @inline(__always)
  public static func load(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// The eight bytes at `p + offset`.
  @inlinable @inline(__always)
  public static func load(_ p: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
    load(UnsafeRawPointer(p), offset)
  }

  /// `byte` in each of the eight bytes.
  @inlinable @inline(__always)
  public static func broadcast(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

  /// A flag on each zero byte of `word`, exactly (no borrow crosses bytes).
  @inlinable @inline(__always)
  public static func zeroBytes(_ word: UInt64) -> UInt64 {
    ~(((word & lowBits) &+ lowBits) | word | lowBits)
  }

  /// A flag on the first zero byte of `word` at least, exact up to it: a
  /// byte after it may be flagged wrongly, none before it is, and a word
  /// with no zero byte gets no flag. One operation fewer than `zeroBytes`:
  /// for "is there one" and "where is the first".
  @inlinable @inline(__always)
  public static func firstZeroBytes(_ word: UInt64) -> UInt64 {
    (word &- ones) & ~word & highBits
  }

  /// A flag on each byte of `word` equal to `byte`, exactly.
  @inlinable @inline(__always)
  public static func equalBytes(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    zeroBytes(word ^ broadcast(byte))
  }

  /// Whether a byte of `word` equals `byte`.
  @inlinable @inline(__always)
  public static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
    firstZeroBytes(word ^ broadcast(byte)) != 0
  }

  /// A flag on the first byte of `word` below `bound` (at most 0x80) at
  /// least, exact up to it, as `firstZeroBytes`.
  @inlinable @inline(__always)
  public static func firstBytesBelow(_ word: UInt64, _ bound: UInt8) -> UInt64 {
    (word &- broadcast(bound)) & ~word & highBits
  }

  /// Whether a byte of `word` is 0x80 or above (not ASCII).
  @inlinable @inline(__always)
  public static func hasNonASCII(_ word: UInt64) -> Bool { word & highBits != 0 }

  /// Whether all eight bytes are printable ASCII (0x20…0x7E).
  @inlinable @inline(__always)
  public static func isPrintableASCII(_ word: UInt64) -> Bool {
    let low = word & ~highBits
    // Flags of `atLeastSpace` where the low seven bits are 0x20 or more, of
    // `delete` where they are 0x7F (no byte carries into the next).
    let atLeastSpace = low &+ 0x6060_6060_6060_6060
    let delete = low &+ ones
    return (~atLeastSpace | delete | word) & highBits == 0
  }

  /// Whether all eight bytes are printable ASCII (0x20…0x7E) or tabs.
  @inlinable @inline(__always)
  public static func isPrintableASCIIOrTab(_ word: UInt64) -> Bool {
    // A tab becomes 0x29 (its flag, shifted down by two, adds 0x20).
    isPrintableASCII(word | (equalBytes(word, 0x09) &>> 2))
  }

  /// The index (0…7) of the first flagged byte; 8 for no flag.
  @inlinable @inline(__always)
  public static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount &>> 3 }

  /// The index (0…7) of the first byte that is not zero; 8 for none.
  @inlinable @inline(__always)
  public static func firstNonZero(_ word: UInt64) -> Int { word.trailingZeroBitCount &>> 3 }

  /// The number of flagged bytes: summed into the top byte by one
  /// multiplication (the baseline x86-64 has no population count).
  @inlinable @inline(__always)
  public static func countFlagged(_ flags: UInt64) -> Int {
    Int(truncatingIfNeeded: ((flags &>> 7) &* ones) &>> 56)
  }

  /// A mask of the bytes after the first `count` (0…8) of a word:
  /// `old & mask | new & ~mask` is `new`'s first `count` bytes written over
  /// `old` (the shift in two steps: one by 64 would be masked to 0).
  @inlinable @inline(__always)
  public static func bytesAfter(_ count: Int) -> UInt64 {
    count == 0 ? ~0 : (~0 &<< UInt64(truncatingIfNeeded: count &* 8 &- 1)) &<< 1
  }

  /// Eight bits, bit k set where byte k of `word` is not zero (`word`'s
  /// bytes below 0x80): the flags gathered by one multiplication.
  @inlinable @inline(__always)
  public static func nonZeroMask(_ word: UInt64) -> UInt64 {
    let nonzero = ((word &+ lowBits) & ~lowBits) &>> 7
    return (nonzero &* 0x0102_0408_1020_4080) &>> 56
  }
}
