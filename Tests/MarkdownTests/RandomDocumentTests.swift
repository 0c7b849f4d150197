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

  /// Pieces of prefixes stacked into deeper containers.
  static let prefixPieces = [">", "> ", "- ", "* ", "1. ", "2) ", " ", "  ", "   ", "\t", "    ", "- [ ] ", "-"]
  static let moreTokens = [
    "**a*", "*a**", "_a_b_", "a_b", "__a__", "***a***", "*a ~~b~~ c*", "[a]", "[a][]", "[A]", "[a]: /b",
    "](/u 'x", "t')", "\"", "'", "(", ")", "<b>", "<a\nb>", "`a", "b`", "\\", "\n", "&#0;", "&#X110000;", "&AMP;",
    "| x |", "\\|", "h t t p://a.b", "ftp://f.g/(x)", "www.a.b)", "x@y.z.", "mailto:a@b.c", "ب*ب*ب", "«*ب*»", "،_ب_،",
  ]

  /// Documents with deeper, varied nesting and denser inline syntax.
  static func structuredDocument(_ random: inout SeededGenerator) -> String {
    var lines: [String] = []
    for _ in 0..<Int.random(in: 1...10, using: &random) {
      var line = ""
      for _ in 0..<Int.random(in: 0...4, using: &random) { line += prefixPieces.randomElement(using: &random)! }
      switch Int.random(in: 0..<6, using: &random) {
      case 0: line += wholeLines.randomElement(using: &random)!
      case 1: break
      default:
        for _ in 0..<Int.random(in: 1...7, using: &random) {
          line += (Bool.random(using: &random) ? moreTokens : tokens).randomElement(using: &random)!
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: Bool.random(using: &random) ? "\n" : "\r\n") + "\n"
  }

  func testGeneratedDocumentsAgreeWithCmarkGFM() throws {
    try compareGenerated(seed: 27, Self.document)
  }

  func testStructuredDocumentsAgreeWithCmarkGFM() throws {
    try compareGenerated(seed: 72, Self.structuredDocument)
  }

  /// Structured documents with bytes that are not well-formed UTF-8 (and
  /// NUL, CR, vertical tab) put in: cmark's scanners match characters, so
  /// an ill-formed byte stops a table row, a fence's info string, a title,
  /// an HTML tag.
  func testDocumentsWithIllFormedBytesAgreeWithCmarkGFM() throws {
    var random = SeededGenerator(seed: 277)
    var failures: [String] = []
    let count = Int(ProcessInfo.processInfo.environment["MARKDOWN_RANDOM_DOCUMENTS"] ?? "") ?? 1500
    let strays: [[UInt8]] = [
      [0x80], [0xC3], [0xFF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0], [0x0D], [0x0B],
    ]
    for _ in 0..<count {
      var bytes = Array(Self.structuredDocument(&random).utf8)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        bytes.insert(
          contentsOf: strays.randomElement(using: &random)!, at: Int.random(in: 0...bytes.count, using: &random))
      }
      let source = MarkdownSource(bytes)
      let reference = try CmarkReference.blocks(bytes).filter { $0.kind != "padding_cell" }
      let ours = comparableBlocks(source)
      if !sameBlocks(ours, reference, lineCount: source.lineCount) {
        failures.append("\(bytes)\n  cmark-gfm: \(reference)\n  ours:      \(ours)")
      }
    }
    print("random documents with ill-formed bytes: \(count - failures.count)/\(count) agree with cmark-gfm")
    for failure in failures.prefix(15) { XCTFail(failure) }
    XCTAssertEqual(failures.count, 0)
  }

  func compareGenerated(seed: UInt64, _ generate: (inout SeededGenerator) -> String) throws {
    let extra = UInt64(ProcessInfo.processInfo.environment["MARKDOWN_RANDOM_SEED"] ?? "") ?? 0
    var random = SeededGenerator(seed: seed &+ extra)
    var failures: [String] = []
    let count = Int(ProcessInfo.processInfo.environment["MARKDOWN_RANDOM_DOCUMENTS"] ?? "") ?? 1500
    for _ in 0..<count {
      let text = generate(&random)
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

  /// The files of `$MARKDOWN_COMPARE_DIR` (a fuzzing corpus, say; each
  /// file's first byte is the fuzz target's option byte and is dropped),
  /// compared with cmark-gfm the same way. Skipped when it is not set.
  func testFolderAgreesWithCmarkGFM() throws {
    guard let folder = ProcessInfo.processInfo.environment["MARKDOWN_COMPARE_DIR"] else {
      throw XCTSkip("set MARKDOWN_COMPARE_DIR to compare a folder of documents")
    }
    var failures: [String] = []
    var compared = 0
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    for file in files {
      guard let data = FileManager.default.contents(atPath: folder + "/" + file), !data.isEmpty else { continue }
      let bytes = Array(data.dropFirst())
      if ProcessInfo.processInfo.environment["MARKDOWN_COMPARE_VALID_ONLY"] != nil,
        !String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
      {
        continue
      }
      let source = MarkdownSource(bytes)
      let reference = try CmarkReference.blocks(bytes).filter { $0.kind != "padding_cell" }
      let ours = comparableBlocks(source)
      compared += 1
      if !sameBlocks(ours, reference, lineCount: source.lineCount) {
        failures.append(
          "\(file): \(String(decoding: bytes, as: UTF8.self).debugDescription)\n  cmark-gfm: \(reference)\n  ours:      \(ours)"
        )
      }
    }
    print("folder: \(compared - failures.count)/\(compared) agree with cmark-gfm")
    for failure in failures.prefix(15) { XCTFail(failure) }
  }
}
