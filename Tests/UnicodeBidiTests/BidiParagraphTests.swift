import BidiTestSupport
import UnicodeBidi
import XCTest

final class BidiParagraphTests: XCTestCase {
  func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
  func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

  func testPropertyLookups() {
    XCTAssertEqual(BidiProperties.bidiClass(0x61), .L)
    XCTAssertEqual(BidiProperties.bidiClass(0x5D0), .R)
    XCTAssertEqual(BidiProperties.bidiClass(0x627), .AL)
    XCTAssertEqual(BidiProperties.bidiClass(0x2067), .RLI)
    // Unassigned code points take the defaults of DerivedBidiClass.txt's
    // @missing lines.
    XCTAssertEqual(BidiProperties.bidiClass(0x5FF), .R)
    XCTAssertEqual(BidiProperties.bidiClass(0x20CF), .ET)
    XCTAssertEqual(BidiProperties.bidiClass(0xFDD0), .BN)
    XCTAssertEqual(BidiProperties.bidiClass(0x110000), .ON)
    XCTAssertEqual(BidiProperties.mirroringGlyph(0x28), 0x29)
    XCTAssertEqual(BidiProperties.mirroringGlyph(0x2264), 0x2265)
    XCTAssertNil(BidiProperties.mirroringGlyph(0x61))
    XCTAssertEqual(BidiProperties.pairedBracket(0x2329)?.bracket, 0x232A)
    XCTAssertEqual(BidiProperties.pairedBracket(0x2329)?.type, .open)
    XCTAssertEqual(BidiProperties.pairedBracket(0x3009)?.type, .close)
    XCTAssertNil(BidiProperties.pairedBracket(0x3C))
  }

  /// Isolating run sequences whose strong types all have the embedding
  /// direction need no W1–I2, unless sos or an NSM or a number brings the
  /// other direction in (X10 with N1, W1, W7).
  func testSequencesOfTheEmbeddingDirectionOnly() {
    func levels(_ text: String) -> String {
      BidiParagraph(utf8: utf8(text)).levels(in: .utf32).map(\.description).joined()
    }
    // A space at level 1 between two LRE…PDF: sos and eos are L (N1).
    XCTAssertEqual(levels("\u{5D0}\u{202A}a\u{202C} \u{202A}b\u{202C}"), "1x2x2x2x")
    // An NSM after sos L takes L (W1), then I2.
    XCTAssertEqual(levels("\u{5D0}\u{202A}a\u{202C}\u{5B0}\u{5D0}"), "1x2x21")
    // EN after sos R stays EN (W7), then I1.
    XCTAssertEqual(levels("a\u{202B}\u{5D0}\u{202C}1 b"), "0x1x200")
    // One direction throughout: every character at its explicit level.
    XCTAssertEqual(levels("\u{5D0}\u{2067}\u{5D1} \u{5D2}\u{2069}"), "113331")
    XCTAssertEqual(levels("\u{5D0} \u{202A}a, b\u{202C}"), "11x2222x")
  }

  func testFirstStrongSkipsIsolates() {
    let text = "12 \u{2067}\u{5D0}\u{2069} b\u{5D1}"
    let found = BidiParagraph.firstStrong(scalars: scalars(text))
    XCTAssertEqual(found, FirstStrong(direction: .leftToRight, offset: 7))
    let bytes = BidiParagraph.firstStrong(utf8: utf8(text))
    XCTAssertEqual(bytes, FirstStrong(direction: .leftToRight, offset: 12))
    XCTAssertEqual(BidiParagraph.firstStrong(scalars: scalars("12 \u{627}")).direction, .rightToLeft)
    XCTAssertEqual(BidiParagraph.firstStrong(scalars: scalars("12 ()")), FirstStrong(direction: nil, offset: nil))
    // An unmatched isolate initiator hides the rest of the paragraph.
    XCTAssertNil(BidiParagraph.firstStrong(scalars: scalars("\u{2068}abc")).direction)
  }

  func testParagraphRangesSplitAtParagraphSeparators() {
    let text = "a\u{2029}b\r\nc\n"
    XCTAssertEqual(BidiParagraph.paragraphRanges(utf8: utf8(text)), [0..<4, 4..<7, 7..<9])
    XCTAssertEqual(BidiParagraph.paragraphRanges(scalars: scalars(text)), [0..<2, 2..<5, 5..<7])
    XCTAssertEqual(BidiParagraph.paragraphRanges(utf8: utf8("ab")), [0..<2])
    XCTAssertEqual(BidiParagraph.paragraphRanges(utf8: []), [])
  }

