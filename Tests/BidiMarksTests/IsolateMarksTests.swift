import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

final class IsolateMarksTests: XCTestCase {
  /// The UTF-8 range of the first occurrence of `part` in `text`.
  private func range(of part: String, in text: String) -> Range<Int> {
    let bytes = Array(text.utf8)
    let needle = Array(part.utf8)
    for start in 0...(bytes.count - needle.count) where Array(bytes[start..<start + needle.count]) == needle {
      return start..<start + needle.count
    }
    XCTFail("\(part) not in \(text)")
    return 0..<0
  }

  /// Isolates `range`, applies, checks every isolate displays as a block
  /// with the paragraph at `direction`, and that asking again over the grown
  /// range (and over the content alone) gives nothing. Returns the new line.
  @discardableResult
  private func check(
    _ text: String, _ range: Range<Int>, kind: DirectionChoice = .auto, direction: BidiDirection = .rightToLeft,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> String {
    let edits = try MarkPlanner(text).isolateEdits(range, kind: kind)
    let result = applying(edits, to: text, file: file, line: line)
    assertIsolatesDisplayAsBlocks(result, directions: [direction], file: file, line: line)
    let again = grown(range, by: edits)
    XCTAssertEqual(
      try MarkPlanner(result).isolateEdits(again, kind: kind), [], "again over \(again) in \(visible(result))",
      file: file, line: line)
    if edits.count == 2 {
      let content = (range.lowerBound + edits[0].newText.utf8.count)..<(range.upperBound + edits[0].newText.utf8.count)
      XCTAssertEqual(try MarkPlanner(result).isolateEdits(content, kind: kind), [], file: file, line: line)
    }
    return result
  }

  func testWrapsTheRangeInTheRequestedIsolate() throws {
    let text = "ادفع باستخدام Apple Pay!"
    let span = range(of: "Apple Pay", in: text)
    XCTAssertEqual(
      try MarkPlanner(text).isolateEdits(span),
      [
        MarkEdit(start: span.lowerBound, end: span.lowerBound, newText: fsi),
        MarkEdit(start: span.upperBound, end: span.upperBound, newText: pdi),
      ])
    XCTAssertEqual(try check(text, span), "ادفع باستخدام " + fsi + "Apple Pay" + pdi + "!")
    XCTAssertEqual(try check(text, span, kind: .leftToRight), "ادفع باستخدام " + lri + "Apple Pay" + pdi + "!")
    XCTAssertEqual(try check(text, span, kind: .rightToLeft), "ادفع باستخدام " + rli + "Apple Pay" + pdi + "!")
  }

  func testTheWrappedTextDisplaysAsOneBlockWhateverSurroundsIt() throws {
    let spans = [
      "Apple Pay", "1,234.56", "+1 (555) 123-4567", "user@example.com", "(a) b", "שלום 5", "-5", "%@",
      "a\u{0301} " + "ب",
    ]
    let sides = ["", "مرحبا ", "שלום", "hello ", "42", " 7 ", "!", "(", ")", lri + "x" + pdi]
    for span in spans {
      for before in sides {
        for after in sides {
          let text = before + span + after
          let target = before.utf8.count..<(before.utf8.count + span.utf8.count)
          for kind in DirectionChoice.allCases {
            for direction in [BidiDirection.leftToRight, .rightToLeft] {
              try check(text, target, kind: kind, direction: direction)
            }
          }
        }
      }
    }
  }

  func testWithoutTheIsolateTheNumberIsScrambled() throws {
    // The amount joins the Arabic words after it and its minus sign moves.
    let text = "المبلغ -1,234.56 ريال"
    let span = range(of: "-1,234.56", in: text)
    XCTAssertFalse(displayed(text, .rightToLeft).contains("-1,234.56"))
    let start = "المبلغ ".unicodeScalars.count
    XCTAssertNotNil(
      blockProblem(scalarValues(text), span: start..<start + 9, own: .leftToRight, direction: .rightToLeft))
    let result = try check(text, span, kind: .leftToRight)
    XCTAssertTrue(displayed(result, .rightToLeft).contains("-1,234.56"), displayed(result, .rightToLeft))
  }

  func testNoEditsWhenTheRangeIsAlreadyOneIsolate() throws {
    let text = "abc " + fsi + "שלום" + pdi + " def"
    let whole = range(of: fsi + "שלום" + pdi, in: text)
    let content = range(of: "שלום", in: text)
    XCTAssertEqual(try MarkPlanner(text).isolateEdits(whole), [])
    XCTAssertEqual(try MarkPlanner(text).isolateEdits(content), [])
    XCTAssertEqual(try MarkPlanner(text).isolateEdits(content.lowerBound..<content.lowerBound), [])
    // An explicit kind replaces a different initiator, and only that.
    XCTAssertEqual(
      try MarkPlanner(text).isolateEdits(whole, kind: .rightToLeft), [MarkEdit(start: 4, end: 7, newText: rli)])
    XCTAssertEqual(
      try MarkPlanner(text).isolateEdits(content, kind: .leftToRight), [MarkEdit(start: 4, end: 7, newText: lri)])
    XCTAssertEqual(try check(text, whole, kind: .rightToLeft), "abc " + rli + "שלום" + pdi + " def")
    // Two isolates side by side are not one isolate.
    let pair = fsi + "a" + pdi + fsi + "b" + pdi
    XCTAssertEqual(try MarkPlanner(pair).isolateEdits(0..<pair.utf8.count).count, 2)
  }

  func testRejectsBadRanges() {
    let text = "abc שלום"
    XCTAssertThrowsError(try MarkPlanner(text).isolateEdits(0..<99)) {
      XCTAssertEqual($0 as? MarkError, .rangeOutOfBounds(0..<99, utf8Count: 12))
    }
    XCTAssertThrowsError(try MarkPlanner(text).isolateEdits(0..<5)) {
      XCTAssertEqual($0 as? MarkError, .notOnScalarBoundary(5))
    }
    let paragraphs = "abc" + paragraphSeparator + "def"
    XCTAssertThrowsError(try MarkPlanner(paragraphs).isolateEdits(0..<paragraphs.utf8.count)) {
      XCTAssertEqual($0 as? MarkError, .rangeSpansParagraphs(0..<9))
    }
  }

  func testRejectsRangesThatSplitAPair() throws {
    let text = "a" + lri + "b" + pdi + "c"
    // LRI inside, its PDI outside; PDI inside, its LRI outside.
    XCTAssertThrowsError(try MarkPlanner(text).isolateEdits(0..<5)) {
      XCTAssertEqual($0 as? MarkError, .rangeSplitsPair(0..<5))
    }
    XCTAssertThrowsError(try MarkPlanner(text).isolateEdits(4..<9))
    // Unmatched isolate controls would pair with the new ones.
    XCTAssertThrowsError(try MarkPlanner("a" + pdi + "b").isolateEdits(0..<5))
    XCTAssertThrowsError(try MarkPlanner("a" + rli + "b").isolateEdits(0..<5))
    // An embedding closed outside the range.
    XCTAssertThrowsError(try MarkPlanner("a" + rle + "b" + pdf + "c").isolateEdits(0..<5))
    // A stray embedding or PDF is allowed; a whole pair is allowed.
    try check("a" + rle + "b", 0..<5)
    try check("a" + pdf + "b", 0..<5)
    try check(text, 0..<text.utf8.count)
  }

  func testRandomRangesAreIsolatedOnceAndDisplayAsBlocks() throws {
    var generator = SeededGenerator(seed: 0x150)
    var planned = 0
    for _ in 0..<600 {
      let text = randomLine(&generator)
      var boundaries = [0]
      for scalar in text.unicodeScalars { boundaries.append(boundaries[boundaries.count - 1] + UTF8.width(scalar)) }
      let a = boundaries.randomElement(using: &generator) ?? 0
      let b = boundaries.randomElement(using: &generator) ?? 0
      let range = min(a, b)..<max(a, b)
      let kind = DirectionChoice.allCases.randomElement(using: &generator) ?? .auto
      do {
        try check(text, range, kind: kind, direction: randomDirection(&generator))
        planned += 1
      } catch let error as MarkError {
        switch error {
        case .rangeSpansParagraphs, .rangeSplitsPair: break
        default: XCTFail("\(error) for \(range) of \(visible(text))")
        }
      }
    }
    XCTAssertGreaterThan(planned, 300)
  }
}
