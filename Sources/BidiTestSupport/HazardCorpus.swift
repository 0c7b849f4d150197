import Foundation

/// The hazard corpus of BidiHazardsTests and its manifest `expected.txt`.
package enum HazardCorpus {
  /// `Tests/BidiHazardsTests/Corpus`, found from this file's path.
  package static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    url.deleteLastPathComponent()  // BidiTestSupport
    url.deleteLastPathComponent()  // Sources
    url.deleteLastPathComponent()  // the package
    return url.appendingPathComponent("Tests/BidiHazardsTests/Corpus")
  }()

  /// The sizes the manifest promises; the tests assert them so that a
  /// corpus that lost files cannot pass by checking less.
  package static let hazardFileCount = 14
  package static let cleanFileCount = 12
  package static let findingCount = 92

  /// One expected finding: `hazards/x.c:5:8 bidi.inComment`.
  package struct Finding: Hashable, Comparable, CustomStringConvertible {
    package var path: String
    /// 1-based.
    package var line: Int
    /// 1-based, in UTF-8 bytes.
    package var column: Int
    package var code: String
    package init(path: String, line: Int, column: Int, code: String) {
      self.path = path
      self.line = line
      self.column = column
      self.code = code
    }
    package var description: String { "\(path):\(line):\(column) \(code)" }
    package static func < (a: Finding, b: Finding) -> Bool {
      (a.path, a.line, a.column, a.code) < (b.path, b.line, b.column, b.code)
    }
  }

  /// `folder/name` of every file of `folder` ("hazards" or "clean"), sorted.
  package static func files(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
      .sorted().map { "\(folder)/\($0)" }
  }

  package static func allFiles() throws -> [String] {
    try files("hazards") + files("clean")
  }

  package static func text(_ path: String) throws -> String {
    let data = try Data(contentsOf: root.appendingPathComponent(path))
    guard let text = String(data: data, encoding: .utf8) else { throw HarnessError("\(path) is not UTF-8") }
    return text
  }

  package static func expected() throws -> [Finding] {
    let manifest = try String(contentsOf: root.appendingPathComponent("expected.txt"), encoding: .utf8)
    var findings: [Finding] = []
    for entry in manifest.split(separator: "\n") where !entry.hasPrefix("#") {
      let parts = entry.split(separator: " ")
      let location = parts.first?.split(separator: ":") ?? []
      guard parts.count == 2, location.count == 3, let line = Int(location[1]), let column = Int(location[2]) else {
        throw HarnessError("bad manifest entry: \(entry)")
      }
      findings.append(Finding(path: String(location[0]), line: line, column: column, code: String(parts[1])))
    }
    return findings.sorted()
  }

  /// The LSP languageId of a corpus file, from its extension.
  package static func languageId(_ path: String) -> String {
    let languages = [
      "c": "c", "cpp": "cpp", "swift": "swift", "rs": "rust", "go": "go", "java": "java",
      "js": "javascript", "ts": "typescript", "py": "python", "rb": "ruby", "sh": "shellscript",
    ]
    let ext = path.split(separator: ".").last.map(String.init) ?? ""
    return languages[ext] ?? "plaintext"
  }

  /// Default LSP severities (Protocol/specification.md, "textDocument/publishDiagnostics").
  package static func defaultSeverity(_ code: String) -> Int {
    code == "bidi.override" || code == "bidi.unmatched" || code == "bidi.invalidUtf8" ? 2 : 1
  }
}
