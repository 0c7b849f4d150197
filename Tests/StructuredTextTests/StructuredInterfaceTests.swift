import StructuredText
import UnicodeBidi
import XCTest

/// The structured-document foundation through a format written against its
/// interface alone (`ToyFormat`): the index, the analysis, the planner and
/// the findings engine on what Localization does not use.
final class StructuredInterfaceTests: XCTestCase {
  let text = "- `npm install` يثبّت الحزمة\nplain one\n```swift\nlet a = \"\u{202E}\"\n```\n- مرحبا `x`\n"

  func testEntriesRegionsAndTheirPlaces() {
    let index = StructuredIndex(TextLines(text), format: ToyFormat())
    XCTAssertNil(index.error)
    XCTAssertEqual(index.entries.map(\.text), ["`npm install` يثبّت الحزمة", "plain one", "مرحبا `x`"])
    XCTAssertEqual(index.entries.map(\.block), ["paragraph", "paragraph", "paragraph"])
    XCTAssertEqual(index.regions(touching: 0..<10), [PlainRegion(lines: 2..<5, language: "swift")])
    XCTAssertEqual(index.entries[0].range, SourceRange(line: 0, 2..<(text.split(separator: "\n")[0].utf8.count)))
  }

  /// A code span counts with its own text: the block renders left to right.
  func testAnAtomThatShowsItsTextCounts() {
    let entry = StructuredIndex(TextLines(text), format: ToyFormat()).entries[0]
    let analysis = ParagraphAnalysis(entry, paragraph: 0)
    XCTAssertEqual(analysis.direction(), .leftToRight)
    XCTAssertEqual(analysis.direction(filled: true), .leftToRight)
    XCTAssertEqual(analysis.written.atomScalars, [0..<11])
    XCTAssertEqual(analysis.strongCharacter, SourcePosition(line: 0, column: 3))
  }

  /// No edit goes inside an atom or its markup: the direction mark before
  /// the backtick, the isolate around the atom's content, and a run's
  /// isolate moved to the atom's edge.
  func testEditsStayOutsideAtomsAndMarkup() {
    let lines = TextLines(text)
    let entry = StructuredIndex(lines, format: ToyFormat()).entries[0]
    let planner = EntryPlanner(entry, spelling: .literal)
    XCTAssertEqual(
      lines.applying(planner.directionEdits(.rightToLeft)).split(separator: "\n")[0],
      "- \u{200F}`npm install` يثبّت الحزمة")
    XCTAssertEqual(
      lines.applying(planner.placeholderEdits(style: .isolate)).split(separator: "\n")[0],
      "- `\u{2068}npm install\u{2069}` يثبّت الحزمة")
    for edit in planner.runEdits(directions: [.rightToLeft]) {
      XCTAssertFalse((3..<14).contains(edit.range.start.column) && edit.range.start.column != 3, "\(edit)")
    }
  }

  /// The engine: the format's rule on each block, the hazards of a region
  /// by its language's rules, a syntax error; and the whole-document answer
  /// `check` gives.
  func testFindingsOfTheToyFormat() {
    let lines = TextLines(text + "!\nafter \u{202E}\n")
    let index = StructuredIndex(lines, format: ToyFormat())
    XCTAssertNotNil(index.error)
    let engine = FindingsEngine(format: ToyFormat(), spelling: index.spelling)
    let found = engine.findings(in: lines, index: index) { _ in nil }
    XCTAssertEqual(
      found.map { "\($0.range.start.line):\($0.range.start.column) \($0.code.settingsKey)" },
      [
        "0:2 blockDirection", "3:9 inString", "3:9 override", "6:0 localizationSyntax", "7:6 unpaired",
        "7:6 override",
      ])
    let fix = found[0].fixes[0]
    XCTAssertEqual(lines.applying(fix.edits).split(separator: "\n")[0], "- \u{200F}`npm install` يثبّت الحزمة")
    var rules = RuleSettings()
    rules[.blockDirection] = .off
    XCTAssertFalse(
      FindingsEngine(format: ToyFormat(), spelling: .literal, rules: rules).findings(in: lines, index: index) { _ in nil
      }
      .contains { $0.code == .blockDirection })
  }

  /// An edit re-reads from the checkpoint before it; a region's inside has
  /// no checkpoint, so an edit there re-reads the whole region.
  func testIncrementalReadingMatchesAFreshRead() {
    var current = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var index = StructuredIndex(TextLines(current.joined(separator: "\n")), format: ToyFormat())
    for line in [3, 0, 5, 2] {
      current[line] = current[line].isEmpty ? "- new" : current[line] + " شكرا"
      let lines = TextLines(current.joined(separator: "\n"))
      index.edit(lines, replacing: line..<line + 1, newLineCount: 1)
      let fresh = StructuredIndex(lines, format: ToyFormat())
      XCTAssertEqual(index.entries, fresh.entries, "after line \(line)")
      XCTAssertEqual(index.regions(touching: 0..<99), fresh.regions(touching: 0..<99), "after line \(line)")
    }
  }
}
