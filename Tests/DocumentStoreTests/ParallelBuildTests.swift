import BidiTestSupport
import DocumentStore
import XCTest

/// A large new document is split into lines and packed on two threads
/// (`LineTreeTuning.parallelBuildBytes`): the tree must hold the same lines
/// with the same sizes as the build on one thread, whatever falls at the
/// cut (a line feed after the middle, `\r\n`, a lone `\r`, none at all).
final class ParallelBuildTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  private static let pieces = [
    "a", "abcdefgh", "\u{0}", "ب", "שלום", "😀", "\u{10A}", "\u{D0A}", "é", "\n", "\r", "\r\n", "\n\n", "\r\r", " ",
  ]

  private let oneThread = LineTreeTuning(maxLeafBytes: 64, maxChildren: 4, parallelBuildBytes: .max)
  private let twoThreads = LineTreeTuning(maxLeafBytes: 64, maxChildren: 4, parallelBuildBytes: 2)

  private func assertSameTrees(_ text: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    for wellFormed in [false, true] {
      let serial = try text.withUnsafeBufferPointer { try Tree(utf8: $0, wellFormed: wellFormed, tuning: oneThread) }
      let parallel = try text.withUnsafeBufferPointer {
        try Tree(utf8: $0, wellFormed: wellFormed, tuning: twoThreads)
      }
      try assertSameLines(parallel, serial, text, message, file: file, line: line)
    }
  }

  func testRandomDocumentsCutAtEveryKindOfLine() throws {
    var rng = SeededGenerator(seed: 0x9A4A_11E1)
    for round in 0..<400 {
      let text = randomText(Self.pieces, upTo: 300, using: &rng)
      try assertSameTrees(Array(text.utf8), "round \(round)")
    }
  }

  func testCutsAroundTheMiddle() throws {
    // A line feed just before, at, just after the middle, or none after it.
    for text in [
      "abc\ndef", "ab\ncdef", "abcd\nef", "abcdef\n", "a\r\nb\r\ncd", "abc\r\ndef", "abcde\r\n", "ab\rcd\ref",
      "\n\n\n\n", "\r\n\r\n", "x\n", "\n", "", "ab\r\n\r", "ש😀\nב\r\nx",
    ] {
      try assertSameTrees(Array(text.utf8), text.debugDescription)
    }
  }

  func testTheCutIsJustPastALineFeedAfterTheMiddle() {
    func cut(_ text: String) -> Int? {
      Array(text.utf8).withUnsafeBufferPointer { LeafBuild.splitPoint($0) }
    }
    XCTAssertEqual(cut("abcd\nefgh"), 5)
    XCTAssertEqual(cut("ab\ncdefgh"), nil)
    XCTAssertEqual(cut("abcdefg\n"), nil)
    XCTAssertEqual(cut("ab\ncd\nef\ngh"), 6)
    XCTAssertEqual(cut("abcd\r\nefg"), 6)
    XCTAssertEqual(cut("abc\r\ndefgh"), nil)
  }

  func testInvalidUTF8IsRefusedInEitherHalf() {
    let good = Array(String(repeating: "line ب\n", count: 40).utf8)
    for position in [3, good.count / 2 - 1, good.count / 2 + 9, good.count - 2] {
      var bad = good
      bad[position] = 0xFF
      XCTAssertThrowsError(
        try bad.withUnsafeBufferPointer { try Tree(utf8: $0, wellFormed: false, tuning: twoThreads) }
      ) {
        XCTAssertEqual($0 as? DocumentError, .invalidUTF8, "\(position)")
      }
    }
  }
}

/// Up to `count` pieces picked at random, one after the other.
func randomText(_ pieces: [String], upTo count: Int, using rng: inout SeededGenerator) -> String {
  var text = ""
  for _ in 0..<Int.random(in: 0...count, using: &rng) {
    text += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
  }
  return text
}

/// Fails unless `tree` holds `text` with the lines (sizes, terminators,
/// content) of `reference`, and keeps its invariants.
func assertSameLines(
  _ tree: LineTree<NoLineAnalysis>, _ reference: LineTree<NoLineAnalysis>, _ text: [UInt8], _ message: String,
  file: StaticString, line: UInt
) throws {
  XCTAssertEqual(tree.metrics, reference.metrics, message, file: file, line: line)
  XCTAssertEqual(tree.utf8Bytes, text, message, file: file, line: line)
  XCTAssertEqual(tree.invariantViolations(), [], message, file: file, line: line)
  for index in 0..<reference.lineCount {
    let a = try reference.line(index)
    let b = try tree.line(index)
    guard
      a.utf8Count == b.utf8Count && a.utf16Count == b.utf16Count && a.utf32Count == b.utf32Count
        && a.terminator == b.terminator && a.content == b.content
    else {
      return XCTFail("\(message): line \(index) differs", file: file, line: line)
    }
  }
}
