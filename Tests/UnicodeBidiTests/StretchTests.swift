import BidiTestSupport
import UnicodeBidi
import XCTest

/// W1–W7 hand the letters of one direction with the neutrals and marks
/// between them to N1–I2 (or, in a sequence with paired brackets, to N0) as
/// one run (`ParagraphResolver.resolveWeakTypes`, stretches): on random
/// text, the levels must be those of the resolution a run of one class at a
/// time (`stretches: false`).
final class StretchTests: XCTestCase {
  /// Letters of both directions, spaces and punctuation (long stretches),
  /// marks, brackets (a stretch ends before one), digits and separators
  /// (which end a stretch), isolates and embeddings (gathered sequences).
  static let pool: [UInt32] = [
    0x61, 0x62, 0x63, 0x5D0, 0x5D1, 0x627, 0x628, 0x629, 0x20, 0x20, 0x20, 0x21, 0x22, 0x2E, 0x2C, 0x3F,
    0x300, 0x5B8, 0x64B, 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x2329, 0x3009, 0x31, 0x32, 0x660, 0x661, 0x24,
    0x25, 0x2B, 0x2D, 0x2F, 0x3A, 0x09, 0x200D, 0x202A, 0x202B, 0x202C, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
  ]
  /// Mostly letters and spaces of one direction with brackets and marks,
  /// so that long stretches (across several eight-class words) occur.
  static let rightToLeftPool: [UInt32] = [0x5D0, 0x627, 0x628, 0x20, 0x20, 0x21, 0x64B, 0x28, 0x29, 0x61, 0x31]
  static let leftToRightPool: [UInt32] = [0x61, 0x62, 0x20, 0x20, 0x2E, 0x300, 0x5B, 0x5D, 0x5D0, 0x31, 0x2067, 0x2069]

  func testStretchesResolveAsRunsOfOneClass() {
    var random = SeededGenerator(seed: 0x57E7)
    let directions: [DirectionChoice] = [.auto, .leftToRight, .rightToLeft]
    var compared = 0
    var raised = 0
    for k in 0..<6000 {
      let pool = [Self.pool, Self.rightToLeftPool, Self.leftToRightPool][k % 3]
      let text = random.elements(of: pool, lengths: 0...70)
      for direction in directions {
        if compare(text, direction) { raised += 1 }
        compared += 1
      }
    }
    XCTAssertEqual(compared, 18000)
    // Levels two above the paragraph's (L or numbers in right-to-left
    // text of an embedding or isolate) are where the rules differ most.
    XCTAssertGreaterThan(raised, 1000, "the generator should make nested levels")
  }

  /// Letters of both directions, spaces and marks around isolates (whose
  /// outer text is one gathered sequence), embeddings and a BN (removed by
  /// X9: gaps in a level run), with few brackets, some in the gathered
  /// sequences: their stretches end before the sequence's next bracket,
  /// found in its pieces (`GatheredWeakTypeWriter`). Short paragraphs take
  /// the three passes W1–W7, N0, N1–I2, long ones N1–I2 again around the
  /// brackets N0 changed.
  static let gatheredPool: [UInt32] = [
    0x61, 0x62, 0x5D0, 0x627, 0x628, 0x20, 0x20, 0x20, 0x21, 0x2E, 0x300, 0x64B, 0x31, 0x2066, 0x2067, 0x2068,
    0x2069, 0x2069, 0x202A, 0x202B, 0x202C, 0x200D,
  ]

  func testGatheredSequencesWithBracketsResolveAsRunsOfOneClass() {
    var random = SeededGenerator(seed: 0x6A7E)
    var compared = 0
    var raised = 0
    for k in 0..<3000 {
      var text = random.elements(of: Self.gatheredPool, lengths: k % 2 == 0 ? 20...100 : 130...320)
      // A few pairs around a few characters, now and then a bracket alone.
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let open = Int.random(in: 0..<text.count, using: &random)
        let close = min(text.count, open + Int.random(in: 1...16, using: &random))
        text.insert(random.elements(of: [0x29, 0x5D], count: 1)[0], at: close)
        if Int.random(in: 0..<8, using: &random) > 0 { text.insert(0x28, at: open) }
      }
      for direction in [DirectionChoice.auto, .leftToRight, .rightToLeft] {
        if compare(text, direction) { raised += 1 }
        compared += 1
      }
    }
    XCTAssertEqual(compared, 9000)
    XCTAssertGreaterThan(raised, 1000, "the generator should make nested levels")
  }

  /// Asserts that `text` resolves to the same levels with stretches as
  /// without; returns true when some level is two above the paragraph's.
  private func compare(_ text: [UInt32], _ direction: DirectionChoice) -> Bool {
    let bytes = PropertyTests.encodeUTF8(text)
    let fast = BidiParagraph(utf8: bytes, direction: direction, stretches: true)
    let plain = BidiParagraph(utf8: bytes, direction: direction, stretches: false)
    let levels = fast.levels(in: .utf32)
    XCTAssertEqual(levels, plain.levels(in: .utf32), "\(text) \(direction)")
    XCTAssertEqual(fast.isUniform, plain.isUniform, "\(text) \(direction)")
    return levels.contains(where: { $0.value.map { $0 > fast.level + 1 } ?? false })
  }
}
