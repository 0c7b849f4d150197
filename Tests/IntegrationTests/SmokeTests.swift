import BidiTestSupport
import XCTest

/// The built binary serves a whole session over pipes: the smoke session
/// that BidiServerTests runs in process, through every family of methods.
final class SmokeTests: XCTestCase {
  func testTheSmokeSessionOverPipes() throws {
    try TestSession.runSmokeSession(.bidiLSP)
  }
}
