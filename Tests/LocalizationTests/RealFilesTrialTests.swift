import StructuredText
import XCTest

@testable import Localization

/// Regressions from trying real localization files of public projects with
/// `scripts/try-real-files.py` (README, "Tried on real files"); each input
/// is our own, written to reproduce the construct that failed.
final class RealFilesTrialTests: XCTestCase {
  /// The text after `edits`, applied as the Emacs and Python clients did:
  /// from the end of the document backwards, each edit in place, edits at
  /// one position in array order (so that the last one applied comes first).
  func applyingFromTheEnd(_ edits: [SourceEdit], to text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
    let order = edits.indices.sorted {
      edits[$0].range.start != edits[$1].range.start ? edits[$1].range.start < edits[$0].range.start : $0 < $1
    }
    for edit in order.map({ edits[$0] }) {
      let start = edit.range.start
      let end = edit.range.end
      let head = lines[start.line][..<start.column]
      let tail = lines[end.line][end.column...]
      lines.replaceSubrange(start.line...end.line, with: [Array(head) + Array(edit.newText.utf8) + Array(tail)])
    }
    return lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
  }

  func placeholderEdits(_ text: String, _ format: LocalizationFormat) -> [SourceEdit] {
    LocalizationReader.read(text, format: format).values.flatMap {
      EntryPlanner($0, spelling: .literal).placeholderEdits(style: .isolate)
    }
  }

  /// Angular writes an italic interpolation as three `<x/>` in a row: the
  /// PDI closing one placeholder and the FSI opening the next land at the
  /// same place, and were two edits, which a client applying from the end
  /// wrote as FSI PDI (the isolates crossed; asking again gave edits).
  func testAdjacentPlaceholdersGetOneEditBetweenThem() {
    let xliff =
      "<xliff version=\"1.2\"><file target-language=\"he\"><body>\n"
      + "<trans-unit id=\"n\"><source>n</source><target>סך הכל: <x id=\"A\"/><x id=\"B\"/></target></trans-unit>\n"
      + "</body></file></xliff>\n"
    let strings = "\"both\" = \"%1$@%2$@ הודעות\";\n"
    for (text, format) in [(xliff, LocalizationFormat.xliff), (strings, .strings)] {
      let edits = placeholderEdits(text, format)
      XCTAssertEqual(edits.count, 3, "\(format): FSI, PDI FSI, PDI")
      XCTAssertEqual(Set(edits.map(\.range.start)).count, edits.count, "\(format): one edit per position")
      let fixed = applyingFromTheEnd(edits, to: text)
      XCTAssertEqual(fixed, TextLines(text).applying(edits), "\(format)")
      XCTAssertTrue(fixed.contains("\u{2069}\u{2068}"), "\(format): \(fixed)")
      XCTAssertEqual(placeholderEdits(fixed, format), [], "\(format): asking again")
    }
  }

  /// Symfony writes XLIFF 2.0 with a short hash as the unit's `id` and the
  /// translation key as its `name` (2.0's resname), and looks translations
  /// up by the name: the key was the hash.
  func testXLIFF2KeyIsTheUnitName() {
    let text = """
      <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="he">
        <file id="messages.he">
          <unit id="a1B2c3D" name="cart.empty">
            <segment><source>Your cart is empty</source><target>העגלה ריקה</target></segment>
          </unit>
          <unit id="only-id">
            <segment><source>Hi</source><target>שלום</target></segment>
          </unit>
          <unit id="e4F5g6H" name="">
            <segment><source>Bye</source><target>להתראות</target></segment>
          </unit>
        </file>
      </xliff>
      """
    let read = LocalizationReader.read(text, format: .xliff)
    XCTAssertNil(read.error)
    XCTAssertEqual(read.values.map(\.key), ["cart.empty", "only-id", "e4F5g6H"])
    XCTAssertEqual(read.values.map(\.text), ["העגלה ריקה", "שלום", "להתראות"])
  }

  /// Angular's XLIFF 1.2 writes an element's start and end tags as `<x/>`
  /// with a ctype (`START_TAG_…`, `CLOSE_ITALIC_TEXT`…): they stand for
  /// markup, not for text the program fills in. Read as placeholders they
  /// were filled with Latin words, so a Hebrew value in bold was reported
  /// as flipping (`placeholderDirection`), and isolated.
  func testXLIFFCodesWithACtypeAreMarkup() {
    let text =
      "<xliff version=\"1.2\"><file target-language=\"he\"><body>\n"
      + "<trans-unit id=\"b\"><source>Save now <x id=\"INTERPOLATION\" equiv-text=\"{{ n }}\"/></source><target><x id=\"START_BOLD_TEXT\" ctype=\"x-b\" "
      + "equiv-text=\"&lt;b&gt;\"/>שמור<x id=\"CLOSE_BOLD_TEXT\" ctype=\"x-b\" equiv-text=\"&lt;/b&gt;\"/>"
      + " עכשיו <x id=\"INTERPOLATION\" equiv-text=\"{{ n }}\"/></target></trans-unit>\n"
      + "</body></file></xliff>\n"
    let value = LocalizationReader.read(text, format: .xliff).values[0]
    XCTAssertEqual(value.markup.count, 2)
    XCTAssertEqual(value.atoms.count, 1)
    XCTAssertEqual(valueFindings(value, spelling: .literal), [])
    let edits = EntryPlanner(value, spelling: .literal).placeholderEdits(style: .isolate)
    XCTAssertEqual(edits.count, 2, "only the interpolation is isolated")
  }
}
