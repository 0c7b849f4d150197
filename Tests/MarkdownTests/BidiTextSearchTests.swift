import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

@testable import Markdown
@testable import MarkdownFormat

/// `BidiTextSearch`, which lets `check` skip a Markdown file that can raise
/// no finding: on generated documents dense in Markdown's constructs, with
/// and without one of the ways of writing a right-to-left letter or a bidi
/// control (as characters or as character references), a document the
/// search finds nothing in gets no finding from the full read; its word
/// test stops exactly where the bytes say; every character reference HTML
/// names that spells such a character is found.
final class BidiTextSearchTests: XCTestCase {
  /// Ways a document can hold what a finding comes from.
  static let triggers = [
    "\u{202E}", "\u{2067}x", "\u{200F}", "\u{200E}", "\u{061C}", "שלום", "مرحبا", "٣٤", "\u{2029}", "\u{1E}",
    "&#x202E;", "&#8238;", "&#X202e;", "&#x2067;", "&rlm;", "&lrm;", "&#1488;", "&#x5D0;", "&#x0661;",
    "&#x2029;", "&#00001575;", "\u{85}", "&#x85;",
  ]
  /// Near misses: no such character once rendered.
  static let nearMisses = [
    "&amp;", "&#65;", "&#0;", "&#x110000;", "&rlm", "&RLM;", "& #x202E;", "&#x202E", "&#;", "é", "€", "😀", "\u{FEFF}",
    "\u{200B}", "«", "&copy;", "&#xD800;", "&NewLine;", "&#10;",
  ]

