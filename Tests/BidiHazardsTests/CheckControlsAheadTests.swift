import BidiHazards
import BidiTestSupport
import Foundation
import XCTest

/// `bidi-lsp check` on plain text takes the controls of the lines it scans
/// from one search of a window of lines ahead (`ControlsAhead`, 16 KiB and
/// up to an LF), not from a search of each line; a line that holds an
/// ill-formed sequence is searched alone, as are the 16 after it, and then
/// a new window starts. Its report must be the line-by-line scan's
/// (`HazardScanner.scanDocument`, each line searched alone), here on
/// random text dense with controls whose ill-formed bytes, long lines and
/// line breaks fall on and around the windows' ends.
final class CheckControlsAheadTests: XCTestCase {
  static let window = 1 << 14

  /// The text report of the line-by-line scan.
  func expectedReport(_ bytes: [UInt8], path: String) -> String {
    HazardScanner(language: nil).scanDocument(bytes).map { d in
      "\(path):\(d.line + 1):\(d.range.lowerBound + 1): \(d.severity.rawValue): \(d.message) [\(d.code.rawValue)]\n"
    }.joined()
  }

  static let controls: [[UInt8]] = [
    "\u{202E}", "\u{202D}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    "\u{61C}", "\u{200E}", "\u{200F}",
  ].map { Array($0.utf8) }
  static let letters: [[UInt8]] = ["\u{627}\u{644} ", "\u{5E9}", "ab ", " ", "x", "\u{2014}", "\u{4E2D}", "\u{1F600}"]
    .map { Array($0.utf8) }
  /// Ill-formed: cut-off leads (before ASCII, at a line's end), stray
  /// continuation bytes, over-long, a surrogate, bytes never in UTF-8.
  static let illFormed: [[UInt8]] = [
    [0xE2], [0xE2, 0x80], [0xE2, 0x80, 0x2E], [0xD8], [0x9C], [0x80, 0xBF], [0xC0, 0xAE], [0xC1, 0x81],
    [0xED, 0xA0, 0x80], [0xE0, 0x80, 0xAE], [0xF0, 0x80, 0x80, 0x80], [0xFF], [0xF5, 0x80],
  ]
  static let breaks: [[UInt8]] = [[0x0A], [0x0A], [0x0D, 0x0A], [0x0D]]

  /// A line dense with controls (`count` pieces), an ill-formed piece in
  /// it now and then (`illFormedOneIn`), or at its end.
  static func line(_ random: inout SeededGenerator, count: Int, illFormedOneIn: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<count {
      if Int.random(in: 0..<illFormedOneIn, using: &random) == 0 {
        bytes += illFormed.randomElement(using: &random)!
      } else if Bool.random(using: &random) {
        bytes += controls.randomElement(using: &random)!
      } else {
        bytes += letters.randomElement(using: &random)!
      }
    }
    if Int.random(in: 0..<(illFormedOneIn * 4), using: &random) == 0 {
      bytes += [[0xE2], [0xE2, 0x80], [0xD8], [0xF0, 0x9F, 0x98]].randomElement(using: &random)!
    }
    return bytes
  }

  /// About `size` bytes of dense lines; at each window's end (counted
  /// from 0, as from a window that starts there) an ill-formed piece, a
  /// control or a line break falls just before, on or just after it, and
  /// now and then a line longer than a window.
  static func file(_ random: inout SeededGenerator, size: Int, illFormedOneIn: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var edge = window
    while bytes.count < size {
      if bytes.count + 300 > edge {
        // Up to a few bytes around the edge, then a piece across it.
        let target = edge + Int.random(in: -4...2, using: &random)
        while bytes.count < target { bytes += letters[Int.random(in: 3...4, using: &random)] }
        bytes += (illFormed + controls + breaks).randomElement(using: &random)!
        edge += window
      }
      let count =
        Int.random(in: 0..<60, using: &random) == 0
        ? Int.random(in: 3000...9000, using: &random) : Int.random(in: 0...60, using: &random)
      bytes += line(&random, count: count, illFormedOneIn: illFormedOneIn)
      bytes += breaks.randomElement(using: &random)!
    }
    return bytes
  }

  func testDenseTextGivesTheLineByLineScan() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0xA4EAD)
    var findings = 0
    for k in 0..<12 {
      // Mostly well-formed (long windows), then ill-formed often (windows
      // cut short, lines searched alone).
      var bytes = Self.file(&random, size: 150_000, illFormedOneIn: [400, 400, 60, 8][k % 4])
      // Some end in a line without a break, cut off in a sequence.
      if k % 3 == 1 { bytes += Self.controls[k % Self.controls.count] + [0xE2, 0x80] }
      let url = dir.appendingPathComponent("ahead-\(k).txt")
      try Data(bytes).write(to: url)
      let expected = expectedReport(bytes, path: url.path)
      for jobs in [["--jobs", "1"], []] {
        let result = check(jobs + [url.path])
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 1, "file \(k)")
        if result.stdout != expected {
          let got = result.stdout.split(separator: "\n")
          let want = expected.split(separator: "\n")
          let first = (0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count)
          XCTFail(
            "file \(k) \(jobs): \(got.count) findings, expected \(want.count); first difference at \(first): "
              + "\(first < got.count ? String(got[first]) : "none") / \(first < want.count ? String(want[first]) : "none")"
          )
        }
      }
      findings += expected.split(separator: "\n").count
    }
    XCTAssertGreaterThan(findings, 50_000)
  }

  /// A plain file checked after a file in a language whose last line has
  /// segments (a comment with a control) reports as it does alone: the
  /// buffers the two share hold no segments for its lines.
  func testPlainFileAfterAFileInALanguage() throws {
    let dir = try temporaryDirectory(self)
    let code = dir.appendingPathComponent("a.py")
    try Data("x = 1\n# \u{202E} note \u{2066}".utf8).write(to: code)
    let plain = dir.appendingPathComponent("b.txt")
    var random = SeededGenerator(seed: 0xB7)
    try Data(Self.file(&random, size: 40_000, illFormedOneIn: 400)).write(to: plain)
    let alone = check(["--jobs", "1", plain.path])
    let after = check(["--jobs", "1", code.path, plain.path])
    XCTAssertEqual(after.stderr, "")
    XCTAssertTrue(after.stdout.hasPrefix(code.path), "the Python file's findings first")
    XCTAssertTrue(after.stdout.hasSuffix(alone.stdout))
    XCTAssertGreaterThan(alone.stdout.count, 10_000)
  }
}
