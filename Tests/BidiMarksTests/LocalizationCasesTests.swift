import BidiMarks
import UnicodeBidi
import XCTest

/// Cases from real localization work: each shows the text scrambled without
/// marks and displayed as meant with them.
final class LocalizationCasesTests: XCTestCase {
  /// How a line displays, left to right, without the invisible controls.
  private func shown(_ text: String, _ direction: DirectionChoice = .auto) -> String {
    String(
      String.UnicodeScalarView(
        displayed(text, direction).unicodeScalars.filter {
          !(0x2066...0x2069).contains($0.value) && !(0x200E...0x200F).contains($0.value)
        }))
  }

  /// A right-to-left word as it appears on screen (letters reversed).
  private func onScreen(_ word: String) -> String { String(word.reversed()) }

  private func fill(_ format: String, _ values: [String]) -> String {
    var result = format
    for (placeholder, value) in zip(MarkPlanner(format).placeholders().reversed(), values.reversed()) {
      var bytes = Array(result.utf8)
      bytes.replaceSubrange(placeholder.range, with: Array(value.utf8))
      result = String(decoding: bytes, as: UTF8.self)
    }
    return result
  }

  private let format = "%@ مدفوعات بدون فوائد من %@"
  private let arabic = "مدفوعات بدون فوائد من"

  func testFormatStringWithABrandFirstIsScrambledWithoutMarks() {
    let meant = "1,234.56 " + onScreen(arabic) + " Apple Pay"
    // Without marks the brand makes the paragraph LTR: the sentence reads
    // backwards, starting from the left with the brand.
    let plain = fill(format, ["Apple Pay", "1,234.56"])
    XCTAssertEqual(BidiParagraph.firstStrong(scalars: scalarValues(plain)).direction, .leftToRight)
    XCTAssertEqual(shown(plain), "Apple Pay 1,234.56 " + onScreen(arabic))
    XCTAssertNotEqual(shown(plain), meant)

    // Isolated placeholders: P2–P3 skips them, the Arabic decides.
    let isolated = applying(MarkPlanner(format).placeholderEdits(style: .isolate), to: format)
    let filledIsolated = fill(isolated, ["Apple Pay", "1,234.56"])
    XCTAssertEqual(shown(filledIsolated), meant)
    assertIsolatesDisplayAsBlocks(filledIsolated, directions: [.rightToLeft])

    // Or, once filled: the direction, then the runs.
    var runs = applying(MarkPlanner(plain).directionEdits(.rightToLeft), to: plain)
    runs = applying(MarkPlanner(runs).runEdits(directions: [.rightToLeft]), to: runs)
    XCTAssertEqual(runs, rlm + lri + "Apple Pay" + pdi + " " + arabic + " " + lri + "1,234.56" + pdi)
    XCTAssertEqual(shown(runs), meant)
  }

  func testMarksStyleKeepsANumberAfterThePlaceholderOutOfTheValue() {
    // "Use %@ 3 times": the 3 belongs to "times", not to the brand.
    let format = "استخدم %@ 3 مرات"
    let meant = onScreen("مرات") + " 3 Apple Pay " + onScreen("استخدم")
    XCTAssertEqual(
      shown(fill(format, ["Apple Pay"]), .rightToLeft), onScreen("مرات") + " Apple Pay 3 " + onScreen("استخدم"))
    let marked = applying(MarkPlanner(format).placeholderEdits(style: .marks, directions: [.rightToLeft]), to: format)
    XCTAssertEqual(marked, "استخدم %@" + rlm + " 3 مرات")
    XCTAssertEqual(shown(fill(marked, ["Apple Pay"]), .rightToLeft), meant)
    let isolated = applying(MarkPlanner(format).placeholderEdits(style: .isolate), to: format)
    XCTAssertEqual(shown(fill(isolated, ["Apple Pay"])), meant)
  }

  func testFormatStringWithANegativeAmountKeepsItsSign() {
    let plain = fill(format, ["-1,234.56", "Apple Pay"])
    let meant = "Apple Pay " + onScreen(arabic) + " -1,234.56"
    XCTAssertNotEqual(shown(plain), meant)
    let isolated = fill(
      applying(MarkPlanner(format).placeholderEdits(style: .isolate), to: format), ["-1,234.56", "Apple Pay"])
    XCTAssertEqual(shown(isolated), meant)
    let runs = applying(MarkPlanner(plain).runEdits(directions: [.rightToLeft]), to: plain)
    XCTAssertEqual(shown(runs), meant)
  }

  func testEmailAtTheStartOfAnArabicSentence() {
    let plain = "user@example.com هو عنواني."
    let meant = "." + onScreen("هو عنواني") + " user@example.com"
    XCTAssertNotEqual(shown(plain), meant)
    var fixed = applying(MarkPlanner(plain).directionEdits(.rightToLeft), to: plain)
    fixed = applying(MarkPlanner(fixed).runEdits(directions: [.rightToLeft]), to: fixed)
    XCTAssertEqual(fixed, rlm + lri + "user@example.com" + pdi + " هو عنواني.")
    XCTAssertEqual(shown(fixed), meant)
    XCTAssertEqual(MarkPlanner(fixed).directionEdits(.rightToLeft), [])
    XCTAssertEqual(MarkPlanner(fixed).runEdits(directions: [.rightToLeft]), [])
  }

  func testHandleAtTheStartOfAnArabicSentence() throws {
    let plain = "@handle كتب: مرحبا"
    let meant = onScreen("كتب: مرحبا") + " @handle"
    // Even in an RTL paragraph the @ lands on the far side of the name.
    XCTAssertEqual(shown(plain, .rightToLeft), onScreen("كتب: مرحبا") + " handle@")
    var fixed = applying(MarkPlanner(plain).directionEdits(.rightToLeft), to: plain)
    fixed = applying(MarkPlanner(fixed).runEdits(directions: [.rightToLeft]), to: fixed)
    XCTAssertEqual(shown(fixed), meant)
    // The isolate mode on the handle alone does the same.
    let isolated = applying(try MarkPlanner(plain).isolateEdits(0..<7, kind: .leftToRight), to: plain)
    XCTAssertEqual(shown(isolated, .rightToLeft), meant)
  }

  func testPhoneNumberInAHebrewSentence() {
    let plain = "התקשרו אלינו +1 (555) 123-4567 עכשיו"
    let meant = onScreen("עכשיו") + " +1 (555) 123-4567 " + onScreen("התקשרו אלינו")
    XCTAssertEqual(shown(plain), onScreen("עכשיו") + " 123-4567 (555) 1+ " + onScreen("התקשרו אלינו"))
    let fixed = applying(MarkPlanner(plain).runEdits(directions: [.rightToLeft]), to: plain)
    XCTAssertEqual(shown(fixed), meant)
  }

  func testDateAndRangeInAHebrewSentence() {
    let plain = "בין 10–20 אנשים"
    XCTAssertEqual(shown(plain), onScreen("אנשים") + " 20–10 " + onScreen("בין"))
    let fixed = applying(MarkPlanner(plain).runEdits(directions: [.rightToLeft]), to: plain)
    XCTAssertEqual(shown(fixed), onScreen("אנשים") + " 10–20 " + onScreen("בין"))
  }
}
