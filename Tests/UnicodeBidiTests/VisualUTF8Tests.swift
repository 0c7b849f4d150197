import BidiTestSupport
import UnicodeBidi
import XCTest

/// `BidiLine.writeVisualUTF8`, the writer of `bidi-lsp visual`, against
/// `visualText(mirrored:controls:)` and the properties it relies on.
final class VisualUTF8Tests: XCTestCase {
  /// Writes `line` into a buffer of exactly the documented bound.
  static func written(
    _ line: BidiLine, utf8Length: Int, mirrored: Bool = true, controls: ControlDisplay
  ) -> [UInt8] {
    let bound = BidiLine.visualUTF8Bound(utf8Length: utf8Length)
    return [UInt8](unsafeUninitializedCapacity: max(bound, 1)) { buffer, initialized in
      initialized = line.writeVisualUTF8(mirrored: mirrored, controls: controls, to: buffer.baseAddress!)
    }
  }

  /// The writer skips the mirroring lookup for every class but ON.
  func testOnlyClassONHasMirroredGlyphs() {
    var mirrored = 0
    for scalar in UInt32(0)...0x10FFFF where BidiProperties.mirroringGlyph(scalar) != nil {
      XCTAssertEqual(BidiProperties.bidiClass(scalar), .ON, "U+\(String(scalar, radix: 16, uppercase: true))")
      mirrored += 1
    }
    XCTAssertGreaterThan(mirrored, 300)
  }

  /// The visual text from the line's maps alone, character by character:
  /// `visualToLogical` gives the order, `levels` the removed characters and
  /// L4's odd levels; the controls are shown as `controls` says.
  static func reference(
    _ line: BidiLine, _ scalars: [UInt32], mirrored: Bool, controls: ControlDisplay
  ) -> [UInt8] {
    let levels = line.levels(in: .utf32)
    var text = ""
    for i in line.visualToLogical(in: .utf32) {
      let scalar = scalars[i]
      if controls != .keep, let control = BidiControl(scalar: scalar) {
        if controls == .names { text += "[\(control.shortName)]" }
        continue
      }
      guard levels[i] != .removed else { continue }
      let shown = mirrored && levels[i].rawValue & 1 == 1 ? BidiProperties.mirroringGlyph(scalar) ?? scalar : scalar
      text.unicodeScalars.append(Unicode.Scalar(shown)!)
    }
    return Array(text.utf8)
  }

  /// Random mixed text from every class: the bytes are those of the
  /// reference above, for every control display, both L3 choices, with and
  /// without L4; `visualText` is the same text.
  func testMatchesVisualTextOnRandomText() {
    var random = SeededGenerator(seed: 0x5649_5355_414C)
    let pool = PropertyTests.pool + [0x61C, 0x64B, 0x5B0, 0x2264, 0xAB, 0xBB, 0x0B, 0x1F]
    for _ in 0..<3000 {
      let length = Int.random(in: 0...40, using: &random)
      let scalars = (0..<length).map { _ in pool.randomElement(using: &random) ?? 0x20 }
      let utf8 = PropertyTests.encodeUTF8(scalars)
      let direction = PropertyTests.directions.randomElement(using: &random) ?? .auto
      let paragraph = BidiParagraph(utf8: utf8, direction: direction)
      for marks in [CombiningMarkOrder.resolved, .afterBase] {
        let line = paragraph.line(combiningMarks: marks)
        for controls in ControlDisplay.allCases {
          for mirrored in [true, false] {
            let expected = Self.reference(line, scalars, mirrored: mirrored, controls: controls)
            let bytes = Self.written(line, utf8Length: utf8.count, mirrored: mirrored, controls: controls)
            XCTAssertEqual(bytes, expected, "\(scalars) \(direction) \(marks) \(controls) \(mirrored)")
            XCTAssertEqual(Array(line.visualText(mirrored: mirrored, controls: controls).utf8), expected)
          }
        }
      }
    }
  }

  /// Each byte of an ill-formed sequence is one U+FFFD, in its place in the
  /// visual order; the output fits the bound.
  func testIllFormedBytesAreOneReplacementEach() {
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    // Hebrew alef, E2 80 (a maximal subpart of two bytes), "ab".
    let input: [UInt8] = [0xD7, 0x90, 0xE2, 0x80, 0x61, 0x62]
    let line = BidiParagraph(utf8: input).line()
    let bytes = Self.written(line, utf8Length: input.count, controls: .strip)
    XCTAssertEqual(bytes, [0x61, 0x62] + replacement + replacement + [0xD7, 0x90])
    // Every byte ill-formed: the largest output, three bytes a byte.
    let invalid = [UInt8](repeating: 0xFF, count: 7)
    let all = Self.written(BidiParagraph(utf8: invalid).line(), utf8Length: invalid.count, controls: .names)
    XCTAssertEqual(all, Array([[UInt8]](repeating: replacement, count: 7).joined()))
  }

