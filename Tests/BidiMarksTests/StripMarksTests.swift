import BidiHazards
import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

final class StripMarksTests: XCTestCase {
  /// Plans `strip`, applies it, checks the effect (no control left for
  /// `.all`; none unpaired for `.unpaired`) and that asking again gives
  /// nothing. Returns the new line.
  @discardableResult
  private func check(
    _ text: String, _ scope: StripScope, file: StaticString = #filePath, line: UInt = #line
  ) -> String {
    let edits = MarkPlanner(text).stripEdits(scope)
    let result = applying(edits, to: text, file: file, line: line)
    switch scope {
    case .all:
      XCTAssertFalse(
        result.unicodeScalars.contains { BidiControl(scalar: $0.value) != nil }, visible(result), file: file, line: line
      )
    case .unpaired:
      XCTAssertEqual(unpairedControls(result), [], visible(result), file: file, line: line)
      // Only controls were removed, and every paired one was kept.
      let kept = text.unicodeScalars.filter { BidiControl(scalar: $0.value) == nil }
      XCTAssertEqual(
        String(String.UnicodeScalarView(kept)),
        String(String.UnicodeScalarView(result.unicodeScalars.filter { BidiControl(scalar: $0.value) == nil })),
        file: file, line: line)
    }
    XCTAssertEqual(
      MarkPlanner(result).stripEdits(scope), [], "not idempotent: \(visible(result))", file: file, line: line)
    return result
  }

  func testAllRemovesEveryBidiControl() {
    let text = lrm + "a" + rlm + alm + "b" + lre + rle + pdf + lro + rlo + "c" + lri + rli + fsi + pdi + "d"
    XCTAssertEqual(check(text, .all), "abcd")
    XCTAssertEqual(
      MarkPlanner(text).stripEdits(.all),
      [
        MarkEdit(start: 0, end: 3, newText: ""), MarkEdit(start: 4, end: 9, newText: ""),
        MarkEdit(start: 10, end: 25, newText: ""), MarkEdit(start: 26, end: 38, newText: ""),
      ])
    XCTAssertEqual(MarkPlanner("no controls \u{200D} here").stripEdits(.all), [])
  }

  func testUnpairedRemovesOnlyWhatIsNotClosed() {
    XCTAssertEqual(check(rlo + "abc" + pdf + " " + rli + "x", .unpaired), rlo + "abc" + pdf + " x")
    XCTAssertEqual(check("a" + pdi + "b" + pdf + "c", .unpaired), "abc")
    XCTAssertEqual(check(lrm + lri + "a" + pdi + rlm, .unpaired), lrm + lri + "a" + pdi + rlm)
    // A PDF does not close an embedding across an open isolate; the PDI
    // closes the isolate and the embedding opened inside it.
    XCTAssertEqual(check(lre + "a" + rli + "b" + pdf + pdi + pdf, .unpaired), lre + "a" + rli + "b" + pdi + pdf)
    XCTAssertEqual(check(rli + rle + "x" + pdi, .unpaired), rli + rle + "x" + pdi)
  }

  func testRangeLimitsWhatIsRemoved() {
    let text = rlm + "abc" + rlm
    let edits = MarkPlanner(text).stripEdits(.all, in: 3..<6)
    XCTAssertEqual(edits, [])
    XCTAssertEqual(MarkPlanner(text).stripEdits(.all, in: 3..<9), [MarkEdit(start: 6, end: 9, newText: "")])
    // Ranges are clamped, and their ends move out of characters.
    XCTAssertEqual(MarkPlanner(text).stripEdits(.all, in: 1..<2), [MarkEdit(start: 0, end: 3, newText: "")])
    XCTAssertEqual(MarkPlanner(text).stripEdits(.all, in: -5..<99).count, 2)
    XCTAssertEqual(MarkPlanner(text).stripEdits(.all, in: 50..<99), [])
    // Pairing is that of the whole line: the RLI closed after the range stays.
    let paired = rli + "abc" + pdi + pdi
    XCTAssertEqual(MarkPlanner(paired).stripEdits(.unpaired, in: 0..<6), [])
    XCTAssertEqual(MarkPlanner(paired).stripEdits(.unpaired), [MarkEdit(start: 9, end: 12, newText: "")])
  }

  func testRandomLines() {
    var generator = SeededGenerator(seed: 0x57219)
    for _ in 0..<500 {
      let text = randomLine(&generator)
      check(text, .all)
      check(text, .unpaired)
    }
  }
}
