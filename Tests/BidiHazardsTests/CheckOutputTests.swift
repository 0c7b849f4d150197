import BidiCommands
import UnicodeBidi
import XCTest

/// The pieces of `bidi-lsp check`'s text output.
final class CheckOutputTests: XCTestCase {
  func testEveryRuleCodesStaticNameIsItsRawValue() {
    for code in RuleCode.allCases {
      XCTAssertEqual(code.staticName.description, code.rawValue)
    }
  }
}
