import BidiTestSupport
import Markdown
import StructuredText
import UnicodeBidi
import XCTest

@testable import MarkdownFormat

/// The byte-level path for blocks whose rendered text is their source
/// (`MarkdownEntries.plainEntry`) against the general one (the inline
/// renderer, then `MarkdownEntries.entry`): on generated documents, every
/// block the fast path takes must give the same entry (text, source map,
/// ranges, flags), and the documents must make it take many blocks and
/// refuse many (near misses: one byte of markup, trailing spaces, tabs…).
final class MarkdownPlainEntryTests: XCTestCase {
  /// Words, punctuation the inline parser reads as text, and near misses
  /// (each of the bytes the fast path must refuse, and white space where the
  /// renderer trims or makes a hard break).
  static let words = [
    "مرحبا", "العالم", "שלום", "کتاب", "Apple", "Pay", "npm", "install", "v1.2", "٣", "!", "?", "،", "(x)", "«", "»",
    "a|b", "-", "#", "+", "=", "w", "ww.", "wwwx", "\u{200F}", "\u{200E}", "\u{202B}", "\u{2067}", "\u{A0}", "\u{2028}",
  ]
  static let nearMisses = [
    "*", "_", "`", "[", "]", "![", "<", "&amp;", "&", "\\", "~", ":", "@", "www.a.bc", "http://a.b", "a@b.co", "  ",
    "\t",
    "\\|", "**b**", "`c`", "[t](/u)", "<b>", "x  ",
  ]
  static let prefixes = ["", "", "", "", "# ", "## ", "> ", "- ", "1. ", "   ", "\t", "| ", "> - ", "    "]
  static let lines = ["", "", "---", "===", "| a | b |", "|---|---|", "```", "[ref]: /u", "- [ ] ", "  "]

  static func document(_ random: inout SeededGenerator) -> String {
    var out: [String] = []
    for _ in 0..<Int.random(in: 1...12, using: &random) {
      if Int.random(in: 0..<5, using: &random) == 0 {
        out.append(lines.randomElement(using: &random)!)
        continue
      }
      var line = prefixes.randomElement(using: &random)!
      for index in 0..<Int.random(in: 1...8, using: &random) {
        if index > 0 { line += Int.random(in: 0..<6, using: &random) == 0 ? "  " : " " }
        let missing = Int.random(in: 0..<12, using: &random) == 0
        line += (missing ? nearMisses : words).randomElement(using: &random)!
      }
      if Int.random(in: 0..<8, using: &random) == 0 { line += Bool.random(using: &random) ? " " : "  |" }
      out.append(line)
    }
    return out.joined(separator: "\n") + (Bool.random(using: &random) ? "\n" : "")
  }

  /// Compares the two paths on every block with inline content of the
  /// documents `make` generates; returns how many blocks took the fast path
  /// and how many did not.
  func compare(seed: UInt64, count: Int, _ make: (inout SeededGenerator) -> String) -> (plain: Int, general: Int) {
    var random = SeededGenerator(seed: seed)
    var plain = 0
    var general = 0
    for _ in 0..<count {
      let text = make(&random)
      let source = MarkdownSource(text)
      let read = MarkdownReader().read(source, startsDocument: true)
      let renderer = MarkdownInlineRenderer(source: source, definitions: read.definitions)
      for block in read.blocks where block.kind.hasInlineContent {
        guard let fast = MarkdownEntries.plainEntry(block, source: source) else {
          general += 1
          continue
        }
        plain += 1
        let inline = renderer.render(block)
        var slow = MarkdownEntries.entry(block, inline, source: source)
        slow.factKeys = inline.labels
        XCTAssertEqual(fast.text, slow.text, "\(text.debugDescription) block \(block.lines)")
        XCTAssertEqual(fast.map, slow.map, "\(text.debugDescription) block \(block.lines)")
        XCTAssertEqual(fast, slow, "\(text.debugDescription) block \(block.lines)")
      }
    }
    return (plain, general)
  }

  func testPlainBlocksAgreeWithTheRenderer() {
    let counts = compare(seed: 2_712, count: 4_000, Self.document)
    // Both paths taken often: the comparison means something.
    XCTAssertGreaterThan(counts.plain, 3_000)
    XCTAssertGreaterThan(counts.general, 3_000)
  }

