import BidiCommands
import BidiHazards
import BidiTestSupport
import Foundation
import XCTest

/// `bidi-lsp check --jobs N` scans plain text in line-aligned parts on N
/// threads (`scanPlainParts`). Its report must be byte for byte the one of
/// `--jobs 1` (one pass) in every format, and the text report the
/// line-by-line scan's (`HazardScanner.scanDocument`), with parts made
/// small here so that a file is cut in many places (cuts after CR LF,
/// beside lone CRs, in runs of empty lines, parts without findings).
final class CheckJobsTests: XCTestCase {
  /// `check` with its output as bytes, parts of at least `partMinimum`
  /// bytes, and the visual order of the flagged lines in the messages.
  func run(_ arguments: [String], partMinimum: Int, partOutputLimit: Int = 1 << 20) -> (
    status: Int32, stdout: [UInt8], stderr: String
  ) {
    Self.check(arguments, partMinimum: partMinimum, partOutputLimit: partOutputLimit)
  }

  static func check(_ arguments: [String], partMinimum: Int, partOutputLimit: Int = 1 << 20) -> (
    status: Int32, stdout: [UInt8], stderr: String
  ) {
    var out: [UInt8] = []
    var err = ""
    let status = runCheck(
      arguments: arguments, output: { out += $0 }, stderr: { err += $0 }, visualOrder: HazardScanner.visualOrderWriter,
      version: "test", partMinimum: partMinimum, partOutputLimit: partOutputLimit)
    return (status, out, err)
  }

  /// The text report of the line-by-line scan, with the visual order as
  /// the daemon's renderer adds it.
  func expectedReport(_ bytes: [UInt8], path: String) -> String {
    var scanner = HazardScanner(language: nil)
    scanner.renderer = HazardScanner.visualOrderRenderer
    return scanner.scanDocument(bytes).map { d in
      "\(path):\(d.line + 1):\(d.range.lowerBound + 1): \(d.severity.rawValue): \(d.message) [\(d.code.rawValue)]\n"
    }.joined()
  }

  /// A file whose first `cleanPrefix` bytes hold no hazard (so that the
  /// first parts find nothing), then lines dense with controls, clean and
  /// empty lines, ended by LF, CR LF or CR.
  static func file(_ random: inout SeededGenerator, cleanPrefix: Int, size: Int, lfOnly: Bool = false) -> [UInt8] {
    let pieces: [[UInt8]] = [
      Array("\u{202E}".utf8), Array("\u{2067}".utf8), Array("\u{2069}".utf8), Array("\u{202C}".utf8),
      Array("\u{2066}".utf8), Array("\u{61C}".utf8), Array("\u{200F}".utf8), [0xE2, 0x80], [0xFF],
      Array("\u{5E9}\u{5DC}".utf8), Array("ab ".utf8), Array("\u{627}\u{644} ".utf8), Array("x".utf8),
    ]
    let breaks: [[UInt8]] =
      lfOnly ? [[0x0A], [0x0A, 0x0A, 0x0A]] : [[0x0A], [0x0D, 0x0A], [0x0D], [0x0A, 0x0A, 0x0A]]
    var bytes: [UInt8] = []
    while bytes.count < cleanPrefix {
      bytes += Array("a clean line, \u{5E9}\u{5DC}\u{5D5}\u{5DD} and more".utf8)
      bytes += breaks.randomElement(using: &random)!
    }
    while bytes.count < size {
      switch Int.random(in: 0..<10, using: &random) {
      case 0: break  // an empty line
      case 1...4: bytes += Array(repeating: UInt8(ascii: "y"), count: Int.random(in: 0...900, using: &random))
      default:
        for _ in 0..<Int.random(in: 1...6, using: &random) { bytes += pieces.randomElement(using: &random)! }
      }
      bytes += breaks.randomElement(using: &random)!
    }
    return bytes
  }

