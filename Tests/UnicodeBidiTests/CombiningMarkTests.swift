import BidiTestSupport
import UnicodeBidi
import XCTest

/// UAX #9 L3 (`CombiningMarkOrder.afterBase`): in a right-to-left run a base
/// and the combining marks after it keep their logical order, so each mark
/// is displayed after (left of) its base; levels and runs do not change.
final class CombiningMarkTests: XCTestCase {
  func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

  /// The visual order (UTF-32) of `text`'s whole-paragraph line with L3.
  func afterBase(_ text: String, direction: DirectionChoice = .auto) -> [Int] {
    BidiParagraph(scalars: scalars(text), direction: direction).line(combiningMarks: .afterBase)
      .visualOrder(in: .utf32)
  }

  func resolved(_ text: String, direction: DirectionChoice = .auto) -> [Int] {
    BidiParagraph(scalars: scalars(text), direction: direction).line().visualOrder(in: .utf32)
  }

  func testArabicHarakatFollowTheirLetters() {
    // KAF FATHA, TEH FATHA, BEH FATHA ("kataba").
    let text = "\u{643}\u{64E}\u{62A}\u{64E}\u{628}\u{64E}"
    XCTAssertEqual(resolved(text), [5, 4, 3, 2, 1, 0])
    XCTAssertEqual(afterBase(text), [4, 5, 2, 3, 0, 1])
  }

  func testArabicTanweenAndShaddaWithFatha() {
    // KAF TEH ALEF BEH DAMMATAN ("kitaabun"), then SPACE, MEEM SHADDA FATHA.
    let text = "\u{643}\u{62A}\u{627}\u{628}\u{64C} \u{645}\u{651}\u{64E}"
    XCTAssertEqual(resolved(text), [8, 7, 6, 5, 4, 3, 2, 1, 0])
    // Two marks on one base stay in logical order after it.
    XCTAssertEqual(afterBase(text), [6, 7, 8, 5, 3, 4, 2, 1, 0])
  }

  func testHebrewNiqqudSeveralMarksOnOneBase() {
    // SHIN SHIN-DOT QAMATS, LAMED, VAV HOLAM, FINAL MEM ("shalom").
    let text = "\u{5E9}\u{5C1}\u{5B8}\u{5DC}\u{5D5}\u{5B9}\u{5DD}"
    XCTAssertEqual(resolved(text), [6, 5, 4, 3, 2, 1, 0])
    XCTAssertEqual(afterBase(text), [6, 4, 5, 3, 0, 1, 2])
  }

  func testMarksInALeftToRightParagraphMoveOnlyInsideTheRightToLeftRun() {
    // "ab " then BET DAGESH, ALEF QAMATS, then " cd": only the Hebrew run
    // is reversed, its marks after their bases; the Latin is untouched.
    let text = "ab \u{5D1}\u{5BC}\u{5D0}\u{5B8} cd"
    XCTAssertEqual(resolved(text), [0, 1, 2, 6, 5, 4, 3, 7, 8, 9])
    XCTAssertEqual(afterBase(text), [0, 1, 2, 5, 6, 3, 4, 7, 8, 9])
    // A left-to-right run keeps every mark where it is: "e" + ACUTE.
    XCTAssertEqual(afterBase("e\u{301}\u{5D0}"), resolved("e\u{301}\u{5D0}"))
  }

  func testAMarkAtTheEndOfARunStaysWithItsBase() {
    // The mark ends the right-to-left run, a number follows at level 2.
    let text = "\u{5D0}\u{5D1}\u{5B0} 12"
    let line = BidiParagraph(scalars: scalars(text)).line(combiningMarks: .afterBase)
    XCTAssertEqual(line.runs(in: .utf32).map(\.level), [2, 1])
    XCTAssertEqual(line.visualOrder(in: .utf32), [4, 5, 3, 1, 2, 0])
  }

