import BidiTestSupport
import XCTest

@testable import Markdown

/// The block parser's shortcut for top-level lines (`takeTopLevelLine`: a
/// top-level fenced code block's lines, a top-level paragraph's first and
/// continuation lines, a top-level table's rows; `takeTopLevelBlankLine`: blank lines there) against the general steps it skips: the same
/// blocks, checkpoints and end, whole reads and reads between checkpoints.
final class BlockShortcutTests: XCTestCase {
  /// Lines dense in what the shortcut must leave to the general steps:
  /// fences of other characters, lengths and indentation, closing fences
  /// with text or indented by four, delimiter rows (`|`, `:`, `-`), block
  /// starts after a paragraph, indentation, tabs, vertical tabs and form
  /// feeds, containers.
  static let lines = [
    "", "", "", "text", "مرحبا بالعالم", "שלום", "  indented text", "    four", "\tcode tab", "      six", "```",
    "````", "```swift", " ```", "  ~~~", "   ```", "    ```", "~~~", "~~~~ info", "```` x", "```  ", "``` `x`",
    "````` ", "~~~\t", "``", "`code`", "a | b", "| a | b |", "|---|---|", ":-|-:", "-|-", ":--", "| x", "|-", "-",
    "---", "===", "- item", "* star", "+ plus", "1. one", "2) two", "> quote", "# head", "## head ##", "<div>",
    "</div>", "<!-- c -->", "[ref]: /url", "[a] b", "\u{0B}vt", "\u{0C}ff", " \u{0B}x", "*emph*", "_x_", "\\|", "=x",
    "#no", "<b>x</b>", " - x", "  > q", "\t\tdeep", " \tmixed", "x\ty", "  ", "\t",
  ]

  static func document(_ random: inout SeededGenerator) -> String {
    var text = Int.random(in: 0..<20, using: &random) == 0 ? "\u{FEFF}" : ""
    let count = Int.random(in: 1...14, using: &random)
    var lines: [String] = []
    for _ in 0..<count {
      var line = lines.isEmpty && Bool.random(using: &random) ? "```" : Self.lines.randomElement(using: &random)!
      if Int.random(in: 0..<6, using: &random) == 0 { line += " " + Self.lines.randomElement(using: &random)! }
      lines.append(line)
    }
    text += lines.joined(separator: ["\n", "\r\n", "\r"].randomElement(using: &random)!)
    return text + (Bool.random(using: &random) ? "\n" : "")
  }

  /// Reads `text` with and without the shortcut (whole, and from each
  /// checkpoint to the next); returns how many lines took it in the whole
  /// read and in the partial reads.
  @discardableResult
  func compare(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (whole: Int, parts: Int) {
    let source = MarkdownSource(text)
    let reader = MarkdownReader()
    let fast = reader.read(source, shortcuts: true)
    let slow = reader.read(source, shortcuts: false)
    XCTAssertEqual(slow.shortcutLines, 0)
    XCTAssertEqual(fast.blocks.blocks, slow.blocks.blocks, text.debugDescription, file: file, line: line)
    XCTAssertEqual(fast.blocks.checkpoints, slow.blocks.checkpoints, text.debugDescription, file: file, line: line)
    XCTAssertEqual(fast.blocks.endLine, slow.blocks.endLine, file: file, line: line)
    var parts = 0
    for checkpoint in slow.blocks.checkpoints.dropFirst() {
      let stop = min(checkpoint + 2, source.lineCount)
      let fastPart = reader.read(source, from: checkpoint, stoppingAtCheckpointFrom: stop, shortcuts: true)
      let slowPart = reader.read(source, from: checkpoint, stoppingAtCheckpointFrom: stop, shortcuts: false)
      XCTAssertEqual(fastPart.blocks.blocks, slowPart.blocks.blocks, text.debugDescription, file: file, line: line)
      XCTAssertEqual(fastPart.blocks.endLine, slowPart.blocks.endLine, file: file, line: line)
      parts += fastPart.shortcutLines
    }
    return (fast.shortcutLines, parts)
  }

  func testShortcutReadsAsTheGeneralSteps() {
    var random = SeededGenerator(seed: 45)
    var taken = (whole: 0, parts: 0)
    for _ in 0..<3000 {
      let document = compare(Self.document(&random))
      taken = (taken.whole + document.whole, taken.parts + document.parts)
    }
    XCTAssertGreaterThan(taken.whole, 5000)
    XCTAssertGreaterThan(taken.parts, 1000)
  }

  func testShortcutOnTheOtherGenerators() {
    var random = SeededGenerator(seed: 46)
    var taken = 0
    for _ in 0..<1000 {
      taken += compare(RandomDocumentTests.document(&random)).whole
      taken += compare(RandomDocumentTests.structuredDocument(&random)).whole
    }
    XCTAssertGreaterThan(taken, 500)
  }

  func testForms() {
    // Each form: a document, and how many of its lines the shortcut takes.
    let forms: [(String, Int)] = [
      ("a\nb\nc", 3),
      ("a\n\n  \n\t\nb", 5),  // blank lines close the paragraph, then under the document
      ("```\n\n  \n```", 3),  // blank lines in a fenced code block: empty pieces
      ("    a\n\n    b", 0),  // indented code: not taken
      ("> a\n\nb", 1),  // a blank line under a block quote: not taken
      ("a\n| x |\n|---|", 1),  // a table: the delimiter row is not taken
      ("| a | b |\n|---|---|\n| c | d |\nx\n    y\n- z\n\nw", 3),  // rows (not indented, no block start)
      ("a\n:-\nb", 2),  // `:` may start a delimiter row (here it does; `b` is a row)
      ("```\n  x\n```\ny", 3),  // code lines, the closing fence, a paragraph
      ("  ```\n    x\n   y\n  ```", 3),  // the fence's indentation removed from its lines
      ("```\n    ```\nx\n```", 3),  // a fence indented by four does not close
      ("~~~~\n~~~\n~~~~~", 2),  // a shorter fence does not close
      ("```\n``` x\n```", 2),  // a fence with text does not close
      ("a\n    b\n- c", 2),  // an indented continuation; a list item is not taken
      ("\u{0B}a\nb", 2),
      ("a\n\u{0C}b", 1),
    ]
    for (text, expected) in forms {
      XCTAssertEqual(compare(text).whole, expected, text.debugDescription)
    }
  }
}
