import BidiTestSupport
import XCTest

/// The localization documents of the contract (Protocol/localization.md),
/// point by point (`LocalizationChecks.all`), in process.
final class LocalizationProtocolInProcessTests: XCTestCase {
  func testEveryPointOfTheLocalizationSection() { LocalizationChecks.runAll(.bidiLSP) }
}
