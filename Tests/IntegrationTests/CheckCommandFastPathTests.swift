import BidiTestSupport
import Foundation
import XCTest

/// `bidi-lsp check` on a regular file scans for the controls' bytes first
/// and tokenizes only the lines up to the last one (Protocol/specification.md,
/// “The command line”). Its findings must be exactly those of the one-pass
/// scan of every line, which standard input gets (a pipe cannot be read
/// twice): compared here on the whole hazard corpus under several languages
/// and on random files with controls sprinkled between many clean lines.
final class CheckCommandFastPathTests: XCTestCase {
  /// The report for `bytes` as a file and through standard input, with
  /// the file's path written as `-`.
  func bothWays(_ bytes: [UInt8], language: String, scratch: HazardScratch) throws -> (file: String, stdin: String) {
    let url = try scratch.write("input", bytes)
    let file = try HazardCommand.run(["check", "--language", language, url.path])
    let stdin = try HazardCommand.run(["check", "--language", language, "-"], input: Data(bytes))
    XCTAssertEqual(file.status, stdin.status, language)
    XCTAssertTrue(file.errorOutput.isEmpty && stdin.errorOutput.isEmpty, file.errorOutput + stdin.errorOutput)
    return (file.text.replacingOccurrences(of: url.path + ":", with: "-:"), stdin.text)
  }

  /// Lines of several megabytes, cut by many reads (a pipe gives 64 KiB a
  /// read): each read is searched once for the line's end, on one thread
  /// and in the parts of `--jobs`; CR LF and lone CR ends across them.
  func testLinesOfMegabytesGiveTheSameFindingsBothWays() throws {
    let scratch = try HazardScratch()
    var bytes = Array("head \u{202E}x ".utf8)
    let ends: [[UInt8]] = [[0x0D, 0x0A], [0x0D], [0x0A], [0x0D, 0x0A]]
    for (k, end) in ends.enumerated() {
      bytes += repeatElement(UInt8(ascii: "y"), count: 1_300_000 + 77_777 * k)
      bytes += Array(" \u{2067}z ".utf8) + end
    }
    bytes += Array("tail \u{2069}".utf8)
    for language in ["plaintext", "python"] {
      for jobs in ["1", "2"] {
        let url = try scratch.write("long", bytes)
        let file = try HazardCommand.run(["check", "--jobs", jobs, "--language", language, url.path])
        let stdin = try HazardCommand.run(["check", "--jobs", jobs, "--language", language, "-"], input: Data(bytes))
        XCTAssertEqual(file.status, 1)
        XCTAssertEqual(stdin.status, 1)
        XCTAssertEqual(
          file.text.replacingOccurrences(of: url.path + ":", with: "-:"), stdin.text, "\(language), --jobs \(jobs)")
        // The RLO of line 1, an RLI left open on lines 1–4, the PDI of line 5.
        XCTAssertTrue(stdin.text.hasPrefix("-:1:6: error: U+202E"), stdin.text)
        XCTAssertTrue(stdin.text.contains("-:4:"), stdin.text)
        XCTAssertTrue(stdin.text.contains("-:5:6: warning: U+2069"), stdin.text)
      }
    }
  }

  func testTheHazardCorpusGivesTheSameFindingsBothWays() throws {
    let scratch = try HazardScratch()
    var compared = 0
    var findings = 0
    let others = ["plaintext", "c", "python", "swift", "shellscript", "ruby", "javascript", "rust"]
    for (k, path) in try HazardCorpus.allFiles().enumerated() {
      let bytes = [UInt8](try Data(contentsOf: HazardCorpus.root.appendingPathComponent(path)))
      let languages = [HazardCorpus.languageId(path), others[k % others.count], others[(k + 3) % others.count]]
      for language in Set(languages) {
        let (file, stdin) = try bothWays(bytes, language: language, scratch: scratch)
        XCTAssertEqual(file, stdin, "\(path) as \(language)")
        compared += 1
        findings += stdin.split(separator: "\n").count
      }
    }
    XCTAssertGreaterThan(compared, 2 * (HazardCorpus.hazardFileCount + HazardCorpus.cleanFileCount))
    XCTAssertGreaterThan(findings, HazardCorpus.findingCount)
  }

  /// Lines of code in many languages' syntax — comments, literals over
  /// several lines, interpolations, here-documents — with RTL text, and now
  /// and then a bidi control or an ill-formed byte after many clean lines.
  static func randomFile(_ random: inout SeededGenerator) -> [UInt8] {
    let pieces: [String] = [
      "x = 1", "/*", "*/", "//", "#", "\"", "'", "\"\"\"", "'''", "`", "${a}", "\\(b)", "#{c}", "f\"{d}\"", "<<EOF",
      "EOF", "=begin", "=end", "r#\"", "\"#", "R\"(", ")\"", "%w(", ")", "{", "}", "--", "(*", "*)", "\\",
      "\u{5E9}\u{5DC}\u{5D5}\u{5DD}", "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629}", "name", " ", " ", "\t", ";",
    ]
    let hazards: [[UInt8]] = [
      Array("\u{202E}".utf8), Array("\u{2066}".utf8), Array("\u{2069}".utf8), Array("\u{202C}".utf8),
      Array("\u{200F}".utf8), Array("\u{61C}".utf8), Array("\u{2067}".utf8), Array("\u{202A}".utf8), [0xE2, 0x80],
      [0xFF], [0xD8],
    ]
    let terminators: [[UInt8]] = [[0x0A], [0x0A], [0x0A], [0x0D, 0x0A], [0x0D]]
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 50...400, using: &random) {
      for _ in 0..<Int.random(in: 0...8, using: &random) {
        bytes += Array(pieces.randomElement(using: &random)!.utf8)
        if Int.random(in: 0..<1000, using: &random) < 4 { bytes += hazards.randomElement(using: &random)! }
      }
      bytes += terminators.randomElement(using: &random)!
    }
    if Bool.random(using: &random) { bytes.removeLast() }
    return bytes
  }

  func testRandomFilesGiveTheSameFindingsBothWays() throws {
    let scratch = try HazardScratch()
    var random = SeededGenerator(seed: 0xC1EA_4F11)
    let languages = ["plaintext", "c", "cpp", "python", "swift", "shellscript", "ruby", "javascript", "rust", "go"]
    var withFindings = 0
    for k in 0..<120 {
      let bytes = Self.randomFile(&random)
      let language = languages[k % languages.count]
      let (file, stdin) = try bothWays(bytes, language: language, scratch: scratch)
      XCTAssertEqual(file, stdin, "random file \(k) as \(language)")
      if !stdin.isEmpty { withFindings += 1 }
    }
    // Most files have a finding, some have none.
    XCTAssertGreaterThan(withFindings, 60)
    XCTAssertLessThan(withFindings, 120)
  }

  /// The tokenizer state crosses the clean lines it skips: an RLO in a
  /// comment opened 5,000 lines before is in that comment.
  func testAStateOpenedLongBeforeTheControlIsCarried() throws {
    let scratch = try HazardScratch()
    var text = "int a; /* a comment that goes on\n"
    for k in 0..<5000 { text += "   line \(k) of the comment\n" }
    text += "   \u{202E} still the comment */ int b;\n"
    for k in 0..<5000 { text += "int c\(k);\n" }
    let url = try scratch.write("long.c", Array(text.utf8))
    let result = try HazardCommand.run(["check", url.path])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.lines.map { $0.components(separatedBy: " [").last ?? "" }, ["bidi.inComment]", "bidi.override]"])
    XCTAssertTrue(result.text.hasPrefix(url.path + ":5002:4: "), result.text)
  }
}
