import BidiTestSupport
import MarkdownFormat
import StructuredText
import XCTest

/// The Markdown format in an incremental index (contract §8, "an edit
/// re-reads only the blocks it touches"): after each of many random edits
/// (fences, list markers, block quotes, link reference definitions and the
/// references to them appearing and going), the index holds what a whole
/// read of the edited text holds — entries with their ranges and maps,
/// regions, facts, findings — and it re-read only a few blocks.
final class IncrementalFormatTests: XCTestCase {
  /// Lines a random document and its edits are made of.
  static let pieces = [
    "", "", "", "مرحبا بالعالم", "שלום עולם 12", "Hello **world** and `code` here", "[Apple Pay] متاح الآن",
    "See [the docs][ref] بالعربية", "[ref]: https://example.com \"t\"", "[Apple Pay]: /pay", "[ref]:", "```",
    "```swift", "~~~", "> اقتباس", "> [ref] quoted", ">", "- عنصر", "- [x] مهمة", "1. أول", "2) ثاني",
    "    code line", "  - nested [ref]", "# عنوان", "Title", "===", "---", "| a | ب |", "|---|---|", "| [ref] | x |",
    "<div>", "</div>", "<!-- comment", "-->", "text with <https://a.b> and www.example.com", "\\[ref] escaped",
    "*emph* _x_ ~~del~~", "[ref][] and [Ref] and ![img][ref]",
  ]

  /// Prose, more often than markup.
  static let prose = ["", "", "متن عربي طويل", "טקסט עברי", "English text [ref] here", "فارسی 123", ""]

  static func randomLines(_ count: Int, _ generator: inout SeededGenerator) -> [String] {
    (0..<count).map { _ in
      (Bool.random(using: &generator) ? pieces : prose).randomElement(using: &generator)!
    }
  }

  /// Compares an index with a whole read of `text`; returns the first
  /// difference, if any.
  static func difference(_ index: StructuredIndex, _ text: [String]) -> String? {
    let document = TextLines(text.joined(separator: "\n"))
    let whole = WholeRead(document, format: MarkdownFormat())
    let got = index.entries
    if got != whole.entries {
      let first =
        (0..<min(got.count, whole.entries.count)).first { got[$0] != whole.entries[$0] }
        ?? min(got.count, whole.entries.count)
      let mine = got.dropFirst(first).first.map { "\($0.range) \($0.text)" } ?? "none"
      let theirs = whole.entries.dropFirst(first).first.map { "\($0.range) \($0.text)" } ?? "none"
      return "entry \(first): \(mine) != \(theirs) (\(got.count) vs \(whole.entries.count))"
    }
    if index.regions(touching: 0..<index.lineCount) != whole.regions { return "regions differ" }
    if index.error != whole.error { return "errors differ" }
    let engine = FindingsEngine(format: MarkdownFormat(), spelling: whole.spelling)
    let incremental = engine.findings(in: document, index: index) { _ in nil }
    let expected = engine.findings(in: document, read: whole) { _ in nil }
    if incremental != expected { return "findings differ: \(incremental.count) vs \(expected.count)" }
    var facts = StructuredIndex(document, format: MarkdownFormat()).documentFacts
    facts.sort { ($0.line, $0.key) < ($1.line, $1.key) }
    if index.documentFacts != facts { return "facts differ" }
    return nil
  }

  func testRandomEditsAgreeWithAWholeRead() {
    var generator = SeededGenerator(seed: 8)
    var edits = 0
    var checkedEntries = 0
    var lazyChecks = 0
    for round in 0..<12 {
      var text = Self.randomLines(100 + round * 40, &generator)
      var index = StructuredIndex(TextLines(text.joined(separator: "\n")), format: MarkdownFormat())
      // Lazily, as the daemon does, for half the rounds.
      if round % 2 == 0 {
        index = StructuredIndex(TextLines(text.joined(separator: "\n")), format: MarkdownFormat(), through: 0)
      }
      for _ in 0..<50 {
        let at = Int.random(in: 0..<text.count, using: &generator)
        let removed = Int.random(in: 0...min(3, text.count - at, text.count - 1), using: &generator)
        let inserted = Self.randomLines(Int.random(in: 0...3, using: &generator), &generator)
        text.replaceSubrange(at..<at + removed, with: inserted)
        let document = TextLines(text.joined(separator: "\n"))
        index.edit(document, replacing: at..<at + removed, newLineCount: inserted.count)
        // Lazily read rounds answer before they are read through, and are
        // read on a little at a time: what is read must already be exact.
        let lazy = round % 2 == 0 && edits % 50 < 40
        if lazy && edits % 10 == 0 {
          index = StructuredIndex(document, format: MarkdownFormat(), through: 0)
        } else if lazy && Int.random(in: 0..<4, using: &generator) == 0 {
          index.read(document, through: (index.frontierLine ?? 0) + 10)
        }
        if !index.isComplete, let line = index.frontierLine {
          lazyChecks += 1
          let read = index.entries(touching: 0..<line)
          let whole = WholeRead(document, format: MarkdownFormat()).entries.filter { $0.firstLine < line }
          if read.filter({ $0.firstLine < line }) != whole {
            let mine = read.filter { $0.firstLine < line }
            let first =
              (0..<min(mine.count, whole.count)).first { mine[$0] != whole[$0] } ?? min(mine.count, whole.count)
            let got = mine.dropFirst(first).first.map { "\($0.range) \($0.text) \($0.factKeys)" } ?? "none"
            let expected = whole.dropFirst(first).first.map { "\($0.range) \($0.text)" } ?? "none"
            XCTFail(
              "round \(round), edit \(edits) at \(at): the entries read lazily (to line \(line)) differ from a whole"
                + " read's at \(first): \(got) != \(expected)")
            return
          }
        }

        edits += 1
        if lazy { continue }
        index.read(document, through: Int.max)
        checkedEntries += index.entries.count
        if let difference = Self.difference(index, text) {
          XCTFail("round \(round), edit \(edits) at line \(at) (-\(removed) +\(inserted.count)): \(difference)")
          return
        }
      }
    }
    XCTAssertEqual(edits, 600)
    XCTAssertGreaterThan(lazyChecks, 50, "lazily read indexes are checked before they are read through")
    XCTAssertGreaterThan(checkedEntries, 360 * 20, "the documents have blocks")
  }

