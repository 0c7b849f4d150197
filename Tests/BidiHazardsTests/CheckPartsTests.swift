import BidiCommands
import BidiHazards
import BidiTestSupport
import Foundation
import XCTest

/// `check --jobs N` on plain text (`scanPlainParts`): blocks read ahead,
/// cut into parts that the run's threads scan while the parts done are
/// written in order. Whatever the cuts, the shape of the text and the
/// number of files, the report is byte for byte the one of `--jobs 1`.
final class CheckPartsTests: XCTestCase {
  func run(_ arguments: [String], partMinimum: Int, partOutputLimit: Int = 1 << 20) -> (
    status: Int32, stdout: [UInt8], stderr: String
  ) {
    CheckJobsTests.check(arguments, partMinimum: partMinimum, partOutputLimit: partOutputLimit)
  }

  /// Checks `url` with every job count in `jobs`, in every format, with
  /// parts of at least `partMinimum` bytes (and, in text, parts that stop
  /// after their first finding, finished when written): the `--jobs 1`
  /// report each time.
  func assertSameReports(
    _ url: URL, jobs: [Int], partMinimum: Int, _ label: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    for format in ["text", "json", "sarif"] {
      let one = run(["--jobs", "1", "--format", format, url.path], partMinimum: partMinimum)
      XCTAssertEqual(one.stderr, "", label, file: file, line: line)
      for count in jobs {
        for limit in format == "text" ? [1 << 20, 1] : [1 << 20] {
          let many = run(
            ["--jobs", "\(count)", "--format", format, url.path], partMinimum: partMinimum, partOutputLimit: limit)
          XCTAssertEqual(many.status, one.status, label, file: file, line: line)
          XCTAssertEqual(many.stderr, "", label, file: file, line: line)
          XCTAssert(
            many.stdout == one.stdout, "\(label), \(format), --jobs \(count), limit \(limit)", file: file, line: line)
        }
      }
    }
  }

  /// Lines of one length, each with a finding, some ended by CR LF and
  /// some holding a lone CR: with parts of a byte at least, a cut after
  /// every line, and every line's number counted right.
  func testAPartAtEveryLine() throws {
    let dir = try temporaryDirectory(self)
    var lines: [[UInt8]] = []
    for k in 0..<24 {
      var line = Array("line \(k < 10 ? "0" : "")\(k) \u{202E}abc".utf8)
      if k % 5 == 2 { line += [0x0D] + Array("\u{2067}".utf8) } else { line += Array("  xy".utf8) }
      line += k % 3 == 1 ? [0x0D, 0x0A] : [0x20, 0x0A]
      lines.append(line)
    }
    XCTAssertEqual(Set(lines.map(\.count)).count, 1)
    let bytes = Array(lines.joined())
    let length = lines[0].count
    // 24 lines in up to 32 parts (8 jobs): a cut after every line.
    let cuts = bytes.withUnsafeBufferPointer { PartCuts.cuts($0.baseAddress!, end: $0.count, parts: 32) }
    XCTAssertEqual(cuts, [0] + (1...24).map { $0 * length })
    let url = dir.appendingPathComponent("lines.txt")
    try Data(bytes).write(to: url)
    var scanner = HazardScanner(language: nil)
    scanner.renderer = HazardScanner.visualOrderRenderer
    let expected = scanner.scanDocument(bytes).map { d in
      "\(url.path):\(d.line + 1):\(d.range.lowerBound + 1): \(d.severity.rawValue): \(d.message) [\(d.code.rawValue)]\n"
    }
    XCTAssertEqual(Set(expected.map { $0.split(separator: ":")[1] }).count, 24 + 5)
    XCTAssertEqual(
      String(decoding: run(["--jobs", "1", url.path], partMinimum: 1).stdout, as: UTF8.self), expected.joined())
    assertSameReports(url, jobs: [2, 3, 8], partMinimum: 1, "every line")
  }

