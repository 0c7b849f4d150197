import ArabicShaping
import BidiTestSupport
import UnicodeBidi
import XCTest

/// `ArabicShaper` writing display lines of random paragraphs (letters,
/// marks, spaces, ZWJ and ZWNJ, Latin and Hebrew letters, digits, the bidi
/// controls), each against the model of `JoiningRulesTests` (a search for
/// each character's neighbours) applied to the line's characters at its
/// levels and placed in the line's visual order (`visualOrder`,
/// `visualScalars`): the joiner, which writes the letters of a word as the
/// line's writer reaches them, must give what the per-character rules give,
/// in both orders of combining marks and every paragraph direction.
final class ShapedWriterTests: XCTestCase {
  typealias Letter = JoiningRulesTests.Letter

  static func other(_ scalar: UInt32, _ type: Character) -> Letter {
    Letter(scalar: scalar, type: type, forms: [0, 0, 0, 0])
  }

  /// Characters of other scripts and the bidi controls, with their
  /// Joining_Type (ArabicShaping.txt lists the isolates as U; the other
  /// controls are Cf, so T).
  static let others: [Letter] = [
    other(0x61, "U"), other(0x31, "U"), other(0x5D0, "U"), other(0x21, "U"), other(0x28, "U"),
    other(0x202A, "T"), other(0x202B, "T"), other(0x202C, "T"), other(0x202D, "T"), other(0x202E, "T"),
    other(0x200E, "T"), other(0x200F, "T"), other(0x61C, "T"),
    other(0x2066, "U"), other(0x2067, "U"), other(0x2068, "U"), other(0x2069, "U"),
  ]

  /// The line's visual text as the model shapes it.
  static func expected(_ letters: [Letter], _ line: BidiLine) -> [UInt32] {
    let scalars = letters.map(\.scalar)
    let levels = line.withLogicalCharacters { _, levels in Array(levels) }
    let shaped = JoiningRulesTests.model(letters, levels)
    var result: [UInt32] = []
    for (k, v) in zip(line.visualOrder(in: .utf32), line.visualScalars(mirrored: true)) {
      if shaped[k] == ArabicJoining.omitted { continue }
      result.append(shaped[k] != scalars[k] ? shaped[k] : v)
    }
    return result
  }

  func testRandomLinesFollowTheModel() {
    var random = SeededGenerator(seed: 0x4A01)
    let arabic = JoiningRulesTests.alphabet
    let space = JoiningRulesTests.space
    let lam = JoiningRulesTests.lam
    let alef = JoiningRulesTests.alef
    var shapedLetters = 0
    var ligatures = 0
    var lines = 0
    for round in 0..<6_000 {
      var letters: [Letter] = []
      for _ in 0..<Int.random(in: 1...40, using: &random) {
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<3: letters.append(space)
        case 3..<5: letters.append(Self.others.randomElement(using: &random)!)
        case 5: letters += [lam, alef]
        default: letters.append(arabic.randomElement(using: &random)!)
        }
      }
      let direction: DirectionChoice = [.auto, .rightToLeft, .leftToRight][round % 3]
      let paragraph = BidiParagraph(scalars: letters.map(\.scalar), direction: direction)
      for marks in [CombiningMarkOrder.afterBase, .resolved] {
        let line = paragraph.line(combiningMarks: marks)
        // The construction of the expectation: the unshaped text.
        let plain = line.visualText().unicodeScalars.map(\.value)
        XCTAssertEqual(plain, line.visualScalars(mirrored: true), "round \(round)")
        var shaper = ArabicShaper()
        let shaped = shaper.visualText(line).unicodeScalars.map(\.value)
        let expected = Self.expected(letters, line)
        if shaped != expected {
          XCTFail(
            "round \(round), \(marks): \(letters.map { String($0.scalar, radix: 16) }): "
              + "\(shaped.map { String($0, radix: 16) }) != \(expected.map { String($0, radix: 16) })")
          return
        }
        lines += 1
        shapedLetters += shaped.filter { $0 >= 0xFB50 }.count
        ligatures += shaped.filter { $0 >= 0xFEF5 && $0 <= 0xFEFC }.count
      }
    }
    // The lines exercise the joiner: many letters change, ligatures form.
    XCTAssertEqual(lines, 12_000)
    XCTAssertGreaterThan(shapedLetters, 50_000)
    XCTAssertGreaterThan(ligatures, 5_000)
  }

  /// The writer hands the joiner only letters of class AL: every character
  /// of U+0621...U+06FF that shaping changes must be one.
  func testEveryLetterWithFormsIsOfClassAL() {
    var withForms = 0
    for scalar in UInt32(0x621)...0x6FF {
      let text: [UInt32] = [scalar, scalar, scalar]
      let levels: [UInt8] = [1, 1, 1]
      var output = [UInt32](repeating: 0, count: 3)
      let changed = text.withUnsafeBufferPointer { s in
        levels.withUnsafeBufferPointer { l in
          output.withUnsafeMutableBufferPointer { ArabicJoining.shape(s, levels: l, into: $0.baseAddress!) }
        }
      }
      guard changed && output != text else { continue }
      withForms += 1
      XCTAssertEqual(BidiProperties.bidiClass(scalar), .AL, "U+\(String(scalar, radix: 16))")
    }
    XCTAssertGreaterThan(withForms, 60)
  }
}
