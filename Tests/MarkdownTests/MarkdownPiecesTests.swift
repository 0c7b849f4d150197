import XCTest

@testable import Markdown
@testable import StructuredText

/// `MarkdownPieces` (a block's pieces, the first held inline) against the
/// array of the same pieces, and `String(wellFormedUTF8:)`.
final class MarkdownPiecesTests: XCTestCase {
  func testPiecesAreThoseOfTheArray() {
    for count in 0...4 {
      let array = (0..<count).map { MarkdownPiece(line: $0, columns: $0..<($0 + 2)) }
      for pieces in [MarkdownPieces(array), MarkdownPieces(array[...]), MarkdownPieces(array.reversed().reversed())] {
        XCTAssertEqual(Array(pieces), array)
        XCTAssertEqual(pieces.count, array.count)
        XCTAssertEqual(pieces.isEmpty, array.isEmpty)
        XCTAssertEqual(pieces.first, array.first)
        XCTAssertEqual(pieces.last, array.last)
        for index in array.indices { XCTAssertEqual(pieces[index], array[index]) }
      }
      if count == 1 { XCTAssertEqual(MarkdownPieces(array[0]), MarkdownPieces(array)) }
    }
    XCTAssertEqual(MarkdownPieces(), [])
    XCTAssertNotEqual(
      MarkdownPieces([MarkdownPiece(line: 0, columns: 0..<1)]),
      MarkdownPieces([MarkdownPiece(line: 0, columns: 0..<1), MarkdownPiece(line: 1, columns: 0..<1)]))
  }

  func testWellFormedUTF8IsCopiedAsItIs() {
    for text in ["", "a", "مرحبا “x” 🙂", String(repeating: "שלום ", count: 100)] {
      let bytes = Array(text.utf8)
      let string = bytes.withUnsafeBufferPointer { String(wellFormedUTF8: $0) }
      XCTAssertEqual(string, text)
      XCTAssertEqual(Array(string.utf8), bytes)
    }
  }
}