  func testEveryJobCountGivesTheOnePassReport() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0x0305_1AB5)
    // (LF only: the parts' line breaks are counted with memchr.)
    let sizes = [(0, 300_000, false), (150_000, 400_000, true), (0, 1_200_000, true), (1_050_000, 1_300_000, false)]
    var compared = 0
    for (k, (clean, size, lfOnly)) in sizes.enumerated() {
      let bytes = Self.file(&random, cleanPrefix: clean, size: size, lfOnly: lfOnly)
      let url = dir.appendingPathComponent("jobs-\(k).txt")
      try Data(bytes).write(to: url)
      let expected = expectedReport(bytes, path: url.path)
      XCTAssertFalse(expected.isEmpty)
      for format in ["text", "json", "sarif"] {
        let one = run(["--jobs", "1", "--format", format, url.path], partMinimum: 1)
        XCTAssertEqual(one.stderr, "")
        XCTAssertEqual(one.status, 1)
        if format == "text" { XCTAssertEqual(String(decoding: one.stdout, as: UTF8.self), expected, "file \(k)") }
        if format != "text" { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(one.stdout))) }
        // Every job count and part size in text; one of each in the others.
        // Parts that stop at a limit of their findings' bytes (after a line
        // with a finding, or after 3,000 bytes) and are finished in order.
        let runs =
          format == "text"
          ? [(2, 1, 1 << 20), (3, 777, 1 << 20), (7, 40_000, 1 << 20), (3, 777, 1), (2, 20_000, 3000)]
          : [(3, 20_000, 1 << 20), (3, 20_000, 3000)]
        for (jobs, partMinimum, limit) in runs {
          let many = run(
            ["-j", "\(jobs)", "--format", format, url.path], partMinimum: partMinimum, partOutputLimit: limit)
          XCTAssertEqual(many.stderr, "")
          XCTAssertEqual(many.status, 1)
          XCTAssert(
            many.stdout == one.stdout, "file \(k), \(format), --jobs \(jobs), parts of \(partMinimum), limit \(limit)")
          compared += 1
        }
      }
    }
    XCTAssertEqual(compared, 4 * 9)
  }

  /// Two files in one run: the second's parts start from the first's
  /// findings (the JSON and SARIF separators).
  func testSeveralFilesGiveTheOnePassReport() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0xF11E5)
    let a = dir.appendingPathComponent("a.txt")
    let b = dir.appendingPathComponent("b.txt")
    try Data(Self.file(&random, cleanPrefix: 0, size: 300_000)).write(to: a)
    try Data(Self.file(&random, cleanPrefix: 200_000, size: 400_000)).write(to: b)
    for format in ["text", "json", "sarif"] {
      let one = run(["--jobs", "1", "--format", format, a.path, b.path], partMinimum: 1)
      let many = run(["--jobs", "4", "--format", format, a.path, b.path], partMinimum: 5_000)
      XCTAssert(many.stdout == one.stdout, format)
      XCTAssertEqual(many.status, 1)
      if format != "text" { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(many.stdout))) }
    }
  }

  /// A structured file of one argument read on several threads
  /// (`StructuredCheck.runner`: its blocks, then its entries' findings, in
  /// parts of at least 2,000): the report is the one-thread report byte for
  /// byte, in every format. 6,000 Markdown blocks and 5,000 cues make two
  /// and more parts; findings in each.
  func testStructuredFilesOnSeveralThreadsGiveTheOneThreadReport() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0x5EC7)
    let blocks = [
      "- [Apple Pay](https://example.com/pay) متاح الآن", "`npm install` يثبّت الحزمة", "**iPhone** متوفر في المتجر",
      "שלום עולם, this is fine", "A plain English paragraph.", "# عنوان Title", "> اقتباس quote \u{202E}abc",
      "| a | ب |\n| - | - |\n| ج | d |", "```c\nint x = 1; /* \u{202E} } \u{2066} */\n```",
    ]
    var markdown = ""
    for _ in 0..<6000 { markdown += blocks.randomElement(using: &random)! + "\n\n" }
    var subtitles = ""
    for k in 1...5000 {
      let lines = ["مرحبا!", "- هل أنت بخير؟", "Hello there", "<i>שלום</i> 42%", "&lrm;نعم"]
      let line = lines.randomElement(using: &random)!
      subtitles += "\(k)\n00:00:\(String(format: "%02d", k % 60)),000 --> 00:00:59,000\n\(line)\n\n"
    }
    let files = [
      (dir.appendingPathComponent("notes.ar.md"), markdown), (dir.appendingPathComponent("movie.ar.srt"), subtitles),
    ]
    for (url, text) in files {
      try Data(text.utf8).write(to: url)
      for format in ["text", "json", "sarif"] {
        let one = run(["--jobs", "1", "--format", format, url.path], partMinimum: 1)
        XCTAssertEqual(one.stderr, "")
        XCTAssertEqual(one.status, 1, "\(url.lastPathComponent): findings expected")
        for jobs in ["2", "3"] {
          let many = run(["--jobs", jobs, "--format", format, url.path], partMinimum: 1)
          XCTAssertEqual(many.status, 1)
          XCTAssert(many.stdout == one.stdout, "\(url.lastPathComponent), \(format), --jobs \(jobs)")
        }
      }
    }
  }

  /// Line breaks, controls and cut sequences straddling the reads (1 MiB),
  /// the parts cut before them: the same report as the line-by-line scan.
  func testReadsOfSeveralJobsGiveTheLineByLineScan() throws {
    let dir = try temporaryDirectory(self)
    var random = SeededGenerator(seed: 0x4A0B5)
    for k in 0..<3 {
      let bytes = CheckPlainTextTests.randomFile(&random)
      let url = dir.appendingPathComponent("reads-\(k).txt")
      try Data(bytes).write(to: url)
      let expected = expectedReport(bytes, path: url.path)
      for jobs in ["1", "2", "5"] {
        let result = run(["--jobs", jobs, url.path], partMinimum: 1 << 16)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(String(decoding: result.stdout, as: UTF8.self), expected, "file \(k), --jobs \(jobs)")
      }
    }
  }

  /// The parts' first lines: the line breaks of a range, counted in C when
  /// it holds no CR, against a count by hand, at every length and offset
  /// around the 16-byte blocks and past 255 blocks.
  func testLineBreaksOfAPartAreCountedAsByHand() {
    var random = SeededGenerator(seed: 0x1F)
    // Sparse LFs, the same with a CR, LFs only (every lane full).
    for variant in 0..<3 {
      var bytes = (0..<9000).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
      for k in stride(from: 0, to: bytes.count, by: 7) where Int.random(in: 0..<3, using: &random) == 0 {
        bytes[k] = 0x0A
      }
      if variant == 1 { bytes[4500] = 0x0D }
      if variant == 2 { bytes = Array(repeating: 0x0A, count: 9000) }
      bytes.withUnsafeBufferPointer { p in
        for (from, to) in [(0, 9000), (1, 8999), (3, 17), (0, 15), (5, 5), (100, 4196), (17, 4097)] {
          var byHand = 0
          for i in from..<to where p[i] == 0x0A || (p[i] == 0x0D && (i + 1 == to || p[i + 1] != 0x0A)) { byHand += 1 }
          XCTAssertEqual(PartCuts.lineBreaks(p.baseAddress!, from: from, to: to), byHand, "\(from)..<\(to)")
        }
      }
    }
  }

  func testJobsMustBeAPositiveNumber() {
    for value in ["0", "-1", "two", ""] {
      let result = run(["--jobs", value, "x.txt"], partMinimum: 1)
      XCTAssertEqual(result.status, 2, value)
      XCTAssert(result.stderr.contains("--jobs needs a number of jobs"), result.stderr)
    }
    XCTAssertEqual(run(["-j"], partMinimum: 1).status, 2)
  }
}
