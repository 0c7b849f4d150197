import BidiTestSupport
import DocumentStore
import XCTest

/// `LineTree(wellFormedUTF8:)`, the build from bytes already validated
/// (didOpen's text from jansson), counts 32 bytes at a time (AVX2) without
/// decoding: it must give every line the same sizes as the validating
/// build, whatever the characters, terminators and alignment.
final class WellFormedBuildTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  /// Pieces of every UTF-8 length, every terminator, U+0000, and bytes that
  /// look like terminators or lead bytes inside multi-byte sequences
  /// (U+010A, U+0D0A, U+F00A: no 0x0A or 0x0D byte in their UTF-8).
  private static let pieces = [
    "a", "abcdefgh", "\u{0}", "ب", "שלום", "\u{202E}", "\u{2067}", "😀", "𝒜", "\u{10FFFF}", "\u{10A}",
    "\u{D0A}", "\u{F00A}", "\u{FFFD}", "é", "\n", "\r", "\r\n", "\n\n", "\r\r", " ",
  ]

  private func assertSameTrees(_ text: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    let validated = try text.withUnsafeBufferPointer { try Tree(utf8: $0) }
    let counted = try text.withUnsafeBufferPointer { try Tree(wellFormedUTF8: $0) }
    try assertSameLines(counted, validated, text, message, file: file, line: line)
  }

  func testEveryPieceAtEveryAlignment() throws {
    for piece in Self.pieces {
      for padding in 0..<33 {
        for repeats in [1, 2, 9, 40] {
          let text = String(repeating: "x", count: padding) + String(repeating: piece, count: repeats) + "yz"
          try assertSameTrees(Array(text.utf8), "\(padding) × x, \(repeats) × \(piece.unicodeScalars.map(\.value))")
        }
      }
    }
  }

  func testRandomDocumentsAndTinyLeaves() throws {
    var rng = SeededGenerator(seed: 0x0BE_5CA7)
    for round in 0..<300 {
      let text = randomText(Self.pieces, upTo: 400, using: &rng)
      try assertSameTrees(Array(text.utf8), "round \(round)")
    }
  }

  func testLongLinesFoldTheirCountsWithoutOverflow() throws {
    // Lines of thousands of words full of continuation bytes and
    // four-byte sequences (the counters fold every 31 words).
    for piece in ["ب", "😀", "ש😀ab", "\u{10FFFF}\u{7FF}\u{FFFF}"] {
      let line = String(repeating: piece, count: 5_000)
      try assertSameTrees(Array((line + "\n" + line + "\r\n" + line).utf8), "\(piece.unicodeScalars.map(\.value))")
    }
  }

  func testEmptyAndTerminatorOnlyDocuments() throws {
    for text in ["", "\n", "\r", "\r\n", "\n\r", "a\n", "\r\n\r\n"] {
      try assertSameTrees(Array(text.utf8), text.debugDescription)
    }
  }
}
