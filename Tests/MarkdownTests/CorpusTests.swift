import Foundation
import Markdown
import XCTest

/// A corpus of documents in Arabic, Hebrew, Persian and Urdu with English
/// (code spans, links, tables, nested lists and quotes, task lists, front
/// matter, CRLF): read by this reader and by cmark-gfm (front matter, which
/// cmark-gfm does not know, blanked for it), the same blocks, lines and
/// rendered text; restarts and rendering invariants hold; the counts are
/// fixed so that a reader that loses blocks on both sides is caught.
final class CorpusTests: XCTestCase {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

  static func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
  }

  /// `bytes` with its front matter's lines emptied (line ends kept).
  static func withoutFrontMatter(_ bytes: [UInt8]) -> [UInt8] {
    let source = MarkdownSource(bytes)
    guard let front = MarkdownReader().read(source).blocks.first, front.kind == .frontMatter else { return bytes }
    let end = source.lineEnds[front.lines.upperBound]
    return bytes[..<end].filter { $0 == 0x0A || $0 == 0x0D } + bytes[end...]
  }

  func testCorpusAgreesWithCmarkGFM() throws {
    var blocks = 0
    var perFile: [String] = []
    for file in try Self.files() {
      let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent(file)))
      let source = MarkdownSource(bytes)
      let ours = comparableBlocks(source, options: .init(frontMatter: true))
      let reference = try CmarkReference.blocks(Self.withoutFrontMatter(bytes)).filter { $0.kind != "padding_cell" }
      XCTAssertTrue(
        sameBlocks(ours, reference, lineCount: source.lineCount),
        "\(file)\n  cmark-gfm: \(reference)\n  ours:      \(ours)")
      XCTAssertEqual(CheckpointTests.checkRestarts(bytes), [], file)
      XCTAssertEqual(InlineRenderingTests.invariantProblems(bytes), [], file)
      if ProcessInfo.processInfo.environment["MARKDOWN_CORPUS_PRINT"] != nil {
        print(file, ours.map(\.description).joined(separator: "\n"))
      }
      blocks += ours.count
      perFile.append("\(file) \(ours.count)")
    }
    print("corpus: \(perFile.joined(separator: ", ")) blocks agree with cmark-gfm")
    XCTAssertEqual(perFile.count, 6)
    XCTAssertEqual(blocks, 116)
  }
}
