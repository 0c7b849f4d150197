import BidiTestSupport
import XCTest

@testable import Markdown
@testable import MarkdownFormat

/// The skeleton scan's emphasis (`SkeletonEmphasis`: a one-line block's
/// only delimiter runs, a pair emphasis uses whole) against the inline
/// parser it spares `check`: on generated one-line blocks dense with `*`,
/// `_` and `~` runs next to letters, punctuation, brackets, links, code
/// spans and images, and on the other suites' random documents, the text
/// the skeleton renders is `renderedText(block)`, and the lane's rendered
/// block built from it (text, delimiter run lengths, the run at the
/// content's start) is the one it builds with the renderer.
final class SkeletonEmphasisTests: XCTestCase {
  static let words = ["مرحبا", "שלום", "کتاب", "Apple", "npm", "٣", "12", "é", "a_b", "x*y"]
  /// Markup around a word (`%`) or two: emphasis and its near misses.
  static let forms = [
    "*%*", "**%**", "***%***", "_%_", "__%__", "*% %*", "**% %**", "«*%*»", "*%*،", "(*%*)", "%*%*", "*%*%", "*%",
    "%*", "** %**", "*%**", "~~%~~", "~%~", "*%_", "_%*", "[*%*](/u)", "*[%](/u)*", "*%* [%](/u)", "*%* [ref1]",
    "[%][ref1] *%*", "*%* `c`", "*`%`*", "![%](/i) *%*", "*%* ![%](/i)", "*%* [%]", "*%]*", "\\*%*", "*%*\u{A0}",
    "\"*%*\"", "!*%*", "*!%*",
  ]
  static let noise = ["*", "**", "_", "~", "[", "]", "`", "٫", "."]
  static let prefixes = ["", "", "", "# ", "> ", "- ", "1. ", "| "]

