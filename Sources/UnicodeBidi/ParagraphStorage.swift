import CByteScan
import CUnicodeBidiData

/// The per-character arrays of an analysed paragraph, in one allocation:
/// the scalar values, their original Bidi_Class, their resolved levels, the
/// positions of the paired brackets and of the characters past U+FFFF.
///
/// A level byte holds the level in its low 7 bits; bit 7 marks a character
/// removed by X9, whose low bits then hold the level of the character before
/// it (`ParagraphResolver.placeRemovedCharacters`).
final class ParagraphStorage: @unchecked Sendable {
  // Written only while `BidiParagraph.init` runs, read-only once the
  // paragraph exists; @unchecked Sendable for that reason.
  private(set) var count: Int
  let scalars: UnsafeMutablePointer<UInt32>
  let classes: UnsafeMutablePointer<BidiClass>
  let levels: UnsafeMutablePointer<UInt8>
  /// The classes that occur in the paragraph.
  private(set) var present = BidiClassSet(bits: 0)
  /// The positions of the paired brackets (Bidi_Paired_Bracket_Type not
  /// None), in order: `bracketPositions[0..<bracketCount]`.
  let bracketPositions: UnsafeMutablePointer<Int32>
  private(set) var bracketCount = 0
  /// The positions of the characters past U+FFFF (two UTF-16 units), in
  /// order: `astralPositions[0..<astralCount]`.
  let astralPositions: UnsafeMutablePointer<Int32>
  private(set) var astralCount = 0
  /// The length of the paragraph in UTF-8 bytes and in UTF-16 units.
  private(set) var utf8Length = 0
  var utf16Length: Int { count + astralCount }
  /// True when some character is a paired bracket.
  var hasBrackets: Bool { bracketCount > 0 }
  var paragraphLevel: UInt8 = 0
  /// True when every character resolved to `paragraphLevel` and none was
  /// removed, so that every line is one run in logical or reverse order.
  var isUniform = false

  static let removedBit: UInt8 = 0x80

  /// The arrays' memory, one block kept per thread from paragraph to
  /// paragraph (256 KiB: paragraphs up to about 18,000 characters).
  private static let blocks = ThreadKeptBlock(limit: 1 << 18)

  /// The number of characters the arrays have room for.
  let capacity: Int
  /// Scratch memory for the resolution of a paragraph of up to `capacity`
  /// characters (`ParagraphResolver.scratchSize`), in the arrays' block,
  /// or nil: a storage that is used again (`reused(utf8:)`) keeps it.
  let scratch: UnsafeMutableRawPointer?

  /// Room for `capacity` characters, and for their resolution's scratch
  /// memory `withScratch`; `count` is set by the caller.
  @inline(__always)
  private init(capacity: Int, withScratch: Bool = false) {
    self.count = capacity
    let n = max(capacity, 1)
    self.capacity = n
    // The slack past the levels is for the word reads of `ClassScan`; the
    // scratch memory starts 16-byte aligned after it.
    let arrays = (n * 14 + ClassScan.slack + 15) & ~15
    let raw = Self.blocks.take(arrays + (withScratch ? ParagraphResolver.largestScratchSize(n) : 0))
    scratch = withScratch ? raw + arrays : nil
    scalars = raw.bindMemory(to: UInt32.self, capacity: n)
    bracketPositions = (raw + n * 4).bindMemory(to: Int32.self, capacity: n)
    astralPositions = (raw + n * 8).bindMemory(to: Int32.self, capacity: n)
    classes = (raw + n * 12).bindMemory(to: BidiClass.self, capacity: n)
    levels = (raw + n * 13).bindMemory(to: UInt8.self, capacity: n)
  }

  deinit {
    Self.blocks.give(UnsafeMutableRawPointer(scalars))
  }

  /// The mark a character from an ill-formed UTF-8 maximal subpart of
  /// `length` bytes (1...3) holds instead of a scalar value: class ON, one
  /// U+FFFD (`PositionEncoding.width` reads its length back).
  @inline(__always)
  static func illFormedMark(length: Int) -> UInt32 { 0x11_0000 | UInt32(truncatingIfNeeded: length) }

