import BidiMarks
import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

/// The reader defects trying bidi-lsp on more files found (issue 28), each
/// reproduced as it was met; every test failed before its fix.
final class ReaderDefectTests: XCTestCase {
  func findings(_ value: TextEntry) -> [RuleCode] {
    valueFindings(value).map(\.code)
  }

  func xliff(_ targets: [String]) -> [TextEntry] {
    var text = "<xliff version=\"1.2\"><file target-language=\"ar\"><body>\n"
    for (index, target) in targets.enumerated() {
      text += "<trans-unit id=\"u\(index)\"><source>s</source><target>\(target)</target></trans-unit>\n"
    }
    let read = LocalizationReader.read(text + "</body></file></xliff>\n", format: .xliff)
    XCTAssertNil(read.error)
    return read.values
  }

  /// An inline code with attributes at the start of a target, such as a
  /// service name a CMS fills in (`ctype="x-service"`): a placeholder, so
  /// the seed case flips, and `placeholders` isolates both codes. (Any
  /// ctype used to make a code markup.)
  func testXLIFFInlineCodeWithAttributesAtTheStart() throws {
    let value = try XCTUnwrap(xliff(["<x id=\"1\" ctype=\"x-service\"/> مدفوعات بدون فوائد من <x id=\"2\"/>"]).first)
    XCTAssertEqual(value.atoms.map(\.range), [0..<29, 70..<81])
    XCTAssertEqual(value.markup, [])
    // (Its source `s` has neither code: the two placeholders are extra.)
    XCTAssertEqual(findings(value), [.placeholderMismatch, .placeholderDirection])
    let edits = EntryPlanner(value, spelling: .literal).placeholderEdits(style: .isolate)
    XCTAssertEqual(edits.map(\.newText), ["\u{2068}", "\u{2069}", "\u{2068}", "\u{2069}"])
    XCTAssertEqual(edits.map(\.range.start.column), [46, 75, 116, 127])
  }

  /// A target that is only white space and one inline element (on one line
  /// or several) gets its isolate.
  func testXLIFFTargetOfWhiteSpaceAndOneInlineElement() {
    let values = xliff([" <x id=\"1\" ctype=\"x-service\"/> ", "\n  <ph id=\"1\" ctype=\"x-name\">%s</ph>\n"])
    for value in values {
      XCTAssertEqual(value.atoms.count, 1, value.text)
      let edits = EntryPlanner(value, spelling: .literal).placeholderEdits(style: .isolate)
      XCTAssertEqual(edits.map(\.newText), ["\u{2068}", "\u{2069}"], value.text)
    }
    // Codes for formatting stay markup: a line break, Angular's tags.
    let markup = xliff(["<x id=\"LB\" ctype=\"lb\"/>سطر", "<x id=\"START_LINK\" ctype=\"x-a\"/>رابط"])
    XCTAssertEqual(markup.map(\.atoms.count), [0, 0])
    XCTAssertEqual(markup.map(\.markup.count), [1, 1])
  }

  /// `msgstr ""` followed by its text on the next lines: the value starts
  /// at its first character, on the line after the `msgstr`.
  func testPOValueStartsAtItsFirstCharacter() throws {
    let text = "msgid \"\"\nmsgstr \"Language: ar\\n\"\n\nmsgid \"Pay\"\nmsgstr \"\"\n\"%s مدفوعات \"\n\"بدون فوائد\"\n"
    let value = try XCTUnwrap(LocalizationReader.read(text, format: .po).values.first)
    XCTAssertEqual(value.range, SourceRange(start: .init(line: 5, column: 1), end: .init(line: 6, column: 20)))
    XCTAssertEqual(value.sourceRange(ofParagraph: 0).start.line, 5)
    // An empty msgstr still starts inside its quotes.
    let empty = LocalizationReader.read("msgid \"a\"\nmsgstr \"\"\n", format: .po).values[0]
    XCTAssertEqual(empty.range, SourceRange(at: .init(line: 1, column: 8)))
  }

  /// Android: quotes around a value (white space kept inside them) are
  /// delimiters, not text: the range is inside them.
  func testAndroidRangeExcludesSurroundingQuotes() {
    let text = """
      <resources>
          <string name="kept">"مسافات   محفوظة"</string>
          <string name="mixed">  نص "مقتبس"  </string>
          <string name="empty">""</string>
      </resources>
      """
    let values = LocalizationReader.read(text, format: .android).values
    XCTAssertEqual(values.map(\.text), ["مسافات   محفوظة", "نص مقتبس", ""])
    XCTAssertEqual(
      values.map(\.range),
      [
        SourceRange(start: .init(line: 1, column: 25), end: .init(line: 1, column: 52)),
        SourceRange(start: .init(line: 2, column: 27), end: .init(line: 2, column: 43)),
        SourceRange(at: .init(line: 3, column: 26)),
      ])
  }

  /// i18next: an HTML character reference is one character; `runs` used
  /// to isolate `amp; abc` and leave the `&` outside, which broke the
  /// reference (and moved the character it stood for).
  func testI18nextRunsKeepCharacterReferencesWhole() throws {
    let text = "{\"a\": \"Tom &amp; Jerry مرحبا &amp; abc &#x627;&nbsp;x\"}"
    let value = try XCTUnwrap(LocalizationReader.read(text, format: .i18next).values.first)
    XCTAssertEqual(value.characterReferences.map(\.scalar), [0x26, 0x26, 0x627, 0xA0])
    for direction in [BidiDirection.rightToLeft, .leftToRight] {
      let edits = EntryPlanner(value, spelling: .literal).runEdits(directions: [direction])
      XCTAssertFalse(edits.isEmpty)
      for edit in edits {
        let column = edit.range.start.column - 7
        for reference in value.characterReferences {
          XCTAssertFalse(
            reference.range.lowerBound < column && column < reference.range.upperBound,
            "\(direction): an edit at \(column) splits \(reference.range)")
        }
      }
      let edited = TextLines(text).applying(edits)
      XCTAssertEqual(edited.components(separatedBy: "&amp;").count, 3, edited)
    }
    // `&#x627;` is an Arabic letter: the last paragraph's strong characters count it.
    let analysis = ParagraphAnalysis(value, paragraph: 0)
    XCTAssertTrue(analysis.written.scalars.contains(0x627))
  }
}
