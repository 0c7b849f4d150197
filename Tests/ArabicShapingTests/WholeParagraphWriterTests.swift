import ArabicShaping
import BidiTestSupport
import UnicodeBidi
import XCTest

/// `BidiParagraph.writeLineVisualUTF8` and
/// `ArabicShaper.writeLineVisualUTF8(_:combiningMarks:...)`, which
/// `bidi-lsp visual` uses: a paragraph written as one display line from its
/// runs on the stack (`LineLayout.withWholeLineRuns`), without making the
/// `BidiLine`, must write what the line made by `line(combiningMarks:)`
/// writes, byte for byte, for every choice of marks, controls and
/// direction, shaped or not.
final class WholeParagraphWriterTests: XCTestCase {
  /// Arabic letters (lam, alefs, letters that join on one side, tatweel),
  /// marks, Hebrew and Latin letters, digits, brackets, whitespace, a tab
  /// (segment separator), the bidi controls, ZWJ/ZWNJ, ill-formed bytes
  /// come from `encode`.
  static let pool: [UInt32] = [
    0x644, 0x627, 0x622, 0x623, 0x628, 0x645, 0x62F, 0x631, 0x648, 0x6CC, 0x640, 0x621, 0x6A9,
    0x64E, 0x651, 0x650, 0x670, 0x301,
    0x5D0, 0x5D1, 0x61, 0x62, 0x31, 0x32, 0x661, 0x6F1, 0x28, 0x29, 0x5B, 0x3C, 0x2E, 0x2C, 0x24, 0x2D,
    0x20, 0x20, 0x20, 0x09,
    0x200E, 0x200F, 0x61C, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    0x200D, 0x200C, 0xFEFB,
  ]

  static func encode(_ text: [UInt32], illFormed: Bool) -> [UInt8] {
    var bytes = Array(String(String.UnicodeScalarView(text.map { Unicode.Scalar($0)! })).utf8)
    if illFormed && !bytes.isEmpty { bytes.insert(0xFF, at: bytes.count / 2) }
    return bytes
  }

  static func bytes(_ bound: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: max(bound, 1)) { buffer, initialized in
      initialized = write(buffer.baseAddress!)
    }
  }

  func testWholeParagraphMatchesTheLineMade() {
    var random = SeededGenerator(seed: 0x5348_4150_45)
    var shapedSome = 0
    var several = 0
    for round in 0..<600 {
      let length = round % 2 == 0 ? Int.random(in: 0...24, using: &random) : Int.random(in: 60...200, using: &random)
      var pool = Self.pool
      if round % 3 != 0 { pool = pool.filter { $0 != 0x09 } }
      var text = (0..<length).map { _ in pool.randomElement(using: &random) ?? 0x20 }
      if round % 5 == 0 { text += [0x20, 0x2067, 0x20] }
      let utf8 = Self.encode(text, illFormed: round % 7 == 3)
      let bound = BidiLine.visualUTF8Bound(utf8Length: utf8.count)
      for direction in [DirectionChoice.auto, .leftToRight, .rightToLeft] {
        let paragraph = utf8.withUnsafeBufferPointer { BidiParagraph(utf8: $0, direction: direction) }
        for marks in [CombiningMarkOrder.resolved, .afterBase] {
          let line = paragraph.line(combiningMarks: marks)
          if line.runs(in: .utf32).count > 1 { several += 1 }
          for controls in [ControlDisplay.keep, .strip, .names] {
            let context = "\(text) \(direction) \(marks) \(controls)"
            let made = Self.bytes(bound) { line.writeVisualUTF8(mirrored: true, controls: controls, to: $0) }
            let whole = Self.bytes(bound) {
              paragraph.writeLineVisualUTF8(combiningMarks: marks, mirrored: true, controls: controls, to: $0)
            }
            XCTAssertEqual(whole, made, context)
            var shaper = ArabicShaper()
            let shapedMade = Self.bytes(bound) {
              shaper.writeVisualUTF8(line, mirrored: true, controls: controls, to: $0)
            }
            let shapedWhole = Self.bytes(bound) {
              shaper.writeLineVisualUTF8(paragraph, combiningMarks: marks, mirrored: true, controls: controls, to: $0)
            }
            XCTAssertEqual(shapedWhole, shapedMade, context)
            if shapedMade != made { shapedSome += 1 }
          }
        }
      }
    }
    XCTAssertGreaterThan(several, 1000, "the generator should make lines of several runs")
    XCTAssertGreaterThan(shapedSome, 1000, "the generator should make lines the shaper changes")
  }
}
