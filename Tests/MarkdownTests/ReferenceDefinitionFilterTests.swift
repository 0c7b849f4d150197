import XCTest

@testable import Markdown

/// `ReferenceDefinitions.labelEndsWithColon` (the filter that lets a
/// paragraph starting with `[` skip the definition parser) against the
/// parser itself: a paragraph the filter turns away has no definition.
final class ReferenceDefinitionFilterTests: XCTestCase {
  func testFilterTurnsAwayOnlyParagraphsWithoutDefinitions() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [String] = ["[", "]", "\\", ":", "a", " ", "\n", "`", "(", ")", "/", "\"", "]:", "\\]", "\\\\"]
    var filtered = 0
    var found = 0
    for round in 0..<20_000 {
      var text = "["
      for _ in 0..<Int.random(in: 0...12, using: &generator) { text += alphabet.randomElement(using: &generator)! }
      if round % 3 == 0 { text += "]: /url" }
      check(text, filtered: &filtered, found: &found)
    }
    for text in [
      "[a]: /u", "[a\\]]: /u", "[a\\\\]: /u", "[a\\\n]: /u", "[a\n]: /u", "[a\nb]: /u", "[a]\n: /u", "[a]b]: /u",
      "[[a]: /u", "[a][b]: /u", "[\\[]: /u", "[a\\", "[]: /u", "[ ]: /u", "[a]: /u\n[b]: /v",
    ] {
      check(text, filtered: &filtered, found: &found)
    }
    // Both sides were reached.
    XCTAssertGreaterThan(filtered, 100)
    XCTAssertGreaterThan(found, 100)
  }

  private func check(_ text: String, filtered: inout Int, found: inout Int) {
    let source = MarkdownSource(text)
    let pieces = (0..<source.lineCount).map { MarkdownPiece(line: $0, columns: 0..<source.length(ofLine: $0)) }
    let all = ReferenceDefinitions.read(pieces, in: source, filtered: false)
    let read = ReferenceDefinitions.read(pieces, in: source)
    if !ReferenceDefinitions.labelEndsWithColon(pieces, in: source) {
      filtered += 1
      XCTAssertTrue(all.isEmpty, text.debugDescription)
    }
    if !all.isEmpty { found += 1 }
    XCTAssertEqual(read.map(\.label), all.map(\.label), text.debugDescription)
    XCTAssertEqual(read.map(\.lineCount), all.map(\.lineCount), text.debugDescription)
  }
}

/// `ReferenceDefinitions.normalizedLabel`'s shortcut (a label of ASCII
/// without capitals or white space is itself) against the long way.
final class NormalizedLabelTests: XCTestCase {
  func testShortcutIsTheLongWay() {
    var generator = SystemRandomNumberGenerator()
    let pieces = ["a", "Z", "ref6", " ", "\t", "\n", "\r", "é", "ß", "ẞ", "İ", "-", "_", "[", "0", "@", "A", "`", "{"]
    for _ in 0..<20_000 {
      var label = ""
      for _ in 0..<Int.random(in: 0...6, using: &generator) { label += pieces.randomElement(using: &generator)! }
      let bytes = Array(label.utf8)
      XCTAssertEqual(
        ReferenceDefinitions.normalizedLabel(bytes), ReferenceDefinitions.foldedLabel(bytes), label.debugDescription)
    }
    for byte in UInt8(0)...UInt8(0x7F) {
      let bytes = [UInt8(ascii: "x"), byte]
      XCTAssertEqual(ReferenceDefinitions.normalizedLabel(bytes), ReferenceDefinitions.foldedLabel(bytes), "\(byte)")
    }
  }
}
