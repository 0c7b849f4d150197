import BidiCommands
import BidiTestSupport
import Foundation
import XCTest

/// Structured files named on `check`'s command line are checked ahead on
/// worker threads (`CheckPrefetch`) and reported in the order given: the
/// report of one run over many files must be, byte for byte, the reports
/// of the files checked one at a time (no worker), put one after the
/// other — in text, and in JSON and SARIF once their framing is set aside
/// by comparing each run's findings in order.
final class CheckPrefetchTests: XCTestCase {
  static let words = [
    "مرحبا", "العالم", "שלום", "Apple", "Pay", "npm", "\u{202E}", "\u{2067}", "**b**", "`x`", "&rlm;",
  ]

  static func markdown(_ random: inout SeededGenerator) -> String {
    var blocks: [String] = []
    for _ in 0..<Int.random(in: 1...40, using: &random) {
      let prefix = ["", "# ", "- ", "> ", "1. "].randomElement(using: &random)!
      let count = Int.random(in: 1...10, using: &random)
      blocks.append(prefix + (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " "))
    }
    return blocks.joined(separator: "\n\n") + "\n"
  }

  func run(_ arguments: [String]) -> (status: Int32, stdout: [UInt8], stderr: String) {
    var out: [UInt8] = []
    var err = ""
    let status = runCheck(arguments: arguments, output: { out += $0 }, stderr: { err += $0 })
    return (status, out, err)
  }

  func testManyFilesReportAsEachAlone() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 97)
    var paths: [String] = []
    for index in 0..<12 {
      let name = index % 5 == 4 ? "cues-\(index).srt" : "doc-\(index).md"
      let url = dir.appendingPathComponent(name)
      let text =
        name.hasSuffix(".srt")
        ? "1\n00:00:01,000 --> 00:00:02,000\nApple مرحبا العالم\n\n2\n00:00:03,000 --> 00:00:04,000\n\u{202E}x\n"
        : Self.markdown(&random)
      try text.write(to: url, atomically: true, encoding: .utf8)
      paths.append(url.path)
    }
    // A missing file and a file named twice, among them.
    let arguments = Array(paths[..<5]) + [dir.appendingPathComponent("missing.md").path] + paths[5...] + [paths[0]]
    let together = run(arguments)
    var alone: [UInt8] = []
    var errors = ""
    for path in arguments {
      let one = run([path])
      alone += one.stdout
      errors += one.stderr
    }
    XCTAssertEqual(String(decoding: together.stdout, as: UTF8.self), String(decoding: alone, as: UTF8.self))
    XCTAssertEqual(together.stderr, errors)
    XCTAssertEqual(together.status, 2)
    XCTAssertGreaterThan(together.stdout.count, 2_000)
    for format in ["json", "sarif"] {
      let all = run(["--format", format] + arguments)
      var expected: [Any] = []
      for path in arguments {
        let one = try JSONSerialization.jsonObject(with: Data(run(["--format", format, path]).stdout))
        expected += try findings(one, format)
      }
      let got = try findings(JSONSerialization.jsonObject(with: Data(all.stdout)), format)
      XCTAssertEqual(got.count, expected.count, format)
      XCTAssertEqual(
        try JSONSerialization.data(withJSONObject: got, options: .sortedKeys),
        try JSONSerialization.data(withJSONObject: expected, options: .sortedKeys), format)
    }
  }

  private func findings(_ object: Any, _ format: String) throws -> [Any] {
    let top = try XCTUnwrap(object as? [String: Any])
    if format == "json" { return try XCTUnwrap(top["findings"] as? [Any]) }
    let runs = try XCTUnwrap(top["runs"] as? [[String: Any]])
    return try XCTUnwrap(runs.first?["results"] as? [Any])
  }
}