  /// Copies scalar values and looks up their classes; a value past
  /// U+10FFFF is kept as the mark of a one-byte ill-formed sequence.
  convenience init(scalars input: UnsafeBufferPointer<UInt32>) {
    self.init(capacity: input.count)
    var stored = Stored(self)
    var bytes = 0
    for i in 0..<input.count {
      let scalar = input[i] <= 0x10_FFFF ? input[i] : Self.illFormedMark(length: 1)
      stored.store(scalar, at: i)
      let width = BidiEncoding.utf8.width(scalar)
      bytes &+= width
      if width == 4 { stored.addAstral(i) }
    }
    record(stored, utf8Length: bytes)
  }

  /// Decodes UTF-8 (`UTF8Decoder`: one character per scalar or ill-formed
  /// maximal subpart) and looks up the classes.
  convenience init(utf8 input: UnsafeBufferPointer<UInt8>) {
    // There are at most as many characters as bytes.
    self.init(capacity: input.count)
    decode(utf8: input)
  }

  /// Decodes `input` into the arrays (room for `input.count` characters),
  /// as `init(utf8:)` does: every property that describes the characters
  /// is set again.
  @inline(__always)
  private func decode(utf8 input: UnsafeBufferPointer<UInt8>) {
    var stored = Stored(self)
    var i = 0
    if input.count >= Self.vectorDecodeMinimum && cbs_vector_decode() != 0 {
      i = decodeInRounds(input, &stored)
    } else {
      UTF8Decoder.forEachSequence(input) { decoded in
        stored.store(decoded.isValid ? decoded.value : Self.illFormedMark(length: decoded.length), at: i)
        if decoded.length == 4 { stored.addAstral(i) }
        i &+= 1
      }
    }
    count = i
    record(stored, utf8Length: input.count)
  }

  /// The shortest text decoded by `decodeInRounds`.
  static let vectorDecodeMinimum = 32

  /// The start of the properties of U+2000…U+207F in `ubd_blocks`.
  private static let generalPunctuation = ubd_block_start(0x2000)

  /// Decodes `input` as `decode(utf8:)` does, 64 bytes a round with
  /// AVX-512 (`cbs_decode_classes`) where its sequences are ASCII, two
  /// bytes or U+2000…U+207F, else with `UTF8Decoder` up to 64 bytes on;
  /// returns the number of characters.
  private func decodeInRounds(_ input: UnsafeBufferPointer<UInt8>, _ stored: inout Stored) -> Int {
    guard let base = input.baseAddress else { return 0 }
    let n = input.count
    var i = 0
    var at = 0
    let properties = ubd_property_bytes()!
    let classBytes = UnsafeMutableRawPointer(classes).assumingMemoryBound(to: UInt8.self)
    while at < n {
      i &+= cbs_decode_classes(
        base, n, &at, i, scalars, classBytes, bracketPositions, &stored.brackets, &stored.bits, properties,
        Self.generalPunctuation)
      // The sequences it leaves, one by one, up to 64 bytes on.
      let stop = min(n, at &+ 64)
      while at < stop {
        let decoded = UTF8Decoder.decode(input, at: at)
        stored.store(decoded.isValid ? decoded.value : Self.illFormedMark(length: decoded.length), at: i)
        if decoded.length == 4 { stored.addAstral(i) }
        i &+= 1
        at &+= decoded.length
      }
    }
    return i
  }

  /// The storage kept per thread by `reused(utf8:)` and `keep(_:)`.
  private static let kept = ThreadKeptObject<ParagraphStorage>()

  /// The most characters a kept storage holds: its block (the arrays and
  /// the scratch memory, about 39 bytes a character) at most about
  /// 256 KiB, as `blocks` keeps.
  private static let keptCapacityLimit = 6_500