  /// An edit inside one paragraph of a long document re-reads that
  /// paragraph's stretch, not the document; defining a label that blocks
  /// far away look up re-reads those blocks too.
  func testAnEditReadsOnlyTheBlocksItTouches() {
    var lines: [String] = []
    for block in 0..<3000 { lines += ["فقرة رقم \(block) with **bold** and `code`", ""] }
    lines[4000] = "See [far] here"
    var index = StructuredIndex(TextLines(lines.joined(separator: "\n")), format: MarkdownFormat())
    XCTAssertEqual(index.entries.count, 3000)
    XCTAssertEqual(index.entries[2000].text, "See [far] here")

    lines[10] = "تعديل **صغير**"
    index.edit(TextLines(lines.joined(separator: "\n")), replacing: 10..<11, newLineCount: 1)
    XCTAssertLessThan(index.lastReadItemCount, 200, "an edit re-reads one stretch")
    XCTAssertLessThan(index.lastRead.new.upperBound, 400)
    XCTAssertNil(Self.difference(index, lines))

    lines[20] = "[far]: /somewhere"
    index.edit(TextLines(lines.joined(separator: "\n")), replacing: 20..<21, newLineCount: 1)
    XCTAssertEqual(index.entries[1999].text, "See far here")
    XCTAssertLessThan(index.lastReadItemCount, 400, "the edit's stretch and the far block's")
    XCTAssertNil(Self.difference(index, lines))

    lines[20] = "no longer a definition"
    index.edit(TextLines(lines.joined(separator: "\n")), replacing: 20..<21, newLineCount: 1)
    XCTAssertEqual(index.entries[2000].text, "See [far] here")
    XCTAssertNil(Self.difference(index, lines))
  }

  /// A lazily read index whose blocks look up a label no definition read
  /// has finds the definitions past what it read by the block reader alone
  /// (no block rendered): its first answers are already exact, and stay so
  /// when an edit past what it read adds or removes that definition.
  func testALazyIndexLooksAheadForTheLabelsItsBlocksLookUp() {
    var lines: [String] = []
    for block in 0..<2000 { lines += ["Block \(block) عربي", ""] }
    let plain = StructuredIndex(TextLines(lines.joined(separator: "\n")), format: MarkdownFormat(), through: 0)
    XCTAssertFalse(plain.isComplete, "no label looked up: read lazily")
    lines[0] = "[later] متاح"
    lines[3998] = "[later]: /x"
    var index = StructuredIndex(TextLines(lines.joined(separator: "\n")), format: MarkdownFormat(), through: 0)
    XCTAssertFalse(index.isComplete, "the label is found without reading the blocks past the first stretch")
    XCTAssertEqual(index.entries(touching: 0..<1).first?.text, "later متاح")
    lines[3998] = "no definition"
    index.edit(TextLines(lines.joined(separator: "\n")), replacing: 3998..<3999, newLineCount: 1)
    XCTAssertEqual(index.entries(touching: 0..<1).first?.text, "[later] متاح")
    lines[3000] = "[Later]: /y"
    index.edit(TextLines(lines.joined(separator: "\n")), replacing: 3000..<3001, newLineCount: 1)
    XCTAssertEqual(index.entries(touching: 0..<1).first?.text, "later متاح")
    XCTAssertFalse(index.isComplete)
    index.read(TextLines(lines.joined(separator: "\n")), through: Int.max)
    XCTAssertNil(Self.difference(index, lines))
  }
}
