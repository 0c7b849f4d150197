import BidiMarks
import XCTest

final class PlaceholderGrammarTests: XCTestCase {
  func testBuilds() {}
}
