import BidiTestSupport
import Foundation
import StructuredText
import XCTest

@testable import Subtitles

/// The subtitle corpus (`Corpus/`) and its manifest.
enum SubtitleCorpus {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
  static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../scripts/subtitles-check/subtitles_check.py").standardized
  /// The Python that has `srt` and `webvtt-py`: scripts/install-deps.sh's
  /// virtual environment (`PythonTools`), else the `python3` on the PATH.
  static let python: (String, [String]) = PythonTools.python.map { ($0, []) } ?? ("/usr/bin/env", ["python3"])

  /// One file of the manifest: what it must read as.
  struct Expected {
    var path: String
    var locale: String
    var rightToLeft: Bool
    var spelling: String
    /// (index, start, end) per cue.
    var cues: [[String]] = []
    /// "cue\ttext" per line (text escaped).
    var lines: [String] = []
    /// `CODE LINE:COLUMN` of each finding `check` reports, in order.
    var findings: [String] = []
  }

  static func manifest() throws -> [Expected] {
    let text = try String(contentsOf: root.appendingPathComponent("manifest.tsv"), encoding: .utf8)
    var result: [Expected] = []
    for row in text.split(separator: "\n") where !row.hasPrefix("#") {
      let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      switch fields[0] {
      case "file":
        result.append(
          Expected(path: fields[1], locale: fields[2], rightToLeft: fields[3] == "rtl", spelling: fields[4]))
      case "cue": result[result.count - 1].cues.append(Array(fields[1...]))
      case "line": result[result.count - 1].lines.append(fields[1] + "\t" + fields[2])
      case "finding": result[result.count - 1].findings.append(fields[1] + " " + fields[2])
      default: XCTFail("manifest: unknown row \(row)")
      }
    }
    return result
  }

  static func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: root.appendingPathComponent(path)))
  }

  static func format(_ path: String) -> SubtitleFormat { SubtitleFormat(path: path)! }

  static func read(_ path: String) throws -> SubtitleDocument {
    SubtitleReader.read(TextLines(try bytes(path)), format: format(path))
  }

  /// The cues and lines of a document as the manifest writes them.
  static func rows(_ document: SubtitleDocument) -> (cues: [[String]], lines: [String]) {
    (
      document.cues.map { ["\($0.index)", "\($0.start)", "\($0.end)"] },
      document.lines.map { "\($0.cue)\t\(escape($0.text))" }
    )
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
      .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
  }

  /// Runs the independent readers (scripts/subtitles-check) on `jobs`; their output rows, split at tabs.
  static func runChecker(_ jobs: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [[String]] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-subtitles-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let jobsPath = folder.appendingPathComponent("jobs-\(UUID().uuidString).tsv").path
    try (jobs.joined(separator: "\n") + "\n").write(toFile: jobsPath, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: jobsPath) }
    let run = try TestClient.run(python.0, arguments: python.1 + [checker.path, jobsPath], timeout: 300)
    XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
    return run.standardOutput.split(separator: "\n").map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// A scratch folder for edited files, removed by the caller.
  static func scratch() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-subtitles-\(getpid())-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}

extension TextLines {
  /// The text with `insertions` made (at distinct positions), lines joined
  /// by the terminators the text had (each line keeps its own).
  func applying(_ insertions: [SubtitleInsertion]) -> [UInt8] {
    var byLine: [Int: [SubtitleInsertion]] = [:]
    for insertion in insertions { byLine[insertion.position.line, default: []].append(insertion) }
    var result: [UInt8] = []
    var offset = 0
    for line in 0..<lineCount {
      let range = byteRange(ofLine: line)
      let (start, count) = (range.lowerBound, range.count)
      result += bytes[offset..<start]
      var column = 0
      for insertion in (byLine[line] ?? []).sorted(by: { $0.position.column < $1.position.column }) {
        result += bytes[start + column..<start + insertion.position.column]
        result += Array(insertion.text.utf8)
        column = insertion.position.column
      }
      result += bytes[start + column..<start + count]
      offset = start + count
    }
    result += bytes[offset...]
    return result
  }
}
