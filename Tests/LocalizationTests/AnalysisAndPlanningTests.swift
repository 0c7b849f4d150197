import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

final class AnalysisAndPlanningTests: XCTestCase {
  let seed = "\"payment\" = \"%@ مدفوعات بدون فوائد من %@\";\n"

  func testSeedCaseDirections() {
    let value = LocalizationReader.read(seed, format: .strings).values[0]
    let analysis = ParagraphAnalysis(value, paragraph: 0)
    XCTAssertEqual(analysis.direction(), .rightToLeft)
    XCTAssertEqual(analysis.strongCharacter, SourcePosition(line: 0, column: 16))
    XCTAssertEqual(analysis.direction(filled: true), .leftToRight)
    XCTAssertEqual(analysis.strongCharacter(filled: true), SourcePosition(line: 0, column: 13))
    XCTAssertEqual(
      analysis.direction(DirectionPolicy(strategy: .estimate, rtlThreshold: 0.4), filled: true), .rightToLeft)
    XCTAssertEqual(
      analysis.filledVisualText(), "Apple Pay " + String("مدفوعات بدون فوائد من".reversed()) + " Apple Pay")
  }

  /// The filled direction under firstStrong (UAX #9 P2 on the text with
  /// "Apple Pay" or "42" for each placeholder), whether or not the written
  /// first strong character comes before every placeholder.
  func testFilledDirectionByFirstStrong() {
    let cases: [(String, BidiDirection?)] = [
      ("مرحبا %@ Apple", .rightToLeft), ("%@ مرحبا", .leftToRight), ("%d مرحبا", .rightToLeft),
      ("123 %@", .leftToRight), ("12 %d", nil), ("abc %@ مرحبا", .leftToRight),
      ("\u{2068}%@\u{2069} مرحبا", .rightToLeft),
    ]
    for (text, expected) in cases {
      let value = LocalizationReader.read("\"k\" = \"\(text)\";\n", format: .strings).values[0]
      let analysis = ParagraphAnalysis(value, paragraph: 0)
      XCTAssertEqual(analysis.direction(filled: true), expected, text)
      XCTAssertEqual(BidiParagraph.firstStrong(scalars: analysis.filled.scalars).direction, expected, text)
    }
  }

  func testSeedCaseFindingAndFixes() {
    let read = LocalizationReader.read(seed, format: .strings)
    let findings = valueFindings(read.values[0])
    XCTAssertEqual(findings.map(\.code), [.placeholderDirection])
    XCTAssertEqual(findings[0].fixes.count, 2)
    for fix in findings[0].fixes {
      let fixed = TextLines(seed).applying(fix.edits)
      let again = LocalizationReader.read(fixed, format: .strings)
      XCTAssertNil(again.error)
      XCTAssertEqual(valueFindings(again.values[0]), [], fixed)
      let analysis = ParagraphAnalysis(again.values[0], paragraph: 0)
      XCTAssertEqual(analysis.direction(filled: true), .rightToLeft)
    }
    XCTAssertEqual(
      TextLines(seed).applying(findings[0].fixes[0].edits),
      "\"payment\" = \"\u{200F}%@ مدفوعات بدون فوائد من %@\";\n")
    XCTAssertEqual(
      TextLines(seed).applying(findings[0].fixes[1].edits),
      "\"payment\" = \"\u{2068}%@\u{2069} مدفوعات بدون فوائد من \u{2068}%@\u{2069}\";\n")
  }

  func testEscapedSpellingAndUnpaired() {
    let text = "\"a\" = \"\\U202Bمرحبا %@\";\n\"b\" = \"iPhone متوفر الآن\";\n"
    let read = LocalizationReader.read(text, format: .strings)
    let spelling = LocalizationFormat.strings.spelling(SpellingVotes(read.values))
    XCTAssertEqual(spelling, .backslashUpperU(uppercaseHex: true))
    let first = valueFindings(read.values[0], spelling: spelling)
    XCTAssertEqual(first.map(\.code), [.unpaired])
    XCTAssertEqual(first[0].range, SourceRange(start: .init(line: 0, column: 7), end: .init(line: 0, column: 13)))
    let close = first[0].fixes.first { $0.title.hasPrefix("Close") }!
    XCTAssertEqual(
      TextLines(text).applying(close.edits).split(separator: "\n")[0], "\"a\" = \"\\U202Bمرحبا %@\\U202C\";")
    let second = valueFindings(read.values[1], spelling: spelling)
    XCTAssertEqual(second.map(\.code), [.valueDirection])
    XCTAssertEqual(
      TextLines(text).applying(second[0].fixes[0].edits).split(separator: "\n")[1],
      "\"b\" = \"\\U200FiPhone متوفر الآن\";")
    let strip = EntryPlanner(read.values[0], spelling: spelling).stripEdits(.all)
    XCTAssertEqual(TextLines(text).applying(strip).split(separator: "\n")[0], "\"a\" = \"مرحبا %@\";")
  }
}
