import BidiCommands
import BidiHazards
import BidiTestSupport
import Foundation
import XCTest

/// `bidi-lsp check` reads plain text in one pass, scanning only the lines
/// that hold a byte where a finding can start and counting the line breaks
/// it jumps over. Its report must be exactly the line-by-line scan's
/// (`HazardScanner.scanDocument`), here on random files whose line breaks
/// (LF, CR LF, lone CR), controls and ill-formed bytes fall on and around
/// the multiples of 1 MiB: read boundaries of the one-thread scan (which
/// reads blocks of `checkReadBlockSize`, ending at its multiples) and of
/// the parts of `--jobs`.
final class CheckPlainTextTests: XCTestCase {
  /// The text report `check` gives for `bytes` at `path`, from the full scan.
  func expectedReport(_ bytes: [UInt8], path: String) -> String {
    HazardScanner(language: nil).scanDocument(bytes).map { d in
      "\(path):\(d.line + 1):\(d.range.lowerBound + 1): \(d.severity.rawValue): \(d.message) [\(d.code.rawValue)]\n"
    }.joined()
  }

  /// Long clean lines with a hazard now and then; at each block boundary a
  /// line break, a control or a cut sequence split across it, then more
  /// pieces, so that every finding after it depends on the count.
  static func randomFile(_ random: inout SeededGenerator, block: Int = 1 << 20) -> [UInt8] {
    let pieces: [[UInt8]] = [
      [0x0A], [0x0D], [0x0D, 0x0A], Array("\u{202E}".utf8), Array("\u{2067}".utf8), Array("\u{2069}".utf8),
      Array("\u{61C}".utf8), Array("\u{200F}".utf8), [0xE2, 0x80], [0xFF], Array("\u{5E9}".utf8), Array("ab".utf8),
      Array("\u{627}\u{644}".utf8),
    ]
    let straddling: [[UInt8]] = [
      [0x0D, 0x0A], [0x0D, 0x0A], [0x0A, 0x0D], [0x0D, 0x0D], Array("\u{202E}".utf8), Array("\u{61C}".utf8),
      Array("\u{5E9}\u{2069}".utf8), [0xE2, 0x80, 0x41],
    ]
    var bytes: [UInt8] = []
    for boundary in 1...Int.random(in: 1...2, using: &random) {
      let piece = straddling.randomElement(using: &random)!
      let target = boundary * block - Int.random(in: 1..<piece.count + 1, using: &random)
      while bytes.count < target {
        let length = min(target - bytes.count, Int.random(in: 0...300_000, using: &random))
        bytes += repeatElement(UInt8(ascii: "x"), count: length)
        if bytes.count < target - 10 && Bool.random(using: &random) {
          bytes += pieces.randomElement(using: &random)!
          bytes.append(0x0A)
        }
      }
      bytes += piece
      for _ in 0..<Int.random(in: 1...8, using: &random) { bytes += pieces.randomElement(using: &random)! }
      bytes += Array(" \u{2067}x\n".utf8)
    }
    return bytes
  }