  func testAMarkWithNoBaseBeforeItInItsRunStaysWhereL2PutsIt() {
    // An RLE opens a right-to-left embedding whose first character is a
    // mark: W1 gives it sos (R), and no base precedes it in the run.
    let text = "a\u{202B}\u{5B8}\u{5D0}\u{202C}b"
    let paragraph = BidiParagraph(scalars: scalars(text))
    XCTAssertEqual(paragraph.line().levels(in: .utf32).map(\.value), [0, nil, 1, 1, nil, 0])
    XCTAssertEqual(afterBase(text), resolved(text))
    XCTAssertEqual(afterBase(text), [0, 3, 2, 5])
  }

  func testAMarkAtTheStartOfADisplayLineStaysWhereL2PutsIt() throws {
    // ALEF BET | QAMATS GIMEL: the second display line starts with the mark
    // of BET, whose base is on the line before.
    let paragraph = BidiParagraph(scalars: scalars("\u{5D0}\u{5D1}\u{5B8}\u{5D2}"))
    let lines = try paragraph.lines(breaks: [2], in: .utf32, combiningMarks: .afterBase)
    XCTAssertEqual(lines.map { $0.visualOrder(in: .utf32) }, [[1, 0], [3, 2]])
    // The whole paragraph as one line keeps BET and its mark together.
    XCTAssertEqual(paragraph.line(combiningMarks: .afterBase).visualOrder(in: .utf32), [3, 1, 2, 0])
  }

  func testCharactersRemovedByX9BetweenABaseAndItsMarksMoveWithTheCluster() {
    // BET, ZERO WIDTH JOINER (BN), QAMATS, ALEF: the joiner goes with BET
    // and its mark, in logical order.
    let text = "\u{5D1}\u{200D}\u{5B8}\u{5D0}"
    let line = BidiParagraph(scalars: scalars(text)).line(combiningMarks: .afterBase)
    XCTAssertEqual(line.visualOrder(in: .utf32), [3, 0, 2])
    XCTAssertEqual(line.visualToLogical(in: .utf32), [3, 0, 1, 2])
    XCTAssertEqual(line.visualScalars(), [0x5D0, 0x5D1, 0x5B8])
    // Without L3 the joiner is reversed with the rest.
    XCTAssertEqual(
      BidiParagraph(scalars: scalars(text)).line().visualToLogical(in: .utf32), [3, 2, 1, 0])
  }

  func testLevelsAndRunsDoNotChange() {
    let text = "\u{5E9}\u{5C1}\u{5B8}\u{5DC}\u{5D5}\u{5B9}\u{5DD} (abc \u{643}\u{64E}) 12"
    let paragraph = BidiParagraph(scalars: scalars(text))
    let plain = paragraph.line()
    let marks = paragraph.line(combiningMarks: .afterBase)
    XCTAssertEqual(marks.combiningMarks, .afterBase)
    for encoding in BidiEncoding.allCases {
      XCTAssertEqual(marks.levels(in: encoding), plain.levels(in: encoding))
      XCTAssertEqual(marks.runs(in: encoding), plain.runs(in: encoding))
    }
  }

  func testMapsVisualOrderAndTextAgreeInEveryEncoding() {
    // Hebrew and Arabic with marks (two bytes each in UTF-8), an emoji (two
    // UTF-16 units), a joiner between a base and its mark, brackets.
    let text = "\u{5E9}\u{5C1}\u{5B8}\u{200D}\u{5B9} \u{1F600}\u{64B} (\u{627}\u{651}\u{64E}) x\u{301}"
    checkConsistent(scalars(text))
  }

  func testRandomRightToLeftTextWithMarks() {
    var random = SeededGenerator(seed: 0x13)
    let pool: [UInt32] = [
      0x5D0, 0x5D1, 0x5B8, 0x5C1, 0x5BC, 0x627, 0x628, 0x64E, 0x651, 0x64B, 0x20, 0x31, 0x61, 0x301, 0x200D,
      0x202B, 0x202C, 0x2067, 0x2069, 0x28, 0x29, 0x1F600, 0x10900,
    ]
    var moved = 0
    for _ in 0..<400 {
      let text = (0..<Int.random(in: 1...24, using: &random)).map { _ in pool.randomElement(using: &random) ?? 0x20 }
      checkConsistent(text)
      let paragraph = BidiParagraph(scalars: text)
      if paragraph.line(combiningMarks: .afterBase).visualOrder(in: .utf32) != paragraph.line().visualOrder(in: .utf32)
      {
        moved += 1
      }
    }
    XCTAssertGreaterThan(moved, 100, "L3 should change many of these lines")
  }

