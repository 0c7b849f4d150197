import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// `bidi-lsp visual` as a user runs it (specification, “The command line”): each line in visual
/// order, from a file or standard input; with `--controls keep
/// --combining-marks resolved` equal to the daemon's `bidi/visualOrder`
/// visualText (its defaults) for the same text.
final class VisualCommandIntegrationTests: XCTestCase {
  static let lines = [
    "abc \u{5E9}\u{5DC}\u{5D5}\u{5DD} (x) [\u{5D0}]",
    "\u{5D0} (\u{5D1}) <\u{5D2}>",
    "\u{5D0} (\u{5D1}) <\u{5D2}> [\u{5D3}] {\u{5D4}}",
    "123 456",
    "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629} \u{661}\u{662}\u{663} x 42",
    "x \u{2067}\u{5D0} [b]\u{2069} y",
    "\u{202E}abc\u{202C} def",
    "😀 \u{5D0}\u{5D1} 😁",
    "",
    "plain ascii",
  ]

  func visual(_ arguments: [String], input: Data = Data(), in directory: URL? = nil) throws -> HazardCommand.Result {
    try HazardCommand.run(["visual"] + arguments, input: input, in: directory)
  }

  func testFileAndStandardInputGiveTheSameLines() throws {
    let scratch = try HazardScratch()
    let text = Self.lines.joined(separator: "\n") + "\n"
    try scratch.write("in.txt", text)
    let fromFile = try visual(["in.txt"], in: scratch.url)
    let fromStdin = try visual(["-"], input: Data(text.utf8))
    let implicitStdin = try visual([], input: Data(text.utf8))
    XCTAssertEqual(fromFile.status, 0)
    XCTAssertEqual(fromFile.errorOutput, "")
    XCTAssertEqual(fromFile.lines.count, Self.lines.count)
    XCTAssertEqual(fromStdin.text, fromFile.text)
    XCTAssertEqual(implicitStdin.text, fromFile.text)
    // Hand-checked lines: an RTL run inside LTR text; RTL text in an RTL
    // paragraph, brackets mirrored.
    XCTAssertEqual(fromFile.lines[0], "abc \u{5DD}\u{5D5}\u{5DC}\u{5E9} (x) [\u{5D0}]")
    XCTAssertEqual(fromFile.lines[1], "<\u{5D2}> (\u{5D1}) \u{5D0}")
  }

  func testEveryLineEqualsBidiVisualOrderInEachDirection() throws {
    let text = Self.lines.joined(separator: "\n") + "\n"
    let session = try TestSession(.bidiLSP)
    let uri = "file:///visual.txt"
    try session.open(uri, languageId: "plaintext", text: text)
    var compared = 0
    for direction in ["auto", "ltr", "rtl"] {
      let output = try visual(
        ["--direction", direction, "--controls", "keep", "--combining-marks", "resolved"], input: Data(text.utf8))
      XCTAssertEqual(output.status, 0, direction)
      XCTAssertEqual(output.lines.count, Self.lines.count, direction)
      // `auto` is UAX #9's default: first strong character, else LTR.
      let options: JSONObject = direction == "auto" ? ["fallback": "ltr"] : ["direction": .string(direction)]
      for (index, line) in output.lines.enumerated() {
        XCTAssertEqual(line, try session.visualText(uri, line: index, options: options), "\(direction) line \(index)")
        compared += 1
      }
    }
    XCTAssertEqual(compared, 3 * Self.lines.count)
  }

