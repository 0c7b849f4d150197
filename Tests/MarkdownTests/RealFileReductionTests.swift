import BidiTestSupport
import Markdown
import MarkdownFormat
import StructuredText
import XCTest

/// Reductions of what real Persian, Arabic and Hebrew Markdown files did
/// (Tests/MarkdownTests/Corpus/real/SOURCES.txt), written here: each was a
/// failure of the real files' round trip or a finding their authors would
/// not want. The edits of every `bidi/insertMarks` mode, applied, must be
/// read by cmark-gfm as the same blocks with the same text apart from the
/// inserted controls (delimiter runs that stop opening or closing show up
/// as `**` in the text), and planning again must give no edits.
final class RealFileReductionTests: XCTestCase {
  enum Mode: CaseIterable { case rtl, ltr, placeholders, runs }

  /// The edits of `mode` over every rendered block of `text`.
  static func edits(_ text: String, _ mode: Mode) -> [SourceEdit] {
    let read = WholeRead(TextLines(text), format: MarkdownFormat())
    var edits: [SourceEdit] = []
    for entry in read.entries where entry.block != nil {
      let planner = EntryPlanner(entry, spelling: read.spelling)
      switch mode {
      case .rtl: edits += planner.directionEdits(.rightToLeft)
      case .ltr: edits += planner.directionEdits(.leftToRight)
      case .placeholders: edits += planner.placeholderEdits(style: .isolate)
      case .runs: edits += planner.runEdits(directions: [.rightToLeft])
      }
    }
    return edits
  }

  /// `edits` applied to `text` (lines and UTF-8 columns).
  static func apply(_ edits: [SourceEdit], to text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
    let ordered = edits.sorted {
      ($0.range.start.line, $0.range.start.column) > ($1.range.start.line, $1.range.start.column)
    }
    for edit in ordered {
      XCTAssertEqual(edit.range.start.line, edit.range.end.line, "\(edit)")
      let line = edit.range.start.line
      lines[line].replaceSubrange(
        edit.range.start.column..<edit.range.end.column, with: Array(edit.newText.utf8))
    }
    return lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
  }

