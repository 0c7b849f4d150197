import BidiTestSupport
import XCTest

@testable import UnicodeBidi

/// The fast paths of `VisualUTF8Writer` against the character-at-a-time
/// definitions they skip, on random input.
final class VisualUTF8FastPathTests: XCTestCase {
  /// Scalar values at and around the edges of printable ASCII, and marks of
  /// ill-formed bytes (just past U+10FFFF).
  static let edges: [UInt32] = [
    0x00, 0x09, 0x1F, 0x20, 0x21, 0x41, 0x5F, 0x60, 0x7D, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xFF, 0x100, 0x11F, 0x120,
    0x17E, 0x5D0, 0x627, 0x2020, 0x2066, 0xFEFF, 0x1_0020, 0x10_FFFF, 0x11_0001, 0x11_0003,
  ]

  /// The four-character test of `leftToRight` (every value below 0x80,
  /// then `arePrintable` on their bytes from `packASCII`) is the test of
  /// each (U+0020...U+007E), and the bytes are theirs in order, on random
  /// quadruples from the edges (half of them printable ASCII only).
  func testFourPrintableASCIITestMatchesEachCharacter() {
    var random = SeededGenerator(seed: 0x4153_4349_4934)
    let printable = Self.edges.filter { $0 &- 0x20 < 0x5F }
    var passed = 0
    for round in 0..<200_000 {
      let pool = round & 1 == 0 ? Self.edges : printable
      let values = (0..<4).map { _ in pool.randomElement(using: &random)! }
      let a = UInt64(values[0]) | UInt64(values[1]) << 32
      let b = UInt64(values[2]) | UInt64(values[3]) << 32
      let packed = VisualUTF8Writer<NoJoiner>.packASCII(a, b)
      let fast = (a | b) & 0xFFFF_FF80_FFFF_FF80 == 0 && VisualUTF8Writer<NoJoiner>.arePrintable(packed)
      let each = values.allSatisfy { $0 &- 0x20 < 0x5F }
      XCTAssertEqual(fast, each, "\(values)")
      if each {
        passed += 1
        XCTAssertEqual((0..<4).map { UInt8(truncatingIfNeeded: packed >> (8 * $0)) }, values.map { UInt8($0) })
      }
    }
    // Both outcomes are tried often.
    XCTAssertGreaterThan(passed, 100_000)
    XCTAssertLessThan(passed, 190_000)
  }

  /// `arePrintable` on every byte value below 0x80 in each of the four
  /// places (the others printable): true for 0x20...0x7E only.
  func testPrintableBytesTestOnEveryByte() {
    for place in 0..<4 {
      for byte in UInt32(0)..<0x80 {
        let packed = 0x4141_4141 & ~(0xFF << (8 * place)) | byte << (8 * place)
        XCTAssertEqual(VisualUTF8Writer<NoJoiner>.arePrintable(packed), byte &- 0x20 < 0x5F, "\(byte) at \(place)")
      }
    }
  }

