import BidiTestSupport
import Markdown
import StructuredText
import UnicodeBidi
import XCTest

@testable import MarkdownFormat

/// `check`'s findings decided without an entry (`ReadItem.finding`: a
/// block whose only finding is `bidi.blockDirection`,
/// `MarkdownEntries.blockDirectionFinding`) against the full path's: the
/// same findings, message, range and fix, block by block, for the blocks
/// the lane decides and for those it must leave to the full path (markup
/// or white space at the content's start, a bare `www.` link, controls).
final class DecidedFindingTests: XCTestCase {
  /// Blocks with the finding, one per document: plain, with inline markup
  /// the skeleton reads and with markup it refuses, in containers, on
  /// several lines, wanting either direction, and with combining marks.
  static let decided = [
    "Apple مرحبا العالم الحزمة",
    "npm install الحزمة مرحبا العالم يثبّت",
    "[Apple Pay](https://example.com/a) متاح الآن في كل مكان",
    "See [العالم the][ref1] مرحبا الحزمة يثبّت\n\n[ref1]: /target",
    "`npm` الحزمة مرحبا العالم",
    "Apple *مرحبا* **العالم** ~~الحزمة~~",
    "Apple &amp; مرحبا العالم الحزمة",
    "Apple \\* مرحبا العالم الحزمة",
    "Apple <b>مرحبا</b> العالم الحزمة",
    "Apple a@b.co مرحبا العالم الحزمة",
    "# Apple مرحبا العالم",
    "> Apple مرحبا العالم الحزمة",
    "- Apple مرحبا العالم الحزمة",
    "1. Apple مرحبا\n   العالم الحزمة",
    "| Apple مرحبا العالم | b |\n| --- | --- |\n| x | Pay الحزمة مرحبا |",
    "Apple مرحبا\nالعالم الحزمة\nيثبّت",
    "Apple مرحبا  \nالعالم الحزمة",
    "مرحبا Apple Pay install npm React",
    "שלום Apple Pay install npm React build",
    "Apple [مرحبا](<a b>) العالم الحزمة",
    // Delimiter runs at the start that a mark before them leaves as they are.
    "*Apple* مرحبا العالم الحزمة",
    "**Apple** مرحبا العالم الحزمة",
    "~~Apple~~ مرحبا العالم الحزمة",
    "> **Apple مرحبا** `npm install` العالم الحزمة",
    "**Apple &amp; Pay** مرحبا العالم الحزمة",
    // Longer than a message quotes (`quotedCharacterLimit`): cut at a
    // space, at a long word's character, on a later line, after marks.
    "Apple " + String(repeating: "مرحبا العالم ", count: 40),
    "Apple " + String(repeating: "م", count: 400),
    "- [Apple Pay](https://example.com/a) " + String(repeating: "متاح الآن\n  ", count: 40),
    "Apple " + String(repeating: "يثبّت الحزمة ", count: 30),
  ]

  /// Blocks with the finding that the lane leaves to the full path (the
  /// mark's place or the fix depends on the markup), or with other findings
  /// or a paragraph separator.
  static let fullPath = [
    // A mark before the opening run would change it (an insertion
    // override): after `(`, `_` no longer able to open, or able to close
    // too beside a run of a length the "multiple of 3" rule pairs it with.
    "**(Apple)** مرحبا العالم الحزمة",
    "_/Apple_ مرحبا العالم الحزمة",
    "_Apple_ مرحبا العالم الحزمة",
    "**Apple** مرحبا *x* العالم الحزمة",
    "**(Apple &amp; Pay)** مرحبا العالم الحزمة",
    "www.apple.com مرحبا العالم الحزمة",
    "Apple \u{200F}مرحبا العالم الحزمة",
    "Apple مرحبا العالم [x](/u\u{200F}) الحزمة",
    "\u{200E}Apple مرحبا العالم الحزمة",
    "Apple مرحبا\u{2029}العالم الحزمة",
  ]

  static func reads(_ text: String, rules: RuleSettings = .default) -> (full: [Finding], short: [Finding], decided: Int)
  {
    reads(bytes: Array(text.utf8), rules: rules)
  }

  /// The findings of the read that keeps every block and of `check`'s,
  /// and how many findings `check`'s decided without an entry.
  static func reads(bytes: [UInt8], rules: RuleSettings = .default) -> (
    full: [Finding], short: [Finding], decided: Int
  ) {
    let lines = TextLines(bytes)
    let format = MarkdownFormat()
    let whole = WholeRead(lines, format: format)
    let short = WholeRead(lines, format: format, findingsOnly: true)
    let engine = FindingsEngine(format: format, spelling: whole.spelling, rules: rules)
    return (
      engine.findings(in: lines, read: whole) { _ in nil }, engine.findings(in: lines, read: short) { _ in nil },
      short.decided.count
    )
  }

  func testDecidedFindingsAreTheFullPaths() { check(Self.decided, decided: true) }

  func testBlocksLeftToTheFullPath() { check(Self.fullPath, decided: false) }

