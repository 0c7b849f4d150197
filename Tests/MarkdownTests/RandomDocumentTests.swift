import BidiTestSupport
import Foundation
import Markdown
import XCTest

/// Generated documents, dense in the constructs where readers go wrong
/// (containers and laziness, tabs, delimiter runs next to right-to-left
/// letters and punctuation, brackets, code spans, raw HTML, autolinks,
/// tables, entities), read by this reader and by cmark-gfm: the same
/// blocks, lines and rendered text.
final class RandomDocumentTests: XCTestCase {
  static let prefixes = [
    "", "", "", "", "> ", ">", "- ", "* ", "+ ", "1. ", "2) ", "  ", "   ", "    ", "\t", "- [ ] ", "- [x] ", "> > ",
    "  - ", "> - ", "-\t", "1.  ", "    - ", " > ",
  ]
  static let tokens = [
    "foo", "bar", "Apple", "مرحبا", "سلام", "שלום", "کتاب", "اردو", "123", "٣", " ", " ", " ", "  ", "\t", "*", "**",
    "***", "_", "__", "~", "~~", "`", "``", "[", "]", "(", ")", "![", "](", "](/u)", "](/u \"t\")", "][ref]", "<", ">",
    "&amp;", "&#1576;", "&copy;", "&nope;", "\\", "\\*", "\\|", "http://x.com/a_b", "https://مثال.com", "www.ab.cd",
    "a@b.co", "<a href='x'>", "</b>", "<!-- c -->", "<https://u.v>", "|", " | ", ":", ".", ",", "!", "?", "«", "»", "،",
    "؟", "\u{A0}", "\u{200F}", "-", "#", "=",
  ]
  static let wholeLines = [
    "", "", "", "---", "===", "***", "- - -", "# ", "## title #", "```", "```swift", "~~~", "    code", "<div>",
    "</div>", "<!--", "-->", "| a | b |", "|---|:-:|", "a|b", "-|-", "[ref]: /url \"title\"", "[ref]:", "  /dest",
    "<script>", "</script>", "1. one", "10) ten", "- [ ] task", "> quote", ">", "-", "*\t*\t*",
  ]

  static func document(_ random: inout SeededGenerator) -> String {
    var lines: [String] = []
    for _ in 0..<Int.random(in: 1...8, using: &random) {
      var line = prefixes.randomElement(using: &random)!
      if Int.random(in: 0..<4, using: &random) == 0 {
        line += wholeLines.randomElement(using: &random)!
      } else {
        for _ in 0..<Int.random(in: 1...9, using: &random) { line += tokens.randomElement(using: &random)! }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + (Bool.random(using: &random) ? "\n" : "")
  }

  func testGeneratedDocumentsAgreeWithCmarkGFM() throws {
    var random = SeededGenerator(seed: 27)
    var failures: [String] = []
    let count = Int(ProcessInfo.processInfo.environment["MARKDOWN_RANDOM_DOCUMENTS"] ?? "") ?? 1500
    for _ in 0..<count {
      let text = Self.document(&random)
      let source = MarkdownSource(text)
      let reference = try CmarkReference.blocks(Array(text.utf8)).filter { $0.kind != "padding_cell" }
      let ours = comparableBlocks(source)
      if !sameBlocks(ours, reference, lineCount: source.lineCount) {
        failures.append("\(text.debugDescription)\n  cmark-gfm: \(reference)\n  ours:      \(ours)")
      }
    }
    print("random documents: \(count - failures.count)/\(count) agree with cmark-gfm")
    for failure in failures.prefix(15) { XCTFail(failure) }
    XCTAssertEqual(failures.count, 0)
  }
}
