import BidiHazards
import BidiTestSupport
import UnicodeBidi
import XCTest

/// The clean-line scan finds exactly the bytes where `HazardScanner` can
/// report: the first byte of each bidi control and of each ill-formed
/// sequence.
final class HazardBytesTests: XCTestCase {
  /// Every offset where a control or an ill-formed sequence starts, by
  /// decoding each sequence in turn.
  static func reference(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var found: [Int] = []
    var i = 0
    while i < bytes.count {
      if let control = BidiControl.decode(bytes, at: i) {
        found.append(i)
        i += control.utf8Count
        continue
      }
      let decoded = UTF8Decoder.decode(bytes, at: i)
      if !decoded.isValid {
        found.append(i)
        i += 1
        continue
      }
      i += decoded.length
    }
    return found
  }

  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var found: [Int] = []
    var i = 0
    while let at = HazardBytes.firstHazard(in: bytes, from: i) {
      found.append(at)
      i = at + (BidiControl.decode(bytes, at: at)?.utf8Count ?? 1)
    }
    return found
  }

  func testRandomBytesGiveTheReferenceOffsets() {
    var random = SeededGenerator(seed: 0xB17E5)
    let pieces: [[UInt8]] =
      BidiControl.allCases.map(\.utf8) + [
        Array("abcdefgh ".utf8), Array("\u{5D0}\u{627}".utf8), Array("\u{2028}\u{2029}\u{20AC}".utf8),
        Array("😀".utf8), [0xE2], [0xE2, 0x80], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xD8], [0xD8, 0x9D], [0xFF], Array("\u{61B}\u{61D}".utf8),
      ]
    var total = 0
    for _ in 0..<2000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...30, using: &random) { bytes += pieces.randomElement(using: &random)! }
      bytes.withUnsafeBufferPointer { p in
        XCTAssertEqual(Self.scan(p), Self.reference(p), "\(bytes)")
        total += Self.reference(p).count
      }
    }
    XCTAssertGreaterThan(total, 5000)
  }

  func testCleanTextHasNone() {
    let text = Array(
      ("plain ascii, \u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629} 😀 "
        + "\u{2028}\u{20AC}\u{201C}\u{201D}\n").utf8)
    text.withUnsafeBufferPointer { XCTAssertNil(HazardBytes.firstHazard(in: $0)) }
  }
}
