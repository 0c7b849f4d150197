import BidiHazards
import Foundation
import UnicodeBidi
import XCTest

/// The corpus: hazard samples in each language and clean files with
/// legitimate right-to-left text, against the manifest `expected.txt`.
final class CorpusTests: XCTestCase {
  struct Finding: Hashable, Comparable, CustomStringConvertible {
    var path: String
    var line: Int
    var column: Int
    var code: String
    var description: String { "\(path):\(line):\(column) \(code)" }
    static func < (a: Finding, b: Finding) -> Bool { a.description < b.description }
  }

  static func corpusFiles(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: corpusURL.appendingPathComponent(folder).path)
      .sorted().map { "\(folder)/\($0)" }
  }

  static func expectedFindings() throws -> [Finding] {
    let text = try String(contentsOf: corpusURL.appendingPathComponent("expected.txt"), encoding: .utf8)
    return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { entry in
      let parts = entry.split(separator: " ")
      let location = parts[0].split(separator: ":")
      guard parts.count == 2, location.count == 3, let line = Int(location[1]), let column = Int(location[2]) else {
        throw CocoaError(.fileReadCorruptFile)
      }
      return Finding(path: String(location[0]), line: line, column: column, code: String(parts[1]))
    }.sorted()
  }

  static func scan(_ path: String) throws -> [HazardDiagnostic] {
    let bytes = try Data(contentsOf: corpusURL.appendingPathComponent(path))
    return HazardScanner(language: SourceLanguage(path: path)).scanDocument(Array(bytes))
  }

  func testCorpusCounts() throws {
    let hazards = try Self.corpusFiles("hazards")
    let clean = try Self.corpusFiles("clean")
    XCTAssertEqual(hazards.count, 14)
    XCTAssertEqual(clean.count, 12)
    XCTAssertEqual(try Self.expectedFindings().count, 92)
    // Every listed language has a hazard sample and a clean file.
    for language in [
      "c", "cpp", "swift", "rust", "go", "java", "javascript", "typescript", "python", "ruby", "shellscript",
    ] {
      XCTAssertTrue(hazards.contains { SourceLanguage(path: $0)?.rawValue == language }, language)
      XCTAssertTrue(clean.contains { SourceLanguage(path: $0)?.rawValue == language }, language)
    }
    // Every hazard file holds at least one expected finding.
    let expected = Set(try Self.expectedFindings().map(\.path))
    XCTAssertEqual(expected, Set(hazards))
  }

  func testEveryHazardIsReportedWithItsCodeAndPosition() throws {
    var found: [Finding] = []
    for path in try Self.corpusFiles("hazards") {
      for diagnostic in try Self.scan(path) {
        found.append(
          Finding(
            path: path, line: diagnostic.line + 1, column: diagnostic.range.lowerBound + 1,
            code: diagnostic.code.rawValue))
      }
    }
    let expected = try Self.expectedFindings()
    let missing = Set(expected).subtracting(found).sorted()
    let unexpected = Set(found).subtracting(expected).sorted()
    XCTAssertEqual(missing, [], "expected but not reported")
    XCTAssertEqual(unexpected, [], "reported but not expected")
    XCTAssertEqual(found.count, expected.count)
  }

  func testCleanFilesGiveNoDiagnostic() throws {
    var controls = 0
    for path in try Self.corpusFiles("clean") {
      XCTAssertEqual(try Self.scan(path), [], path)
      let text = try String(contentsOf: corpusURL.appendingPathComponent(path), encoding: .utf8)
      controls += text.unicodeScalars.filter { BidiControl(scalar: $0.value) != nil }.count
    }
    // The clean files do hold legitimate controls (balanced isolates, marks).
    XCTAssertEqual(controls, 92)
  }

  func testCleanFilesAreCleanAsPlainTextToo() throws {
    // Balanced pairs are balanced on their line, whatever the language.
    for path in try Self.corpusFiles("clean") {
      let bytes = try Data(contentsOf: corpusURL.appendingPathComponent(path))
      XCTAssertEqual(HazardScanner(language: nil).scanDocument(Array(bytes)), [], path)
    }
  }

  func testCorpusMatchesItsTemplates() throws {
    // Regenerating from CorpusSource (markers → characters) must give the
    // committed files: run CorpusSource/generate.py after editing a template.
    let source = corpusURL.deletingLastPathComponent().appendingPathComponent("CorpusSource")
    var expected: [String] = []
    for folder in ["hazards", "clean"] {
      for name in try FileManager.default.contentsOfDirectory(atPath: source.appendingPathComponent(folder).path)
        .sorted()
      {
        let template = try String(contentsOf: source.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
        let marked = MarkedText(template)
        let committed = try String(contentsOf: corpusURL.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
        XCTAssertEqual(marked.text, committed, "\(folder)/\(name) is out of date")
        expected += marked.expected.map { "\(folder)/\(name):\($0.line + 1):\($0.column + 1) \($0.code)" }
      }
    }
    XCTAssertEqual(expected.sorted(), try Self.expectedFindings().map(\.description))
  }
}