  /// A line of controls only, written by name: within the bound.
  func testNamedControlsFitTheBound() {
    let scalars: [UInt32] = [0x61C, 0x61C, 0x2067, 0x200F, 0x202E, 0x2069]
    let utf8 = PropertyTests.encodeUTF8(scalars)
    let line = BidiParagraph(utf8: utf8).line()
    let bytes = Self.written(line, utf8Length: utf8.count, controls: .names)
    XCTAssertEqual(bytes, Self.reference(line, scalars, mirrored: true, controls: .names))
    XCTAssertLessThanOrEqual(bytes.count, BidiLine.visualUTF8Bound(utf8Length: utf8.count))
  }

  /// Lines of words (runs of ASCII, Hebrew or Arabic letters, digits,
  /// brackets and spaces) with the odd isolate, embedding, mark and ALM:
  /// the writer's fast paths (four ASCII characters at a time, two-byte
  /// letters and ASCII of right-to-left runs, controls dropped without the
  /// search for marks) write the bytes of the reference, character by
  /// character from the maps.
  func testFastPathsMatchTheReferenceOnWords() {
    var random = SeededGenerator(seed: 0x574F_5244_53)
    let words: [[UInt32]] = [
      Array("hello".unicodeScalars.map(\.value)), Array("ab cd".unicodeScalars.map(\.value)),
      [0x5D0, 0x5D1, 0x5D2], [0x627, 0x644, 0x639, 0x631, 0x628, 0x64A, 0x629], [0x31, 0x32, 0x33],
      [0x28, 0x627, 0x29], [0x5B, 0x61, 0x5D], [0x3C, 0x3E], [0x628, 0x650, 0x64E], [0x661, 0x662],
      [0x2066], [0x2067], [0x2068], [0x2069], [0x202A], [0x202B], [0x202C], [0x202D], [0x202E],
      [0x200E], [0x200F], [0x61C], [0x4E2D], [0x2264], [0x1F600], [0x300],
    ]
    for _ in 0..<1500 {
      var scalars: [UInt32] = []
      for _ in 0..<Int.random(in: 0...30, using: &random) {
        scalars += words.randomElement(using: &random) ?? []
        if Bool.random(using: &random) { scalars.append(0x20) }
      }
      let utf8 = PropertyTests.encodeUTF8(scalars)
      let direction = PropertyTests.directions.randomElement(using: &random) ?? .auto
      let paragraph = BidiParagraph(utf8: utf8, direction: direction)
      for marks in [CombiningMarkOrder.resolved, .afterBase] {
        let line = paragraph.line(combiningMarks: marks)
        for controls in ControlDisplay.allCases {
          let expected = Self.reference(line, scalars, mirrored: true, controls: controls)
          let bytes = Self.written(line, utf8Length: utf8.count, controls: controls)
          XCTAssertEqual(bytes, expected, "\(scalars) \(direction) \(marks) \(controls)")
        }
      }
    }
  }

  /// The writer's table of the controls' names (`VisualControlNames`):
  /// each control's `shortName`, and no name for any other scalar value.
  func testControlNamesTableHoldsEachShortName() {
    for control in BidiControl.allCases {
      XCTAssertEqual(VisualControlNames.name(of: control.rawValue), control.shortName)
    }
    for scalar in UInt32(0)...0x3000 where BidiControl(scalar: scalar) == nil {
      XCTAssertNil(VisualControlNames.name(of: scalar), "U+\(String(scalar, radix: 16))")
    }
  }

  /// Each control between two letters, and characters X9 removes that are
  /// not controls (U+0000, U+00AD, U+200B: BN), written by name: `[RLI]`
  /// with `.names`; with the names of kept controls (the visual order a
  /// diagnostic quotes) `<RLI>` for each one X9 keeps and nothing for the
  /// others.
  func testEachControlIsWrittenByItsName() {
    let others: [UInt32] = [0x00, 0xAD, 0x200B]
    for scalar in BidiControl.allCases.map(\.rawValue) + others {
      let scalars: [UInt32] = [0x61, scalar, 0x62]
      let utf8 = PropertyTests.encodeUTF8(scalars)
      let line = BidiParagraph(utf8: utf8, direction: .leftToRight).line()
      let named = Self.written(line, utf8Length: utf8.count, controls: .names)
      XCTAssertEqual(named, Self.reference(line, scalars, mirrored: true, controls: .names))
      let control = BidiControl(scalar: scalar)
      XCTAssertEqual(String(decoding: named, as: UTF8.self), "a" + (control.map { "[\($0.shortName)]" } ?? "") + "b")
      let bound = BidiLine.visualUTF8Bound(utf8Length: utf8.count)
      let kept = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
        initialized = line.writeVisualUTF8NamingKeptControls(to: buffer.baseAddress!)
      }
      let keptByX9 = control.map { !$0.isEmbeddingOrOverride && $0 != .pdf } ?? false
      XCTAssertEqual(
        String(decoding: kept, as: UTF8.self), "a" + (keptByX9 ? "<\(control!.shortName)>" : "") + "b",
        "U+\(String(scalar, radix: 16))")
    }
  }
}