  /// Lines dense with controls (the line after one with a control is
  /// scanned without the search), clean and empty lines among them, ended
  /// by LF, CR LF or CR, with a piece straddling each block boundary (the
  /// `first` of `straddling`, then the next), on a line after a line with
  /// a control.
  static func denseFile(_ random: inout SeededGenerator, first: Int) -> [UInt8] {
    let block = 1 << 20
    let pieces: [[UInt8]] = [
      Array("\u{202E}".utf8), Array("\u{2067}".utf8), Array("\u{2069}".utf8), Array("\u{202C}".utf8),
      Array("\u{2066}".utf8), Array("\u{61C}".utf8), Array("\u{200F}".utf8), [0xE2, 0x80], [0xFF],
      Array("\u{5E9}".utf8), Array("ab ".utf8), Array("\u{627}\u{644} ".utf8), Array("x".utf8),
    ]
    let breaks: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D]]
    let straddling: [[UInt8]] = [
      [0x0D, 0x0A], [0x0A, 0x0D], [0x0D, 0x0D], Array("\u{202E}".utf8), Array("\u{61C}".utf8),
      Array("\u{5E9}\u{2069}".utf8), [0xE2, 0x80, 0x41],
    ]
    var bytes: [UInt8] = []
    var boundary = block
    var next = first
    while bytes.count < 2 * block + 5000 {
      if bytes.count + 200 > boundary {
        bytes += Array("\u{2067}x\n".utf8)
        let piece = straddling[next % straddling.count]
        next += 1
        let target = boundary - Int.random(in: 1..<piece.count + 1, using: &random)
        bytes += repeatElement(UInt8(ascii: "y"), count: max(0, target - bytes.count))
        bytes += piece
        boundary += block
      }
      switch Int.random(in: 0..<10, using: &random) {
      case 0: break  // an empty line
      case 1: bytes += Array("a clean line".utf8)
      default:
        for _ in 0..<Int.random(in: 1...40, using: &random) { bytes += pieces.randomElement(using: &random)! }
      }
      bytes += breaks.randomElement(using: &random)!
    }
    return bytes
  }

  func testDenseLinesGiveTheLineByLineScan() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0xDE5E)
    for k in 0..<7 {
      let bytes = Self.denseFile(&random, first: k)
      let url = dir.appendingPathComponent("dense-\(k).txt")
      try Data(bytes).write(to: url)
      let expected = expectedReport(bytes, path: url.path)
      // One thread and the default jobs (`CheckJobsTests`).
      for jobs in [[], ["--jobs", "1"]] {
        let result = check(jobs + [url.path])
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 1, "file \(k)")
        XCTAssertEqual(result.stdout, expected, "file \(k)")
      }
    }
  }

  func testLinesManyBlocksLongAreReadInDoublingBlocks() throws {
    // A line of several blocks with a hazard near its start is searched
    // again from the hazard after each read: the reads double (ending at
    // multiples of the block), so that search stays bounded, and what
    // each read cuts (a sequence, a CR LF) is put back together.
    let dir = try temporaryDirectory(self)
    let block = checkReadBlockSize
    var bytes = Array("start \u{202E}abc".utf8)
    for k in 1...9 {
      // Each block boundary of the line cuts a control, a letter, a CR LF
      // to come or a stray byte.
      let pieces: [[UInt8]] = [Array("\u{2067}".utf8), Array("\u{5E9}".utf8), [0xFF], Array("\u{61C}".utf8)]
      let piece = pieces[k % pieces.count]
      bytes += repeatElement(UInt8(ascii: "y"), count: k * block - 1 - bytes.count)
      bytes += piece
    }
    bytes += [0x0D, 0x0A]
    bytes += Array("next \u{2069}\n".utf8)
    let url = dir.appendingPathComponent("long-line.txt")
    try Data(bytes).write(to: url)
    let expected = expectedReport(bytes, path: url.path)
    XCTAssertTrue(expected.contains("long-line.txt:2:"), expected)
    for jobs in [["--jobs", "1"], []] {
      let result = check(jobs + [url.path])
      XCTAssertEqual(result.stderr, "")
      XCTAssertEqual(result.stdout, expected, "\(jobs)")
    }
  }

  func testOnePassReportEqualsTheLineByLineScan() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0x0B1D_1CEC)
    var withFindings = 0
    for k in 0..<10 {
      let bytes = Self.randomFile(&random)
      let url = dir.appendingPathComponent("plain-\(k).txt")
      try Data(bytes).write(to: url)
      let expected = expectedReport(bytes, path: url.path)
      for jobs in [[], ["--jobs", "1"]] {
        let result = check(jobs + [url.path])
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, expected.isEmpty ? 0 : 1, "file \(k)")
        XCTAssertEqual(result.stdout, expected, "file \(k)")
      }
      if !expected.isEmpty { withFindings += 1 }
    }
    XCTAssertEqual(withFindings, 10)
  }
}