  /// A document of Markdown's constructs in left-to-right words, with a
  /// trigger now and then.
  static func document(_ random: inout SeededGenerator) -> String {
    let quietTokens = (RandomDocumentTests.tokens + RandomDocumentTests.moreTokens).filter {
      Array($0.utf8).withUnsafeBufferPointer { BidiTextSearch.firstBidiText(in: $0) == nil }
    }
    var lines: [String] = []
    for _ in 0..<Int.random(in: 1...8, using: &random) {
      var line = RandomDocumentTests.prefixes.randomElement(using: &random)!
      if Int.random(in: 0..<4, using: &random) == 0 {
        line += RandomDocumentTests.wholeLines.randomElement(using: &random)!
      } else {
        for _ in 0..<Int.random(in: 1...9, using: &random) {
          switch Int.random(in: 0..<40, using: &random) {
          case 0: line += triggers.randomElement(using: &random)!
          case 1, 2: line += nearMisses.randomElement(using: &random)!
          case 3...8:
            let word = MarkdownFindingsLaneTests.leftToRight.randomElement(using: &random)!
            line += MarkdownFindingsLaneTests.forms.randomElement(using: &random)!.replacingOccurrences(
              of: "%", with: word)
          default: line += quietTokens.randomElement(using: &random)!
          }
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + (Bool.random(using: &random) ? "\n" : "")
  }

  static func findings(_ text: String) -> [Finding] {
    let lines = TextLines(text)
    let format = MarkdownFormat()
    let read = WholeRead(lines, format: format, findingsOnly: true)
    return FindingsEngine(format: format, spelling: read.spelling).findings(in: lines, read: read) { _ in nil }
  }

  static func search(_ text: String) -> Int? {
    Array(text.utf8).withUnsafeBufferPointer { BidiTextSearch.firstBidiText(in: $0) }
  }

  /// A document the search finds nothing in raises no finding; many do
  /// raise findings, and many are quiet: both sides are tried.
  func testDocumentsWithoutBidiTextRaiseNoFinding() {
    var random = SeededGenerator(seed: 4_404)
    var quiet = 0
    var withFindings = 0
    for _ in 0..<4_000 {
      let text = Self.document(&random)
      let found = Self.findings(text)
      if !found.isEmpty { withFindings += 1 }
      guard Self.search(text) == nil else { continue }
      quiet += 1
      XCTAssertEqual(found, [], text.debugDescription)
    }
    print("bidi text search: \(quiet) quiet documents, \(withFindings) with findings")
    XCTAssertGreaterThan(quiet, 1_500)
    XCTAssertGreaterThan(withFindings, 300)
  }

  /// Each trigger is found where it starts, after quiet text of every
  /// length around the word size; each near miss is not.
  func testTriggersAreFoundAndNearMissesAreNot() {
    for pad in 0..<20 {
      let before = String(repeating: "ab *c* [d](/e)\n", count: 3) + String(repeating: "x", count: pad)
      for trigger in Self.triggers {
        XCTAssertEqual(Self.search(before + trigger + " tail"), before.utf8.count, trigger.debugDescription)
      }
      for miss in Self.nearMisses {
        XCTAssertNil(Self.search(before + miss + " tail"), miss.debugDescription)
      }
    }
    XCTAssertEqual(Array("ab\u{FF}cd".utf8).count, 6)
    let broken: [UInt8] = Array("abcdefghij".utf8) + [0xD8] + Array("klm".utf8)
    XCTAssertEqual(broken.withUnsafeBufferPointer { BidiTextSearch.firstBidiText(in: $0) }, 10)
  }

  /// The word test flags exactly the first byte past ASCII, `&` or
  /// U+001C…U+001E of a word (the bytes after it need not be exact).
  func testWordStopsAreExactUpToTheFirst() {
    var random = SeededGenerator(seed: 77)
    let bytes: [UInt8] = [
      0x00, 0x09, 0x0A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x25, 0x26, 0x27, 0x41, 0x7F, 0x80, 0xD8, 0xE2, 0xFF,
    ]
    for _ in 0..<200_000 {
      var word: UInt64 = 0
      var expected = 8
      for k in 0..<8 {
        // Mostly plain ASCII letters, so that the first stop falls anywhere.
        let byte =
          Int.random(in: 0..<4, using: &random) == 0
          ? bytes.randomElement(using: &random)! : UInt8.random(in: 0x20...0x7E, using: &random)
        word |= UInt64(byte) << (8 * UInt64(k))
        let stops = byte >= 0x80 || byte == 0x26 || (0x1C...0x1E).contains(byte)
        if stops && expected == 8 { expected = k }
      }
      let flags = BidiTextSearch.stops(word)
      XCTAssertEqual(flags == 0 ? 8 : flags.trailingZeroBitCount / 8, expected, String(word, radix: 16))
    }
  }

  /// Every named character reference of HTML (Python's
  /// `html.entities.html5`, read independently of the project's table)
  /// whose characters include one a finding can come from is found as
  /// `&name;`, and the others are not: the search decodes them as
  /// rendering does.
  func testEveryNamedReferenceThatSpellsBidiTextIsFound() throws {
    let script = """
      import html.entities
      for name, text in sorted(html.entities.html5.items()):
          if name.endswith(";"):
              print(name[:-1], " ".join("%X" % ord(c) for c in text))
      """
    let result = try TestClient.run("/usr/bin/env", arguments: ["python3", "-c", script])
    XCTAssertEqual(result.status, 0)
    var names = 0
    var spelling: [String] = []
    for line in result.standardOutput.split(separator: "\n") {
      let fields = line.split(separator: " ")
      let points = fields.dropFirst().map { UInt32($0, radix: 16)! }
      let spells = points.contains { BidiTextSearch.isBidiScalar($0) }
      if spells { spelling.append(String(fields[0])) }
      names += 1
      let text = Array("x &\(fields[0]); y".utf8)
      let found = text.withUnsafeBufferPointer { BidiTextSearch.firstBidiText(in: $0) }
      XCTAssertEqual(found, spells ? 2 : nil, String(line))
    }
    XCTAssertEqual(names, 2_125)
    XCTAssertEqual(spelling.sorted(), ["lrm", "rlm"])
  }
}
