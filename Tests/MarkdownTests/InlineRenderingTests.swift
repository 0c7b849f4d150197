import BidiTestSupport
import Markdown
import UnicodeBidi
import XCTest

/// The rendered text's map, atoms, markup and destinations, on the cases
/// of issue 27 and by their invariants on every spec example and many
/// generated documents.
final class InlineRenderingTests: XCTestCase {
  /// The blocks of `text` with inline content, rendered.
  func rendered(_ text: String) -> [(block: MarkdownBlock, inline: MarkdownInline)] {
    let source = MarkdownSource(text)
    let read = MarkdownReader().read(source)
    let renderer = MarkdownInlineRenderer(source: source, definitions: read.definitions)
    return read.blocks.filter(\.kind.hasInlineContent).map { ($0, renderer.render($0)) }
  }

  func string(_ inline: MarkdownInline, _ range: Range<Int>? = nil) -> String {
    String(decoding: inline.text[range ?? 0..<inline.text.count], as: UTF8.self)
  }

  func p(_ line: Int, _ column: Int) -> SourcePosition { SourcePosition(line: line, column: column) }

  func testListItemLinkRendersItsTextOnly() {
    let blocks = rendered("- [Apple Pay](https://example.com/pay \"Pay\") متاح الآن\n")
    XCTAssertEqual(blocks.count, 1)
    let (block, inline) = blocks[0]
    let length = "- [Apple Pay](https://example.com/pay \"Pay\") متاح الآن".utf8.count
    XCTAssertEqual(block.pieces, [MarkdownPiece(line: 0, columns: 2..<length)], "after the list marker")
    XCTAssertEqual(string(inline), "Apple Pay متاح الآن")
    XCTAssertEqual(inline.sourceMap.first, p(0, 3))
    XCTAssertEqual(
      inline.markup, [SourceRange(start: p(0, 2), end: p(0, 3)), SourceRange(start: p(0, 12), end: p(0, 44))],
      "[ and ](… \"Pay\")")
    XCTAssertEqual(inline.destinations, [SourceRange(start: p(0, 14), end: p(0, 37))])
    XCTAssertEqual(inline.atoms, [])
  }

  func testCodeSpanIsAnAtomWithoutItsBackticks() {
    let (_, inline) = rendered("`npm install` يثبّت الحزمة")[0]
    XCTAssertEqual(string(inline), "npm install يثبّت الحزمة")
    XCTAssertEqual(
      inline.atoms,
      [MarkdownAtom(kind: .codeSpan, rendered: 0..<11, source: SourceRange(start: p(0, 0), end: p(0, 13)))])
    XCTAssertEqual(
      inline.markup, [SourceRange(start: p(0, 0), end: p(0, 1)), SourceRange(start: p(0, 12), end: p(0, 13))])
    XCTAssertEqual(inline.sourceMap[0], p(0, 1))
  }

  func testEmphasisDelimitersAreMarkup() {
    let (_, inline) = rendered("**iPhone** متوفر ~~قديم~~ *x*")[0]
    XCTAssertEqual(string(inline), "iPhone متوفر قديم x")
    XCTAssertEqual(inline.markup.count, 6)
    XCTAssertEqual(inline.markup[0], SourceRange(start: p(0, 0), end: p(0, 2)))
    XCTAssertEqual(inline.markup[1], SourceRange(start: p(0, 8), end: p(0, 10)))
  }

  func testBreaksAreNotParagraphSeparators() {
    XCTAssertEqual(string(rendered("سطر\nثانٍ")[0].inline), "سطر ثانٍ", "a soft break is a space")
    let hard = rendered("سطر  \nثانٍ\\\nثالث")[0].inline
    XCTAssertEqual(string(hard), "سطر\u{2028}ثانٍ\u{2028}ثالث", "a hard break is U+2028")
    XCTAssertEqual(hard.markup, [SourceRange(start: p(0, 6), end: p(0, 8)), SourceRange(start: p(1, 8), end: p(1, 9))])
    XCTAssertEqual(hard.sourceMap[6], p(0, 6), "the break maps to its first trailing space")
  }

  func testEscapesAndEntitiesMapToTheirStart() {
    let (_, inline) = rendered("a\\*b &amp; &#x5D0; &nope;")[0]
    XCTAssertEqual(string(inline), "a*b & א &nope;")
    XCTAssertEqual(inline.sourceMap[1], p(0, 1), "the escape's backslash")
    XCTAssertEqual(inline.sourceMap[4], p(0, 5), "the entity's ampersand")
    XCTAssertEqual(Array(inline.sourceMap[6...7]), [p(0, 11), p(0, 11)], "both bytes of א")
  }

