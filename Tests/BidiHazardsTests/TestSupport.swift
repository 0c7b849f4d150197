import BidiCommands
import BidiHazards
import Foundation
import UnicodeBidi
import XCTest

/// Text written with markers for bidi controls: `⟦RLO⟧` is the control with
/// no finding expected, `⟦RLO:inComment+override⟧` the control with a
/// `bidi.inComment` finding expected at its position, and
/// `⟦RLO:inComment+override⟧` the control with both findings.
struct MarkedText {
  struct Expectation: Hashable, CustomStringConvertible {
    var line: Int
    var column: Int
    var code: String
    var description: String { "\(line):\(column) \(code)" }
  }

  var text: String
  var expected: [Expectation] = []

  init(_ marked: String) {
    var out = ""
    var rest = Substring(marked)
    while let open = rest.firstIndex(of: "⟦"), let close = rest[open...].firstIndex(of: "⟧") {
      out += rest[..<open]
      let body = rest[rest.index(after: open)..<close].split(separator: ":")
      let control = BidiControl.allCases.first { $0.shortName == body[0] }!
      if body.count > 1 {
        let (line, column) = Self.position(atEndOf: out)
        for code in body[1].split(separator: "+") {
          expected.append(Expectation(line: line, column: column, code: "bidi." + code))
        }
      }
      out += control.string
      rest = rest[rest.index(after: close)...]
    }
    out += rest
    text = out
  }

  /// Zero-based line and UTF-8 column of the end of `text` (lines end at
  /// LF, CR LF or CR).
  static func position(atEndOf text: String) -> (Int, Int) {
    let bytes = Array(text.utf8)
    var line = 0
    var start = 0
    var i = 0
    while i < bytes.count {
      if bytes[i] == 0x0A || bytes[i] == 0x0D {
        i += (bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A) ? 2 : 1
        line += 1
        start = i
      } else {
        i += 1
      }
    }
    return (line, bytes.count - start)
  }

  /// The findings of `scanner` on the text, in the same form.
  func found(by scanner: HazardScanner) -> [Expectation] {
    scanner.scanDocument(text).map { Expectation(line: $0.line, column: $0.range.lowerBound, code: $0.code.rawValue) }
  }
}

/// Asserts that `marked` gives exactly its marked findings.
func assertFindings(
  _ marked: String, _ language: SourceLanguage?, settings: RuleSettings = .default,
  file: StaticString = #filePath, line: UInt = #line
) {
  let text = MarkedText(marked)
  let scanner = HazardScanner(language: language, settings: settings)
  XCTAssertEqual(text.found(by: scanner), text.expected, "in \(marked)", file: file, line: line)
}

/// The corpus folder beside this file.
let corpusURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

/// Collects the output of `runCheck`.
struct CheckResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

func check(_ arguments: [String]) -> CheckResult {
  var out = ""
  var err = ""
  let status = runCheck(arguments: arguments, stdout: { out += $0 }, stderr: { err += $0 })
  return CheckResult(status: status, stdout: out, stderr: err)
}

/// A fresh temporary directory, removed when the test ends.
func temporaryDirectory(_ test: XCTestCase) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("BidiHazardsTests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
  return url
}
