import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

final class OppositeRunsTests: XCTestCase {
  /// Plans mode `runs`, applies it, and checks the effect: every isolate
  /// displays as one block in its own order, no strong character of the
  /// opposite direction is left outside an isolate, no inserted isolate
  /// starts or ends with whitespace, and asking again gives nothing.
  /// Returns the new line.
  @discardableResult
  private func check(
    _ text: String, _ directions: [BidiDirection], file: StaticString = #filePath, line: UInt = #line
  ) -> String {
    let edits = MarkPlanner(text).runEdits(directions: directions)
    let result = applying(edits, to: text, file: file, line: line)
    assertIsolatesDisplayAsBlocks(result, directions: directions, file: file, line: line)
    XCTAssertEqual(
      MarkPlanner(result).runEdits(directions: directions), [], "not idempotent: \(visible(result))",
      file: file, line: line)
    let values = scalarValues(result)
    for (number, paragraph) in BidiParagraph.paragraphRanges(scalars: values).enumerated() {
      let direction = number < directions.count ? directions[number] : directions.last ?? .leftToRight
      var open: [Bool] = []  // isolate (true) or embedding, innermost last
      for index in paragraph {
        switch BidiClass(values[index]) {
        case .LRI, .RLI, .FSI: open.append(true)
        case .LRE, .RLE, .LRO, .RLO: open.append(false)
        case .PDF: if open.last == false { open.removeLast() }
        case .PDI:
          if let isolate = open.lastIndex(of: true) { open.removeSubrange(isolate...) }
        case .L where direction == .rightToLeft && open.isEmpty,
          .R where direction == .leftToRight && open.isEmpty,
          .AL where direction == .leftToRight && open.isEmpty:
          if !(0x200E...0x200F).contains(values[index]) && values[index] != 0x061C {
            XCTFail("\(index) of \(visible(result)) is left outside the runs", file: file, line: line)
          }
        default: break
        }
      }
    }
    let bytes = Array(result.utf8)
    var shift = 0
    for edit in edits {
      let end = edit.start + shift + edit.newText.utf8.count
      shift += edit.newText.utf8.count - (edit.end - edit.start)
      guard edit.newText.unicodeScalars.last == "\u{2066}" || edit.newText.unicodeScalars.last == "\u{2067}" else {
        continue
      }
      let next = String(decoding: bytes[end...], as: UTF8.self).unicodeScalars.first
      XCTAssertFalse(
        next?.properties.isWhitespace ?? true, "a run starts with a space in \(visible(result))", file: file, line: line
      )
    }
    return result
  }

  func testBrandAndAmountInAnArabicSentence() {
    let text = "Apple Pay مدفوعات بدون فوائد من 1,234.56"
    XCTAssertEqual(
      check(text, [.rightToLeft]), lri + "Apple Pay" + pdi + " مدفوعات بدون فوائد من " + lri + "1,234.56" + pdi)
  }

  func testEmailAndHandleAtTheStartOfAnArabicSentence() {
    XCTAssertEqual(check("user@example.com هو عنواني.", [.rightToLeft]), lri + "user@example.com" + pdi + " هو عنواني.")
    let handle = check("@handle كتب: مرحبا", [.rightToLeft])
    XCTAssertEqual(handle, lri + "@handle" + pdi + " كتب: مرحبا")
    // Without the isolate the @ goes to the far side of the name.
    XCTAssertTrue(displayed("@handle كتب: مرحبا", .rightToLeft).hasSuffix("handle@"))
    XCTAssertTrue(displayed(handle, .rightToLeft).hasSuffix("@handle" + lri))
  }

  func testPhoneNumberInAHebrewSentence() {
    let text = "התקשרו אלינו +1 (555) 123-4567 עכשיו"
    let result = check(text, [.rightToLeft])
    XCTAssertEqual(result, "התקשרו אלינו " + lri + "+1 (555) 123-4567" + pdi + " עכשיו")
    XCTAssertFalse(displayed(text, .rightToLeft).contains("+1 (555) 123-4567"))
    XCTAssertTrue(displayed(result, .rightToLeft).contains("+1 (555) 123-4567"))
  }