  func testReferenceLinksResolveOnlyToDefinedLabels() {
    let blocks = rendered("[Foo] and [bar][] and [baz]\n\n[FOO]: /u\n[bar]:\n  /v 'title'\n")
    XCTAssertEqual(string(blocks[0].inline), "Foo and bar and [baz]")
    let read = MarkdownReader().read(MarkdownSource("[FOO]: /u\n[bar]:\n  /v 'title'\n"))
    XCTAssertEqual(read.definitions, ["foo", "bar"])
    XCTAssertEqual(read.blocks.map(\.lines), [0...0, 1...2])
  }

  func testAutolinksAreAtomsAndDestinations() {
    let (_, inline) = rendered("<https://a.b/c&amp;d> www.x.com/ه, a.b@c.co and http://q.r")[0]
    XCTAssertEqual(string(inline), "https://a.b/c&d www.x.com/ه, a.b@c.co and http://q.r")
    XCTAssertEqual(inline.atoms.map(\.kind), [.autolink, .autolink, .autolink, .autolink])
    XCTAssertEqual(
      inline.atoms.map { string(inline, $0.rendered) }, ["https://a.b/c&d", "www.x.com/ه", "a.b@c.co", "http://q.r"])
    XCTAssertEqual(inline.atoms[0].source, SourceRange(start: p(0, 0), end: p(0, 21)))
    XCTAssertEqual(inline.destinations.count, 3, "the email's destination is in the text only")
  }

  func testRawHTMLIsMarkup() {
    let (_, inline) = rendered("<b dir=\"rtl\">عربي</b>")[0]
    XCTAssertEqual(string(inline), "عربي")
    XCTAssertEqual(
      inline.markup, [SourceRange(start: p(0, 0), end: p(0, 13)), SourceRange(start: p(0, 21), end: p(0, 25))])
  }

  func testContainerMarkersHeadingsAndTaskBoxesAreNotPieces() {
    // cmark-gfm finds a task box only where the line starts with its list
    // marker: not in a block quote.
    let blocks = rendered(
      "> ## عنوان ##\n1. [x] مهمة\n   تكملة\n\nعنوان\n===\n| א | ב \\| ג |\n|---|:--:|\n| ד |  |\n> - [ ] x\n")
    XCTAssertEqual(blocks.map { string($0.inline) }, ["عنوان", "مهمة تكملة", "عنوان", "א", "ב | ג", "ד", "", "[ ] x"])
    XCTAssertEqual(blocks[0].block.pieces, [MarkdownPiece(line: 0, columns: 5..<15)])
    XCTAssertEqual(blocks[1].block.pieces.map(\.columns.lowerBound), [7, 3])
    XCTAssertEqual(blocks[2].block.lines, 4...5)
    XCTAssertEqual(blocks[4].block.kind, .tableCell(row: 0, column: 1, alignment: .center))
    XCTAssertEqual(blocks[4].inline.sourceMap[3], p(6, 10), "`|` from `\\|` maps to the backslash")
  }

  func testFencedCodeInfoAndRegions() {
    let read = MarkdownReader().read(MarkdownSource("- ```swift&#32;x\n  let a = 1\n  ```\n\n<div>\n"))
    XCTAssertEqual(read.blocks.map(\.kind), [.fencedCode(info: "swift x"), .html])
    XCTAssertEqual(read.blocks[0].kind.language, "swift")
    XCTAssertEqual(read.blocks[0].lines, 0...2)
    XCTAssertEqual(read.blocks[0].pieces, [MarkdownPiece(line: 1, columns: 2..<11)])
  }

  // MARK: Invariants

  /// The rendering invariants of `MarkdownChecks` on `text`.
  static func invariantProblems(_ text: [UInt8]) -> [String] {
    let source = MarkdownSource(text)
    let read = MarkdownReader().read(source)
    return MarkdownChecks.structureProblems(source, read) + MarkdownChecks.renderingProblems(source, read)
  }

  func testInvariantsOnSpecExamplesAndGeneratedDocuments() throws {
    for file in ["spec.txt", "extensions.txt", "regression.txt"] {
      for example in try SpecExample.load(file) {
        XCTAssertEqual(Self.invariantProblems(example.markdown), [], "\(file) \(example.number)")
      }
    }
    var random = SeededGenerator(seed: 9)
    for _ in 0..<3000 {
      let text = RandomDocumentTests.document(&random)
      XCTAssertEqual(Self.invariantProblems(Array(text.utf8)), [], text.debugDescription)
    }
  }
}
