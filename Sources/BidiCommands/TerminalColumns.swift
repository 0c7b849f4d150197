import UnicodeBidi

/// How many terminal columns text takes, as `--width` counts them: a small
/// approximation of `wcwidth(3)` that needs no table beyond the bidi
/// classes. Combining marks (class NSM: General_Category Mn and Me) and
/// characters X9 removes (class BN, the explicit embeddings and overrides)
/// take none, nor do the isolates and the marks LRM, RLM and ALM; East
/// Asian Wide and Fullwidth characters (the blocks `isWide` lists) take
/// two; a tab moves to the next multiple of 8; every other character takes
/// one. Terminals differ on emoji and on rarer scripts, so a right-aligned
/// line may be off by a column there.
enum TerminalColumns {
  /// The columns of `text`, UTF-8 as written (well-formed: the renderer
  /// writes U+FFFD for ill-formed input).
  static func count(_ text: UnsafeBufferPointer<UInt8>) -> Int {
    var columns = 0
    var i = 0
    while i < text.count {
      let b = text[i]
      if b < 0x80 {
        if b == 0x09 {
          columns = (columns / 8 + 1) * 8
        } else if b >= 0x20 && b != 0x7F {
          columns += 1
        }
        i += 1
        continue
      }
      let decoded = UTF8Decoder.decode(text, at: i)
      i += decoded.length
      columns += width(decoded.value)
    }
    return columns
  }

  /// The columns of one character that is not ASCII.
  static func width(_ scalar: UInt32) -> Int {
    if isWide(scalar) { return 2 }
    switch BidiProperties.bidiClass(scalar) {
    case .NSM, .BN, .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI: return 0
    default: return BidiControl(scalar: scalar) == nil ? 1 : 0
    }
  }

  /// East Asian Wide (W) and Fullwidth (F) characters, by block: Hangul
  /// Jamo leading consonants, CJK radicals to CJK symbols, kana, CJK
  /// ideographs and their extensions, Yi, Hangul syllables, CJK
  /// compatibility ideographs and forms, fullwidth forms, and the emoji
  /// blocks that terminals draw two columns wide.
  static func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
      0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
      0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
