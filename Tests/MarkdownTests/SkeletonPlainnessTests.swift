import BidiTestSupport
import XCTest

@testable import Markdown
@testable import MarkdownFormat

/// `check`'s one pass over a block's content (`readSkeleton`, which the
/// lane's verdict feeds to the word scan) against the passes it replaced:
/// `MarkdownEntries.plainLength`'s scan (whether the rendered text is the
/// pieces joined by one space) and `joinedPieces` (that text). On
/// generated documents of words of one to four bytes, NUL, carriage
/// returns, tabs, code spans, links, references, emphasis, autolinks and
/// every byte `plainLength` stops at, in quotes, lists and tables.
final class SkeletonPlainnessTests: XCTestCase {
  static let words = [
    "مرحبا", "שלום", "Apple", "npm", "é", "€", "文字", "😀", "𝐀b", "x1", "a:b", "a@b", "x]", "[y", "a!", "![i](/j)",
    "`c`", "` c `", "[l](/u)", "[l][ref]", "[ref]", "*e*", "_e_", "~~s~~", "<b>", "&amp;", "\\*", "w.w", "www.a.b",
    "a://b", "\0", "a\0b", "`\0`", "\r", "\t", "a\tb", "\u{85}", "wwx.", "ww", "!", "#", "|", "-",
  ]
  static let prefixes = ["", "", "", "# ", "> ", "- ", "1. ", "| ", "    ", "\t", " ", "  "]

  static func document(_ random: inout SeededGenerator) -> String {
    var out: [String] = []
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      var lines: [String] = []
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        var line = lines.isEmpty ? prefixes.randomElement(using: &random)! : ""
        for index in 0..<Int.random(in: 1...6, using: &random) {
          if index > 0 { line += Int.random(in: 0..<8, using: &random) == 0 ? "  " : " " }
          // Mostly plain words, so that plain blocks are many.
          line +=
            Int.random(in: 0..<5, using: &random) == 0
            ? words.randomElement(using: &random)! : words[Int.random(in: 0..<10, using: &random)]
        }
        if Int.random(in: 0..<10, using: &random) == 0 { line += " " }
        lines.append(line)
      }
      out.append(lines.joined(separator: Int.random(in: 0..<10, using: &random) == 0 ? "\r\n" : "\n"))
      out.append(Int.random(in: 0..<6, using: &random) == 0 ? "[ref]: /target\n" : "")
    }
    return out.joined(separator: "\n")
  }

  /// The skeleton says a block is plain exactly when `plainLength` does,
  /// and is then the pieces joined and the rendered text.
  func testSkeletonIsPlainWherePlainLengthIs() {
    var random = SeededGenerator(seed: 3_808)
    var plain = 0
    var notPlain = 0
    for round in 0..<8_000 {
      let text =
        round % 3 == 2 ? MarkdownFindingsLaneTests.document(&random) : Self.document(&random)
      let source = MarkdownSource(text)
      let blocks = MarkdownReader().read(source, startsDocument: true)
      let renderer = MarkdownInlineRenderer(source: source, definitions: blocks.definitions)
      for block in blocks.blocks where block.kind.hasInlineContent {
        let name = "\(text.debugDescription) block \(block.lines)"
        let skeleton = renderer.readSkeleton(block)
        let expected = MarkdownEntries.plainLength(block, source: source) != nil
        XCTAssertEqual(skeleton?.isPlain ?? false, expected, name)
        guard expected else {
          if skeleton != nil { notPlain += 1 }
          continue
        }
        plain += 1
        XCTAssertEqual(skeleton?.text, renderer.joinedPieces(block), name)
        XCTAssertEqual(skeleton?.text, renderer.render(block).text, name)
      }
    }
    print("skeleton plainness: \(plain) plain blocks, \(notPlain) read and not plain")
    XCTAssertGreaterThan(plain, 5_000)
    XCTAssertGreaterThan(notPlain, 5_000)
  }
}

/// The skeleton scan's eight-byte step (`SkeletonScan.skips`) against its
/// table: every byte in every lane among letters, and random words.
final class SkeletonWordStepTests: XCTestCase {
  static func skippable(_ byte: UInt8) -> Bool {
    let letter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A && (byte | 0x20) != 0x77
    return byte >= 0x80 || byte == 0x20 || (byte >= 0x30 && byte <= 0x39) || letter
  }

  static func word(_ bytes: [UInt8]) -> UInt64 {
    UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
  }

  static func vector(_ bytes: [UInt8]) -> SIMD2<UInt64> {
    bytes.withUnsafeBytes { $0.loadUnaligned(as: SIMD2<UInt64>.self) }
  }

  func testEveryByteInEveryLane() {
    for value in 0...255 {
      let byte = UInt8(value)
      // Never a byte the scan acts on.
      if Self.skippable(byte) { XCTAssertFalse(SkeletonScan.acts[value], "\(value)") }
      for lane in 0..<8 {
        for filler: UInt8 in [0x61, 0x20, 0xD8, 0x39, 0x5A] {
          var bytes = [UInt8](repeating: filler, count: 8)
          bytes[lane] = byte
          XCTAssertEqual(SkeletonScan.skips(Self.word(bytes)), Self.skippable(byte), "\(value) in lane \(lane)")
          XCTAssertEqual(
            SkeletonScan.stops(Self.word(bytes)), Self.skippable(byte) ? 0 : 0x80 << (8 * UInt64(lane)),
            "\(value) in lane \(lane)")
        }
      }
      for lane in 0..<16 {
        for filler: UInt8 in [0x61, 0x20, 0xD8, 0x39, 0x5A] {
          var bytes = [UInt8](repeating: filler, count: 16)
          bytes[lane] = byte
          XCTAssertEqual(SkeletonScan.skipsAll(Self.vector(bytes)), Self.skippable(byte), "\(value) in lane \(lane)")
        }
      }
    }
  }

  func testRandomWords() {
    var random = SeededGenerator(seed: 388)
    let common: [UInt8] = [0x20, 0x61, 0x77, 0x57, 0x2A, 0x5B, 0xD8, 0xA7, 0x30, 0x39, 0x3A, 0x40, 0x60, 0x7A, 0x7B]
    var skipped = 0
    for _ in 0..<200_000 {
      let bytes = (0..<8).map { _ in
        Bool.random(using: &random) ? common.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
      }
      let expected = bytes.allSatisfy(Self.skippable)
      if expected { skipped += 1 }
      XCTAssertEqual(SkeletonScan.skips(Self.word(bytes)), expected, "\(bytes)")
      let twice = bytes + bytes.reversed()
      XCTAssertEqual(SkeletonScan.skipsAll(Self.vector(twice)), expected, "\(twice)")
    }
    XCTAssertGreaterThan(skipped, 100)
  }
}
