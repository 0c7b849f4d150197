import BidiTestSupport
import Markdown
import XCTest

/// Restarting the reader at a checkpoint: the blocks from there on, and the
/// checkpoints, are those of a full read; a read stopped at a later
/// checkpoint gives exactly the full read's blocks in between.
final class CheckpointTests: XCTestCase {
  /// What differs between restarts and the full read of `text`.
  static func checkRestarts(_ text: [UInt8], options: MarkdownReader.Options = .init()) -> [String] {
    let source = MarkdownSource(text)
    return MarkdownChecks.restartProblems(source, MarkdownReader(options: options).read(source), options)
  }

  func testRestartingAtEveryCheckpointOfTheSpecExamples() throws {
    var checked = 0
    for file in ["spec.txt", "extensions.txt", "regression.txt"] {
      for example in try SpecExample.load(file) {
        let problems = Self.checkRestarts(example.markdown, options: .init(frontMatter: false))
        XCTAssertEqual(problems, [], "\(file) \(example.number)")
        checked += 1
      }
    }
    XCTAssertEqual(checked, 728)
  }

  func testRestartingAtEveryCheckpointOfGeneratedDocuments() {
    var random = SeededGenerator(seed: 2727)
    var checkpoints = 0
    for _ in 0..<3000 {
      // Several generated documents one after another, some after front matter.
      var text = Bool.random(using: &random) ? "---\ntitle: x\n---\n" : ""
      for _ in 0..<4 { text += RandomDocumentTests.document(&random) + "\n" }
      let bytes = Array(text.utf8)
      XCTAssertEqual(Self.checkRestarts(bytes), [], text.debugDescription)
      checkpoints += MarkdownReader().read(MarkdownSource(bytes)).checkpoints.count
    }
    XCTAssertGreaterThan(checkpoints, 3000 * 2, "the documents have checkpoints to restart from")
  }

  func testWhereTheCheckpointsAre() {
    let text = """
      ---
      title: front matter
      ---
      # Heading
      Paragraph
      lazy? no, a continuation

      - item

        more of the item
      after the list
      > quote
      lazy line

      ```
      code

      ```
      | a | b |
      |---|---|
      | c | d |

      end
      """
    let read = MarkdownReader().read(MarkdownSource(text))
    // Before: the start, the line after the front matter, the heading's
    // next line, the list after the paragraph's blank line, the fence
    // after the quote's blank line, the table after the fence, the last
    // paragraph after the table's blank line (the blank line itself still
    // ends the table).
    XCTAssertEqual(read.checkpoints, [0, 3, 4, 7, 14, 18, 22])
    XCTAssertEqual(read.blocks.first?.kind, .frontMatter)
    XCTAssertEqual(read.blocks.first?.lines, 0...2)
  }
}