  static func withoutControls(_ blocks: [ComparableBlock]) -> [String] {
    blocks.map { block in
      let kept = block.text.unicodeScalars.filter { scalar in
        !(scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
          || (0x2066...0x2069).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value))
      }
      return "\(block.kind) \(String(String.UnicodeScalarView(kept)))"
    }
  }

  /// Every mode's edits of `text` are re-read alike by cmark-gfm and are
  /// not planned again; `expectEdits`: the modes that must edit something.
  func assertRoundTrip(
    _ text: String, expectEdits: Set<Mode>, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let original = Self.withoutControls(try CmarkReference.blocks(Array(text.utf8)))
    for mode in Mode.allCases {
      let edits = Self.edits(text, mode)
      if expectEdits.contains(mode) { XCTAssertFalse(edits.isEmpty, "\(mode): no edits", file: file, line: line) }
      let edited = Self.apply(edits, to: text)
      XCTAssertEqual(
        Self.withoutControls(try CmarkReference.blocks(Array(edited.utf8))), original,
        "\(mode): \(edited.debugDescription)", file: file, line: line)
      XCTAssertEqual(
        Self.edits(edited, mode), [], "\(mode): planned again on \(edited.debugDescription)", file: file, line: line)
    }
  }

  /// An opening `**` before punctuation: a mark written before it (the
  /// block's start) would stop it opening, so it goes after it.
  func testMarkAfterAnOpeningRunBeforePunctuation() throws {
    try assertRoundTrip("- **/start** — תפריט ראשי: חיפוש חופשי\n", expectEdits: [.rtl])
    try assertRoundTrip("**`x=True`** — בתוך כל נוסחה לצייר\n", expectEdits: [.rtl, .placeholders])
    let edits = Self.edits("- **/start** — תפריט ראשי: חיפוש חופשי\n", .rtl)
    XCTAssertEqual(edits.map(\.range.start.column), [4], "after `- **`")
  }

  /// A closing `**` between punctuation (a code span's backtick, `)`, `%`)
  /// and white space or punctuation: a control written after it would
  /// stop it closing, so it goes before it.
  func testControlBeforeAClosingRunAfterPunctuation() throws {
    try assertRoundTrip("כל הלוגיקה נמצאת בקובץ **`main.py`**. יש לייבא\n", expectEdits: [.placeholders, .runs])
    try assertRoundTrip("תמיכה ב-**Tailwind CSS (`rtl:`)** ו-**Bootstrap 5 RTL** ועוד\n", expectEdits: [.runs])
    try assertRoundTrip("בהתאמה של **98.3%**. ראו את הפאנל\n", expectEdits: [.runs])
    // With a `*…*` before it (1 + 2 is a multiple of 3): still before it.
    try assertRoundTrip("מאוית (*Macabbi / Macabi*) בהתאמה של **98.3%**. ראו את הפאנל\n", expectEdits: [.runs])
    try assertRoundTrip("یک _فایل_ و ~~قدیمی~~ **(مهم)** است\n", expectEdits: [])
    try assertRoundTrip("*foo *bar** متن فارسی\n", expectEdits: [.rtl])
    try assertRoundTrip("**foo **bar**** متن فارسی\n", expectEdits: [.rtl])
  }

  /// A table cell that is one code span in strong emphasis.
  func testTableCellOfOneStrongCodeSpan() throws {
    try assertRoundTrip(
      "| שם | תפקיד |\n|---|---|\n| **`HebWrite`** | `Write` לעברית בלבד |\n", expectEdits: [.placeholders, .rtl])
  }

  /// White space that ends a line: a control written after it keeps it
  /// (cmark strips it before a soft break, at the end of a paragraph) or
  /// unmakes a hard break.
  func testNoControlAfterLineEndingWhiteSpace() throws {
    try assertRoundTrip(
      "در بخش [create an issue](https://e.x/issues) \nبا ما درمیان بگذارید\n", expectEdits: [.runs])
    try assertRoundTrip(
      "با ما گفتگو کنید: [Reddit](https://r.x) | [Discord](https://d.x) \n\nپایان\n", expectEdits: [.runs])
    try assertRoundTrip("שורה ראשונה עם English words  \nשורה שנייה\n", expectEdits: [.runs])
  }

  /// The markup safety rule itself, against cmark's flanking rules.
  func testMarkupSafety() {
    func keeps(_ line: String, at column: Int, ending: String? = nil, starting: String? = nil) -> Bool {
      let bytes = Array(line.utf8)
      func run(_ role: String?, _ range: Range<Int>) -> MarkdownDelimiterRun? {
        role.map {
          MarkdownDelimiterRun(range: range, closes: $0 == "closes", opens: $0 == "opens")
        }
      }
      var lengths: [UInt8: [Int]] = [:]
      var index = 0
      while index < bytes.count {
        var end = index
        while end < bytes.count && bytes[end] == bytes[index] && "*_~".utf8.contains(bytes[index]) { end += 1 }
        if end > index { lengths[bytes[index], default: []].append(end - index) }
        index = max(end, index + 1)
      }
      var start = column
      while start > 0 && "*_~".utf8.contains(bytes[start - 1]) { start -= 1 }
      var end = column
      while end < bytes.count && "*_~".utf8.contains(bytes[end]) { end += 1 }
      return MarkupSafety.keepsMarkup(
        bytes, at: column, lineStart: 0, lineEnd: bytes.count, ending: run(ending, start..<column),
        starting: run(starting, column..<end), lengths: lengths)
    }
    XCTAssertFalse(keeps("**/start**", at: 0, starting: "opens"))
    XCTAssertTrue(keeps("**start**", at: 0, starting: "opens"))
    XCTAssertFalse(keeps("a **`x`** b", at: 9, ending: "closes"))
    XCTAssertTrue(keeps("a **x** b", at: 7, ending: "closes"))
    XCTAssertFalse(keeps("a _x_ b", at: 5, ending: "closes"))
    XCTAssertFalse(keeps("text ", at: 5))
    XCTAssertFalse(keeps("text  ", at: 5))
    XCTAssertTrue(keeps("text ", at: 4))
    // `*foo *bar**`: RLM first makes the opening `*` able to close too,
    // and 1 + 2 is a multiple of 3: cmark pairs the runs otherwise.
    XCTAssertFalse(keeps("*foo *bar**", at: 0, starting: "opens"))
    // A `*` read as text that could close once a control precedes it.
    XCTAssertFalse(keeps("*a b * c", at: 5, starting: "text"))
  }

  /// A block that starts with a right-to-left word but is mostly left to
  /// right (`דוגמה: \`file.py\``) is the mirror case, reported with LRM in
  /// every document whatever its locale, as the contract (§8) says; so is
  /// the main case (first strong Latin, mostly RTL).
  func testMirrorCaseIsReportedWhateverTheLocale() {
    let text = "דוגמה: `tex_coloring_scene.py` (`TexColoringDemo`).\n\n**MCP** שרת אופציונלי ליצירת קוד\n"
    let document = TextLines(text)
    let read = WholeRead(document, format: MarkdownFormat())
    let engine = FindingsEngine(format: MarkdownFormat(), spelling: read.spelling)
    func lines(_ locale: String?) -> [Int] {
      engine.findings(in: document, read: read) { _ in locale.flatMap { LocaleTag($0) } }
        .filter { $0.code == .blockDirection }.map(\.range.start.line)
    }
    XCTAssertEqual(lines("he"), [0, 2])
    XCTAssertEqual(lines("fa"), [0, 2])
    XCTAssertEqual(lines(nil), [0, 2])
    XCTAssertEqual(lines("en"), [0, 2])
  }
}
