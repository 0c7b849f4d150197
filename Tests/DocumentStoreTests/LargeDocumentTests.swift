import BidiTestSupport
import DocumentStore
import UnicodeBidi
import XCTest

/// Big documents: built in one pass, then edited in place.
final class LargeDocumentTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  func lineText(_ i: Int) -> String {
    switch i % 5 {
    case 0: return "السطر رقم \(i) مع English"
    case 1: return "שורה \(i) 😀"
    default: return "line \(i): the quick brown fox"
    }
  }

  func testMillionLineDocumentBuildsAndEdits() throws {
    let count = 1_000_000
    var bytes: [UInt8] = []
    var lines: [[UInt8]] = []
    lines.reserveCapacity(count + 1)
    for i in 0..<count {
      let line = Array(lineText(i).utf8)
      lines.append(line)
      bytes.append(contentsOf: line)
      bytes.append(contentsOf: i % 3 == 0 ? [0x0D, 0x0A] : [0x0A])
    }
    lines.append([])
    var tree = try bytes.withUnsafeBufferPointer { try Tree(utf8: $0) }
    XCTAssertEqual(tree.lineCount, count + 1)
    XCTAssertEqual(tree.utf8Count, bytes.count)
    XCTAssertEqual(tree.invariantViolations(), [])
    XCTAssertEqual(try tree.line(765_432).content, lineText(765_432))

    var rng = SeededGenerator(seed: 42)
    for step in 0..<2_000 {
      let line = Int.random(in: 0..<(lines.count - 3), using: &rng)
      if step % 40 == 0 {
        // Lines line...line+2 become "x\ny": one line fewer.
        try tree.replace(LSPRange(line, 0, line + 2, 99), with: "x\ny", in: .utf16)
        lines.replaceSubrange(line...(line + 2), with: [Array("x".utf8), Array("y".utf8)])
      } else {
        let text = ["ب", "😀", "z", ""][step % 4]
        let old = String(decoding: lines[line], as: UTF8.self)
        let scalars = Array(old.unicodeScalars)
        let at = Int.random(in: 0...scalars.count, using: &rng)
        let cut = min(at + 1, scalars.count)
        try tree.replace(LSPRange(line, at, line, cut), with: text, in: .utf32)
        var new = String.UnicodeScalarView(scalars[..<at])
        new.append(contentsOf: text.unicodeScalars)
        new.append(contentsOf: scalars[cut...])
        lines[line] = Array(String(new).utf8)
      }
      XCTAssertEqual(try tree.line(line).withUTF8 { Array($0) }, lines[line])
    }
    XCTAssertEqual(tree.lineCount, lines.count)
    var mismatches = 0
    tree.forEachLine(in: 0..<tree.lineCount) { index, line in
      if line.withUTF8({ !$0.elementsEqual(lines[index]) }) { mismatches += 1 }
    }
    XCTAssertEqual(mismatches, 0)
    XCTAssertEqual(tree.invariantViolations(), [])
  }

  func testTenMegabyteLineStaysOneContiguousLine() throws {
    let unit = "abc عربي 😀 "
    let line = String(repeating: unit, count: 10_000_000 / unit.utf8.count)
    var tree = try Tree("first\n" + line + "\nlast")
    XCTAssertEqual(tree.lineCount, 3)
    let long = try tree.line(1)
    XCTAssertEqual(long.utf8Count, line.utf8.count)
    XCTAssertEqual(long.withUTF8 { $0.count }, line.utf8.count)
    let units = line.utf16.count
    XCTAssertEqual(long.utf16Count, units)
    XCTAssertEqual(
      try tree.resolve(LSPPosition(line: 1, character: units - 1), in: .utf16).column, line.utf8.count - 1)
    XCTAssertEqual(try tree.position(of: SourcePosition(line: 1, column: line.utf8.count), in: .utf16).character, units)

    try tree.replace(LSPRange(1, units / 2, 1, units / 2), with: "\u{2067}X\u{2069}", in: .utf16)
    try tree.replace(LSPRange(1, units + 3, 2, 0), with: "!", in: .utf16)
    XCTAssertEqual(tree.lineCount, 2)
    XCTAssertEqual(try tree.line(1).utf16Count, units + 3 + 1 + 4)
    XCTAssertEqual(try tree.line(1).content.hasSuffix(" !last"), true)
    XCTAssertEqual(tree.invariantViolations(), [])
  }
}
