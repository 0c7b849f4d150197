import ArabicShaping
import BidiTestSupport
import UnicodeBidi
import XCTest

/// The joining rules of `ArabicJoining` (its documentation and the
/// specification's `shape`): every pair of joining types, transparent marks
/// between them, ZWJ and ZWNJ, the lam-alef ligatures with marks, level
/// boundaries; then random texts against a model written from the rules
/// (a search for each character's neighbours, not a scan), and lines of real
/// paragraphs whose shaping was read from GNU FriBidi 1.0.8's `fribidi`.
final class JoiningRulesTests: XCTestCase {
  /// Characters of each Joining_Type (ArabicShaping.txt 17.0.0) with their
  /// presentation forms (isolated, final, initial, medial; 0 for none).
  struct Letter {
    let scalar: UInt32
    let type: Character
    let forms: [UInt32]
  }

  static let beh = Letter(scalar: 0x628, type: "D", forms: [0xFE8F, 0xFE90, 0xFE91, 0xFE92])
  static let lam = Letter(scalar: 0x644, type: "D", forms: [0xFEDD, 0xFEDE, 0xFEDF, 0xFEE0])
  static let alef = Letter(scalar: 0x627, type: "R", forms: [0xFE8D, 0xFE8E, 0, 0])
  static let alefMadda = Letter(scalar: 0x622, type: "R", forms: [0xFE81, 0xFE82, 0, 0])
  static let waw = Letter(scalar: 0x648, type: "R", forms: [0xFEED, 0xFEEE, 0, 0])
  static let yehFarsi = Letter(scalar: 0x6CC, type: "D", forms: [0xFBFC, 0xFBFD, 0xFBFE, 0xFBFF])
  static let hamza = Letter(scalar: 0x621, type: "U", forms: [0, 0, 0, 0])
  static let tatweel = Letter(scalar: 0x640, type: "C", forms: [0, 0, 0, 0])
  static let zwj = Letter(scalar: 0x200D, type: "C", forms: [0, 0, 0, 0])
  static let zwnj = Letter(scalar: 0x200C, type: "U", forms: [0, 0, 0, 0])
  static let space = Letter(scalar: 0x20, type: "U", forms: [0, 0, 0, 0])
  static let fatha = Letter(scalar: 0x64E, type: "T", forms: [0, 0, 0, 0])
  static let shadda = Letter(scalar: 0x651, type: "T", forms: [0, 0, 0, 0])
  /// Dual-joining without presentation forms: Syriac BETH, KASHMIRI YEH.
  static let syriacBeth = Letter(scalar: 0x712, type: "D", forms: [0, 0, 0, 0])
  static let kashmiriYeh = Letter(scalar: 0x620, type: "D", forms: [0, 0, 0, 0])
  /// Left-joining: PHAGS-PA SUPERFIXED RA; right-joining without forms:
  /// MANDAIC HALQA.
  static let superfixedRa = Letter(scalar: 0xA872, type: "L", forms: [0, 0, 0, 0])
  static let halqa = Letter(scalar: 0x840, type: "R", forms: [0, 0, 0, 0])

  static let alphabet = [
    beh, lam, alef, alefMadda, waw, yehFarsi, hamza, tatweel, zwj, zwnj, space, fatha, shadda, syriacBeth,
    kashmiriYeh, superfixedRa, halqa,
  ]
  /// The lam-alef ligatures of the alefs above: isolated, final.
  static let ligatures: [UInt32: [UInt32]] = [0x627: [0xFEFB, 0xFEFC], 0x622: [0xFEF5, 0xFEF6]]

  /// Shapes `letters` at `levels` (all 1 when nil).
  func shape(_ letters: [Letter], levels: [UInt8]? = nil) -> [UInt32] {
    let scalars = letters.map(\.scalar)
    let levels = levels ?? Array(repeating: 1, count: scalars.count)
    var output = [UInt32](repeating: 0, count: scalars.count)
    let changed = scalars.withUnsafeBufferPointer { s in
      levels.withUnsafeBufferPointer { l in
        output.withUnsafeMutableBufferPointer { ArabicJoining.shape(s, levels: l, into: $0.baseAddress!) }
      }
    }
    return changed ? output : scalars
  }

