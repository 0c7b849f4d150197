import BidiTestSupport
import XCTest

/// The localization documents of the contract (Protocol/localization.md), point by point, in process
/// (the checks are `LocalizationChecks`, shared by BidiServerTests and IntegrationTests).
final class LocalizationProtocolInProcessTests: XCTestCase {
  func testSeedCaseDiagnosticFixesAndApplePayPreview() throws { try LocalizationChecks.seedCase(.bidiLSP) }
  func testFormatsByLanguageIdAndPath() throws { try LocalizationChecks.formatsByLanguageIdAndPath(.bidiLSP) }
  func testEntriesCarryLineRangeKeyVariantLocale() throws { try LocalizationChecks.entryMembers(.bidiLSP) }
  func testRangeSelectsValuesAndStrongCharacterIsTheEscape() throws {
    try LocalizationChecks.rangeAndStrongCharacter(.bidiLSP)
  }
  func testVisualOrderCarriesTheDecodedText() throws { try LocalizationChecks.visualOrderText(.bidiLSP) }
  func testInsertMarksEditsOnlyInsideValues() throws { try LocalizationChecks.insertMarksInsideValues(.bidiLSP) }
  func testLocaleFromPathContentsAndSetting() throws { try LocalizationChecks.localeSetting(.bidiLSP) }
  func testDiagnosticsPerValueAndTheirSettings() throws { try LocalizationChecks.diagnosticsPerValue(.bidiLSP) }
  func testSyntaxErrorValuesBeforeItPlainLinesAfter() throws { try LocalizationChecks.syntaxError(.bidiLSP) }
  func testIncrementalEditsAnswerAsAFreshOpen() throws { try LocalizationChecks.incrementalEdits(.bidiLSP) }
}
