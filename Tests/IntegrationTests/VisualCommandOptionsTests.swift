import BidiTestSupport
import Foundation
import XCTest

/// `bidi-lsp visual --combining-marks`, `--controls` and `--width`
/// (Protocol/specification.md, “The command line”): hand-checked lines, and
/// the output compared with GNU FriBidi's `fribidi` tool (Debian
/// `libfribidi-bin`) on random lines of the kinds where FriBidi 1.0.8
/// implements the current UAX #9.
final class VisualCommandOptionsTests: XCTestCase {
  /// שָלוֹם: shin qamats lamed vav holam final-mem.
  static let shalom = "\u{5E9}\u{5B8}\u{5DC}\u{5D5}\u{5B9}\u{5DD}"

  func visual(_ arguments: [String], _ text: String) throws -> HazardCommand.Result {
    try HazardCommand.run(["visual"] + arguments, input: Data(text.utf8))
  }

  func testCombiningMarksFollowTheirLetterByDefault() throws {
    // L3: each mark after its base; L2 alone puts it before (to the left).
    let afterBase = "\u{5DD}\u{5D5}\u{5B9}\u{5DC}\u{5E9}\u{5B8}"
    let resolved = "\u{5DD}\u{5B9}\u{5D5}\u{5DC}\u{5B8}\u{5E9}"
    XCTAssertEqual(try visual([], Self.shalom + "\n").lines, [afterBase])
    XCTAssertEqual(try visual(["--combining-marks", "after-base"], Self.shalom + "\n").lines, [afterBase])
    XCTAssertEqual(try visual(["--combining-marks", "resolved"], Self.shalom + "\n").lines, [resolved])
    // In a left-to-right run marks already follow their letter.
    XCTAssertEqual(try visual([], "e\u{301}x\n").lines, ["e\u{301}x"])
  }

  func testControlsKeepStripAndNames() throws {
    let line = "abc \u{200F}xyz \u{2067}\u{5D0}\u{5D1}\u{2069} \u{202E}def\u{202C} end"
    XCTAssertEqual(try visual([], line).lines, ["abc xyz \u{5D1}\u{5D0} fed end"])
    XCTAssertEqual(try visual(["--controls", "strip"], line).lines, ["abc xyz \u{5D1}\u{5D0} fed end"])
    // keep: X9 drops RLO and PDF; the isolates and the mark stay.
    XCTAssertEqual(
      try visual(["--controls", "keep"], line).lines, ["abc \u{200F}xyz \u{2067}\u{5D1}\u{5D0}\u{2069} fed end"])
    // names: every control where the line shows it; X9-removed ones join
    // the run of the character before them (RLO the space's, PDF the
    // reversed run's).
    XCTAssertEqual(
      try visual(["--controls", "names"], line).lines, ["abc [RLM]xyz [RLI]\u{5D1}\u{5D0}[PDI] [RLO][PDF]fed end"])
    XCTAssertEqual(
      try visual(["--controls=names"], "x\u{200E}a\u{2066}b\u{2069}\u{61C}\n").lines, ["x[LRM]a[LRI]b[PDI][ALM]"])
    // Class BN (zero width joiner, soft hyphen) is removed by X9 in every mode.
    XCTAssertEqual(try visual(["--controls", "keep"], "a\u{200D}b\u{AD}c\n").lines, ["abc"])
  }

  func testWidthRightAlignsRightToLeftLines() throws {
    let text =
      [Self.shalom, "plain", "\u{5D0} \u{4E2D}\u{6587}", "\u{5D0}\u{5D1}\u{5D2}\u{5D3}\u{5D4}\u{5D5}", ""]
      .joined(separator: "\n") + "\n"
    let result = try visual(["--width", "5"], text)
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(
      result.lines,
      [
        // Four letters and two marks (no column): one space.
        " \u{5DD}\u{5D5}\u{5B9}\u{5DC}\u{5E9}\u{5B8}",
        // Left to right: never padded.
        "plain",
        // Wide characters take two columns: 2 + 2 + 1 = 5.
        "\u{4E2D}\u{6587} \u{5D0}",
        // Wider than 5: as it is.
        "\u{5D5}\u{5D4}\u{5D3}\u{5D2}\u{5D1}\u{5D0}",
        "",
      ])
    XCTAssertEqual(try visual(["--width=8", "--direction", "rtl"], "ab\n").lines, ["      ab"])
    XCTAssertEqual(try visual(["--width", "8", "--controls", "names"], "\u{200F}\u{5D0}\n").lines, ["  \u{5D0}[RLM]"])
    // A line that shows nothing is not padded, as in fribidi.
    XCTAssertEqual(try visual(["--width", "8"], "\u{200F}\n").lines, [""])
    // Without --width nothing is padded.
    XCTAssertEqual(try visual([], Self.shalom).lines, ["\u{5DD}\u{5D5}\u{5B9}\u{5DC}\u{5E9}\u{5B8}"])
  }

  // MARK: Against fribidi