  // MARK: Pairs

  func testEveryPairOfJoiningTypes() {
    // Whether a letter of the row's type joins a letter of the column's
    // type after it, in right-to-left text: the first must join on its
    // left (L, D, C), the second on its right (R, D, C).
    let representatives: [Character: Letter] = [
      "U": Self.hamza, "R": Self.waw, "L": Self.superfixedRa, "D": Self.beh, "C": Self.tatweel,
    ]
    let joins: [Character: [Character: Bool]] = [
      "U": ["U": false, "R": false, "L": false, "D": false, "C": false],
      "R": ["U": false, "R": false, "L": false, "D": false, "C": false],
      "L": ["U": false, "R": true, "L": false, "D": true, "C": true],
      "D": ["U": false, "R": true, "L": false, "D": true, "C": true],
      "C": ["U": false, "R": true, "L": false, "D": true, "C": true],
    ]
    for (first, row) in joins {
      for (second, expected) in row {
        // Each between two behs, so that both sides are tested: beh FIRST
        // SECOND beh, with and without transparent marks between them all.
        for marks in [[Letter](), [Self.fatha], [Self.shadda, Self.fatha]] {
          let a = representatives[first]!
          let b = representatives[second]!
          let text = [Self.beh] + marks + [a] + marks + [b] + marks + [Self.beh]
          let shaped = shape(text)
          let n = marks.count
          let (ia, ib) = (1 + n, 2 + 2 * n)
          let behBeforeJoins = a.type == "R" || a.type == "D" || a.type == "C"
          let behAfterJoins = b.type == "L" || b.type == "D" || b.type == "C"
          // The first beh: initial when it joins `a`, else isolated.
          XCTAssertEqual(shaped[0], behBeforeJoins ? 0xFE91 : 0xFE8F, "beh \(first)\(second) marks \(n)")
          XCTAssertEqual(shaped.last, behAfterJoins ? 0xFE90 : 0xFE8F, "\(first)\(second) beh marks \(n)")
          // The pair's own joining shows where a form does: beh (D) as
          // `a`, waw (R) or beh as `b`; of the other pairs neither letter
          // has forms.
          if first == "D" {
            let right = true
            let left = expected
            XCTAssertEqual(shaped[ia], Self.beh.forms[Self.formIndex(right: right, left: left)], "D\(second) \(n)")
          }
          if second == "R" {
            XCTAssertEqual(shaped[ib], expected ? 0xFEEE : 0xFEED, "\(first)R \(n)")
          }
          if second == "D" {
            let right = expected
            XCTAssertEqual(shaped[ib], Self.beh.forms[Self.formIndex(right: right, left: true)], "\(first)D \(n)")
          }
          // Marks never change.
          for i in text.indices where text[i].type == "T" { XCTAssertEqual(shaped[i], text[i].scalar) }
        }
      }
    }
  }

  static func formIndex(right: Bool, left: Bool) -> Int {
    right ? (left ? 3 : 1) : (left ? 2 : 0)
  }

  func testZeroWidthJoinerAndNonJoiner() {
    XCTAssertEqual(shape([Self.beh, Self.zwj]), [0xFE91, 0x200D])
    XCTAssertEqual(shape([Self.zwj, Self.beh, Self.zwj]), [0x200D, 0xFE92, 0x200D])
    XCTAssertEqual(shape([Self.beh, Self.zwnj, Self.beh]), [0xFE8F, 0x200C, 0xFE8F])
    // ZWNJ breaks even between marks; ZWJ joins even an R letter's left.
    XCTAssertEqual(
      shape([Self.beh, Self.fatha, Self.zwnj, Self.fatha, Self.beh]), [0xFE8F, 0x64E, 0x200C, 0x64E, 0xFE8F])
    XCTAssertEqual(shape([Self.alef, Self.zwj, Self.beh]), [0xFE8D, 0x200D, 0xFE90])
    // Tatweel joins both ways, and keeps its code point.
    XCTAssertEqual(shape([Self.tatweel, Self.beh, Self.tatweel]), [0x640, 0xFE92, 0x640])
  }