  /// The thread's kept storage (`keep(_:)`) with `input` decoded into it
  /// when it has room, else a new storage with room for a few more
  /// characters, for lines of one document analysed one after the other:
  /// no object or arrays to allocate and free for each.
  static func reused(utf8 input: UnsafeBufferPointer<UInt8>) -> ParagraphStorage {
    if let storage = kept.take(), storage.capacity >= input.count {
      storage.decode(utf8: input)
      return storage
    }
    let storage = ParagraphStorage(capacity: max(input.count + input.count / 4, 256), withScratch: true)
    storage.decode(utf8: input)
    return storage
  }

  /// Keeps `storage` for the thread's next `reused(utf8:)`, unless something
  /// else still refers to it (a paragraph or line made from it) or it is
  /// large.
  static func keep(_ storage: inout ParagraphStorage) {
    guard isKnownUniquelyReferenced(&storage), storage.capacity <= keptCapacityLimit else { return }
    kept.give(storage)
  }

  /// What the initialisers store of each character, with the arrays in
  /// locals: a store of a class byte could otherwise alias the properties
  /// that hold them, which would be reloaded for every character.
  struct Stored {
    let scalars: UnsafeMutablePointer<UInt32>
    let classes: UnsafeMutablePointer<BidiClass>
    let bracketPositions: UnsafeMutablePointer<Int32>
    let astralPositions: UnsafeMutablePointer<Int32>
    var bits: UInt32 = 0
    var brackets = 0
    var astral = 0

    init(_ storage: ParagraphStorage) {
      scalars = storage.scalars
      classes = storage.classes
      bracketPositions = storage.bracketPositions
      astralPositions = storage.astralPositions
    }

    /// Stores character `i`: its scalar and class, and what the paragraph
    /// records of it (the classes present, bracket positions).
    @inline(__always)
    mutating func store(_ scalar: UInt32, at i: Int) {
      // One lookup without the index for code points below U+0800.
      let properties = ubd_properties(scalar)
      scalars[i] = scalar
      let c = BidiClass(propertyByte: properties)
      classes[i] = c
      bits |= c.bit
      if properties & 0x60 != 0 {
        bracketPositions[brackets] = Int32(truncatingIfNeeded: i)
        brackets &+= 1
      }
    }

    /// Records character `i`, past U+FFFF.
    @inline(__always)
    mutating func addAstral(_ i: Int) {
      astralPositions[astral] = Int32(truncatingIfNeeded: i)
      astral &+= 1
    }
  }

  private func record(_ stored: Stored, utf8Length: Int) {
    present = BidiClassSet(bits: stored.bits)
    bracketCount = stored.brackets
    astralCount = stored.astral
    self.utf8Length = utf8Length
  }

  /// True when every scalar takes one unit of `encoding`.
  @inline(__always)
  func unitsAreCharacters(_ encoding: BidiEncoding) -> Bool {
    switch encoding {
    case .utf32: return true
    case .utf16: return astralCount == 0
    case .utf8: return utf8Length == count
    }
  }

  /// The number of characters past U+FFFF before character `i`.
  @inline(__always)
  func astralCount(before i: Int) -> Int { Self.astralCount(before: i, astralPositions, astralCount) }

  /// `astralCount(before:)` from the positions (`count` of them).
  @inline(__always)
  static func astralCount(before i: Int, _ astralPositions: UnsafePointer<Int32>, _ count: Int) -> Int {
    guard count > 0 else { return 0 }
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) >> 1
      if Int(astralPositions[middle]) < i { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The number of units of the characters `range`.
  func unitCount(_ range: Range<Int>, in encoding: BidiEncoding) -> Int {
    if unitsAreCharacters(encoding) { return range.count }
    if range == 0..<count { return encoding == .utf8 ? utf8Length : utf16Length }
    if encoding == .utf16 {
      return range.count + astralCount(before: range.upperBound) - astralCount(before: range.lowerBound)
    }
    var total = 0
    for i in range { total &+= encoding.width(scalars[i]) }
    return total
  }

  @inline(__always)
  func isRemoved(_ i: Int) -> Bool { levels[i] & Self.removedBit != 0 }
}
