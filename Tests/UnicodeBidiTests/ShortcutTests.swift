import BidiTestSupport
import UnicodeBidi
import XCTest

/// The resolver's and the line layout's shortcuts compared with the plain
/// paths on random text: N0 resolved after a pass that already gave every
/// level (N1–I2 resolved again only around the brackets N0 changed)
/// against the three passes W1–W7, N0, N1–I2; and the lines of a paragraph
/// cut from its level runs found once (`lines(breaks:in:)`) against each
/// line made by itself (`line(_:in:)`).
final class ShortcutTests: XCTestCase {
  /// Brackets (paired, nested, unmatched, canonical equivalents), marks
  /// after them, letters of both directions, numbers, separators and
  /// neutrals, and the explicit controls (gathered sequences).
  static let bracketPool: [UInt32] = [
    0x28, 0x29, 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x2329, 0x3009, 0x3008, 0x232A, 0x61, 0x62, 0x5D0, 0x5D1,
    0x627, 0x628, 0x20, 0x20, 0x21, 0x2E, 0x300, 0x64B, 0x31, 0x32, 0x660, 0x24, 0x2C, 0x2D, 0x09, 0x2066,
    0x2067, 0x2068, 0x2069, 0x202A, 0x202B, 0x202C, 0x202E, 0x200F,
  ]
  /// Mostly letters of one direction and spaces with brackets around a
  /// few letters of the other: the pairs N0 resolves in text.
  static let proseBrackets: [UInt32] = [0x5D0, 0x627, 0x628, 0x20, 0x20, 0x28, 0x29, 0x61, 0x62, 0x31, 0x300, 0x2E]

  func testBracketsResolvedInOnePassAsInThree() {
    var random = SeededGenerator(seed: 0xB4AC)
    let directions: [DirectionChoice] = [.auto, .leftToRight, .rightToLeft]
    var compared = 0
    var raised = 0
    for k in 0..<6000 {
      let pool = k % 2 == 0 ? Self.bracketPool : Self.proseBrackets
      let bytes = PropertyTests.encodeUTF8(random.elements(of: pool, lengths: 0...80))
      for direction in directions {
        // Every sequence with brackets resolved locally, however short.
        let fast = BidiParagraph(
          utf8: bytes, direction: direction, shortcuts: [.stretches, .pairedBracketsLocallyAlways])
        let plain = BidiParagraph(utf8: bytes, direction: direction, shortcuts: .stretches)
        let levels = fast.levels(in: .utf32)
        XCTAssertEqual(levels, plain.levels(in: .utf32), "\(bytes) \(direction)")
        XCTAssertEqual(fast.isUniform, plain.isUniform, "\(bytes) \(direction)")
        compared += 1
        if levels.contains(where: { $0.value.map { $0 > fast.level } ?? false }) { raised += 1 }
      }
    }
    XCTAssertEqual(compared, 18000)
    XCTAssertGreaterThan(raised, 6000, "the generator should make mixed levels")
  }

  /// Paragraphs long enough, with few enough brackets, for the resolver to
  /// choose the local path by itself (`.all`).
  func testLongParagraphsWithFewBracketsAsInThreePasses() {
    var random = SeededGenerator(seed: 0x10C4)
    let words: [UInt32] = [0x5D0, 0x627, 0x628, 0x20, 0x20, 0x61, 0x62, 0x31, 0x300, 0x2E, 0x2067, 0x2069]
    var compared = 0
    for _ in 0..<1500 {
      var text = random.elements(of: words, lengths: 130...400)
      // A few brackets, at random places, around a few characters.
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let open = Int.random(in: 0..<text.count, using: &random)
        let close = min(text.count, open + Int.random(in: 1...12, using: &random))
        text.insert(0x29, at: close)
        text.insert(0x28, at: open)
      }
      let bytes = PropertyTests.encodeUTF8(text)
      for direction in [DirectionChoice.auto, .leftToRight, .rightToLeft] {
        let fast = BidiParagraph(utf8: bytes, direction: direction, shortcuts: .all)
        let plain = BidiParagraph(utf8: bytes, direction: direction, shortcuts: .stretches)
        XCTAssertEqual(fast.levels(in: .utf32), plain.levels(in: .utf32), "\(text) \(direction)")
        XCTAssertEqual(fast.isUniform, plain.isUniform, "\(text) \(direction)")
        compared += 1
      }
    }
    XCTAssertEqual(compared, 4500)
  }

  func testLinesOfAParagraphAsEachLineByItself() throws {
    var random = SeededGenerator(seed: 0x11E5)
    // Letters, spaces (the whitespace at the ends of lines), numbers,
    // brackets, isolates (L1 puts them at the paragraph level at a line's
    // end), a character past U+FFFF (two UTF-16 units), and now and then
    // an embedding, a BN or a segment separator, for which the lines are
    // made one by one.
    let pools: [[UInt32]] = [
      [0x61, 0x62, 0x5D0, 0x5D1, 0x627, 0x20, 0x20, 0x20, 0x31, 0x32, 0x28, 0x29, 0x2E, 0x2066, 0x2067, 0x2069],
      [0x5D0, 0x627, 0x628, 0x20, 0x20, 0x61, 0x31, 0x660, 0x1F600, 0x2C, 0x300],
      [0x61, 0x5D0, 0x20, 0x31, 0x2068, 0x2069, 0x202B, 0x202C, 0x200B, 0x09],
    ]
    var shared = 0
    for k in 0..<3000 {
      let scalars = random.elements(of: pools[k % 3], lengths: 1...90)
      let bytes = PropertyTests.encodeUTF8(scalars)
      for direction in [DirectionChoice.auto, .leftToRight, .rightToLeft] {
        let paragraph = BidiParagraph(utf8: bytes, direction: direction)
        let length = paragraph.length(in: .utf16)
        // Breaks at UTF-16 offsets that start a character.
        var starts: [Int] = []
        var offset = 0
        for scalar in scalars {
          if offset > 0 { starts.append(offset) }
          offset += scalar > 0xFFFF ? 2 : 1
        }
        let breaks = random.elements(of: starts.isEmpty ? [0] : starts, lengths: 0...6).sorted()
        let lines = try paragraph.lines(breaks: breaks, in: .utf16)
        var bounds = [0] + breaks.filter { $0 > 0 && $0 < length } + [length]
        bounds = bounds.enumerated().filter { $0.offset == 0 || $0.element != bounds[$0.offset - 1] }.map(\.element)
        XCTAssertEqual(lines.count, bounds.count - 1)
        if lines.count > 1 && !paragraph.isUniform { shared += 1 }
        for (j, line) in lines.enumerated() {
          let alone = try paragraph.line(bounds[j]..<bounds[j + 1], in: .utf16)
          let context = "\(scalars) \(direction) \(bounds)"
          XCTAssertEqual(line.uniformLevel, alone.uniformLevel, context)
          XCTAssertEqual(line.levels(in: .utf16), alone.levels(in: .utf16), context)
          XCTAssertEqual(line.runs(in: .utf16), alone.runs(in: .utf16), context)
          XCTAssertEqual(line.visualToLogical(in: .utf16), alone.visualToLogical(in: .utf16), context)
          XCTAssertEqual(line.visualOrder(in: .utf8), alone.visualOrder(in: .utf8), context)
          line.withLevels(in: .utf16) { levels in
            alone.withLevels(in: .utf16) { XCTAssertEqual(Array(levels), Array($0), context) }
          }
        }
      }
    }
    XCTAssertGreaterThan(shared, 3000, "the generator should make paragraphs of several mixed lines")
  }
}
