import Foundation
import Markdown
import XCTest

/// Inputs built to make a Markdown reader hang, recurse or go quadratic:
/// each is read and every inline block rendered on a thread with a 512 KB
/// stack (so no recursion that grows with nesting can pass), within a
/// generous time limit that only catches hangs (never a performance
/// threshold). Where cmark-gfm reads the same input in reasonable time, the
/// blocks are compared with it too (cmark-gfm's own pathological cases).
final class HostileInputTests: XCTestCase {
  /// Reads `text`, renders every inline block and returns what
  /// `MarkdownChecks` finds wrong with the blocks and renderings.
  static func readAll(_ text: [UInt8]) -> [String] {
    let source = MarkdownSource(text)
    let read = MarkdownReader().read(source)
    return MarkdownChecks.structureProblems(source, read) + MarkdownChecks.renderingProblems(source, read)
  }

  /// Runs `body` on a thread with a 512 KB stack; fails when it has not
  /// finished after `seconds`.
  func finishes(_ name: String, within seconds: Double = 300, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.stackSize = 512 * 1024
    let started = Date()
    thread.start()
    if done.wait(timeout: .now() + seconds) == .timedOut {
      XCTFail("\(name): still running after \(Int(seconds)) s")
    } else {
      print("hostile input: \(name): \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
    }
  }

  func check(_ name: String, _ text: String, compare: Bool = true) {
    let bytes = Array(text.utf8)
    let outcome = Outcome()
    finishes("\(name) (\(bytes.count) bytes)") {
      outcome.set(Self.readAll(bytes))
    }
    XCTAssertEqual(outcome.problems, [], name)
    if compare {
      let started = Date()
      defer {
        print("hostile input: \(name): comparison \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
      }
      do {
        let source = MarkdownSource(bytes)
        let reference = try CmarkReference.blocks(bytes).filter { $0.kind != "padding_cell" }
        XCTAssertTrue(
          sameBlocks(comparableBlocks(source), reference, lineCount: source.lineCount), "\(name): cmark-gfm differs")
      } catch {
        XCTFail("\(name): \(error)")
      }
    }
  }

  final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = ["did not finish"]
    func set(_ problems: [String]) { lock.withLock { stored = problems } }
    var problems: [String] { lock.withLock { stored } }
  }

  // MARK: Blocks

  func testUnclosedFencesAndHTMLBlocks() {
    let body = String(repeating: "a *b* <c>\n", count: 200_000)
    check("unclosed fence", "```js\n" + body)
    check("unclosed tilde fence in a quote", "> ~~~\n" + String(repeating: "> x\n", count: 100_000))
    check("unclosed HTML block (kind 6)", "<div>\n" + body)
    check("unclosed comment (kind 2)", "<!--\n" + body + "\n\n" + body)
    check("unclosed script (kind 1)", "<script>\n" + body)
  }

  func testTenThousandDeepQuotesAndLists() {
    // cmark-gfm's XML indents each level: at 10,000 levels its output is
    // gigabytes, so those are compared at 300 levels.
    for depth in [300, 10_000] {
      let compare = depth < 1_000
      let quotes = String(repeating: ">", count: depth)
      check(
        "\(depth)-deep block quotes, lazy lines", quotes + " a\n" + String(repeating: "b\n", count: depth),
        compare: compare)
      check(
        "\(depth)-deep block quotes, blank lines",
        quotes + " a\n" + String(repeating: "\n", count: depth) + quotes + " c\n",
        compare: compare)
      let items = String(repeating: "- ", count: depth)
      check(
        "\(depth)-deep list on one line, blank lines", items + "a\n" + String(repeating: "\n", count: depth) + "b\n",
        compare: compare)
      check(
        "\(depth)-deep ordered list with continuation",
        String(repeating: "1. ", count: depth) + "a\n" + String(repeating: " ", count: 3 * depth) + "b\n",
        compare: compare)
      check(
        "\(depth)-deep list of quotes and items",
        String(repeating: "> - ", count: depth / 2) + "a\n" + String(repeating: "\n", count: depth / 2),
        compare: compare)
    }
    check("50,000 nested quotes with spaces", String(repeating: "> ", count: 50_000) + "a\n", compare: false)
    check("1,000-deep list by indentation", (0..<1000).map { String(repeating: "  ", count: $0) + "* a\n" }.joined())
  }

  func testTenMegabyteTableRow() {
    let cells = String(repeating: "x | ", count: 2_600_000)
    check("10 MB table row", "a | b\n--|--\n" + cells + "\n", compare: false)
    check("10 MB table cell", "a | b\n--|--\n" + String(repeating: "\\|y", count: 3_400_000) + "\n", compare: false)
    check("30,000 header candidates", String(repeating: "aaa\rbbb\n-\u{B}\n", count: 30_000))
  }

  // MARK: Inlines

  func testLinkDestinationWithManyBrackets() {
    check(
      "100,000 parentheses in a destination",
      "[a](" + String(repeating: "(", count: 100_000) + "b" + String(repeating: ")", count: 100_000) + ")")
    check(
      "100,000 nested brackets", String(repeating: "[", count: 100_000) + "a" + String(repeating: "]", count: 100_000))
    check("100,000 brackets in an angle destination", "[a](<" + String(repeating: "[", count: 100_000) + ">)")
    check("80,000 times [ (](", String(repeating: "[ (](", count: 80_000))
    check("30,000 unclosed links A", String(repeating: "[a](<b", count: 30_000))
    check("30,000 unclosed links B", String(repeating: "[a](b", count: 30_000))
    check("30,000 unclosed titles", String(repeating: "[a](b \"c", count: 30_000))
    // cmark-gfm takes seconds here (it walks every image opener per link).
    check(
      "30,000 image openers, then links",
      String(repeating: "![", count: 30_000) + String(repeating: "[a](b)", count: 30_000),
      compare: false)
    check(
      "3,000 image openers, then links",
      String(repeating: "![", count: 3_000) + String(repeating: "[a](b)", count: 3_000))
    check("65,000 link closers", String(repeating: "a]", count: 65_000))
    check("65,000 link openers", String(repeating: "[a", count: 65_000))
  }

  func testPathologicalEmphasis() {
    // cmark-gfm's XML writer gives up on this depth: no comparison.
    check(
      "nested strong emph",
      String(repeating: "*a **a ", count: 65_000) + "b" + String(repeating: " a** a*", count: 65_000),
      compare: false)
    check(
      "nested strong emph, 1,000 deep",
      String(repeating: "*a **a ", count: 1_000) + "b" + String(repeating: " a** a*", count: 1_000))
    check("many emph closers", String(repeating: "a_ ", count: 65_000))
    check("many emph openers", String(repeating: "_a ", count: 65_000))
    check("mismatched openers and closers", String(repeating: "*a_ ", count: 50_000))
    check("openers and closers multiple of 3", "a**b" + String(repeating: "c* ", count: 50_000))
    check("link openers and emph closers", String(repeating: "[ a_", count: 50_000))
    check("strikethrough runs", String(repeating: "~a ~~b ~~~c ", count: 40_000))
    check("hard link/emph case", "**x [a*b**c*](d)")
  }

  func testPathologicalCodeHTMLAndAutolinks() {
    check("backticks", (1..<5000).map { "e" + String(repeating: "`", count: $0) }.joined())
    check("unclosed comments", String(repeating: "<!-- a ", count: 50_000))
    check("unclosed quoted attributes", String(repeating: "<a b='", count: 50_000))
    check("unclosed CDATA", String(repeating: "<![CDATA[ ", count: 50_000))
    check("many @", String(repeating: "a@", count: 100_000) + "b.c")
    check("many www", String(repeating: "www.a ", count: 100_000))
    check("U+0000 in input", "abc\u{0}de\u{0}\n\u{0}# \u{0}\n| \u{0} |\n|-|\n")
  }

  // MARK: Encodings

  func testBOMAndLineEndings() throws {
    let lf = "\u{FEFF}# Title\n\n- a\n- b\n\n> q\n> r\n\nx  \ny\\\nz\n"
    check("BOM and LF", lf)
    check("CRLF", lf.replacingOccurrences(of: "\n", with: "\r\n"))
    check("CR", lf.replacingOccurrences(of: "\n", with: "\r"))
    let source = MarkdownSource(lf.replacingOccurrences(of: "\n", with: "\r\n"))
    let blocks = MarkdownReader().read(source).blocks
    XCTAssertEqual(blocks.first?.kind, .heading(level: 1))
    XCTAssertEqual(blocks.first?.pieces, [MarkdownPiece(line: 0, columns: 5..<10)], "after the BOM and `# `")
  }
}
