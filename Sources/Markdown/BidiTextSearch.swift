import ByteWords
import UnicodeBidi

/// The search for what a Markdown document's bidi findings come from. Its
/// findings are `bidi.blockDirection` (a block with a right-to-left letter),
/// §5's hazards and `bidi.inIdentifier` (a bidi control) and
/// `bidi.invalidUtf8`: a document whose text holds none of those — as
/// characters or as character references (`&#x202E;`, `&rlm;`), which
/// rendering decodes — raises none, and `check` need not read its blocks.
/// Most Markdown in a repository is such a document (English
/// documentation, changelogs).
package enum BidiTextSearch {
  /// The offset of the first character of `bytes` that a bidi finding could
  /// come from, or nil when there is none: an ill-formed sequence, a
  /// character of class R, AL or AN, a bidi control (LRM included), a
  /// paragraph separator (class B but a line feed or carriage return, as
  /// those are in every text; U+001C…U+001E, U+0085, U+2029),
  /// or a character reference (`Entities.decode`) that spells one.
  /// Eight bytes at a time while they are ASCII with no `&` and no
  /// U+001C…U+001E (`stops`).
  package static func firstBidiText(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var i = 0
    while i < count {
      // To the first byte past ASCII, `&` or U+001C…U+001E.
      while i &+ 8 <= count {
        let flags = stops(ByteWord.load(base, i))
        if flags != 0 {
          i &+= ByteWord.firstFlagged(flags)
          break
        }
        i &+= 8
      }
      guard i < count else { return nil }
      let byte = base[i]
      if byte >= 0x80 {
        let decoded = UTF8Decoder.decode(bytes, at: i)
        if !decoded.isValid || isBidiScalar(decoded.value) { return i }
        i &+= decoded.length
        continue
      }
      if byte >= 0x1C && byte <= 0x1E { return i }
      if byte == UInt8(ascii: "&"), let reference = Entities.decode(bytes, at: i &+ 1, end: count),
        spellsBidiText(reference.value)
      {
        return i
      }
      i &+= 1
    }
    return nil
  }

  /// A flag on each byte of `word` the search stops at — a byte past
  /// ASCII, `&`, U+001C…U+001E — exact up to the first: the additions and
  /// the subtraction carry only from a byte past ASCII or a borrowing `&`,
  /// into the bytes after it.
  @inline(__always)
  static func stops(_ word: UInt64) -> UInt64 {
    let separators = (word &+ ByteWord.broadcast(0x64)) & ~(word &+ ByteWord.broadcast(0x61))
    return ((word | separators) & ByteWord.highBits) | ByteWord.firstZeroBytes(word ^ ByteWord.broadcast(0x26))
  }

  /// Whether a character can raise a bidi finding in a text that holds it
  /// (see `firstBidiText`).
  @inline(__always)
  package static func isBidiScalar(_ scalar: UInt32) -> Bool {
    if scalar == 0x200E { return true }  // LRM, of class L
    switch BidiClass(scalar) {
    case .R, .AL, .AN, .LRE, .LRO, .RLE, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI: return true
    case .B: return scalar != 0x0A && scalar != 0x0D  // line breaks are in every text
    default: return false
    }
  }

  /// Whether a character reference's UTF-8 holds such a character.
  private static func spellsBidiText(_ value: [UInt8]) -> Bool {
    value.withUnsafeBufferPointer { value in
      var k = 0
      while k < value.count {
        let decoded = UTF8Decoder.decode(value, at: k)
        if isBidiScalar(decoded.value) { return true }
        k += decoded.length
      }
      return false
    }
  }
}