  func testMixedTextInEveryEncoding() throws {
    // "a א𐤀" : 'a', space, HEBREW ALEF (2 bytes), PHOENICIAN ALF (4 bytes, 2 UTF-16 units).
    let text = "a \u{5D0}\u{10900}"
    let paragraph = BidiParagraph(utf8: utf8(text))
    XCTAssertEqual(paragraph.direction, .leftToRight)
    XCTAssertEqual(paragraph.characterCount, 4)
    XCTAssertEqual(paragraph.length(in: .utf8), 8)
    XCTAssertEqual(paragraph.length(in: .utf16), 5)
    let line = paragraph.line()
    XCTAssertEqual(line.levels(in: .utf32).map(\.rawValue), [0, 0, 1, 1])
    XCTAssertEqual(line.levels(in: .utf8).map(\.rawValue), [0, 0, 1, 1, 1, 1, 1, 1])
    XCTAssertEqual(line.visualOrder(in: .utf32), [0, 1, 3, 2])
    XCTAssertEqual(line.visualOrder(in: .utf16), [0, 1, 3, 4, 2])
    XCTAssertEqual(line.visualOrder(in: .utf8), [0, 1, 4, 5, 6, 7, 2, 3])
    XCTAssertEqual(line.visualToLogical(in: .utf8), [0, 1, 4, 5, 6, 7, 2, 3])
    XCTAssertEqual(line.logicalToVisual(in: .utf8), [0, 1, 6, 7, 2, 3, 4, 5])
    XCTAssertEqual(
      line.runs(in: .utf8), [BidiRun(start: 0, end: 2, level: 0), BidiRun(start: 2, end: 8, level: 1)])
    XCTAssertEqual(line.range(in: .utf16), 0..<5)
    XCTAssertNil(line.uniformLevel)
  }

  func testDisplayLinesApplyL1ByThemselves() throws {
    // An LTR paragraph of two Hebrew words: as one line the space between
    // them is at level 1; wrapped after the space, the space ends its line
    // and goes back to level 0 (L1).
    let paragraph = BidiParagraph(scalars: scalars("\u{5D0}\u{5D1} \u{5D2}\u{5D3}"), direction: .leftToRight)
    let whole = paragraph.line()
    XCTAssertEqual(whole.levels(in: .utf32).map(\.rawValue), [1, 1, 1, 1, 1])
    XCTAssertEqual(whole.visualOrder(in: .utf32), [4, 3, 2, 1, 0])
    let lines = try paragraph.lines(breaks: [3], in: .utf32)
    XCTAssertEqual(lines.count, 2)
    XCTAssertEqual(lines[0].levels(in: .utf32).map(\.rawValue), [1, 1, 0])
    XCTAssertEqual(lines[0].visualOrder(in: .utf32), [1, 0, 2])
    XCTAssertEqual(lines[0].logicalToVisual(in: .utf32), [1, 0, 2])
    XCTAssertEqual(lines[1].range(in: .utf32), 3..<5)
    XCTAssertEqual(lines[1].visualOrder(in: .utf32), [4, 3])
    XCTAssertEqual(lines[1].visualToLogical(in: .utf32), [4, 3])
    XCTAssertEqual(lines[1].logicalToVisual(in: .utf32), [1, 0])
    XCTAssertEqual(lines[1].uniformLevel, 1)
    // The same lines from UTF-8 offsets.
    let fromBytes = try BidiParagraph(utf8: utf8("\u{5D0}\u{5D1} \u{5D2}\u{5D3}"), direction: .leftToRight)
      .line(5..<9, in: .utf8)
    XCTAssertEqual(fromBytes.visualOrder(in: .utf8), [7, 8, 5, 6])
    XCTAssertEqual(fromBytes.range(in: .utf32), 3..<5)
  }

