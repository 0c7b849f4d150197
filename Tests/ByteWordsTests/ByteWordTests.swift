import ByteWords
import XCTest

/// Each helper against the same question asked byte by byte, on words built
/// from the bytes that matter (0, the values looked for, their neighbours,
/// 0x7F, 0x80, 0xFF) in every position, and on random words.
final class ByteWordTests: XCTestCase {
  private static let interesting: [UInt8] = [
    0x00, 0x01, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D,
    0x7E, 0x7F, 0x80, 0x81, 0x89, 0x8A, 0xA0, 0xC2, 0xE2, 0xFE, 0xFF,
  ]

  /// Words with one interesting byte in one place and another elsewhere,
  /// and a reproducible set of random ones.
  private static let words: [[UInt8]] = {
    var result: [[UInt8]] = []
    for a in interesting {
      for b in interesting {
        for place in 0..<8 {
          var bytes = [UInt8](repeating: b, count: 8)
          bytes[place] = a
          result.append(bytes)
        }
      }
    }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      var bytes: [UInt8] = []
      for k in 0..<8 { bytes.append(interesting[Int((state >> (8 * UInt64(k))) & 0xFF) % interesting.count]) }
      result.append(bytes)
    }
    return result
  }()

  private func word(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { ByteWord.load($0.baseAddress!, 0) }
  }

  private func flags(_ bytes: [UInt8], _ test: (UInt8) -> Bool) -> UInt64 {
    var result: UInt64 = 0
    for (k, byte) in bytes.enumerated() where test(byte) { result |= 0x80 << (8 * UInt64(k)) }
    return result
  }

  func testLoadIsLittleEndianAndUnaligned() {
    let bytes: [UInt8] = [9, 1, 2, 3, 4, 5, 6, 7, 8]
    let loaded = bytes.withUnsafeBytes { ByteWord.load($0.baseAddress!, 1) }
    XCTAssertEqual(loaded, 0x0807_0605_0403_0201)
    XCTAssertEqual(ByteWord.broadcast(0x5C), 0x5C5C_5C5C_5C5C_5C5C)
  }

  func testExactFlags() {
    for bytes in Self.words {
      let w = word(bytes)
      XCTAssertEqual(ByteWord.zeroBytes(w), flags(bytes) { $0 == 0 }, "\(bytes)")
      for value: UInt8 in [0x0A, 0x0D, 0x22, 0x80, 0xFF] {
        XCTAssertEqual(ByteWord.equalBytes(w, value), flags(bytes) { $0 == value }, "\(bytes) \(value)")
        XCTAssertEqual(ByteWord.contains(w, value), bytes.contains(value), "\(bytes) \(value)")
      }
      XCTAssertEqual(ByteWord.hasNonASCII(w), bytes.contains { $0 >= 0x80 })
      XCTAssertEqual(ByteWord.isPrintableASCII(w), bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(bytes)")
      XCTAssertEqual(
        ByteWord.isPrintableASCIIOrTab(w), bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }, "\(bytes)")
      XCTAssertEqual(ByteWord.countFlagged(flags(bytes) { $0 == 0x0A }), bytes.filter { $0 == 0x0A }.count)
      XCTAssertEqual(ByteWord.firstNonZero(w), bytes.firstIndex { $0 != 0 } ?? 8)
      let low = bytes.map { $0 & 0x7F }
      var mask: UInt64 = 0
      for (k, byte) in low.enumerated() where byte != 0 { mask |= 1 << UInt64(k) }
      XCTAssertEqual(ByteWord.nonZeroMask(word(low)), mask, "\(low)")
    }
  }

  /// The fast tests are exact up to their first flag, and flag a word
  /// exactly when it holds such a byte.
  func testFirstFlagsAreExactUpToTheFirst() {
    for bytes in Self.words {
      let w = word(bytes)
      let zero = ByteWord.firstZeroBytes(w)
      XCTAssertEqual(ByteWord.firstFlagged(zero), bytes.firstIndex(of: 0) ?? 8, "\(bytes)")
      for bound: UInt8 in [0x01, 0x20, 0x80] {
        let below = ByteWord.firstBytesBelow(w, bound)
        XCTAssertEqual(ByteWord.firstFlagged(below), bytes.firstIndex { $0 < bound } ?? 8, "\(bytes) \(bound)")
      }
    }
  }

  func testBytesAfterKeepsTheBytesPastCount() {
    let old: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    let new: [UInt8] = [11, 12, 13, 14, 15, 16, 17, 18]
    for count in 0...8 {
      let mask = ByteWord.bytesAfter(count)
      let merged = word(old) & mask | word(new) & ~mask
      XCTAssertEqual(merged, word(Array(new.prefix(count)) + Array(old.dropFirst(count))), "\(count)")
    }
  }
}
