import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// Values mode of the four bidi requests in localization documents
/// (contract §7), in process.
final class LocalizationRequestsTests: XCTestCase {
  static let seedURI = "file:///app/ar.lproj/Localizable.strings"
  static let seed = """
    /* Payment */
    "payment" = "%@ مدفوعات بدون فوائد من %@";
    "title" = "الدفع";

    """

  func testSeedValueIsOneEntryWithKeyRangeAndLocale() throws {
    let session = try TestSession(.bidiLSP, ignoring: TestSession.diagnosticsAndProgress)
    try session.open(Self.seedURI, languageId: "strings", text: Self.seed)
    let entries = try session.paragraphs("bidi/naturalDirection", uri: Self.seedURI)
    print(entries)
    XCTAssertEqual(entries.count, 2)
  }
}