  func testBadOffsetsAreErrors() {
    let paragraph = BidiParagraph(utf8: utf8("a \u{5D0}"))
    XCTAssertThrowsError(try paragraph.lines(breaks: [3], in: .utf8)) {
      XCTAssertEqual($0 as? BidiError, .offsetInsideCharacter(3))
    }
    XCTAssertThrowsError(try paragraph.lines(breaks: [5], in: .utf8)) {
      XCTAssertEqual($0 as? BidiError, .offsetOutOfRange(5))
    }
    XCTAssertThrowsError(try paragraph.lines(breaks: [2, 1], in: .utf8)) {
      XCTAssertEqual($0 as? BidiError, .offsetsNotIncreasing(1))
    }
    XCTAssertThrowsError(try paragraph.line(2..<9, in: .utf8)) {
      XCTAssertEqual($0 as? BidiError, .offsetOutOfRange(9))
    }
    XCTAssertEqual(try paragraph.line(2..<2, in: .utf8).visualOrder(in: .utf8), [])
    XCTAssertEqual(try paragraph.lines(breaks: [0, 2, 2, 4], in: .utf8).count, 2)
  }

  func testRemovedCharactersJoinThePrecedingRun() {
    // a RLE b PDF c: b is at level 2 inside the embedding.
    let line = BidiParagraph(scalars: scalars("a\u{202B}b\u{202C}c"), direction: .leftToRight).line()
    XCTAssertEqual(line.levels(in: .utf32).map(\.description), ["0", "x", "2", "x", "0"])
    XCTAssertEqual(
      line.runs(in: .utf32),
      [BidiRun(start: 0, end: 2, level: 0), BidiRun(start: 2, end: 4, level: 2), BidiRun(start: 4, end: 5, level: 0)])
    XCTAssertEqual(line.visualOrder(in: .utf32), [0, 2, 4])
    XCTAssertEqual(line.logicalToVisual(in: .utf32), [0, 1, 2, 3, 4])
  }

  func testMirroredGlyphsAtOddLevels() {
    let line = BidiParagraph(scalars: scalars("(\u{5D0}\u{5D1})"), direction: .rightToLeft).line()
    XCTAssertEqual(line.visualOrder(in: .utf32), [3, 2, 1, 0])
    XCTAssertEqual(line.visualScalars(), [0x28, 0x5D1, 0x5D0, 0x29])
    XCTAssertEqual(line.visualScalars(mirrored: false), [0x29, 0x5D1, 0x5D0, 0x28])
    let ltr = BidiParagraph(scalars: scalars("a(b)")).line()
    XCTAssertEqual(ltr.visualScalars(), scalars("a(b)"))
  }

  func testCombiningMarksStayAfterTheirBaseWithL3() {
    // ALEF, QAMATS (NSM), BET in an RTL paragraph.
    let text = scalars("\u{5D0}\u{5B8}\u{5D1}")
    XCTAssertEqual(BidiParagraph(scalars: text).line().visualOrder(in: .utf32), [2, 1, 0])
    let marks = BidiParagraph(scalars: text).line(combiningMarks: .afterBase)
    XCTAssertEqual(marks.visualOrder(in: .utf32), [2, 0, 1])
    XCTAssertEqual(marks.logicalToVisual(in: .utf32), [1, 2, 0])
  }

