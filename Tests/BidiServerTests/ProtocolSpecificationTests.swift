import BidiProtocol
import BidiServer
import XCTest

/// Keeps Protocol/specification.md and the server in step: every method the
/// server handles must have a section (a heading naming it in backquotes).
final class ProtocolSpecificationTests: XCTestCase {
  static let specification: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    let path = url.appendingPathComponent("Protocol/specification.md").path
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }()

  func testSpecificationIsFound() {
    XCTAssertFalse(Self.specification.isEmpty, "Protocol/specification.md not found beside the package")
  }

  func testEveryServedMethodHasASection() {
    let headings = Self.specification.split(separator: "\n").filter { $0.hasPrefix("#") }
    let methods = BidiLanguageServer.requestMethods + BidiLanguageServer.notificationMethods
    XCTAssertGreaterThanOrEqual(methods.count, 12)
    for method in methods {
      XCTAssertTrue(
        headings.contains { $0.contains("`\(method)`") },
        "\(method) is served but Protocol/specification.md has no section (heading) for it")
    }
  }

  func testAlignmentTable() {
    // specification, “`bidi/alignment`”: natural follows the paragraph; leading/trailing follow the layout.
    let rtlInLTR = ResolvedAlignment(.natural, paragraph: .rightToLeft, layout: .leftToRight)
    XCTAssertEqual(rtlInLTR.alignment, "trailing")
    XCTAssertEqual(rtlInLTR.physical, "right")
    let ltrInRTL = ResolvedAlignment(.natural, paragraph: .leftToRight, layout: .rightToLeft)
    XCTAssertEqual(ltrInRTL.alignment, "trailing")
    XCTAssertEqual(ltrInRTL.physical, "left")
    XCTAssertEqual(ResolvedAlignment(.leading, paragraph: .leftToRight, layout: .rightToLeft).physical, "right")
    XCTAssertEqual(ResolvedAlignment(.trailing, paragraph: .leftToRight, layout: .rightToLeft).physical, "left")
    XCTAssertEqual(ResolvedAlignment(.left, paragraph: .rightToLeft, layout: .rightToLeft).alignment, "trailing")
    XCTAssertEqual(ResolvedAlignment(.right, paragraph: .rightToLeft, layout: .rightToLeft).alignment, "leading")
    let justified = ResolvedAlignment(.justified, paragraph: .rightToLeft, layout: .leftToRight)
    XCTAssertEqual(justified.physical, "justified")
    XCTAssertEqual(justified.lastLinePhysical, "right")
    XCTAssertNil(ResolvedAlignment(.center, paragraph: .rightToLeft, layout: .leftToRight).lastLinePhysical)
  }
}
