import BidiTestSupport
import CByteScan
import XCTest

@testable import UnicodeBidi

/// The decoding of a paragraph's UTF-8 in rounds of 64 bytes with AVX-512
/// (`cbs_decode_classes`, vector level 3) against `UTF8Decoder` alone (level
/// 2: the rounds are not used): the same scalar values, classes, bracket
/// positions, characters past U+FFFF and classes present, on text made of
/// what the rounds decode (ASCII, two-byte sequences, E2 80 xx and E2 81 xx)
/// and of what they leave (other three-byte sequences, four-byte ones,
/// ill-formed bytes, E2 before no continuation byte), at every offset about
/// the rounds' edges. Where the processor lacks AVX-512 both levels decode
/// alike and the test shows nothing new.
final class DecodeClassesTests: XCTestCase {
  static let decoded: [[UInt8]] = [
    Array("a".utf8), Array(" ".utf8), Array("(".utf8), Array(")".utf8), Array("[x]".utf8), [0x09], [0x00], [0x7F],
    Array("ب".utf8), Array("ש".utf8), Array("é".utf8), Array("«".utf8), Array("»".utf8), [0xD8, 0x9C], [0xC2, 0x80],
    [0xDF, 0xBF], Array("\u{202E}".utf8), Array("\u{2066}".utf8), Array("\u{2069}".utf8), Array("\u{200F}".utf8),
    Array("\u{2014}".utf8), Array("\u{201C}".utf8), Array("\u{2045}".utf8), Array("\u{207F}".utf8),
    Array("\u{2000}".utf8),
  ]

  static let left: [[UInt8]] = [
    Array("\u{2080}".utf8), Array("\u{20AC}".utf8), Array("中".utf8), Array("\u{FEFB}".utf8), Array("😀".utf8),
    [0xE2], [0xE2, 0x80], [0xE2, 0x20], [0xE2, 0x80, 0x20], [0xE2, 0xC0, 0x80], [0xD8], [0xD8, 0x20], [0x80],
    [0xBF, 0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF],
  ]

  /// What a storage holds of the text, decoded at vector `level`.
  struct Decoded: Equatable {
    var scalars: [UInt32]
    var classes: [BidiClass]
    var brackets: [Int32]
    var astral: [Int32]
    var present: UInt32
    var utf8Length: Int
  }

  static func decode(_ bytes: [UInt8], level: Int32) -> Decoded {
    let before = cbs_set_vector_level(level)
    defer { _ = cbs_set_vector_level(before) }
    let storage = bytes.withUnsafeBufferPointer { ParagraphStorage(utf8: $0) }
    let n = storage.count
    return Decoded(
      scalars: Array(UnsafeBufferPointer(start: storage.scalars, count: n)),
      classes: Array(UnsafeBufferPointer(start: storage.classes, count: n)),
      brackets: Array(UnsafeBufferPointer(start: storage.bracketPositions, count: storage.bracketCount)),
      astral: Array(UnsafeBufferPointer(start: storage.astralPositions, count: storage.astralCount)),
      present: storage.present.bits, utf8Length: storage.utf8Length)
  }

  func check(_ bytes: [UInt8], _ context: @autoclosure () -> String) {
    let rounds = Self.decode(bytes, level: 3)
    let alone = Self.decode(bytes, level: 2)
    XCTAssertEqual(rounds, alone, "\(context()): " + bytes.map { String($0, radix: 16) }.joined(separator: " "))
  }

  /// Texts of what the rounds decode, with one piece they leave at each
  /// offset from 0 to 140 (the first two rounds' edges and past them).
  func testEveryOffsetOfAPieceLeft() {
    var random = SeededGenerator(seed: 0xDEC0)
    var checked = 0
    for piece in Self.left + Self.decoded {
      for at in 0...140 {
        var bytes: [UInt8] = []
        while bytes.count < at { bytes += Self.decoded[Int.random(in: 0..<Self.decoded.count, using: &random)] }
        bytes += piece
        let tail = Int.random(in: 0...140, using: &random)
        while bytes.count < at + piece.count + tail {
          bytes += Self.decoded[Int.random(in: 0..<Self.decoded.count, using: &random)]
        }
        check(bytes, "piece at \(at)")
        checked += 1
      }
    }
    XCTAssertEqual(checked, (Self.left.count + Self.decoded.count) * 141)
  }

  /// Random texts of every length up to 400 bytes, mostly what the rounds
  /// decode, with pieces they leave now and then (rounds that stop, the
  /// decoder's 64 bytes, rounds again).
  func testRandomTexts() {
    var random = SeededGenerator(seed: 0xDEC1)
    for round in 0..<4000 {
      let length = Int.random(in: 0...400, using: &random)
      let odds = [0, 5, 30, 200][round % 4]
      var bytes: [UInt8] = []
      while bytes.count < length {
        if odds > 0 && Int.random(in: 0..<odds, using: &random) == 0 {
          bytes += Self.left[Int.random(in: 0..<Self.left.count, using: &random)]
        } else {
          bytes += Self.decoded[Int.random(in: 0..<Self.decoded.count, using: &random)]
        }
      }
      check(bytes, "round \(round)")
    }
  }

  /// Every two-byte sequence (C2 80 … DF BF) and every E2 80 xx and E2 81
  /// xx, in rounds: their values and classes as the decoder gives them.
  func testEveryDecodedSequence() {
    var sequences: [[UInt8]] = []
    for lead: UInt8 in 0xC2...0xDF {
      for continuation: UInt8 in 0x80...0xBF { sequences.append([lead, continuation]) }
    }
    for second: UInt8 in 0x80...0x81 {
      for third: UInt8 in 0x80...0xBF { sequences.append([0xE2, second, third]) }
    }
    for start in stride(from: 0, to: sequences.count, by: 40) {
      let bytes: [UInt8] = sequences[start..<min(sequences.count, start + 40)].flatMap { $0 + [UInt8(0x20)] }
      check(bytes, "sequences from \(start)")
    }
    let ascii: [UInt8] = (0..<128).map { UInt8($0) }
    let text: [UInt8] = ascii + ascii + ascii
    check(text, "ASCII")
  }
}