  /// Each text's short read gives the full read's findings, a
  /// `bidi.blockDirection` among them, decided by the lane or not.
  func check(_ texts: [String], decided: Bool) {
    for text in texts {
      let (full, short, count) = Self.reads(text)
      XCTAssertEqual(short, full, text.debugDescription)
      XCTAssertTrue(full.contains { $0.code == .blockDirection }, text.debugDescription)
      XCTAssertEqual(count > 0, decided, "decided by the lane: \(text.debugDescription)")
    }
  }

  /// A block longer than `quotedCharacterLimit` characters is quoted by
  /// the display line of its first ones, cut before a space, then "…": the
  /// message stays short whatever the block (a 5 MB paragraph gave a 10 MB
  /// message).
  func testALongBlockIsQuotedByItsFirstLine() throws {
    let words = String(repeating: "مرحبا العالم الحزمة ", count: 50_000)
    let (full, short, _) = Self.reads("Apple " + words)
    XCTAssertEqual(short, full)
    let message = try XCTUnwrap(full.first { $0.code == .blockDirection }?.message)
    XCTAssertLessThan(message.unicodeScalars.count, 400)
    let quote = try XCTUnwrap(message.split(separator: "\u{201C}").last?.split(separator: "\u{201D}").first)
    XCTAssertTrue(quote.hasSuffix("\u{2026}"), String(quote))
    // The last space at or before character 200 is character 198: "Apple "
    // and the 192 characters after it, their right-to-left run reversed
    // (UAX #9 L2 on that line).
    let arabic = words.unicodeScalars.prefix(192)
    XCTAssertEqual(arabic.last, "م")
    var expected = "Apple "
    expected.unicodeScalars.append(contentsOf: arabic.reversed())
    XCTAssertEqual(String(quote.dropLast()), expected)
    // A block of the limit's length is quoted whole.
    let whole = "Apple " + String(repeating: "م", count: ParagraphAnalysis.quotedCharacterLimit - 6)
    let exact = try XCTUnwrap(Self.reads(whole).full.first { $0.code == .blockDirection }?.message)
    XCTAssertFalse(exact.contains("\u{2026}"), exact)
  }

  /// Where the mark goes matters: after `**` that opens `(`, the full path
  /// puts it inside the run (an insertion override), not at the start.
  func testOverrideAtTheStartIsKept() {
    let (full, _, _) = Self.reads("**(Apple)** مرحبا العالم الحزمة")
    let edit = full.first { $0.code == .blockDirection }?.fixes.first?.edits.first
    XCTAssertEqual(edit?.range.start, SourcePosition(line: 0, column: 2))
  }

  /// A rule turned off drops the decided findings as it drops the full
  /// path's; a severity set applies to them.
  func testRuleSettingsApply() {
    var off = RuleSettings()
    off[.blockDirection] = .off
    var error = RuleSettings()
    error[.blockDirection] = .severity(.error)
    for text in Self.decided {
      let (full, short, _) = Self.reads(text, rules: off)
      XCTAssertEqual(short, full, text.debugDescription)
      XCTAssertFalse(short.contains { $0.code == .blockDirection }, text.debugDescription)
      let (fullError, shortError, _) = Self.reads(text, rules: error)
      XCTAssertEqual(shortError, fullError, text.debugDescription)
      XCTAssertTrue(shortError.contains { $0.code == .blockDirection && $0.severity == .error }, text.debugDescription)
    }
  }

  /// A block past the byte that stops the read (not UTF-8) is plain
  /// lines: its decided finding goes with its entry.
  func testNothingDecidedPastTheSyntaxError() {
    let bytes = Array("Pay مرحبا العالم الحزمة\n\nx".utf8) + [0xFF] + Array("\n\nApple مرحبا العالم الحزمة".utf8)
    let (full, short, decided) = Self.reads(bytes: bytes)
    XCTAssertEqual(short, full)
    XCTAssertEqual(decided, 1)
    XCTAssertEqual(full.map(\.code), [.blockDirection, .invalidUtf8])
  }

  /// Decided findings among entries' findings keep the document's order:
  /// a block with a hazard (an entry) between blocks decided.
  func testOrderAmongEntries() {
    let text = [
      "Apple مرحبا العالم الحزمة", "Apple \u{202E}مرحبا العالم", "Pay مرحبا العالم الحزمة",
      "x \u{2067}y", "React مرحبا العالم الحزمة",
    ].joined(separator: "\n\n")
    let (full, short, decided) = Self.reads(text)
    XCTAssertEqual(short, full)
    XCTAssertEqual(decided, 3)
  }
}

extension DecidedFindingTests {
  /// A NUL is U+FFFD in the rendered text (CommonMark 2.3), three bytes
  /// for its one: the decided finding's message and range are the full
  /// path's (the markdown fuzz target found `` `p\0` ا `` differing).
  func testNulInTheBlock() {
    for text in ["`p\0` ا", "p\0 ا", "\0 ا Apple", "Apple \0 مرحبا العالم", "`\0` مرحبا Apple"] {
      let (full, short, _) = Self.reads(text)
      XCTAssertEqual(short, full, text.debugDescription)
    }
  }
}