  /// Random lines of every kind — Arabic and Hebrew with marks, digits,
  /// brackets, isolates, embeddings, overrides, marks, BN characters —
  /// written by the command's own renderer and by the daemon's visualText.
  func testRandomLinesEqualTheDaemonsVisualText() throws {
    var random = SeededGenerator(seed: 0x5157)
    let alphabet: [String] = [
      "a", "b", "Z", " ", " ", "1", "2", "-", "+", ",", ".", "(", ")", "[", "]", "<", ">", "\u{AB}", "\u{BB}",
      "\u{5D0}", "\u{5E9}", "\u{5B8}", "\u{627}", "\u{644}", "\u{64E}", "\u{661}", "\u{6F1}", "\u{301}",
      "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{202A}", "\u{202B}", "\u{202D}", "\u{202E}", "\u{202C}",
      "\u{200E}", "\u{200F}", "\u{61C}", "\u{200D}", "\u{AD}", "\u{4E2D}", "\u{1F600}", "\u{9}", "\u{2029}",
    ]
    var lines: [String] = []
    for _ in 0..<300 {
      lines.append(
        (0..<Int.random(in: 0...30, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined())
    }
    let text = lines.joined(separator: "\n") + "\n"
    let session = try TestSession(.bidiLSP)
    try session.open("file:///random.txt", languageId: "plaintext", text: text)
    for direction in ["auto", "rtl"] {
      let output = try visual(
        ["--direction", direction, "--controls", "keep", "--combining-marks", "resolved"], input: Data(text.utf8))
      XCTAssertEqual(output.lines.count, lines.count)
      let options: JSONObject = direction == "auto" ? ["fallback": "ltr"] : ["direction": .string(direction)]
      for (index, line) in output.lines.enumerated() where !lines[index].contains("\u{2029}") {
        XCTAssertEqual(
          line, try session.visualText("file:///random.txt", line: index, options: options), "line \(index)")
      }
    }
  }

  func testMirroredBracketsInRTL() throws {
    let result = try visual(["--direction", "rtl"], input: Data((Self.lines[2] + "\n").utf8))
    XCTAssertEqual(result.lines, ["{\u{5D4}} [\u{5D3}] <\u{5D2}> (\u{5D1}) \u{5D0}"])
    // In an LTR paragraph, brackets around RTL text between LTR letters
    // resolve to LTR (UAX #9 N0): not mirrored, not moved.
    let ltr = try visual(["--direction", "ltr"], input: Data("a (\u{5D1}) b\n".utf8))
    XCTAssertEqual(ltr.lines, ["a (\u{5D1}) b"])
  }

  func testCRLFAndCRInputAreWrittenWithLF() throws {
    let lf = try visual([], input: Data((Self.lines.joined(separator: "\n") + "\n").utf8))
    let crlf = try visual([], input: Data((Self.lines.joined(separator: "\r\n") + "\r\n").utf8))
    let cr = try visual([], input: Data((Self.lines.joined(separator: "\r") + "\r").utf8))
    XCTAssertEqual(crlf.text, lf.text)
    XCTAssertEqual(cr.text, lf.text)
    XCTAssertFalse(crlf.text.contains("\r"))
    XCTAssertEqual(lf.lines.count, Self.lines.count)
  }

  func testAParagraphSeparatorSplitsTheLine() throws {
    let line = "foo\u{2029}\u{5D0}\u{5D1} bar"
    let result = try visual([], input: Data((line + "\n").utf8))
    // Two paragraphs, each with its own direction: "foo⁩" LTR, then RTL.
    XCTAssertEqual(result.lines, ["foo\u{2029}bar \u{5D1}\u{5D0}"])
    let session = try TestSession(.bidiLSP)
    try session.open("file:///ps.txt", languageId: "plaintext", text: line)
    XCTAssertEqual(result.lines.first, try session.visualText("file:///ps.txt", line: 0, options: ["fallback": "ltr"]))
  }

  func testEmptyInputAndALastLineWithoutNewline() throws {
    XCTAssertEqual(try visual([], input: Data()).text, "")
    XCTAssertEqual(try visual([], input: Data("abc".utf8)).text, "abc\n")
    XCTAssertEqual(try visual([], input: Data("\n\n".utf8)).text, "\n\n")
  }

  func testBadOptionsAndMissingFilesExitTwo() throws {
    let cases = [
      ["--direction", "up"], ["--direction"], ["--bogus"], ["a.txt", "b.txt"], ["/nonexistent/file.txt"],
      ["--controls", "hide"], ["--controls"], ["--combining-marks", "before"], ["--width", "0"], ["--width", "x"],
      ["--width"], ["--max-paragraph", "-1"],
    ]
    for arguments in cases {
      let result = try visual(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertEqual(result.text, "", "\(arguments)")
      XCTAssertTrue(result.errorOutput.hasPrefix("bidi-lsp visual: "), "\(arguments): \(result.errorOutput)")
    }
    let help = try visual(["--help"])
    XCTAssertEqual(help.status, 0)
    XCTAssertTrue(help.text.contains("bidi-lsp visual"))
    for option in ["--direction", "--combining-marks", "--controls", "--width", "--max-paragraph"] {
      XCTAssertTrue(help.text.contains(option), option)
    }
  }
}
