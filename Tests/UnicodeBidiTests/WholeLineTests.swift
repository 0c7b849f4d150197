import BidiTestSupport
import UnicodeBidi
import XCTest

/// `BidiParagraph.writeLineVisualUTF8NamingKeptControls`, the visual order
/// `bidi-lsp check` quotes, whose runs (L1–L2) are found on the stack
/// without making the line (`LineLayout.withWholeLineRuns`), against a
/// plain reference: L1 and the removed characters' levels
/// (`PropertyTests.referenceLineLevels`), L2 character by character
/// (`PropertyTests.referenceOrder`), each kept control by its name.
final class WholeLineTests: XCTestCase {
  /// The reference: the characters in visual order, those X9 removes left
  /// out, the controls it keeps written `<RLI>`, L4's mirrored glyphs at
  /// odd levels.
  static func reference(_ text: [UInt32], _ paragraph: BidiParagraph) -> [UInt8] {
    let levels = paragraph.levels(in: .utf32)
    let line = PropertyTests.referenceLineLevels(text, 0..<text.count, levels, paragraph.level)
    let kept = text.indices.filter { !levels[$0].isRemoved }.map { (index: $0, level: line[$0]) }
    var result = ""
    for i in PropertyTests.referenceOrder(kept) {
      if let control = BidiControl(scalar: text[i]) {
        result += "<\(control.shortName)>"
        continue
      }
      let shown = line[i] & 1 == 1 ? BidiProperties.mirroringGlyph(text[i]) ?? text[i] : text[i]
      result.unicodeScalars.append(Unicode.Scalar(shown)!)
    }
    return Array(result.utf8)
  }

  /// What the writer writes for `utf8`, in a buffer of the documented bound.
  static func written(_ utf8: [UInt8], direction: DirectionChoice) -> [UInt8] {
    let paragraph = BidiParagraph(utf8: utf8, direction: direction)
    let bound = max(BidiLine.visualUTF8Bound(utf8Length: utf8.count), 1)
    return [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
      initialized = paragraph.writeLineVisualUTF8NamingKeptControls(to: buffer.baseAddress!)
    }
  }

  /// Random lines of every class, short and of more than 64 characters
  /// (several words of change masks), with trailing whitespace and
  /// isolates at and off the paragraph level, with and without the
  /// controls X9 removes and the separators (which take `LineLayout`'s
  /// copy of the levels instead), in the three directions: the bytes of
  /// the reference, and those of the line made and written
  /// (`BidiLine.writeVisualUTF8NamingKeptControls`).
  func testWholeLineMatchesTheReference() {
    var random = SeededGenerator(seed: 0x57_484F_4C45)
    let removedByX9: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0xAD, 0x200D]
    let separators: Set<UInt32> = [0x09]
    var several = 0
    var trailingRuns = 0
    for round in 0..<1200 {
      var pool = PropertyTests.pool + [0x61C, 0x20, 0x20, 0x2069]
      if round % 3 != 0 { pool = pool.filter { !separators.contains($0) } }
      if round % 4 == 1 { pool = pool.filter { !removedByX9.contains($0) } }
      let length = round % 2 == 0 ? Int.random(in: 0...30, using: &random) : Int.random(in: 60...300, using: &random)
      var text = (0..<length).map { _ in pool.randomElement(using: &random) ?? 0x20 }
      // Whitespace and isolate controls at the end (L1), now and then.
      if round % 5 == 0 { text += [0x20, 0x2067, 0x20] }
      let utf8 = PropertyTests.encodeUTF8(text)
      for direction in PropertyTests.directions {
        let paragraph = BidiParagraph(utf8: utf8, direction: direction)
        let expected = Self.reference(text, paragraph)
        let context = "\(text) \(direction)"
        XCTAssertEqual(Self.written(utf8, direction: direction), expected, context)
        let line = paragraph.line()
        let bound = max(BidiLine.visualUTF8Bound(utf8Length: utf8.count), 1)
        let made = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
          initialized = line.writeVisualUTF8NamingKeptControls(to: buffer.baseAddress!)
        }
        XCTAssertEqual(made, expected, context)
        let runCount = line.runs(in: .utf32).count
        if runCount > 1 { several += 1 }
        let last = text.last.map { BidiProperties.bidiClass($0) }
        if last == .WS || last == .RLI, runCount > 1 { trailingRuns += 1 }
      }
    }
    XCTAssertGreaterThan(several, 1500, "the generator should make lines of several runs")
    XCTAssertGreaterThan(trailingRuns, 200, "the generator should end lines in whitespace")
  }

  /// A few lines by hand: empty, one run, uniform, a run at the paragraph
  /// level after the trailing whitespace.
  func testSmallLines() {
    let cases: [(String, DirectionChoice, String)] = [
      ("", .auto, ""),
      ("abc", .auto, "abc"),
      ("אבג", .auto, "גבא"),
      ("abc אבג ", .leftToRight, "abc גבא "),
      ("אבג abc ", .rightToLeft, " abc גבא"),
      ("a \u{2067}אב\u{2069} ", .leftToRight, "a <RLI>בא<PDI> "),
      ("(א)", .rightToLeft, "(א)"),
    ]
    for (text, direction, visual) in cases {
      XCTAssertEqual(Self.written(Array(text.utf8), direction: direction), Array(visual.utf8), text)
    }
  }
}