  func testDatesTimesAndRangesInAnRTLParagraph() {
    XCTAssertEqual(
      check("הפגישה ב-2024/01/15 בשעה 10:30, בין 10–20 אנשים", [.rightToLeft]),
      "הפגישה ב-" + lri + "2024/01/15" + pdi + " בשעה " + lri + "10:30" + pdi + ", בין " + lri + "10–20" + pdi
        + " אנשים")
    XCTAssertEqual(check("من 10 – 20 يوما", [.rightToLeft]), "من " + lri + "10 – 20" + pdi + " يوما")
    XCTAssertEqual(
      check("في 2024/01/15 10:30 صباحا", [.rightToLeft]), "في " + lri + "2024/01/15 10:30" + pdi + " صباحا")
    XCTAssertEqual(check("الهاتف (555) 123-4567", [.rightToLeft]), "الهاتف " + lri + "(555) 123-4567" + pdi)
    XCTAssertEqual(check("العدد -5 فقط", [.rightToLeft]), "العدد " + lri + "-5" + pdi + " فقط")
  }

  func testLoneNumbersAndListsAreLeftAlone() {
    let text = "العدد 42 و 50% و $5 و (555) و 1, 2, 3 و ٣٤٥"
    XCTAssertEqual(MarkPlanner(text).runEdits(directions: [.rightToLeft]), [])
    // Number sequences are LTR runs in RTL paragraphs only.
    XCTAssertEqual(MarkPlanner("call +1 (555) 123-4567").runEdits(directions: [.leftToRight]), [])
  }

  func testRTLWordsInAnLTRParagraph() {
    XCTAssertEqual(
      check("The word שלום עולם means hello world", [.leftToRight]),
      "The word " + rli + "שלום עולם" + pdi + " means hello world")
    // Numbers between the words belong to the run; at its edges they do not.
    XCTAssertEqual(check("see עמוד 5 מתוך 10 here", [.leftToRight]), "see " + rli + "עמוד 5 מתוך" + pdi + " 10 here")
    XCTAssertEqual(
      check("price السعر ١٠٠ ريال today", [.leftToRight]), "price " + rli + "السعر ١٠٠ ريال" + pdi + " today")
  }

  func testNeutralsAtTheEdgesStayOutside() {
    XCTAssertEqual(check("مرحبا (Apple Pay), شكرا", [.rightToLeft]), "مرحبا (" + lri + "Apple Pay" + pdi + "), شكرا")
    XCTAssertEqual(check("قال \"Hello, world!\" ثم", [.rightToLeft]), "قال \"" + lri + "Hello, world" + pdi + "!\" ثم")
  }

  func testBracketsAreNotSplit() {
    XCTAssertEqual(
      check("مرحبا Apple (US) Pay شكرا", [.rightToLeft]), "مرحبا " + lri + "Apple (US) Pay" + pdi + " شكرا")
    XCTAssertEqual(check("مرحبا Pay (Apple) شكرا", [.rightToLeft]), "مرحبا " + lri + "Pay (Apple)" + pdi + " شكرا")
    XCTAssertEqual(check("مرحبا (Apple) Pay شكرا", [.rightToLeft]), "مرحبا " + lri + "(Apple) Pay" + pdi + " شكرا")
    XCTAssertEqual(check("مرحبا f(x[1]) شكرا", [.rightToLeft]), "مرحبا " + lri + "f(x[1])" + pdi + " شكرا")
    // A bracket whose partner lies beyond a word of the paragraph's
    // direction stays split.
    XCTAssertEqual(check("مرحبا Apple (Pay شكرا)", [.rightToLeft]), "مرحبا " + lri + "Apple (Pay" + pdi + " شكرا)")
  }