  /// Checks, for the whole line and for the text wrapped at every third
  /// character, in every encoding: the maps are inverse permutations of
  /// the line's units, the visual order is the map without removed
  /// characters, the visual text is the characters in that order, every
  /// mark with a base before it in its right-to-left run comes right after
  /// that base's cluster, and levels and runs are those without L3.
  func checkConsistent(_ text: [UInt32], file: StaticString = #filePath, line: UInt = #line) {
    let paragraph = BidiParagraph(scalars: text)
    let breaks = Array(stride(from: 3, to: text.count, by: 3))
    guard let plainLines = try? paragraph.lines(breaks: breaks, in: .utf32),
      let markLines = try? paragraph.lines(breaks: breaks, in: .utf32, combiningMarks: .afterBase)
    else { return XCTFail("lines", file: file, line: line) }
    for (plain, marks) in zip(plainLines + [paragraph.line()], markLines + [paragraph.line(combiningMarks: .afterBase)])
    {
      let range = marks.range(in: .utf32)
      let removed = Set(range.filter { BidiClass(text[$0]).isRemovedByX9 })
      for encoding in BidiEncoding.allCases {
        let units = marks.range(in: encoding)
        let toLogical = marks.visualToLogical(in: encoding)
        let toVisual = marks.logicalToVisual(in: encoding)
        XCTAssertEqual(toLogical.sorted(), Array(units), "\(text) \(encoding)", file: file, line: line)
        for (visual, logical) in toLogical.enumerated() {
          XCTAssertEqual(toVisual[logical - units.lowerBound], visual, "\(text) \(encoding)", file: file, line: line)
        }
        XCTAssertEqual(marks.levels(in: encoding), plain.levels(in: encoding), file: file, line: line)
        XCTAssertEqual(marks.runs(in: encoding), plain.runs(in: encoding), file: file, line: line)
      }
      // UTF-32: the order without removed characters, the text in it.
      let order = marks.visualToLogical(in: .utf32)
      let shown = order.filter { !removed.contains($0) }
      XCTAssertEqual(marks.visualOrder(in: .utf32), shown, "\(text)", file: file, line: line)
      XCTAssertEqual(
        marks.visualScalars(mirrored: false), shown.map { text[$0] }, "\(text)", file: file, line: line)
      // Each mark whose run holds a base before it follows that base: the
      // character before it in logical order is just left of it in the
      // visual order (removed characters skipped in both).
      let levels = marks.levels(in: .utf32)
      let position = Dictionary(uniqueKeysWithValues: shown.enumerated().map { ($1, $0) })
      for i in range where Self.isMark(text[i]) {
        guard let level = levels[i - range.lowerBound].value, level & 1 == 1 else { continue }
        var before = i - 1
        while before >= range.lowerBound && removed.contains(before) { before -= 1 }
        guard before >= range.lowerBound, levels[before - range.lowerBound].value == level else { continue }
        // Find the base: back over marks at the same level.
        var base = before
        while base >= range.lowerBound && (Self.isMark(text[base]) || removed.contains(base))
          && (removed.contains(base) || levels[base - range.lowerBound].value == level)
        {
          base -= 1
        }
        guard base >= range.lowerBound, levels[base - range.lowerBound].value == level else { continue }
        XCTAssertEqual(position[before]! + 1, position[i]!, "\(text): mark \(i)", file: file, line: line)
      }
    }
  }

  /// The marks of the test's pool (General_Category Mn).
  static func isMark(_ scalar: UInt32) -> Bool {
    [0x5B8, 0x5C1, 0x5BC, 0x5B9, 0x5B0, 0x64E, 0x651, 0x64B, 0x64C, 0x301].contains(scalar)
  }
}
