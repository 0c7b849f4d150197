import ByteWords
import UnicodeBidi

/// Line splitting for UTF-8 that is already known to be well-formed (a
/// Swift `String`, or a string jansson decoded and validated): the same
/// answer as `UTF8Decoder.scanLine`, without validating again, eight bytes
/// at a time whatever the script.
///
/// In well-formed UTF-8 a line's scalars are its bytes less its continuation
/// bytes (`10xxxxxx`), and its UTF-16 units are its scalars plus its
/// four-byte sequences (lead bytes `11110xxx`, the only bytes ≥ 0xF0), so
/// both are counted on whole words without decoding a character.
enum WellFormedLineScan {
  private static let ones = ByteWord.ones
  private static let highBits = ByteWord.highBits

  /// The content of the line that starts at `start` in `bytes` (well-formed
  /// UTF-8): up to the first `\n` or `\r`, or the end, with its UTF-16 and
  /// scalar counts.
  static func scanLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UTF8LineScan {
    guard let base = bytes.baseAddress else { return UTF8LineScan(contentEnd: 0, utf16Count: 0, scalarCount: 0) }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var i = start
    var tally = Tally()
    var end = count
    while i &+ 8 <= count {
      var word = ByteWord.load(raw, i)
      let breaks =
        ByteWord.firstZeroBytes(word ^ ByteWord.broadcast(0x0A))
        | ByteWord.firstZeroBytes(word ^ ByteWord.broadcast(0x0D))
      if breaks != 0 {
        // The lowest flagged byte is exact (a false flag only ever sits
        // above a true one): count the bytes before it, and stop there.
        let before = ByteWord.firstFlagged(breaks)
        word &= before == 0 ? 0 : ~0 >> (64 &- 8 &* UInt64(before))
        tally.add(word)
        end = i &+ before
        break
      }
      tally.add(word)
      i &+= 8
    }
    var continuations = tally.continuations
    var fourByteLeads = tally.fourByteLeads
    if end == count {
      while i < count {
        let byte = base[i]
        if byte == 0x0A || byte == 0x0D {
          end = i
          break
        }
        if byte & 0xC0 == 0x80 { continuations &+= 1 }
        if byte >= 0xF0 { fourByteLeads &+= 1 }
        i &+= 1
      }
    }
    let scalars = end &- start &- continuations
    return UTF8LineScan(contentEnd: end, utf16Count: scalars &+ fourByteLeads, scalarCount: scalars)
  }

  /// Continuation bytes and four-byte lead bytes of whole words, summed in
  /// eight byte lanes (no population count, which baseline x86-64 lacks)
  /// and folded into totals before a lane can overflow.
  private struct Tally {
    private var lanes: (continuations: UInt64, fourByteLeads: UInt64) = (0, 0)
    private var words = 0
    private var totals = (continuations: 0, fourByteLeads: 0)

    @inline(__always)
    mutating func add(_ word: UInt64) {
      let high = word & highBits
      guard high != 0 else { return }
      // Bit 7 of a byte shifted left by k is its bit 7 - k.
      let shifted = word << 1
      lanes.continuations &+= (high & ~shifted) >> 7
      lanes.fourByteLeads &+= (high & shifted & (word << 2) & (word << 3)) >> 7
      words &+= 1
      // Eight lanes of at most 31 each: their sum fits the top byte.
      if words == 31 { fold() }
    }

    @inline(__always)
    private mutating func fold() {
      totals.continuations &+= Int((lanes.continuations &* ones) >> 56)
      totals.fourByteLeads &+= Int((lanes.fourByteLeads &* ones) >> 56)
      lanes = (0, 0)
      words = 0
    }

    var continuations: Int { totals.continuations &+ Int((lanes.continuations &* ones) >> 56) }
    var fourByteLeads: Int { totals.fourByteLeads &+ Int((lanes.fourByteLeads &* ones) >> 56) }
  }
}