  func testLettersWithoutFormsKeepTheirCodePointsButJoin() {
    XCTAssertEqual(shape([Self.beh, Self.kashmiriYeh, Self.beh]), [0xFE91, 0x620, 0xFE90])
    XCTAssertEqual(shape([Self.beh, Self.syriacBeth]), [0xFE91, 0x712])
    XCTAssertEqual(shape([Self.beh, Self.halqa, Self.beh]), [0xFE91, 0x840, 0xFE8F])
    // HAMZA has an isolated form in the block, but is non-joining: as it is.
    XCTAssertEqual(shape([Self.hamza]), [0x621])
  }

  // MARK: Lam-alef

  func testLamAlefLigatures() {
    let omitted = ArabicJoining.omitted
    XCTAssertEqual(shape([Self.lam, Self.alef]), [omitted, 0xFEFB])
    XCTAssertEqual(shape([Self.beh, Self.lam, Self.alef]), [0xFE91, omitted, 0xFEFC])
    XCTAssertEqual(shape([Self.beh, Self.lam, Self.alefMadda, Self.beh]), [0xFE91, omitted, 0xFEF6, 0xFE8F])
    // Marks after the alef follow the ligature; marks after the lam, or a
    // ZWJ, keep the two letters apart (as FriBidi does).
    XCTAssertEqual(shape([Self.lam, Self.alef, Self.fatha]), [omitted, 0xFEFB, 0x64E])
    XCTAssertEqual(shape([Self.lam, Self.fatha, Self.alef]), [0xFEDF, 0x64E, 0xFE8E])
    XCTAssertEqual(shape([Self.lam, Self.zwj, Self.alef]), [0xFEDF, 0x200D, 0xFE8E])
    XCTAssertEqual(shape([Self.lam, Self.lam, Self.alef]), [0xFEDF, omitted, 0xFEFC])
    // Not joined (different levels, or a non-joiner): no ligature.
    XCTAssertEqual(shape([Self.lam, Self.alef], levels: [1, 3]), [0xFEDD, 0xFE8D])
    XCTAssertEqual(shape([Self.lam, Self.zwnj, Self.alef]), [0xFEDD, 0x200C, 0xFE8D])
    // Lam and waw: no ligature.
    XCTAssertEqual(shape([Self.lam, Self.waw]), [0xFEDF, 0xFEEE])
  }

  // MARK: Levels

  func testJoiningStopsAtLevelBoundaries() {
    XCTAssertEqual(shape([Self.beh, Self.beh], levels: [1, 3]), [0xFE8F, 0xFE8F])
    // A mark at another level ends the join (an LRM in right-to-left text
    // has level 2); removed characters have no level.
    XCTAssertEqual(shape([Self.beh, Self.fatha, Self.beh], levels: [1, 2, 1]), [0xFE8F, 0x64E, 0xFE8F])
    let none = ArabicJoining.levelless | 1
    XCTAssertEqual(shape([Self.beh, Self.zwj, Self.beh], levels: [1, none, 3]), [0xFE91, 0x200D, 0xFE90])
    // At an even level the sides swap: the first of three is final.
    XCTAssertEqual(shape([Self.beh, Self.beh, Self.beh], levels: [2, 2, 2]), [0xFE90, 0xFE92, 0xFE91])
    XCTAssertEqual(shape([Self.alef, Self.beh], levels: [2, 2]), [0xFE8E, 0xFE91])
    XCTAssertEqual(shape([Self.lam, Self.alef], levels: [2, 2]), [0xFEDD, 0xFE8D])
  }

  // MARK: Against a model of the rules

