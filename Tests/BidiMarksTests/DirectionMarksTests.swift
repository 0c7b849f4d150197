import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

final class DirectionMarksTests: XCTestCase {
  /// Plans `direction` for a line, applies it, and checks the effect: every
  /// non-empty paragraph now resolves to `direction` under firstStrong, and
  /// planning again gives nothing. Returns the new line.
  @discardableResult
  private func check(
    _ text: String, _ direction: BidiDirection, file: StaticString = #filePath, line: UInt = #line
  ) -> String {
    let edits = MarkPlanner(text).directionEdits(direction)
    let result = applying(edits, to: text, file: file, line: line)
    let values = scalarValues(result)
    for paragraph in BidiParagraph.paragraphRanges(scalars: values) {
      let part = Array(values[paragraph])
      guard !part.isEmpty, !(part.count == 1 && BidiClass(part[0]) == .B) else { continue }
      XCTAssertEqual(
        BidiParagraph.firstStrong(scalars: part).direction, direction,
        "paragraph \(paragraph) of \(visible(result))", file: file, line: line)
    }
    XCTAssertEqual(
      MarkPlanner(result).directionEdits(direction), [], "not idempotent: \(visible(result))", file: file, line: line)
    return result
  }

  func testInsertsTheMarkWhereTheParagraphResolvesOtherwise() {
    XCTAssertEqual(
      MarkPlanner("Apple Pay مدفوعات").directionEdits(.rightToLeft), [MarkEdit(start: 0, end: 0, newText: rlm)])
    XCTAssertEqual(MarkPlanner("שלום world").directionEdits(.leftToRight), [MarkEdit(start: 0, end: 0, newText: lrm)])
    XCTAssertEqual(check("Apple Pay مدفوعات", .rightToLeft), rlm + "Apple Pay مدفوعات")
    check("שלום world", .leftToRight)
  }

  func testNeverWhereItAlreadyResolves() {
    XCTAssertEqual(MarkPlanner("مدفوعات Apple Pay").directionEdits(.rightToLeft), [])
    XCTAssertEqual(MarkPlanner("Apple Pay مدفوعات").directionEdits(.leftToRight), [])
    XCTAssertEqual(MarkPlanner("123 שלום").directionEdits(.rightToLeft), [])
    XCTAssertEqual(MarkPlanner(alm + "123").directionEdits(.rightToLeft), [])
  }

  func testEmptyParagraphsAreUntouched() {
    XCTAssertEqual(MarkPlanner("").directionEdits(.rightToLeft), [])
    XCTAssertEqual(MarkPlanner(paragraphSeparator).directionEdits(.rightToLeft), [])
    XCTAssertEqual(MarkPlanner("").directionEdit(.rightToLeft, paragraph: 0, resolved: nil), nil)
  }

  func testParagraphsWithoutStrongCharactersGetTheMark() {
    XCTAssertEqual(check("123 + 456", .rightToLeft), rlm + "123 + 456")
    XCTAssertEqual(check("  ", .leftToRight), lrm + "  ")
  }

  func testIsolatesAreSkippedAsInP2() {
    XCTAssertEqual(MarkPlanner(lri + "abc" + pdi + " שלום").directionEdits(.rightToLeft), [])
    XCTAssertEqual(check(lri + "abc" + pdi + " שלום", .leftToRight), lrm + lri + "abc" + pdi + " שלום")
    // An isolate with no PDI hides the rest of the paragraph.
    XCTAssertEqual(check(fsi + "abc", .leftToRight), lrm + fsi + "abc")
    // Embeddings are not skipped.
    XCTAssertEqual(MarkPlanner(rle + "abc" + pdf).directionEdits(.leftToRight), [])
  }

  func testAnOppositeLeadingMarkIsReplaced() {
    XCTAssertEqual(
      MarkPlanner(rlm + "abc").directionEdits(.leftToRight), [MarkEdit(start: 0, end: 3, newText: lrm)])
    XCTAssertEqual(check(rlm + "abc", .leftToRight), lrm + "abc")
    XCTAssertEqual(check(lrm + "שלום", .rightToLeft), rlm + "שלום")
    XCTAssertEqual(check(alm + "abc", .leftToRight), lrm + "abc")
    // Toggling back and forth never piles marks up.
    var text = "abc مرحبا"
    for direction in [BidiDirection.rightToLeft, .leftToRight, .rightToLeft, .leftToRight] {
      text = check(text, direction)
    }
    XCTAssertEqual(text, lrm + "abc مرحبا")
  }

  func testEachParagraphOfALineIsMarked() {
    let text = "abc" + paragraphSeparator + "שלום" + paragraphSeparator + paragraphSeparator + "123"
    let planner = MarkPlanner(text)
    XCTAssertEqual(planner.paragraphs.count, 4)
    XCTAssertEqual(planner.paragraphs.map(\.lowerBound), [0, 6, 17, 20])
    XCTAssertEqual(
      planner.directionEdits(.rightToLeft),
      [MarkEdit(start: 0, end: 0, newText: rlm), MarkEdit(start: 20, end: 20, newText: rlm)])
    XCTAssertEqual(planner.directionEdit(.rightToLeft, paragraph: 1), nil)
    XCTAssertEqual(planner.directionEdit(.rightToLeft, paragraph: 3), MarkEdit(start: 20, end: 20, newText: rlm))
    XCTAssertEqual(planner.directionEdit(.rightToLeft, paragraph: 9), nil)
    check(text, .rightToLeft)
    check(text, .leftToRight)
  }

  func testBlockPrimitiveFollowsTheBlocksResolution() {
    // The first non-blank line of a block whose text resolves LTR overall.
    let planner = MarkPlanner("123")
    XCTAssertEqual(
      planner.directionEdit(.rightToLeft, paragraph: 0, resolved: .leftToRight),
      MarkEdit(start: 0, end: 0, newText: rlm))
    XCTAssertEqual(planner.directionEdit(.rightToLeft, paragraph: 0, resolved: .rightToLeft), nil)
    XCTAssertEqual(
      planner.directionEdit(.leftToRight, paragraph: 0, resolved: nil), MarkEdit(start: 0, end: 0, newText: lrm))
    XCTAssertEqual(planner.firstStrongDirection(ofParagraph: 0), nil)
    XCTAssertEqual(MarkPlanner("x שלום").firstStrongDirection(ofParagraph: 0), .leftToRight)
  }

  func testRandomLinesResolveAsAskedAndAreIdempotent() {
    var generator = SeededGenerator(seed: 0xD1EC)
    for _ in 0..<400 {
      let text = randomLine(&generator)
      check(text, randomDirection(&generator))
    }
  }
}