  static func line(_ random: inout SeededGenerator) -> String {
    var line = prefixes.randomElement(using: &random)!
    for index in 0..<Int.random(in: 1...8, using: &random) {
      if index > 0 && Int.random(in: 0..<8, using: &random) > 0 { line += " " }
      let word = words.randomElement(using: &random)!
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<3: line += forms.randomElement(using: &random)!.replacingOccurrences(of: "%", with: word)
      case 3: line += noise.randomElement(using: &random)!
      default: line += word
      }
    }
    if Int.random(in: 0..<10, using: &random) == 0 { line += " " }
    return line
  }

  /// A document: a definition, then one-line blocks apart (some lines
  /// tied into one block).
  static func document(_ random: inout SeededGenerator) -> String {
    var out = ["[ref1]: /target", ""]
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      out.append(line(&random))
      if Int.random(in: 0..<5, using: &random) > 0 { out.append("") }
    }
    return out.joined(separator: "\n")
  }

  /// `text` read: its source, a renderer against its definitions, and its
  /// blocks with inline content.
  static func inlineBlocks(_ text: String) -> (MarkdownSource, MarkdownInlineRenderer, [MarkdownBlock]) {
    let source = MarkdownSource(text)
    let read = MarkdownReader().read(source, startsDocument: true)
    let renderer = MarkdownInlineRenderer(source: source, definitions: read.definitions)
    return (source, renderer, read.blocks.filter { $0.kind.hasInlineContent })
  }

  func testSkeletonRendersTheEmphasisTheParserDoes() {
    var random = SeededGenerator(seed: 4_545)
    // Blocks whose emphasis the scan renders, one-line blocks it leaves.
    var (rendered, refused) = (0, 0)
    for round in 0..<20_000 {
      let generators = [Self.document, Self.document, Self.document, MarkdownFindingsLaneTests.document]
      let text = round % 5 == 4 ? RandomDocumentTests.document(&random) : generators[round % 5](&random)
      let (source, renderer, blocks) = Self.inlineBlocks(text)
      for block in blocks {
        var found: (skeleton: [UInt8], emphasis: SkeletonEmphasis?, isRendered: Bool)?
        renderer.readSkeleton(block) { skeleton, isRendered, _, emphasis in
          // (Its flanking read here, where the content lies.)
          found = (Array(skeleton), emphasis.flatMap { $0.isUsedWhole ? $0 : nil }, isRendered)
        }
        guard let found else { continue }
        guard let emphasis = found.emphasis else {
          if !found.isRendered && block.pieces.count == 1 { refused += 1 }
          continue
        }
        rendered += 1
        let context = "\(text.debugDescription) block \(block.lines)"
        XCTAssertFalse(found.isRendered, context)
        XCTAssertEqual(
          String(decoding: found.skeleton.withUnsafeBufferPointer { emphasis.renderedText($0) }, as: UTF8.self),
          String(decoding: renderer.renderedText(block), as: UTF8.self), context)
        // The lane's rendered block, with and without the renderer.
        let expected = MarkdownEntries.rendered(block, source: source, renderer: renderer)
        let got = found.skeleton.withUnsafeBufferPointer { MarkdownEntries.RenderedBlock($0, emphasis: emphasis) }
        XCTAssertEqual(got.text, expected.text, context)
        XCTAssertEqual(got.lengths?.all, expected.lengths?.all, context)
        XCTAssertEqual(got.lengths?.text, expected.lengths?.text, context)
        XCTAssertEqual(got.first, expected.first, context)
      }
    }
    print("skeleton emphasis: \(rendered) blocks rendered by the scan, \(refused) one-line blocks left to the parser")
    XCTAssertGreaterThan(rendered, 2_000)
    XCTAssertGreaterThan(refused, 10_000)
  }

  /// The forms one by one: a pair used whole is rendered, anything else
  /// is the parser's.
  func testSkeletonEmphasisForms() {
    let cases: [(String, String?)] = [
      ("a *b* c", "a b c"),
      ("*b* c", "b c"),
      ("a **b c**", "a b c"),
      ("a ***b*** c", "a b c"),
      ("a __b__ c", "a b c"),
      ("«*مرحبا*» c", "«مرحبا» c"),
      ("a *b* `*` c", "a b * c"),
      ("a *b [c](/u)* d", nil),
      ("a *b* [c](/u) *d*", nil),
      ("a *b** c", nil),
      ("a *b_ c", nil),
      ("a_b_c d", nil),
      ("a * b * c", nil),
      ("a *b* ~c~", nil),
      ("a *b* ![c](/i)", nil),
      ("a *b*\nc", nil),
      ("a *b* ", nil),
    ]
    for (text, expected) in cases {
      let source = MarkdownSource(text)
      let blocks = MarkdownReader().read(source, startsDocument: true)
      let renderer = MarkdownInlineRenderer(source: source, definitions: blocks.definitions)
      let block = blocks.blocks.first { $0.kind.hasInlineContent }!
      var got: String?
      renderer.readSkeleton(block) { skeleton, _, _, emphasis in
        got = emphasis.flatMap { $0.isUsedWhole ? String(decoding: $0.renderedText(skeleton), as: UTF8.self) : nil }
      }
      XCTAssertEqual(got, expected, text)
      if let expected { XCTAssertEqual(expected, String(decoding: renderer.renderedText(block), as: UTF8.self), text) }
    }
  }

  /// One `SkeletonScratch` kept over every block of many documents (as
  /// `check` keeps it) gives each block the skeleton, flags and emphasis a
  /// fresh one gives: no earlier block's bytes show through.
  func testScratchKeptFromBlockToBlock() {
    var random = SeededGenerator(seed: 4_546)
    var scratch = SkeletonScratch()
    var copied = 0
    for round in 0..<6_000 {
      let text = round % 2 == 0 ? MarkdownFindingsLaneTests.document(&random) : Self.document(&random)
      let (_, renderer, blocks) = Self.inlineBlocks(text)
      for block in blocks {
        var fresh: (text: [UInt8], isRendered: Bool, isPlain: Bool, emphasis: [Int]?)?
        renderer.readSkeleton(block) { text, isRendered, isPlain, emphasis in
          fresh = (Array(text), isRendered, isPlain, emphasis.map(Self.fields))
        }
        var kept: (text: [UInt8], isRendered: Bool, isPlain: Bool, emphasis: [Int]?)?
        renderer.readSkeleton(block, scratch: &scratch) { text, isRendered, isPlain, emphasis in
          kept = (Array(text), isRendered, isPlain, emphasis.map(Self.fields))
        }
        let context = "\(text.debugDescription) block \(block.lines)"
        XCTAssertEqual(kept?.text, fresh?.text, context)
        XCTAssertEqual(kept?.isRendered, fresh?.isRendered, context)
        XCTAssertEqual(kept?.isPlain, fresh?.isPlain, context)
        XCTAssertEqual(kept?.emphasis, fresh?.emphasis, context)
        if let fresh, fresh.text.count < block.pieces.reduce(0, { $0 + $1.columns.count }) { copied += 1 }
      }
    }
    // Many skeletons copied (markup left out) into the kept arrays.
    XCTAssertGreaterThan(copied, 3_000)
  }

  static func fields(_ emphasis: SkeletonEmphasis) -> [Int] {
    [
      emphasis.isUsedWhole ? 1 : 0, Int(emphasis.character), emphasis.length, emphasis.contentStarts.opener,
      emphasis.contentStarts.closer,
      emphasis.skeletonStarts.opener, emphasis.skeletonStarts.closer,
    ]
  }

  /// The blocks `CharacterClasses` answers without the property lookup
  /// (which the flanking rules ask per delimiter run) hold no white space
  /// and no punctuation: each of their scalars is answered as the lookup
  /// answers it, and the scalars around them are not in them.
  func testLetterBlocksHaveNoSpaceOrPunctuation() {
    var fast = 0
    for value in UInt32(0x80)..<0x800 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let category = scalar.properties.generalCategory
      let punctuation: Set<Unicode.GeneralCategory> = [
        .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
        .finalPunctuation, .otherPunctuation,
      ]
      XCTAssertEqual(CharacterClasses.isSpace(value), category == .spaceSeparator, "U+\(String(value, radix: 16))")
      XCTAssertEqual(
        CharacterClasses.isPunctuation(value), punctuation.contains(category), "U+\(String(value, radix: 16))")
      if CharacterClasses.isLetterOrMark(value) {
        fast += 1
        XCTAssertFalse(category == .spaceSeparator || punctuation.contains(category), "U+\(String(value, radix: 16))")
      }
    }
    XCTAssertGreaterThan(fast, 600)
    // White space as the property has it, over every scalar.
    for value in UInt32(0x80)..<0x11_0000 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      if CharacterClasses.isSpace(value) != (scalar.properties.generalCategory == .spaceSeparator) {
        XCTFail("U+\(String(value, radix: 16))")
      }
    }
    // A full stop and a comma next to the blocks are punctuation.
    for value: UInt32 in [0x6D4, 0x60C, 0x61F, 0x66A, 0x5BE, 0xBF] {
      XCTAssertFalse(CharacterClasses.isLetterOrMark(value), "U+\(String(value, radix: 16))")
      XCTAssertTrue(CharacterClasses.isPunctuation(value), "U+\(String(value, radix: 16))")
    }
  }
}
