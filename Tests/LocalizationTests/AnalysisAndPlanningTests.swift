import UnicodeBidi
import XCTest

@testable import Localization

final class AnalysisAndPlanningTests: XCTestCase {
  let seed = "\"payment\" = \"%@ مدفوعات بدون فوائد من %@\";\n"

  func testSeedCaseDirections() {
    let value = LocalizationReader.read(seed, format: .strings).values[0]
    let analysis = ValueParagraphAnalysis(value, paragraph: 0)
    XCTAssertEqual(analysis.direction().direction, .rightToLeft)
    XCTAssertEqual(analysis.direction().strongCharacter, SourcePosition(line: 0, column: 16))
    XCTAssertEqual(analysis.direction(filled: true).direction, .leftToRight)
    XCTAssertEqual(analysis.direction(filled: true).strongCharacter, SourcePosition(line: 0, column: 13))
    XCTAssertEqual(analysis.direction(.estimate(rtlThreshold: 0.4), filled: true).direction, .rightToLeft)
    XCTAssertEqual(
      analysis.filledVisualText(), "Apple Pay " + String("مدفوعات بدون فوائد من".reversed()) + " Apple Pay")
  }

  func testSeedCaseFindingAndFixes() {
    let read = LocalizationReader.read(seed, format: .strings)
    let diagnostics = LocalizationDiagnostics(spelling: .literal)
    let findings = diagnostics.findings(in: read.values[0], localeIsRightToLeft: true)
    XCTAssertEqual(findings.map(\.code), [.placeholderDirection])
    XCTAssertEqual(findings[0].fixes.count, 2)
    for fix in findings[0].fixes {
      let fixed = LocalizationText(seed).applying(fix.edits)
      let again = LocalizationReader.read(fixed, format: .strings)
      XCTAssertNil(again.error)
      XCTAssertEqual(diagnostics.findings(in: again.values[0], localeIsRightToLeft: true), [], fixed)
      let analysis = ValueParagraphAnalysis(again.values[0], paragraph: 0)
      XCTAssertEqual(analysis.direction(filled: true).direction, .rightToLeft)
    }
    XCTAssertEqual(
      LocalizationText(seed).applying(findings[0].fixes[0].edits),
      "\"payment\" = \"\u{200F}%@ مدفوعات بدون فوائد من %@\";\n")
    XCTAssertEqual(
      LocalizationText(seed).applying(findings[0].fixes[1].edits),
      "\"payment\" = \"\u{2068}%@\u{2069} مدفوعات بدون فوائد من \u{2068}%@\u{2069}\";\n")
  }

  func testEscapedSpellingAndUnpaired() {
    let text = "\"a\" = \"\\U202Bمرحبا %@\";\n\"b\" = \"iPhone متوفر الآن\";\n"
    let read = LocalizationReader.read(text, format: .strings)
    let spelling = SpellingVotes(read.values).spelling(for: .strings)
    XCTAssertEqual(spelling, .backslashUpperU(uppercaseHex: true))
    let diagnostics = LocalizationDiagnostics(spelling: spelling)
    let first = diagnostics.findings(in: read.values[0], localeIsRightToLeft: true)
    XCTAssertEqual(first.map(\.code), [.unpaired])
    XCTAssertEqual(first[0].range, SourceRange(start: .init(line: 0, column: 7), end: .init(line: 0, column: 13)))
    let close = first[0].fixes.first { $0.title.hasPrefix("Close") }!
    XCTAssertEqual(
      LocalizationText(text).applying(close.edits).split(separator: "\n")[0], "\"a\" = \"\\U202Bمرحبا %@\\U202C\";")
    let second = diagnostics.findings(in: read.values[1], localeIsRightToLeft: true)
    XCTAssertEqual(second.map(\.code), [.valueDirection])
    XCTAssertEqual(
      LocalizationText(text).applying(second[0].fixes[0].edits).split(separator: "\n")[1],
      "\"b\" = \"\\U200FiPhone متوفر الآن\";")
    let strip = ValuePlanner(read.values[0], spelling: spelling).stripEdits(.all)
    XCTAssertEqual(LocalizationText(text).applying(strip).split(separator: "\n")[0], "\"a\" = \"مرحبا %@\";")
  }
}
