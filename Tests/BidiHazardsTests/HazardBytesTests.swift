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

  /// The controls `appendControls` collects (in batches, from the C scan)
  /// and where each of its calls stops, stepping over each ill-formed
  /// sequence: the reference's offsets again.
  static func appended(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var found: [Int] = []
    var controls = BidiControlList()
    var i = 0
    while true {
      let before = controls.count
      i = BidiControl.appendControls(in: bytes, from: i, to: &controls)
      for (offset, control) in controls[before...] {
        XCTAssertEqual(BidiControl.decode(bytes, at: offset), control)
        found.append(offset)
      }
      guard i < bytes.count else { return found }
      found.append(i)
      i += 1
    }
  }

  /// Each piece (controls, ill-formed and three- and four-byte sequences)
  /// at every offset of two 32-byte blocks (the AVX2 scan's) and across
  /// them, in ASCII and in two-byte text, alone and between dense controls.
  func testPiecesAtEveryOffsetOfTwoWideBlocks() {
    let pieces: [[UInt8]] =
      BidiControl.allCases.map(\.utf8) + [
        [0xE2, 0x80, 0x94], Array("😀".utf8), [0xE2], [0xE2, 0x80], [0x80], [0xC0, 0xAF], [0xC1, 0xBF],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xD8], [0xD8, 0x9D], [0x9C], [0xFF], [0xDF], [0xC2, 0x41],
      ]
    let fills: [[UInt8]] = [[0x61], [0xD8, 0xA7], [0xD7, 0x90, 0x20]]
    for piece in pieces {
      for fill in fills {
        for lead in 0..<70 {
          let before = Array(repeatElement(fill, count: lead / fill.count + 1).joined().prefix(lead))
          let after = Array(repeatElement(fill, count: 40).joined())
          for bytes in [
            before + piece + after, before + piece, before + piece + [0xE2, 0x81, 0xA6] + after + piece + after,
            before + [0xE2, 0x80, 0x8F] + piece + [0xE2, 0x81, 0xA9] + piece,
          ] {
            bytes.withUnsafeBufferPointer { p in
              let expected = Self.reference(p)
              XCTAssertEqual(Self.scan(p), expected, "\(bytes)")
              XCTAssertEqual(Self.appended(p), expected, "\(bytes)")
            }
          }
        }
      }
    }
  }

  /// Long random lines, mostly two-byte text and ASCII with a control every
  /// few bytes (as `rtl-heavy` has) and a rarer piece of every kind.
  func testDenseRandomLines() {
    var random = SeededGenerator(seed: 0x5CA9)
    let common: [[UInt8]] = [[0x61], [0x20], [0xD8, 0xA7], [0xD9, 0x85], [0xD7, 0x90], [0xE2, 0x81, 0xA6]]
    let rare: [[UInt8]] =
      BidiControl.allCases.map(\.utf8) + [
        [0xE2, 0x80, 0x94], Array("😀".utf8), [0xE2, 0x80], [0x80], [0xC0, 0xAF], [0xD8], [0xFF], [0xEF, 0xBF, 0xBF],
      ]
    for _ in 0..<3000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...300, using: &random) {
        bytes += (Int.random(in: 0..<12, using: &random) == 0 ? rare : common).randomElement(using: &random)!
      }
      bytes.withUnsafeBufferPointer { p in
        let expected = Self.reference(p)
        XCTAssertEqual(Self.scan(p), expected, "\(bytes)")
        XCTAssertEqual(Self.appended(p), expected, "\(bytes)")
      }
    }
  }

  func testCleanTextHasNone() {
    let text = Array(
      ("plain ascii, \u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629} 😀 "
        + "\u{2028}\u{20AC}\u{201C}\u{201D}\n").utf8)
    text.withUnsafeBufferPointer { XCTAssertNil(HazardBytes.firstHazard(in: $0)) }
  }
}