  /// The forms `shape` should write, found for each character by searching
  /// for the character it may join on each side.
  static func model(_ letters: [Letter], _ levels: [UInt8]) -> [UInt32] {
    func odd(_ i: Int) -> Bool { levels[i] & 1 == 1 || levels[i] & ArabicJoining.levelless != 0 }
    func canRight(_ l: Letter) -> Bool { "RDC".contains(l.type) }
    func canLeft(_ l: Letter) -> Bool { "LDC".contains(l.type) }
    func match(_ a: UInt8, _ b: UInt8) -> Bool { a == b || (a | b) & ArabicJoining.levelless != 0 }
    /// Whether character i (not T) joins the one before it.
    func joinsBefore(_ i: Int) -> Bool {
      guard let j = letters[..<i].lastIndex(where: { $0.type != "T" }) else { return false }
      let after = odd(j) ? canLeft(letters[j]) : canRight(letters[j])
      let before = odd(i) ? canRight(letters[i]) : canLeft(letters[i])
      return after && before && (j + 1...i).allSatisfy { match(levels[j], levels[$0]) }
    }
    func joinsAfter(_ i: Int) -> Bool {
      guard let k = letters[(i + 1)...].firstIndex(where: { $0.type != "T" }) else { return false }
      return joinsBefore(k)
    }
    var result = letters.map(\.scalar)
    var i = 0
    while i < letters.count {
      defer { i += 1 }
      let letter = letters[i]
      guard letter.type != "T", letter.forms != [0, 0, 0, 0] else { continue }
      if letter.scalar == lam.scalar, i + 1 < letters.count, let ligature = ligatures[letters[i + 1].scalar],
        joinsBefore(i + 1)
      {
        result[i] = ArabicJoining.omitted
        result[i + 1] = ligature[joinsBefore(i) ? 1 : 0]
        i += 1
        continue
      }
      let (before, after) = (joinsBefore(i), joinsAfter(i))
      let form = letter.forms[formIndex(right: odd(i) ? before : after, left: odd(i) ? after : before)]
      if form != 0 { result[i] = form }
    }
    return result
  }

  func testRandomTextsFollowTheModel() {
    var random = SeededGenerator(seed: 0x5A4E)
    var shapedLetters = 0
    var ligatures = 0
    for round in 0..<20_000 {
      let count = Int.random(in: 1...14, using: &random)
      var letters: [Letter] = []
      var levels: [UInt8] = []
      var level: UInt8 = 1
      for _ in 0..<count {
        letters.append(Self.alphabet.randomElement(using: &random)!)
        if Int.random(in: 0..<8, using: &random) == 0 { level = UInt8.random(in: 0...3, using: &random) }
        // ZWJ is removed by X9: no level of its own (its low bits vary).
        levels.append(letters.last!.scalar == 0x200D ? ArabicJoining.levelless | level : level)
      }
      let shaped = shape(letters, levels: levels)
      let expected = Self.model(letters, levels)
      if shaped != expected {
        XCTFail(
          "round \(round): \(letters.map { String($0.scalar, radix: 16) }) at \(levels): "
            + "\(shaped.map { String($0, radix: 16) }) != \(expected.map { String($0, radix: 16) })")
        return
      }
      shapedLetters += zip(shaped, letters).filter { $0 != $1.scalar }.count
      ligatures += shaped.filter { $0 == ArabicJoining.omitted }.count
    }
    // The texts exercise the rules: many letters change, some ligatures form.
    XCTAssertGreaterThan(shapedLetters, 50_000)
    XCTAssertGreaterThan(ligatures, 500)
  }

  func testTextsWithoutFormsAreLeftAlone() {
    var output = [UInt32](repeating: 7, count: 3)
    let scalars: [UInt32] = [0x5D0, 0x20, 0x712]
    let levels: [UInt8] = [1, 1, 1]
    let changed = scalars.withUnsafeBufferPointer { s in
      levels.withUnsafeBufferPointer { l in
        output.withUnsafeMutableBufferPointer { ArabicJoining.shape(s, levels: l, into: $0.baseAddress!) }
      }
    }
    XCTAssertFalse(changed)
    XCTAssertEqual(output, [7, 7, 7], "nothing written")
  }
}
