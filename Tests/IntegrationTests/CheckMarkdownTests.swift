import BidiTestSupport
import Foundation
import XCTest

/// `bidi-lsp check` on Markdown (contract §8), run on the built binary: the
/// Markdown corpus against its manifest (Tests/MarkdownTests/Corpus/check-manifest.tsv),
/// every expected finding reported and nothing else.
final class CheckMarkdownTests: XCTestCase {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("MarkdownTests/Corpus")

  /// `path:line:column code` per finding, as the manifest lists them.
  static func manifest() throws -> [String: [String]] {
    let text = try String(contentsOf: corpus.appendingPathComponent("check-manifest.tsv"), encoding: .utf8)
    var result: [String: [String]] = [:]
    var path = ""
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t").map(String.init)
      if fields[0] == "file" {
        path = fields[1]
        result[path] = []
      } else if fields[0] == "finding" {
        result[path, default: []].append("\(path):\(fields[2]) \(fields[1])")
      }
    }
    return result
  }

  func testCorpusFindingsAreTheManifests() throws {
    let manifest = try Self.manifest()
    XCTAssertEqual(manifest.count, 7)
    XCTAssertEqual(manifest.values.map(\.count).reduce(0, +), 12)
    for (path, expected) in manifest.sorted(by: { $0.key < $1.key }) {
      let result = try HazardCommand.run(["check", path], input: Data(), in: Self.corpus)
      let found = result.lines.compactMap { line -> String? in
        // path:line:column: severity: message [code]
        let parts = line.split(separator: ":", maxSplits: 3)
        guard parts.count == 4, let open = line.range(of: " [bidi.", options: .backwards) else { return nil }
        return "\(parts[0]):\(parts[1]):\(parts[2]) \(line[open.upperBound...].dropLast().description.prefixed)"
      }
      XCTAssertEqual(found.sorted(), expected.sorted(), path)
      XCTAssertEqual(result.status, expected.isEmpty ? 0 : 1, path)
    }
  }

  /// Every corpus file edited through the daemon (`bidi/insertMarks` modes
  /// direction rtl and ltr, placeholders, runs), the edits applied, the result
  /// re-read by `cmark-gfm -t xml`: the same blocks and text apart from the
  /// inserted controls, and asking again gives no edits
  /// (Tests/MarkdownTests/Roundtrip/roundtrip.py prints what differs).
  func testEditsAreReReadAlikeByCmarkGFM() throws {
    let binary = try XCTUnwrap(TestClient.builtProduct(), "build bidi-lsp first")
    let root = Self.corpus.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".md") }
      .sorted().map { Self.corpus.appendingPathComponent($0).path }
    XCTAssertEqual(files.count, 6)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "python3", root.appendingPathComponent("Tests/MarkdownTests/Roundtrip/roundtrip.py").path,
        root.appendingPathComponent("editors/python").path, binary,
        Self.corpus.appendingPathComponent("check/structure.md").path,
      ] + files
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // Every mode on every file: cmark-gfm reads the same blocks (a bare URL
    // in ar-readme.md and ur-guide.md is sealed: `runs` puts no isolate at
    // its edge), and asking again gives no edits.
    let failures = text.split(separator: "\n").filter { !$0.hasPrefix("roundtrip:") }
    XCTAssertEqual(failures, [], text)
    XCTAssertTrue(text.contains("roundtrip: 7 files x 4 modes"), text)
  }

  func testMarkdownLanguageIdOnStandardInput() throws {
    let input = Data("- [Apple Pay](https://example.com) متاح الآن في جميع المتاجر\n".utf8)
    let result = try HazardCommand.run(["check", "--language", "markdown", "-"], input: input, in: nil)
    XCTAssertEqual(result.lines.count, 1, result.text)
    XCTAssertTrue(result.lines.first?.contains(":1:3: warning: ") ?? false, result.text)
    XCTAssertTrue(result.lines.first?.hasSuffix("[bidi.blockDirection]") ?? false, result.text)
    // The same text as plain text has no block rule.
    let plain = try HazardCommand.run(["check", "--language", "plaintext", "-"], input: input, in: nil)
    XCTAssertEqual(plain.lines, [], plain.text)
  }
}

extension String {
  /// `blockDirection` back to `bidi.blockDirection`.
  fileprivate var prefixed: String { "bidi." + self }
}
