import BidiTestSupport
import DocumentStore
import UnicodeBidi
import XCTest

/// `LineUnits` answers exactly what `Line`'s own conversions answer, in
/// every encoding, for every offset of random long lines.
final class LineUnitsTests: XCTestCase {
  func testConversionsEqualTheLinesOwn() throws {
    var random = SeededGenerator(seed: 0x11_4E5)
    let pieces = ["a", "bc ", "שלום", "عربي", "😀", "𝒜", "\u{2067}", "é", "中", " "]
    var checked = 0
    for _ in 0..<20 {
      var text = ""
      for _ in 0..<Int.random(in: 1...400, using: &random) { text += pieces.randomElement(using: &random)! }
      let tree = try Document.Text(text)
      let line = try tree.line(0)
      for encoding in PositionEncoding.allCases {
        let units = LineUnits(line, encoding)
        for offset in -1...(line.utf8Count + 1) {
          XCTAssertEqual(
            units.character(atUTF8Offset: offset), line.character(atUTF8Offset: offset, in: encoding),
            "\(encoding) byte \(offset)")
          checked += 1
        }
        for character in -1...(line.count(in: encoding) + 1) {
          XCTAssertEqual(
            units.utf8Offset(ofCharacter: character), line.utf8Offset(ofCharacter: character, in: encoding),
            "\(encoding) character \(character)")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThan(checked, 10_000)
  }
}
