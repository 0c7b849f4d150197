import BidiHazards
import XCTest

final class HazardSettingsTests: XCTestCase {
  func testDefaultsFollowTheContract() {
    let settings = HazardSettings.default
    XCTAssertEqual(settings.severity(for: .unpaired), .error)
    XCTAssertEqual(settings.severity(for: .inIdentifier), .error)
    XCTAssertEqual(settings.severity(for: .inComment), .error)
    XCTAssertEqual(settings.severity(for: .inString), .error)
    XCTAssertEqual(settings.severity(for: .override), .warning)
    XCTAssertEqual(settings.severity(for: .unmatched), .warning)
    XCTAssertEqual(settings.severity(for: .invalidUtf8), .warning)
    XCTAssertTrue(HazardCode.allCases.allSatisfy(settings.isEnabled))
  }

  func testSettingsKeysAndValues() {
    XCTAssertEqual(HazardCode.inComment.settingsKey, "inComment")
    XCTAssertEqual(HazardCode(settingsKey: "unmatched"), .unmatched)
    XCTAssertNil(HazardCode(settingsKey: "bidi.unmatched"))
    var settings = HazardSettings()
    XCTAssertTrue(settings.set(key: "override", to: .off))
    XCTAssertTrue(settings.set(key: "unpaired", to: HazardRuleSetting(severityName: "hint")!))
    XCTAssertTrue(settings.set(key: "inString", to: HazardRuleSetting(enabled: true)))
    XCTAssertFalse(settings.set(key: "nonsense", to: .off))
    XCTAssertNil(HazardRuleSetting(severityName: "fatal"))
    XCTAssertEqual(settings.severity(for: .override), nil)
    XCTAssertEqual(settings.severity(for: .unpaired), .hint)
    XCTAssertEqual(settings.severity(for: .inString), .error)
    XCTAssertFalse(settings.isEnabled(.override))
  }

  func testOffRulesReportNothing() {
    var settings = HazardSettings()
    for code in HazardCode.allCases { settings[code] = .off }
    let text = MarkedText("x ⟦RLO⟧ ⟦PDI⟧ /* ⟦RLI⟧ */ \"⟦LRI⟧\" a⟦LRM⟧b").text
    XCTAssertEqual(HazardScanner(language: .c, settings: settings).scanDocument(text), [])
    XCTAssertEqual(HazardScanner(language: .c).scanDocument(text).count, 6)
  }
}
