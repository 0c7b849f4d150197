import Foundation
import Markdown
import XCTest

/// The reader against Debian's cmark-gfm on every example of cmark-gfm's
/// own test files: the leaf blocks with inline content (paragraphs,
/// headings, table cells), their first and last lines and their rendered
/// text must be the same. The examples where they differ are listed, each
/// with its reason, in Corpus/spec-disagreements.txt; the test fails when
/// the list is not exactly what differs.
final class SpecAgreementTests: XCTestCase {
  /// The disagreements the committed list accounts for: "file number".
  static func listedDisagreements() throws -> Set<String> {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Corpus/spec-disagreements.txt")
    let text = try String(contentsOf: url, encoding: .utf8)
    var listed: Set<String> = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let words = line.split(separator: " ", maxSplits: 2)
      if words.count >= 2 { listed.insert("\(words[0]) \(words[1].trimmingCharacters(in: .punctuationCharacters))") }
    }
    return listed
  }

  /// Compares every example of `file`; returns (agreeing, total, the
  /// disagreeing examples with what differs).
  static func compare(_ file: String) throws -> (agreeing: Int, total: Int, differing: [String: String]) {
    let examples = try SpecExample.load(file)
    var differing: [String: String] = [:]
    for example in examples {
      let reference = try CmarkReference.blocks(example.markdown).filter { $0.kind != "padding_cell" }
      let source = MarkdownSource(example.markdown)
      let ours = comparableBlocks(source)
      if !sameBlocks(ours, reference, lineCount: source.lineCount) {
        differing["\(file) \(example.number)"] = "cmark-gfm: \(reference)\n  ours: \(ours)"
      }
    }
    return (examples.count - differing.count, examples.count, differing)
  }

  func testSpecExamplesAgreeWithCmarkGFM() throws {
    let listed = try Self.listedDisagreements()
    var agreeing = 0
    var total = 0
    var differing: [String: String] = [:]
    for file in ["spec.txt", "extensions.txt", "regression.txt"] {
      let result = try Self.compare(file)
      agreeing += result.agreeing
      total += result.total
      differing.merge(result.differing) { a, _ in a }
      print("spec agreement: \(file): \(result.agreeing)/\(result.total) examples agree with cmark-gfm")
    }
    for key in differing.keys.sorted() where !listed.contains(key) {
      XCTFail("\(key) differs and is not listed:\n  \(differing[key]!)")
    }
    for key in listed.sorted() where differing[key] == nil {
      XCTFail("\(key) is listed as differing but agrees: remove it from Corpus/spec-disagreements.txt")
    }
    // 673 + 30 + 25 examples in Debian's 0.29.0.gfm.6 test files.
    XCTAssertEqual(total, 728)
    XCTAssertEqual(agreeing, total - listed.count)
  }
}
