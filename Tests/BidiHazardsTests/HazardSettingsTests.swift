import BidiHazards
import UnicodeBidi
import XCTest

final class HazardSettingsTests: XCTestCase {
  func testDefaultsFollowTheContract() {
    let settings = RuleSettings.default
    XCTAssertEqual(settings.severity(for: .unpaired), .error)
    XCTAssertEqual(settings.severity(for: .inIdentifier), .error)
    XCTAssertEqual(settings.severity(for: .inComment), .error)
    XCTAssertEqual(settings.severity(for: .inString), .error)
    XCTAssertEqual(settings.severity(for: .override), .warning)
    XCTAssertEqual(settings.severity(for: .unmatched), .warning)
    XCTAssertEqual(settings.severity(for: .invalidUtf8), .warning)
    XCTAssertTrue(RuleCode.allCases.allSatisfy(settings.isEnabled))
    XCTAssertEqual(settings.severity(for: .placeholderDirection), .warning)
    XCTAssertEqual(settings.severity(for: .cueDirection), .warning)
  }

  func testSettingsKeysAndValues() {
    XCTAssertEqual(RuleCode.inComment.settingsKey, "inComment")
    XCTAssertEqual(RuleCode(settingsKey: "unmatched"), .unmatched)
    XCTAssertNil(RuleCode(settingsKey: "bidi.unmatched"))
    XCTAssertEqual(RuleCode(settingsKey: "blockDirection"), .blockDirection)
    XCTAssertNil(RuleCode(settingsKey: "truncated"))
    XCTAssertNil(RuleCode(settingsKey: "nonsense"))
    XCTAssertEqual(RuleCode.settingsKeys.count, RuleCode.allCases.count - 1)
    var settings = RuleSettings()
    settings[.override] = .off
    settings[.unpaired] = .severity(DiagnosticSeverity(rawValue: "hint")!)
    settings[.inString] = RuleSetting(enabled: true)
    XCTAssertNil(DiagnosticSeverity(rawValue: "fatal"))
    XCTAssertEqual(settings.severity(for: .override), nil)
    XCTAssertEqual(settings.severity(for: .unpaired), .hint)
    XCTAssertEqual(settings.severity(for: .inString), .error)
    XCTAssertFalse(settings.isEnabled(.override))
  }

  func testOffRulesReportNothing() {
    var settings = RuleSettings()
    for code in RuleCode.allCases { settings[code] = .off }
    let text = MarkedText("x ⟦RLO⟧ ⟦PDI⟧ /* ⟦RLI⟧ */ \"⟦LRI⟧\" a⟦LRM⟧b").text
    XCTAssertEqual(HazardScanner(language: .c, settings: settings).scanDocument(text), [])
    XCTAssertEqual(HazardScanner(language: .c).scanDocument(text).count, 6)
  }
}
