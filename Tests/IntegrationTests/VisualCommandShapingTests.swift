import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// `bidi-lsp visual --shape` (specification, “The command line”) and the
/// daemon's `visualOrder` with `shape: true`, over the built binary.
///
/// `Shaping/sample.txt` is 300 lines of Arabic, Persian and Urdu words (with
/// harakat, lam-alef, tatweel, ZWJ and ZWNJ inside words), English, Hebrew,
/// numbers, brackets, isolates and LRM/RLM — characters of Unicode 10 or
/// earlier, which FriBidi 1.0.8 knows — and `Shaping/sample.fribidi.txt` is
/// what `fribidi --nopad --nobreak --clean sample.txt` printed for it.
final class VisualCommandShapingTests: XCTestCase {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Shaping")
  static let fribidi = "/usr/bin/fribidi"
  static let sampleLines = 300

  func visual(_ arguments: [String], input: Data = Data()) throws -> HazardCommand.Result {
    try HazardCommand.run(["visual"] + arguments, input: input)
  }

  func testSampleEqualsFriBidisShaping() throws {
    let sample = Self.folder.appendingPathComponent("sample.txt").path
    let expected = try String(contentsOf: Self.folder.appendingPathComponent("sample.fribidi.txt"), encoding: .utf8)
    let result = try visual(["--shape", sample])
    XCTAssertEqual(result.status, 0, result.errorOutput)
    let ours = result.text.components(separatedBy: "\n")
    let theirs = expected.components(separatedBy: "\n")
    XCTAssertEqual(ours.count, Self.sampleLines + 1)
    XCTAssertEqual(theirs.count, Self.sampleLines + 1)
    var equal = 0
    for (k, (a, b)) in zip(ours, theirs).enumerated() {
      if a == b {
        equal += 1
      } else if equal + 3 > k {
        XCTFail("line \(k + 1): ours \(a.debugDescription), fribidi \(b.debugDescription)")
      }
    }
    XCTAssertEqual(equal, Self.sampleLines + 1, "lines equal to fribidi's")
    // The sample exercises what it is for: most lines change when shaped.
    let plain = try visual(["--no-shape", sample]).text.components(separatedBy: "\n")
    XCTAssertGreaterThan(zip(plain, ours).filter { $0 != $1 }.count, 250)
    // And the committed output is still fribidi's.
    if FileManager.default.isExecutableFile(atPath: Self.fribidi) {
      let now = try TestClient.run(Self.fribidi, arguments: ["--nopad", "--nobreak", "--clean", sample])
      XCTAssertEqual(now.standardOutput, expected, "fribidi's output changed: regenerate Shaping/sample.fribidi.txt")
    }
  }

  func testWhenShapingApplies() throws {
    let line = Data("\u{644}\u{627} \u{628}\u{628}\n".utf8)
    let shaped = "\u{FE90}\u{FE91} \u{FEFB}"
    let unshaped = "\u{628}\u{628} \u{627}\u{644}"
    XCTAssertEqual(try visual(["--shape"], input: line).lines, [shaped])
    XCTAssertEqual(try visual(["--shape=always"], input: line).lines, [shaped])
    XCTAssertEqual(try visual(["--shape=never"], input: line).lines, [unshaped])
    XCTAssertEqual(try visual(["--no-shape"], input: line).lines, [unshaped])
    // auto (the default): standard output is a pipe here, so no shaping.
    XCTAssertEqual(try visual([], input: line).lines, [unshaped])
    XCTAssertEqual(try visual(["--shape=auto"], input: line).lines, [unshaped])
    // The last of several wins; a value only after '=': `--shape FILE`
    // reads FILE.
    XCTAssertEqual(try visual(["--shape", "--no-shape"], input: line).lines, [unshaped])
    let scratch = try HazardScratch()
    try scratch.write("in.txt", String(decoding: line, as: UTF8.self))
    XCTAssertEqual(try HazardCommand.run(["visual", "--shape", "in.txt"], in: scratch.url).lines, [shaped])
    for bad in [["--shape=yes"], ["--no-shape=always"], ["--shape="]] {
      let result = try visual(bad, input: line)
      XCTAssertEqual(result.status, 2, "\(bad)")
      XCTAssert(result.errorOutput.contains("shape"), result.errorOutput)
    }
    XCTAssert(try visual(["--help"]).text.contains("--shape[=auto|always|never]"))
  }

  func testAutoShapesOnATerminal() throws {
    // script(1) runs the command with a pseudo-terminal as its output.
    let script = "/usr/bin/script"
    guard FileManager.default.isExecutableFile(atPath: script) else { throw XCTSkip("no script(1)") }
    let binary = try XCTUnwrap(TestClient.builtProduct(), "build bidi-lsp first")
    let scratch = try HazardScratch()
    try scratch.write("in.txt", "\u{644}\u{627} \u{628}\u{628}\n")
    let path = scratch.url.appendingPathComponent("in.txt").path
    for (arguments, expected) in [
      ("", "\u{FE90}\u{FE91} \u{FEFB}"), (" --no-shape", "\u{628}\u{628} \u{627}\u{644}"),
    ] {
      let result = try TestClient.run(script, arguments: ["-qec", "\(binary) visual\(arguments) \(path)", "/dev/null"])
      XCTAssertEqual(result.status, 0, result.standardError)
      // The terminal writes CR LF.
      XCTAssertEqual(result.standardOutput.replacingOccurrences(of: "\r\n", with: "\n"), expected + "\n", arguments)
    }
  }

  /// `visual --shape` and the daemon's visualText with `shape: true` (and
  /// the command's other defaults) agree line for line.
  func testShapeEqualsTheDaemonsVisualText() throws {
    var random = SeededGenerator(seed: 0x5A9E)
    let alphabet: [String] = [
      "\u{628}", "\u{644}", "\u{627}", "\u{622}", "\u{648}", "\u{621}", "\u{640}", "\u{64E}", "\u{651}", "\u{6CC}",
      "\u{67E}", "\u{200D}", "\u{200C}", " ", " ", "a", "1", "\u{661}", "(", ")", "\u{5D0}", "\u{2067}", "\u{2066}",
      "\u{2069}", "\u{202B}", "\u{202A}", "\u{202C}", "\u{202E}", "\u{200E}", "\u{200F}", "\u{8D3}", "\u{10EC3}",
    ]
    var lines: [String] = []
    for _ in 0..<300 {
      lines.append(
        (0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined())
    }
    let text = lines.joined(separator: "\n") + "\n"
    let output = try visual(["--shape"], input: Data(text.utf8))
    XCTAssertEqual(output.lines.count, lines.count)
    let session = try TestSession(.bidiLSP)
    try session.open("file:///shape.txt", languageId: "plaintext", text: text)
    let options: JSONObject = ["fallback": "ltr", "shape": true, "controls": "strip", "combiningMarks": "afterBase"]
    var shapedLines = 0
    for (index, line) in output.lines.enumerated() {
      XCTAssertEqual(line, try session.visualText("file:///shape.txt", line: index, options: options), "line \(index)")
      if line.unicodeScalars.contains(where: { $0.value >= 0xFB50 }) { shapedLines += 1 }
    }
    XCTAssertGreaterThan(shapedLines, 200)
  }
}
