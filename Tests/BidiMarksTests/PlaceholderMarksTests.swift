import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

final class PlaceholderMarksTests: XCTestCase {
  /// Plans mode `placeholders`, applies it, checks that every isolate
  /// displays as a block and that asking again gives nothing. Returns the
  /// new line.
  @discardableResult
  private func check(
    _ text: String, style: PlaceholderStyle, directions: [BidiDirection] = [.rightToLeft],
    file: StaticString = #filePath, line: UInt = #line
  ) -> String {
    let edits = MarkPlanner(text).placeholderEdits(style: style, directions: directions)
    let result = applying(edits, to: text, file: file, line: line)
    assertIsolatesDisplayAsBlocks(result, directions: directions, file: file, line: line)
    XCTAssertEqual(
      MarkPlanner(result).placeholderEdits(style: style, directions: directions), [],
      "not idempotent: \(visible(result))", file: file, line: line)
    return result
  }

  /// The line with its placeholders replaced by `values`, in order.
  private func filled(_ text: String, _ values: [String]) -> String {
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    var position = 0
    for (placeholder, value) in zip(MarkPlanner(text).placeholders(), values) {
      result += bytes[position..<placeholder.range.lowerBound] + Array(value.utf8)
      position = placeholder.range.upperBound
    }
    return String(decoding: result + bytes[position...], as: UTF8.self)
  }

  func testIsolateStyleWrapsEachPlaceholder() {
    XCTAssertEqual(
      check("%@ مدفوعات بدون فوائد من %@", style: .isolate),
      fsi + "%@" + pdi + " مدفوعات بدون فوائد من " + fsi + "%@" + pdi)
    XCTAssertEqual(check("%1$@%2$d", style: .isolate), fsi + "%1$@" + pdi + fsi + "%2$d" + pdi)
    XCTAssertEqual(
      MarkPlanner("%1$@%2$d").placeholderEdits(style: .isolate),
      [
        MarkEdit(start: 0, end: 0, newText: fsi), MarkEdit(start: 4, end: 4, newText: pdi + fsi),
        MarkEdit(start: 8, end: 8, newText: pdi),
      ])
  }

  func testEverySyntaxIsProtected() {
    let text = "لديك \\(count) رسائل من {0} و{name} و${name} و{{name}} بنسبة %.2f%%"
    XCTAssertEqual(
      check(text, style: .isolate),
      "لديك " + fsi + "\\(count)" + pdi + " رسائل من " + fsi + "{0}" + pdi + " و" + fsi + "{name}" + pdi + " و" + fsi
        + "${name}" + pdi + " و" + fsi + "{{name}}" + pdi + " بنسبة " + fsi + "%.2f" + pdi + "%%")
    XCTAssertEqual(
      check(text, style: .marks),
      "لديك \\(count)" + rlm + " رسائل من {0}" + rlm + " و{name}" + rlm + " و${name}" + rlm + " و{{name}}" + rlm
        + " بنسبة %.2f" + rlm + "%%")
  }

  func testDoublePercentIsLeftAlone() {
    XCTAssertEqual(check("خصم 50%% على %@", style: .isolate), "خصم 50%% على " + fsi + "%@" + pdi)
    XCTAssertEqual(check("100%%", style: .marks), "100%%")
  }

  func testAlreadyIsolatedPlaceholdersAreUntouched() {
    let text = "من " + fsi + "%@" + pdi + " إلى " + lri + "{0}" + pdi + " و %d"
    XCTAssertEqual(
      MarkPlanner(text).placeholderEdits(style: .isolate).map(\.newText), [fsi, pdi])
    XCTAssertEqual(
      check(text, style: .isolate), "من " + fsi + "%@" + pdi + " إلى " + lri + "{0}" + pdi + " و " + fsi + "%d" + pdi)
    XCTAssertEqual(check(text, style: .marks), text + rlm)
    // Half isolated is not isolated.
    XCTAssertEqual(check(fsi + "%@ x", style: .isolate), fsi + fsi + "%@" + pdi + " x")
  }

  func testMarksStyleUsesEachParagraphsDirection() {
    let text = "%@ items" + paragraphSeparator + "%@ عناصر"
    XCTAssertEqual(
      check(text, style: .marks, directions: [.leftToRight, .rightToLeft]),
      "%@" + lrm + " items" + paragraphSeparator + "%@" + rlm + " عناصر")
    // Missing directions repeat the last one given.
    XCTAssertEqual(
      check(text, style: .marks, directions: [.rightToLeft]),
      "%@" + rlm + " items" + paragraphSeparator + "%@" + rlm + " عناصر")
    XCTAssertEqual(
      check(text, style: .marks, directions: []), "%@" + lrm + " items" + paragraphSeparator + "%@" + lrm + " عناصر")
  }

  func testMarksStyleKeepsTheRightMarkAndReplacesTheWrongOne() {
    XCTAssertEqual(MarkPlanner("%@" + rlm + " عناصر").placeholderEdits(style: .marks, directions: [.rightToLeft]), [])
    XCTAssertEqual(
      MarkPlanner("%@" + lrm + " عناصر").placeholderEdits(style: .marks, directions: [.rightToLeft]),
      [MarkEdit(start: 2, end: 5, newText: rlm)])
    XCTAssertEqual(check("%@" + alm + " x", style: .marks, directions: [.leftToRight]), "%@" + lrm + " x")
  }

  func testRangeLimitsThePlaceholders() {
    let text = "%@ و %@ و %@"
    let planner = MarkPlanner(text)
    let edits = planner.placeholderEdits(style: .isolate, in: 5..<9)
    XCTAssertEqual(edits, [MarkEdit(start: 6, end: 6, newText: fsi), MarkEdit(start: 8, end: 8, newText: pdi)])
    let result = applying(edits, to: text)
    XCTAssertEqual(MarkPlanner(result).placeholderEdits(style: .isolate, in: grown(5..<9, by: edits)), [])
  }

  func testFilledIsolatedPlaceholdersDisplayAsBlocks() {
    let format = check("%@ مدفوعات بدون فوائد من %@", style: .isolate)
    let values = [
      "Apple Pay", "1,234.56", "-5", "+1 (555) 123-4567", "user@example.com", "(x) y", "שלום 5", "10–20", "!",
    ]
    for first in values {
      for second in values {
        let text = filled(format, [first, second])
        // No paragraph direction is forced: the isolates keep the value out
        // of P2–P3, so the Arabic decides.
        XCTAssertEqual(BidiParagraph.firstStrong(scalars: scalarValues(text)).direction, .rightToLeft, visible(text))
        assertIsolatesDisplayAsBlocks(text, directions: [.rightToLeft])
      }
    }
  }

  func testRandomLinesAreIdempotentAndWellFormed() {
    var generator = SeededGenerator(seed: 0x91ACE)
    for _ in 0..<500 {
      let text = randomLine(&generator)
      let directions = (0..<3).map { _ in randomDirection(&generator) }
      check(text, style: .isolate, directions: directions)
      check(text, style: .marks, directions: directions)
    }
  }
}