  /// The reader's own generated documents (containers, laziness, tabs,
  /// CR LF, dense inline syntax).
  func testReaderDocumentsAgreeWithTheRenderer() {
    let first = compare(seed: 27, count: 3_000, RandomDocumentTests.document)
    let second = compare(seed: 72, count: 3_000, RandomDocumentTests.structuredDocument)
    XCTAssertGreaterThan(first.plain + second.plain, 200)
  }

  /// A block refused for each byte the inline parser acts on, taken when
  /// the byte is gone.
  func testEachStopByteIsRefused() {
    for markup in ["*", "_", "`", "[", "]", "<", "&", "\\", "~", ":", "@", "www.", "\r"] {
      let source = MarkdownSource("مرحبا \(markup)x العالم")
      let block = MarkdownReader().read(source, startsDocument: true).blocks[0]
      XCTAssertNil(MarkdownEntries.plainEntry(block, source: source), markup.debugDescription)
    }
    let source = MarkdownSource("مرحبا x! العالم")
    XCTAssertNotNil(
      MarkdownEntries.plainEntry(MarkdownReader().read(source, startsDocument: true).blocks[0], source: source))
  }

  /// `check`'s read for findings alone leaves out the blocks that can raise
  /// none (`MarkdownEntries.raisesNoFinding`): the findings (and their
  /// order, messages and fixes) are those of the read that keeps them all.
  /// ASCII documents with entities (`&#1576;` is ب, `&rlm;` a mark),
  /// controls and right-to-left words mixed in.
  func testFindingsOnlyReadGivesTheSameFindings() {
    var random = SeededGenerator(seed: 4_242)
    let extra = ["&#1576;", "&rlm;", "&#x202E;", "\u{202E}", "plain", "text", "[a](/u\u{200F}x)", "`code`", "**b**"]
    var left = 0
    for round in 0..<1_500 {
      var text =
        round % 2 == 0 ? Self.document(&random) : RandomDocumentTests.structuredDocument(&random)
      if round % 3 == 0 {
        text += "\n\nEnglish only here\n\n" + extra.randomElement(using: &random)! + " and more\n"
      }
      let lines = TextLines(text)
      let format = MarkdownFormat()
      let whole = WholeRead(lines, format: format)
      let short = WholeRead(lines, format: format, findingsOnly: true)
      left += whole.entries.count - short.entries.count
      let engine = FindingsEngine(format: format, spelling: whole.spelling)
      XCTAssertEqual(
        engine.findings(in: lines, read: short) { _ in nil }, engine.findings(in: lines, read: whole) { _ in nil },
        text.debugDescription)
    }
    XCTAssertGreaterThan(left, 300)
  }

  /// `MarkdownEntries.hasControl` (the C scan) against the controls of the
  /// decoded scalars, on texts of Arabic (lead bytes D8/D9, as U+061C's),
  /// other controls, look-alikes (U+2028, U+2060) and ill-formed bytes.
  func testHasControlAgreesWithTheScalars() {
    let pieces: [[UInt8]] = [
      Array("مرحبا".utf8), Array("a b".utf8), Array("\u{061C}".utf8), Array("\u{200F}".utf8), Array("\u{202E}".utf8),
      Array("\u{2066}".utf8), Array("\u{2028}".utf8), Array("\u{2060}".utf8), Array("\u{0610}".utf8), [0xD8],
      [0xE2, 0x80],
      [0xFF], [0x9C],
    ]
    var random = SeededGenerator(seed: 61)
    var found = 0
    for _ in 0..<5_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...24, using: &random) {
        let piece = pieces.randomElement(using: &random)!
        bytes += piece.count > 2 && piece[0] == 0xE2 && Int.random(in: 0..<3, using: &random) > 0 ? [0x62] : piece
      }
      var expected = false
      var index = 0
      while index < bytes.count {
        let decoded = bytes.withUnsafeBufferPointer { UTF8Decoder.decode($0, at: index) }
        if BidiControl(scalar: decoded.value) != nil { expected = true }
        index += max(decoded.length, 1)
      }
      if expected { found += 1 }
      XCTAssertEqual(MarkdownEntries.hasControl(bytes), expected, "\(bytes)")
    }
    XCTAssertGreaterThan(found, 1_000)
  }
}