  /// Left-to-right lines of ASCII words with the odd character that is not
  /// printable ASCII (a tab, DEL, a letter of two bytes, an ill-formed
  /// byte) at every offset of a group of four: the writer's bytes are those
  /// of the reference, character by character from the maps.
  func testLeftToRightRunsMatchTheReference() {
    var random = SeededGenerator(seed: 0x4C54_5252_554E)
    let others: [UInt32] = [0x09, 0x7F, 0x1F, 0xE9, 0x5D0, 0x2066, 0x2069, 0x4E2D]
    var groups = 0
    for _ in 0..<3000 {
      var scalars: [UInt32] = []
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        scalars.append(UInt32.random(in: 0x20...0x7E, using: &random))
        if Int.random(in: 0..<9, using: &random) == 0 { scalars.append(others.randomElement(using: &random)!) }
      }
      var utf8 = PropertyTests.encodeUTF8(scalars)
      if Int.random(in: 0..<4, using: &random) == 0 {
        // An ill-formed byte (one U+FFFD) between two characters.
        let at = Int.random(in: 0...scalars.count, using: &random)
        utf8 =
          PropertyTests.encodeUTF8(Array(scalars[..<at])) + [0xFF] + PropertyTests.encodeUTF8(Array(scalars[at...]))
      }
      groups += scalars.count / 4
      let line = BidiParagraph(utf8: utf8, direction: .leftToRight).line()
      let decoded = UTF8DecoderTests.referenceSequences(utf8).map(\.value)
      for controls in ControlDisplay.allCases {
        let expected = VisualUTF8Tests.reference(line, decoded, mirrored: true, controls: controls)
        let bytes = VisualUTF8Tests.written(line, utf8Length: utf8.count, controls: controls)
        XCTAssertEqual(bytes, expected, "\(utf8) \(controls)")
      }
    }
    XCTAssertGreaterThan(groups, 12_000)
  }

  /// Right-to-left lines of Hebrew and Arabic letters (two bytes, three in
  /// the presentation forms), ALM, digits, brackets, spaces and isolates:
  /// the right-to-left runs (`character`'s letters of two bytes and ASCII)
  /// write the bytes of the reference, for every control display, with and
  /// without L4, and with the kept controls named (check's quote, whose
  /// writer is `rightToLeft`).
  func testRightToLeftRunsMatchTheReference() {
    var random = SeededGenerator(seed: 0x5254_4C52_554E)
    let pool: [UInt32] = [
      0x5D0, 0x5EA, 0x627, 0x644, 0x64A, 0x7FF, 0x7C0, 0x61C, 0x61C, 0xFB1D, 0xFE8D, 0x6F1, 0x661, 0xE9, 0x64E,
      0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x20, 0x20, 0x20, 0x2E, 0x31, 0x61, 0x2066, 0x2067, 0x2069, 0x200F, 0x202E,
      0x202C,
    ]
    var letters = 0
    for _ in 0..<3000 {
      let scalars = (0..<Int.random(in: 0...40, using: &random)).map { _ in pool.randomElement(using: &random)! }
      letters += scalars.filter { $0 &- 0x5D0 < 0x300 && $0 != 0x61C }.count
      let utf8 = PropertyTests.encodeUTF8(scalars)
      let paragraph = BidiParagraph(utf8: utf8, direction: .rightToLeft)
      let line = paragraph.line(combiningMarks: .resolved)
      for controls in ControlDisplay.allCases {
        for mirrored in [true, false] {
          let expected = VisualUTF8Tests.reference(line, scalars, mirrored: mirrored, controls: controls)
          let bytes = VisualUTF8Tests.written(line, utf8Length: utf8.count, mirrored: mirrored, controls: controls)
          XCTAssertEqual(bytes, expected, "\(scalars) \(controls) \(mirrored)")
        }
      }
      let named = [UInt8](unsafeUninitializedCapacity: max(BidiLine.visualUTF8Bound(utf8Length: utf8.count), 1)) {
        buffer, initialized in
        initialized = paragraph.writeLineVisualUTF8NamingKeptControls(to: buffer.baseAddress!)
      }
      XCTAssertEqual(named, Self.keptByName(line, scalars), "\(scalars)")
    }
    XCTAssertGreaterThan(letters, 15_000)
  }

  /// The visual text with the controls X9 keeps by name in angle brackets
  /// and those it removes dropped, from the maps, character by character.
  static func keptByName(_ line: BidiLine, _ scalars: [UInt32]) -> [UInt8] {
    let levels = line.levels(in: .utf32)
    var text = ""
    for i in line.visualToLogical(in: .utf32) where levels[i] != .removed {
      let scalar = scalars[i]
      if let control = BidiControl(scalar: scalar) {
        text += "<\(control.shortName)>"
        continue
      }
      let shown = levels[i].rawValue & 1 == 1 ? BidiProperties.mirroringGlyph(scalar) ?? scalar : scalar
      text.unicodeScalars.append(Unicode.Scalar(shown)!)
    }
    return Array(text.utf8)
  }
}