  func testDigitsStuckToAWordJoinIt() {
    XCTAssertEqual(
      check("فيروس COVID-19 و 3D و MP3 و v2.0.1 و x86_64", [.rightToLeft]),
      "فيروس " + lri + "COVID-19" + pdi + " و " + lri + "3D" + pdi + " و " + lri + "MP3" + pdi + " و " + lri + "v2.0.1"
        + pdi
        + " و " + lri + "x86_64" + pdi)
    XCTAssertEqual(check("הגרסה iOS 17 זמינה", [.rightToLeft]), "הגרסה " + lri + "iOS" + pdi + " 17 זמינה")
    XCTAssertEqual(check("שלום 1-2x", [.rightToLeft]), "שלום " + lri + "1-2x" + pdi)
    XCTAssertEqual(
      check("שלום #tag ו-$AAPL", [.rightToLeft]), "שלום " + lri + "#tag" + pdi + " ו-" + lri + "$AAPL" + pdi)
  }

  func testMarksAndControls() {
    // A mark of the opposite direction is a neutral inside a run; one of the
    // paragraph's direction ends it.
    XCTAssertEqual(check("שלום Apple" + lrm + " Pay", [.rightToLeft]), "שלום " + lri + "Apple" + lrm + " Pay" + pdi)
    XCTAssertEqual(
      check("שלום Apple" + rlm + " Pay", [.rightToLeft]), "שלום " + lri + "Apple" + pdi + rlm + " " + lri + "Pay" + pdi)
    XCTAssertEqual(check("שלום " + lrm, [.rightToLeft]), "שלום " + lrm)
    // Tabs and unmatched closers are barriers.
    XCTAssertEqual(check("שלום Apple\tPay", [.rightToLeft]), "שלום " + lri + "Apple" + pdi + "\t" + lri + "Pay" + pdi)
    XCTAssertEqual(
      check("שלום Apple" + pdi + "Pay", [.rightToLeft]), "שלום " + lri + "Apple" + pdi + pdi + lri + "Pay" + pdi)
    // Isolates and embeddings are not looked into: they are neutrals.
    XCTAssertEqual(
      check("שלום " + lri + "Apple" + pdi + " Pay", [.rightToLeft]),
      "שלום " + lri + "Apple" + pdi + " " + lri + "Pay" + pdi)
    XCTAssertEqual(
      check("שלום abc " + rle + "xyz" + pdf + " def", [.rightToLeft]),
      "שלום " + lri + "abc " + rle + "xyz" + pdf + " def" + pdi)
    XCTAssertEqual(MarkPlanner("שלום " + rlo + "abc").runEdits(directions: [.rightToLeft]), [])
    // Combining marks stay with their letter.
    XCTAssertEqual(check("שלום cafe\u{0301}", [.rightToLeft]), "שלום " + lri + "cafe\u{0301}" + pdi)
  }

  func testEachParagraphHasItsOwnDirection() {
    let text = "abc שלום" + paragraphSeparator + "abc שלום"
    XCTAssertEqual(
      check(text, [.leftToRight, .rightToLeft]),
      "abc " + rli + "שלום" + pdi + paragraphSeparator + lri + "abc" + pdi + " שלום")
  }

  func testOnlyRunsInsideTheRangeAreIsolated() {
    let text = "שלום abc עולם def"
    let planner = MarkPlanner(text)
    XCTAssertEqual(planner.runEdits(directions: [.rightToLeft], in: 9..<13).count, 2)
    XCTAssertEqual(planner.runEdits(directions: [.rightToLeft], in: 10..<13), [])
    XCTAssertEqual(planner.runEdits(directions: [.rightToLeft], in: 0..<text.utf8.count).count, 4)
  }

  func testRandomLinesAreIdempotentAndDisplayAsBlocks() {
    var generator = SeededGenerator(seed: 0x7E57)
    for _ in 0..<600 {
      let text = randomLine(&generator, pieces: 16)
      let directions = (0..<3).map { _ in randomDirection(&generator) }
      check(text, directions)
    }
  }
}
