import BidiTestSupport
import XCTest

@testable import UnicodeBidi

/// `BidiParagraph.withReusedStorage`: a paragraph analysed in the storage
/// the thread keeps from line to line has the levels and the visual order
/// of one analysed alone, whatever was analysed in that storage before; a
/// paragraph the caller keeps is not analysed over.
final class ReusedStorageTests: XCTestCase {
  /// Lines of every class, short and long (past the kept capacity, so that
  /// a new storage is made), one after the other in the kept storage: the
  /// levels and the bytes of `writeLineVisualUTF8NamingKeptControls` as a
  /// paragraph analysed alone has them.
  func testReusedStorageGivesWhatAFreshParagraphGives() {
    var random = SeededGenerator(seed: 0x5245_5553_45)
    let pool = PropertyTests.pool + [0x28, 0x29, 0x5B, 0x5D, 0x1F600, 0x2067, 0x2069, 0x20]
    for round in 0..<600 {
      let length =
        round % 50 == 0 ? Int.random(in: 400...900, using: &random) : Int.random(in: 0...120, using: &random)
      let text = (0..<length).map { _ in pool.randomElement(using: &random) ?? 0x20 }
      var utf8 = PropertyTests.encodeUTF8(text)
      // Now and then an ill-formed byte.
      if round % 7 == 3 { utf8.insert(0xFF, at: utf8.count / 2) }
      let direction = PropertyTests.directions[round % PropertyTests.directions.count]
      let alone = BidiParagraph(utf8: utf8, direction: direction)
      let expected = WholeLineTests.written(utf8, direction: direction)
      let (levels, written) = utf8.withUnsafeBufferPointer { bytes in
        BidiParagraph.withReusedStorage(utf8: bytes, direction: direction) { paragraph in
          let bound = max(BidiLine.visualUTF8Bound(utf8Length: bytes.count), 1)
          let written = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            initialized = paragraph.writeLineVisualUTF8NamingKeptControls(to: buffer.baseAddress!)
          }
          return (paragraph.levels(in: .utf8), written)
        }
      }
      XCTAssertEqual(levels, alone.levels(in: .utf8), "\(text)")
      XCTAssertEqual(written, expected, "\(text)")
    }
  }

  /// The storage is kept from one call to the next, and a paragraph that
  /// leaves the call keeps its storage to itself: the next call analyses
  /// in another.
  func testKeptParagraphIsNotAnalysedOver() {
    let first = Array("\u{5D0}\u{5D1} abc \u{2067}\u{5D2} 12 def\u{2069} (gh)".utf8)
    let second = Array("xyz \u{627}\u{628} 3.5% [q] \u{202B}kl\u{202C}".utf8)
    let identity: ([UInt8]) -> ObjectIdentifier = { utf8 in
      utf8.withUnsafeBufferPointer { bytes in
        BidiParagraph.withReusedStorage(utf8: bytes) { ObjectIdentifier($0.storage) }
      }
    }
    XCTAssertEqual(identity(first), identity(second), "the storage should be kept between calls")
    let kept = first.withUnsafeBufferPointer { bytes in BidiParagraph.withReusedStorage(utf8: bytes) { $0 } }
    let levels = BidiParagraph(utf8: first).levels(in: .utf8)
    XCTAssertNotEqual(identity(second), ObjectIdentifier(kept.storage))
    XCTAssertEqual(kept.levels(in: .utf8), levels)
  }
}