  static let fribidi = "/usr/bin/fribidi"

  func runFriBidi(_ arguments: [String], _ text: String) throws -> String {
    guard FileManager.default.isExecutableFile(atPath: Self.fribidi) else {
      throw XCTSkip("fribidi is not installed (scripts/install-deps.sh installs libfribidi-bin)")
    }
    let result = try TestClient.run(Self.fribidi, arguments: arguments, input: Array(text.utf8))
    XCTAssertEqual(result.status, 0, result.standardError)
    return result.standardOutput
  }

  /// Random lines of Latin and Hebrew letters, each followed by combining
  /// marks at times, digits, neutrals and brackets, LRM and RLM, CJK and an
  /// emoji (and tabs unless `forWidth`): no Arabic (fribidi shapes it into
  /// presentation forms), no isolates or embeddings (FriBidi 1.0.8 resolves
  /// some of their cases by an older UAX #9).
  static func randomLines(count: Int, seed: UInt64, forWidth: Bool = false) -> String {
    var random = SeededGenerator(seed: seed)
    let letters: [Character] = ["a", "b", "c", "X", "Y", "\u{5D0}", "\u{5D1}", "\u{5E9}", "\u{5DD}"]
    let marks: [Character] = ["\u{5B8}", "\u{5B9}", "\u{301}"]
    var others: [Character] = Array("0123456789 ,.-+$%()[]<>{}:/") + ["\u{200E}", "\u{200F}", "\u{5BE}"]
    if !forWidth { others += ["\t", "\u{4E2D}", "\u{1F600}"] }
    var lines: [String] = []
    for _ in 0..<count {
      var line = ""
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        if Int.random(in: 0..<100, using: &random) < 45 {
          line.append(letters.randomElement(using: &random)!)
          while Int.random(in: 0..<100, using: &random) < 30 { line.append(marks.randomElement(using: &random)!) }
        } else {
          line.append(others.randomElement(using: &random)!)
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  func testStripEqualsFriBidiClean() throws {
    let text = Self.randomLines(count: 2000, seed: 0xF81B)
    for (ours, theirs) in [
      ([String](), [String]()), (["--direction", "ltr"], ["--ltr"]), (["--direction", "rtl"], ["--rtl"]),
    ] {
      let expected = try runFriBidi(["--nopad", "--nobreak", "--clean"] + theirs, text)
      let result = try visual(["--controls", "strip"] + ours, text)
      XCTAssertEqual(result.status, 0)
      assertSameLines(result.text, expected, "\(ours)")
    }
  }

  func testKeepEqualsFriBidiWithoutEmbeddings() throws {
    // fribidi keeps every control; ours drops those X9 removes, of which
    // these lines have none.
    let text = Self.randomLines(count: 2000, seed: 0x4EE9)
    let expected = try runFriBidi(["--nopad", "--nobreak"], text)
    let result = try visual(["--controls", "keep"], text)
    assertSameLines(result.text, expected, "keep")
  }

  func testWidthEqualsFriBidiPadding() throws {
    // fribidi counts characters other than combining marks; without wide
    // characters and tabs that is the terminal's count too.
    let text = Self.randomLines(count: 1000, seed: 0x3D7, forWidth: true)
    let expected = try runFriBidi(["--width", "30", "--nobreak", "--clean"], text)
    let result = try visual(["--width", "30"], text)
    assertSameLines(result.text, expected, "width")
  }

  func testIsolatesWhereFriBidiAgrees() throws {
    let lines = [
      "abc \u{2067}\u{5D0}\u{5D1} 12\u{2069} def",
      "\u{5D0} \u{2066}abc (x)\u{2069} \u{5D1}",
      "\u{2068}\u{5E9}\u{5DC}\u{5D5}\u{5DD}\u{2069} says hi",
      "x \u{2067}\u{5D0} [b]\u{2069} y",
    ]
    let text = lines.joined(separator: "\n") + "\n"
    assertSameLines(
      try visual([], text).text, try runFriBidi(["--nopad", "--nobreak", "--clean"], text), "isolates",
      minimumLines: 4)
    assertSameLines(
      try visual(["--controls", "keep"], text).text, try runFriBidi(["--nopad", "--nobreak"], text), "isolates kept",
      minimumLines: 4)
  }

  func assertSameLines(
    _ ours: String, _ theirs: String, _ label: String, minimumLines: Int = 100, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let a = ours.components(separatedBy: "\n")
    let b = theirs.components(separatedBy: "\n")
    XCTAssertEqual(a.count, b.count, label, file: file, line: line)
    var differences = 0
    for (k, (x, y)) in zip(a, b).enumerated() where x != y {
      differences += 1
      if differences <= 3 {
        XCTFail(
          "\(label) line \(k + 1): ours \(x.debugDescription), fribidi \(y.debugDescription)", file: file, line: line)
      }
    }
    XCTAssertEqual(differences, 0, label, file: file, line: line)
    XCTAssertGreaterThan(a.count, minimumLines, label, file: file, line: line)
  }
}