  func testIllFormedUTF8IsOneCharacterPerMaximalSubpart() {
    // FF alone, then E2 82 (a truncated three-byte sequence): one U+FFFD
    // each, as UTF8Decoder, LineUnits and String(decoding:) read them.
    let bytes: [UInt8] = [0x61, 0xFF, 0xD7, 0x90, 0xE2, 0x82]
    let paragraph = BidiParagraph(utf8: bytes)
    XCTAssertEqual(paragraph.characterCount, 4)
    XCTAssertEqual(paragraph.length(in: .utf8), 6)
    XCTAssertEqual(paragraph.length(in: .utf16), 4)
    XCTAssertEqual(paragraph.line().visualScalars(), [0x61, 0xFFFD, 0x5D0, 0xFFFD])
    XCTAssertEqual(
      paragraph.line().visualScalars(), String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value))
    // The subpart is one character of two bytes in UTF-8 offsets.
    XCTAssertEqual(paragraph.levels(in: .utf8).count, 6)
    XCTAssertThrowsError(try paragraph.line(0..<5, in: .utf8))
    XCTAssertEqual(try paragraph.line(0..<4, in: .utf8).range(in: .utf16), 0..<3)
    XCTAssertEqual(try paragraph.line(4..<6, in: .utf8).visualOrder(in: .utf8), [4, 5])
  }

  func testUniformLevelFastPath() {
    XCTAssertEqual(BidiParagraph.uniformLevel(utf8: utf8("let x = [1, 2]; // done\tfine")), 0)
    XCTAssertEqual(BidiParagraph.uniformLevel(utf8: utf8("caf\u{E9} \u{4E2D}\u{6587} \u{1F600}")), 0)
    XCTAssertNil(BidiParagraph.uniformLevel(utf8: utf8("let x = \u{7F}1;")))
    XCTAssertNil(BidiParagraph.uniformLevel(utf8: utf8("say \"\u{5E9}\u{5DC}\u{5D5}\u{5DD}\"")))
    XCTAssertNil(BidiParagraph.uniformLevel(utf8: utf8("abc"), direction: .rightToLeft))
    XCTAssertEqual(
      BidiParagraph.uniformLevel(utf8: utf8("\u{5E9}\u{5DC}\u{5D5}\u{5DD}, \u{5E2}\u{5D5}\u{5DC}\u{5DD}!")), 1)
    XCTAssertNil(BidiParagraph.uniformLevel(utf8: utf8("\u{5E9}\u{5DC}\u{5D5}\u{5DD} 42")))
    XCTAssertEqual(BidiParagraph.uniformLevel(scalars: scalars("(\u{627})"), direction: .rightToLeft), 1)
    XCTAssertEqual(BidiParagraph.uniformLevel(utf8: []), 0)
    // The lengths counted by the same scan, ill-formed bytes as UTF8Decoder
    // reads them (E2 82: one U+FFFD).
    let bytes: [UInt8] = Array("long enough ASCII, then ".utf8) + [0xE2, 0x82] + Array("\u{1F600} \u{E9}".utf8)
    let uniform = bytes.withUnsafeBufferPointer { BidiParagraph.uniform(utf8: $0) }
    let analysed = BidiParagraph(utf8: bytes)
    XCTAssertEqual(uniform?.level, 0)
    for encoding in BidiEncoding.allCases {
      XCTAssertEqual(uniform?.length(in: encoding), analysed.length(in: encoding), "\(encoding)")
    }
    XCTAssertEqual(uniform?.characterCount, 24 + 1 + 3)
    let paragraph = BidiParagraph(utf8: utf8("\u{5E9}\u{5DC}\u{5D5}\u{5DD}, \u{5E2}\u{5D5}\u{5DC}\u{5DD}!"))
    XCTAssertTrue(paragraph.isUniform)
    XCTAssertEqual(paragraph.line().uniformLevel, 1)
  }

  func testHostileInputResolvesInLinearTime() {
    // Nested FSIs without a strong character, unclosed brackets, deep
    // embeddings and isolates past the maximum depth: each must finish
    // quickly (a quadratic algorithm would take minutes) and stay consistent.
    let count = 100_000
    let inputs: [[UInt32]] = [
      [UInt32](repeating: 0x2068, count: count) + [0x61],
      [UInt32](repeating: 0x28, count: count) + [0x5D0, 0x29],
      (0..<count).map { $0 % 3 == 0 ? 0x202B : $0 % 3 == 1 ? 0x2067 : 0x5D0 },
      (0..<count).map { $0 % 2 == 0 ? 0x28 : 0x5D0 } + [UInt32](repeating: 0x29, count: count / 2),
    ]
    for text in inputs {
      let line = BidiParagraph(scalars: text).line()
      let toVisual = line.logicalToVisual(in: .utf32)
      XCTAssertEqual(toVisual.count, text.count)
      XCTAssertEqual(Set(toVisual).count, text.count)
      XCTAssertLessThanOrEqual(line.levels(in: .utf32).compactMap(\.value).max() ?? 0, 126)
    }
    // Random bytes are read as UTF-8 without trouble.
    var random = SeededGenerator(seed: 7)
    let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    let paragraph = BidiParagraph(utf8: bytes)
    XCTAssertEqual(paragraph.length(in: .utf8), count)
    XCTAssertEqual(paragraph.line().logicalToVisual(in: .utf8).sorted(), Array(0..<count))
  }
}