  /// Texts of every shape: empty, no final line break, a final CR, CR
  /// line breaks only (no LF to cut after), a line longer than a block (in
  /// the text, and last with no line break), a CR LF across the first
  /// read's end, and many blocks of short lines.
  func testShapesOfTextGiveTheOnePassReport() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0x9A27)
    let controls = ["\u{202E}", "\u{2067}", "\u{2069}", "\u{61C}", "\u{200F}", "\u{5E9}", "ab", " "].map {
      Array($0.utf8)
    }
    func line(_ length: Int) -> [UInt8] {
      var line: [UInt8] = []
      while line.count < length { line += controls.randomElement(using: &random)! }
      return line
    }
    var crOnly: [UInt8] = []
    while crOnly.count < 700_000 { crOnly += line(Int.random(in: 0...80, using: &random)) + [0x0D] }
    // (A control now and then: a finding's message holds its line's
    // visual order when the line is short enough.)
    var longLine: [UInt8] = []
    while longLine.count < 1_200_000 { longLine += repeatElement(0x79, count: 3000) + line(4) }
    var straddling: [UInt8] = []
    while straddling.count < 1_100_000 { straddling += line(Int.random(in: 0...200, using: &random)) + [0x0A] }
    for end in [1 << 19, 1 << 20] {
      straddling[end - 1] = 0x0D
      straddling[end] = 0x0A
    }
    let texts: [(String, [UInt8])] = [
      ("empty", []), ("one break", [0x0A]), ("no final break", Array("a \u{202E}b\nc \u{2067}d".utf8)),
      ("final CR", Array("a \u{202E}b\r\nc \u{2067}d\r".utf8)), ("CR only", crOnly),
      ("long line", longLine + [0x0A] + line(100)), ("CR LF across reads", straddling),
      // The text's last line longer than a block, with no line break
      // after it: alone, and after a block of lines.
      ("long last line", longLine), ("lines, then a long last line", Array(straddling[..<600_000]) + longLine),
    ]
    for (name, bytes) in texts {
      let url = dir.appendingPathComponent("\(name).txt")
      try Data(bytes).write(to: url)
      assertSameReports(url, jobs: [3], partMinimum: name == "CR LF across reads" ? 1 << 16 : 1, name)
    }
  }

  /// Several files in one run: the threads, started for the first, scan
  /// the parts of the next ones; the report is the one of `--jobs 1`.
  func testTheThreadsScanFileAfterFile() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0x7F1E)
    var paths: [String] = []
    for k in 0..<5 {
      let url = dir.appendingPathComponent("f\(k).txt")
      try Data(CheckJobsTests.file(&random, cleanPrefix: k * 10_000, size: 60_000 + k * 50_000)).write(to: url)
      paths.append(url.path)
    }
    for format in ["text", "json", "sarif"] {
      let one = run(["--jobs", "1", "--format", format] + paths, partMinimum: 1)
      let many = run(["--jobs", "3", "--format", format] + paths, partMinimum: 2_000)
      XCTAssertEqual(many.status, 1)
      XCTAssert(many.stdout == one.stdout, format)
    }
  }

  /// Where a block's complete lines end: after its last LF, or after its
  /// last CR unless the CR ends the block (the LF of a CR LF may follow).
  func testTheCompleteLinesOfABlockEndAtTheirLastLineBreak() {
    let cases: [(String, Int?)] = [
      ("", nil), ("\n", 1), ("ab", nil), ("a\r", nil), ("\r", nil), ("a\r\r", 2), ("a\nb\r", 2), ("a\r\nb", 3),
      ("a\rb", 2), ("a\nb", 2), ("a\r\n", 3), ("abcdefghijklmnopq\nrstuvwxyzabcdefghij", 18),
    ]
    for (text, expected) in cases {
      let bytes = Array(text.utf8)
      XCTAssertEqual(bytes.withUnsafeBufferPointer { PartCuts.lastLineEnd($0) }, expected, text.debugDescription)
    }
    // From a point on (the bytes before it searched already): a CR there
    // is searched again, with what follows it.
    let from: [(String, Int, Int?)] = [
      ("a\nbcdefghijklmnop", 2, nil), ("a\nb", 1, 2), ("ab\r\ncdefghijklmnop", 2, 4), ("ab\rcdefghijklmnopq", 2, 3),
      ("abcdefghijklmnopqrstuvwxyz\r", 5, nil), ("abc\r", 3, nil), ("abcdefghijklmnopqrstuvw\ny", 20, 24),
    ]
    for (text, start, expected) in from {
      let bytes = Array(text.utf8)
      XCTAssertEqual(
        bytes.withUnsafeBufferPointer { PartCuts.lastLineEnd($0, from: start) }, expected, text.debugDescription)
    }
  }
}
