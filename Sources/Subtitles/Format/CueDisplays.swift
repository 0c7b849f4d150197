import StructuredText
import UnicodeBidi

/// A cue line as the two kinds of player display it: laid out left to
/// right and right to left (UAX #9 at paragraph level 0 and 1), each the
/// text `ParagraphAnalysis.filledVisualText(direction:)` returns (marks
/// after their base, mirrored, bidi controls dropped), written as UTF-8
/// into one buffer: `bidi.cueDirection` compares them as bytes and quotes
/// one, with no `String` made for a line that displays the same both ways.
/// (The buffer is its own, freed with it: an array of bytes costs more to
/// make than a line's comparison.)
struct CueDisplays: ~Copyable {
  /// The line's UTF-8, then the display left to right, then right to left.
  private let bytes: UnsafeMutablePointer<UInt8>
  private let leftToRightRange: Range<Int>
  private let rightToLeftRange: Range<Int>
  /// How many characters the line has.
  private let characterCount: Int

  /// Whether the two displays differ.
  var differ: Bool {
    guard leftToRightRange.count == rightToLeftRange.count else { return true }
    let offset = rightToLeftRange.lowerBound - leftToRightRange.lowerBound
    for i in leftToRightRange where bytes[i] != bytes[i + offset] { return true }
    return false
  }

  deinit { bytes.deallocate() }

  /// Calls `body` with the display in `direction`.
  private func withDisplay<R>(_ direction: BidiDirection, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let range = direction == .leftToRight ? leftToRightRange : rightToLeftRange
    return body(UnsafeBufferPointer(start: bytes + range.lowerBound, count: range.count))
  }

  /// The display in `direction`, as a `String`.
  func text(_ direction: BidiDirection) -> String {
    withDisplay(direction) { String(decoding: $0, as: UTF8.self) }
  }

  /// `prefix`, the display in `direction` quoted as messages quote it
  /// (`ParagraphAnalysis.quotedVisualText`: a line of more than
  /// `quotedCharacterLimit` characters by its first display line), then
  /// `suffix`: one string, made at once.
  func quoting(
    _ direction: BidiDirection, of analysis: ParagraphAnalysis, after prefix: String, before suffix: String
  ) -> String {
    guard characterCount <= ParagraphAnalysis.quotedCharacterLimit else {
      return prefix + analysis.quotedVisualText(direction: direction) + suffix
    }
    var prefix = prefix
    var suffix = suffix
    return withDisplay(direction) { shown in
      prefix.withUTF8 { head in
        suffix.withUTF8 { tail in
          String(unsafeUninitializedCapacity: head.count + shown.count + tail.count) { output in
            var count = 0
            func copy(_ part: UnsafeBufferPointer<UInt8>) {
              guard let source = part.baseAddress else { return }
              (output.baseAddress! + count).update(from: source, count: part.count)
              count += part.count
            }
            copy(head)
            copy(shown)
            copy(tail)
            return count
          }
        }
      }
    }
  }

  /// Whether the paragraph of `scalars` is known to display the same both
  /// ways without resolving it: it starts with a right-to-left letter (R,
  /// AL), its last character but nonspacing marks is one, and it holds no
  /// L, no control, no segment or paragraph separator (`مرحبا بك`,
  /// `هل أنت بخير؟`). Then no rule that looks at sos, eos or the paragraph
  /// level applies (W1, W2 and W7 find a letter before sos, N1–N2 see one at
  /// each end, L1 finds no trailing whitespace): every character resolves
  /// to level 1, numbers (EN, AN) to 2, under either paragraph level (I1–I2).
  /// False says nothing.
  static func sameBothWays(_ scalars: [UInt32]) -> Bool {
    guard let first = scalars.first, BidiClass(first) == .R || BidiClass(first) == .AL else { return false }
    var lastIsLetter = false
    for scalar in scalars {
      switch BidiClass(scalar) {
      case .R, .AL: lastIsLetter = true
      case .NSM: continue
      case .EN, .AN, .ES, .ET, .CS, .WS, .ON: lastIsLetter = false
      default: return false
      }
    }
    return lastIsLetter
  }

  /// The displays of the paragraph of `scalars` (Unicode scalar values, as
  /// a projection holds them). The paragraph is resolved in the storage the
  /// thread keeps (`BidiParagraph.withReusedStorage`) and each display
  /// written with no line made (`writeLineVisualUTF8`).
  init(_ scalars: [UInt32]) {
    var utf8Count = 0
    for scalar in scalars { utf8Count += scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4 }
    let bound = BidiLine.visualUTF8Bound(utf8Length: utf8Count)
    let base = UnsafeMutablePointer<UInt8>.allocate(capacity: utf8Count + 2 * bound)
    let count = Self.encode(scalars, to: base)
    let utf8 = UnsafeBufferPointer(start: base, count: count)
    func write(_ direction: DirectionChoice, at start: Int) -> Range<Int> {
      let written = BidiParagraph.withReusedStorage(utf8: utf8, direction: direction) {
        $0.writeLineVisualUTF8(combiningMarks: .afterBase, mirrored: true, controls: .strip, to: base + start)
      }
      return start..<start + written
    }
    let leftToRight = write(.leftToRight, at: count)
    rightToLeftRange = write(.rightToLeft, at: leftToRight.upperBound)
    leftToRightRange = leftToRight
    bytes = base
    characterCount = scalars.count
  }

  /// Writes `scalars` as UTF-8 at `output`; returns how many bytes.
  private static func encode(_ scalars: [UInt32], to base: UnsafeMutablePointer<UInt8>) -> Int {
    var count = 0
    for scalar in scalars {
      // (Projections hold Unicode scalars: no surrogate.)
      switch scalar {
      case ..<0x80:
        base[count] = UInt8(truncatingIfNeeded: scalar)
        count += 1
      case ..<0x800:
        base[count] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
        base[count + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        count += 2
      case ..<0x10000:
        base[count] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
        base[count + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
        base[count + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        count += 3
      default:
        base[count] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
        base[count + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
        base[count + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
        base[count + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        count += 4
      }
    }
    return count
  }
}
