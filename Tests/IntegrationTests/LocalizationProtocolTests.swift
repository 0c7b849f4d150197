import BidiTestSupport
import XCTest

/// The localization documents of the contract (Protocol/localization.md),
/// point by point (`LocalizationChecks.all`), against the built binary, over pipes.
final class LocalizationProtocolTests: XCTestCase {
  func testEveryPointOfTheLocalizationSection() { LocalizationChecks.runAll(.bidiLSP) }
}
