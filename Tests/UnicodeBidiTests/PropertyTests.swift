import BidiTestSupport
import UnicodeBidi
import XCTest

/// Properties of the analysis on random mixed-direction strings.
final class PropertyTests: XCTestCase {
  /// Characters of every class: letters of both directions (one past
  /// U+FFFF), digits, separators, marks, brackets (with the canonical
  /// equivalents U+2329/U+3009), BN, and every explicit control.
  static let pool: [UInt32] = [
    0x61, 0x62, 0x5D0, 0x5D1, 0x627, 0x628, 0x10900, 0x4E2D,
    0x31, 0x32, 0x660, 0x6F1, 0x1D7CE, 0x2B, 0x2D, 0x24, 0x25, 0x2C, 0x2E, 0x3A, 0x2F,
    0x300, 0x5B8, 0xAD, 0x200D, 0x09, 0x20, 0x20, 0x21, 0x1F600,
    0x28, 0x29, 0x5B, 0x5D, 0x2329, 0x3009, 0x7B, 0x7D,
    0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F,
  ]
  static let directions: [DirectionChoice] = [.auto, .leftToRight, .rightToLeft]
  static let encodings: [BidiEncoding] = [.utf8, .utf16, .utf32]

  func randomText(_ random: inout SeededGenerator) -> [UInt32] {
    random.elements(of: Self.pool, lengths: 0...40)
  }

  static func encodeUTF8(_ scalars: [UInt32]) -> [UInt8] {
    var bytes: [UInt8] = []
    for scalar in scalars {
      if let value = Unicode.Scalar(scalar) { bytes.append(contentsOf: String(Character(value)).utf8) }
    }
    return bytes
  }

  static func width(_ scalar: UInt32, _ encoding: BidiEncoding) -> Int {
    switch encoding {
    case .utf32: return 1
    case .utf16: return scalar > 0xFFFF ? 2 : 1
    case .utf8: return scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
    }
  }

  /// L2 done the plain way on the levels of the characters that are not
  /// removed: reverse every run at each level from the highest down to the
  /// lowest odd one.
  static func referenceOrder(_ levels: [(index: Int, level: UInt8)]) -> [Int] {
    var items = levels
    guard let highest = items.map(\.level).max() else { return [] }
    guard let lowestOdd = items.map(\.level).filter({ $0 & 1 == 1 }).min() else { return items.map(\.index) }
    var level = highest
    while level >= lowestOdd {
      var k = 0
      while k < items.count {
        if items[k].level < level {
          k += 1
          continue
        }
        var end = k
        while end < items.count && items[end].level >= level { end += 1 }
        items[k..<end].reverse()
        k = end
      }
      level -= 1
    }
    return items.map(\.index)
  }

  func testMapsArePermutationsAndInverses() {
    var random = SeededGenerator(seed: 0xB1D1)
    // Buffers reused from text to text, as a caller saving allocations would.
    var reusedOrder: [Int] = []
    var reusedToVisual: [Int] = []
    var reusedToLogical: [Int] = []
    for _ in 0..<1500 {
      let text = randomText(&random)
      for direction in Self.directions {
        let line = BidiParagraph(scalars: text, direction: direction).line()
        for encoding in Self.encodings {
          let count = text.reduce(0) { $0 + Self.width($1, encoding) }
          let toVisual = line.logicalToVisual(in: encoding)
          let toLogical = line.visualToLogical(in: encoding)
          XCTAssertEqual(toVisual.sorted(), Array(0..<count), "\(text) \(direction) \(encoding)")
          XCTAssertEqual(toLogical.sorted(), Array(0..<count), "\(text) \(direction) \(encoding)")
          for (logical, visual) in toVisual.enumerated() where toLogical[visual] != logical {
            XCTFail("maps are not inverse at \(logical): \(text) \(direction) \(encoding)")
            break
          }
          // visualOrder is visualToLogical without the removed units.
          let levels = line.levels(in: encoding)
          XCTAssertEqual(levels.count, count)
          XCTAssertEqual(
            line.visualOrder(in: encoding), toLogical.filter { !levels[$0].isRemoved },
            "\(text) \(direction) \(encoding)")
          line.visualOrder(in: encoding, into: &reusedOrder)
          line.logicalToVisual(in: encoding, into: &reusedToVisual)
          line.visualToLogical(in: encoding, into: &reusedToLogical)
          XCTAssertEqual(reusedOrder, line.visualOrder(in: encoding))
          XCTAssertEqual(reusedToVisual, toVisual)
          XCTAssertEqual(reusedToLogical, toLogical)
          XCTAssertEqual(line.withLevels(in: encoding) { Array($0) }, levels)
          // Runs cover every unit, in visual order.
          let runs = line.runs(in: encoding)
          XCTAssertEqual(runs.flatMap { Array($0.start..<$0.end) }.sorted(), Array(0..<count))
          if encoding == .utf32 {
            XCTAssertEqual(
              runs.flatMap { $0.isRightToLeft ? Array(($0.start..<$0.end).reversed()) : Array($0.start..<$0.end) },
              toLogical)
          }
        }
      }
    }
  }

  func testLevelsStayInRange() {
    var random = SeededGenerator(seed: 0x1E7E1)
    // Long runs of embeddings reach the maximum depth.
    let deep = [UInt32](repeating: 0x202B, count: 70) + [UInt32](repeating: 0x202A, count: 70) + [0x61, 0x5D0, 0x31]
    for k in 0..<1000 {
      let text = k == 0 ? deep : randomText(&random)
      for direction in Self.directions {
        let paragraph = BidiParagraph(scalars: text, direction: direction)
        for level in paragraph.levels(in: .utf32) + paragraph.line().levels(in: .utf32) {
          if let value = level.value { XCTAssertLessThanOrEqual(value, 126, "\(text)") }
        }
        XCTAssertLessThanOrEqual(paragraph.level, 1)
      }
    }
  }

  func testUnitExpansionsAgree() {
    var random = SeededGenerator(seed: 0x0E1C)
    for _ in 0..<1000 {
      let text = randomText(&random)
      let bytes = Self.encodeUTF8(text)
      for direction in Self.directions {
        let paragraph = BidiParagraph(scalars: text, direction: direction)
        let fromBytes = BidiParagraph(utf8: bytes, direction: direction)
        XCTAssertEqual(paragraph.level, fromBytes.level)
        let line = paragraph.line()
        let byteLine = fromBytes.line()
        let order = line.visualOrder(in: .utf32)
        XCTAssertEqual(byteLine.visualOrder(in: .utf32), order)
        XCTAssertEqual(byteLine.levels(in: .utf32), line.levels(in: .utf32))
        for encoding in Self.encodings {
          var starts: [Int] = []
          var offset = 0
          for scalar in text {
            starts.append(offset)
            offset += Self.width(scalar, encoding)
          }
          let expanded = order.flatMap { i in Array(starts[i]..<(starts[i] + Self.width(text[i], encoding))) }
          XCTAssertEqual(line.visualOrder(in: encoding), expanded, "\(text) \(encoding)")
          XCTAssertEqual(byteLine.visualOrder(in: encoding), expanded, "\(text) \(encoding)")
          let levels = line.levels(in: .utf32)
          let expandedLevels = levels.indices.flatMap { i in
            [BidiLevel](repeating: levels[i], count: Self.width(text[i], encoding))
          }
          XCTAssertEqual(byteLine.levels(in: encoding), expandedLevels)
        }
        XCTAssertEqual(line.visualScalars(), byteLine.visualScalars())
      }
    }
  }

  func testUniformLevelAgreesWithAnalysis() {
    var random = SeededGenerator(seed: 0x0F0F)
    // Texts drawn from fewer classes, so that uniform ones occur.
    let ltr: [UInt32] = [0x61, 0x31, 0x20, 0x2C, 0x28, 0x29, 0x300, 0x09, 0x4E2D, 0x24, 0x5D0]
    let rtl: [UInt32] = [0x5D0, 0x627, 0x20, 0x2C, 0x28, 0x29, 0x300, 0x21, 0x10900, 0x61]
    // Right-to-left letters among runs of ASCII punctuation (eight and more
    // bytes that the scan passes over at once), the odd letter or digit.
    let punctuated: [UInt32] = [0x5D0, 0x20, 0x2C, 0x28, 0x29, 0x21, 0x2E, 0x2D, 0x20, 0x2C, 0x21, 0x31, 0x62]
    var uniformCount = 0
    for k in 0..<4500 {
      let pool = [ltr, rtl, punctuated][k % 3]
      let text = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        pool.randomElement(using: &random) ?? 0x20
      }
      let bytes = Self.encodeUTF8(text)
      for direction in Self.directions {
        let quick = BidiParagraph.uniformLevel(utf8: bytes, direction: direction)
        XCTAssertEqual(quick, BidiParagraph.uniformLevel(scalars: text, direction: direction), "\(text)")
        let leftToRight = bytes.withUnsafeBufferPointer {
          BidiParagraph.isUniformlyLeftToRight(utf8: $0, direction: direction)
        }
        XCTAssertEqual(leftToRight, quick == 0, "\(text) \(direction)")
        guard let quick else { continue }
        uniformCount += 1
        let paragraph = BidiParagraph(utf8: bytes, direction: direction)
        let uniform = bytes.withUnsafeBufferPointer { BidiParagraph.uniform(utf8: $0, direction: direction) }
        XCTAssertEqual(uniform?.level, quick)
        for encoding in BidiEncoding.allCases {
          XCTAssertEqual(uniform?.length(in: encoding), paragraph.length(in: encoding), "\(text) \(encoding)")
        }
        XCTAssertEqual(paragraph.level, quick, "\(text) \(direction)")
        XCTAssertTrue(paragraph.isUniform, "\(text) \(direction)")
        XCTAssertEqual(
          paragraph.line().levels(in: .utf32), [BidiLevel](repeating: BidiLevel(rawValue: quick), count: text.count),
          "\(text) \(direction)")
      }
    }
    XCTAssertGreaterThan(uniformCount, 1500, "the generator should make many uniform texts")
  }

  /// `uniform(utf8:)` passes over a line's plain ASCII start 16 bytes at a
  /// time in C (`cbs_plain_line_prefix`), the last ones as an overlapping
  /// block: the character that ends that start is put at every offset from
  /// 0 to 80, and the answer compared with the scalars' and the analysis'.
  func testUniformLevelAgreesAtEveryPlainPrefixLength() {
    var random = SeededGenerator(seed: 0x16B)
    let plain = Array("int x = f(a, 42); // \tok".unicodeScalars.map(\.value))
    // What may end the plain start: a letter of either direction, an Arabic
    // digit, a mark, a control character, DEL, a bidi control, ill-formed.
    let enders: [UInt32] = [0x5D0, 0x627, 0x661, 0x300, 0x01, 0x7F, 0x202B, 0x2067, 0x4E2D, 0x1F600]
    var checked = 0
    for length in 0...80 {
      for ender in enders + [nil] {
        var text = (0..<length).map { _ in plain.randomElement(using: &random) ?? 0x20 }
        if let ender { text.insert(ender, at: Int.random(in: 0...length, using: &random)) }
        // Sometimes without ASCII letters and digits, so that right-to-left
        // uniform answers occur too.
        if Bool.random(using: &random) {
          text.removeAll { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        }
        let bytes = Self.encodeUTF8(text)
        for direction in Self.directions {
          let quick = bytes.withUnsafeBufferPointer { BidiParagraph.uniform(utf8: $0, direction: direction) }
          XCTAssertEqual(quick?.level, BidiParagraph.uniformLevel(scalars: text, direction: direction), "\(text)")
          let paragraph = BidiParagraph(utf8: bytes, direction: direction)
          if let quick {
            XCTAssertTrue(paragraph.isUniform, "\(text) \(direction)")
            XCTAssertEqual(paragraph.level, quick.level, "\(text) \(direction)")
            XCTAssertEqual(quick.length(in: .utf16), paragraph.length(in: .utf16), "\(text)")
            checked += 1
          }
        }
      }
    }
    // Line feeds count as the scalar path counts them (B, in both uniform
    // sets).
    for length in 0...40 {
      let text = (0..<length).map { k in k % 7 == 3 ? 0x0A : plain[k % plain.count] }
      let bytes = Self.encodeUTF8(text)
      XCTAssertEqual(BidiParagraph.uniformLevel(utf8: bytes), BidiParagraph.uniformLevel(scalars: text), "\(text)")
    }
    XCTAssertGreaterThan(checked, 500, "most plain starts should end in a uniform line")
  }

  func testLinesEqualTheParagraphWhereL1ChangesNothing() throws {
    var random = SeededGenerator(seed: 0x11AE)
    // L1 changes nothing at a break after a character that is not
    // whitespace, an isolate control or removed by X9.
    let resetOrRemoved: Set<BidiClass> = [.WS, .S, .B, .LRI, .RLI, .FSI, .PDI, .LRE, .RLE, .LRO, .RLO, .PDF, .BN]
    var joinedChecks = 0
    for _ in 0..<1500 {
      let text = randomText(&random)
      guard text.count >= 2 else { continue }
      for direction in Self.directions {
        let paragraph = BidiParagraph(scalars: text, direction: direction)
        let whole = paragraph.line()
        let wholeLevels = whole.levels(in: .utf32)
        let candidates = (1..<text.count).filter { !resetOrRemoved.contains(BidiProperties.bidiClass(text[$0 - 1])) }
        guard !candidates.isEmpty else { continue }
        let breaks = Array(Set((0..<3).compactMap { _ in candidates.randomElement(using: &random) })).sorted()
        let lines = try paragraph.lines(breaks: breaks, in: .utf32)
        XCTAssertEqual(lines.count, breaks.count + 1)
        var start = 0
        for line in lines {
          let range = line.range(in: .utf32)
          XCTAssertEqual(range.lowerBound, start)
          start = range.upperBound
          // The line keeps the paragraph's levels, and its order is L2 of them.
          XCTAssertEqual(line.levels(in: .utf32), Array(wholeLevels[range]), "\(text) \(direction) \(breaks)")
          let kept = range.compactMap { i in wholeLevels[i].value.map { (index: i, level: $0) } }
          XCTAssertEqual(line.visualOrder(in: .utf32), Self.referenceOrder(kept), "\(text) \(direction) \(breaks)")
        }
        XCTAssertEqual(start, text.count)
        // Where both sides of a break are at the paragraph level, no
        // reversal crosses it: the paragraph's order is the lines' orders
        // side by side (right to left in an RTL paragraph).
        for b in breaks {
          let before = wholeLevels[..<b].last { !$0.isRemoved }
          let after = wholeLevels[b...].first { !$0.isRemoved }
          guard before?.value == paragraph.level, after?.value == paragraph.level else { continue }
          let split = try paragraph.lines(breaks: [b], in: .utf32)
          let first = split[0].visualOrder(in: .utf32)
          let second = split[1].visualOrder(in: .utf32)
          let joined = paragraph.level == 0 ? first + second : second + first
          XCTAssertEqual(joined, whole.visualOrder(in: .utf32), "\(text) \(direction) break \(b)")
          joinedChecks += 1
        }
      }
    }
    XCTAssertGreaterThan(joinedChecks, 200, "the generator should make breaks at the paragraph level")
  }

  /// Lines long enough that their runs are found across several 64-place
  /// blocks (`LineLayout.findRuns`), with and without characters removed
  /// by X9: the order is L2 of the line's levels.
  func testLongLinesAreOrderedAsL2Says() {
    var random = SeededGenerator(seed: 0x64B1)
    var manyRuns = 0
    for round in 0..<300 {
      let length = Int.random(in: 60...400, using: &random)
      // Every other text without the controls that X9 removes, so that
      // both of the line's ways to its runs are taken.
      let removedByX9: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0xAD, 0x200D]
      let pool = round % 2 == 0 ? Self.pool : Self.pool.filter { !removedByX9.contains($0) }
      let text = (0..<length).map { _ in pool.randomElement(using: &random) ?? 0x20 }
      for direction in Self.directions {
        let line = BidiParagraph(scalars: text, direction: direction).line()
        let levels = line.levels(in: .utf32)
        let kept = levels.indices.compactMap { i in levels[i].value.map { (index: i, level: $0) } }
        XCTAssertEqual(line.visualOrder(in: .utf32), Self.referenceOrder(kept), "\(text) \(direction)")
        let changes = zip(kept, kept.dropFirst()).filter { $0.level != $1.level }.count
        if changes > 64 { manyRuns += 1 }
      }
    }
    XCTAssertGreaterThan(manyRuns, 100, "the generator should make lines of more than 64 runs")
  }

  /// L1 and the placing of the characters removed by X9, done plainly on
  /// the line `range` of a paragraph: the level of every character, the
  /// removed ones included. L1 resets separators and the whitespace,
  /// isolate controls and removed characters before them or at the end of
  /// the line; then a removed character joins the run of the character
  /// before it (at the start of the line, of the first one after it).
  static func referenceLineLevels(
    _ text: [UInt32], _ range: Range<Int>, _ paragraph: [BidiLevel], _ paragraphLevel: UInt8
  ) -> [UInt8] {
    let classes = range.map { BidiProperties.bidiClass(text[$0]) }
    let removed = range.map { paragraph[$0].isRemoved }
    var levels = range.map { paragraph[$0].value ?? 0 }
    let whitespace: Set<BidiClass> = [.WS, .LRI, .RLI, .FSI, .PDI, .LRE, .LRO, .RLE, .RLO, .PDF, .BN]
    var trailing = true
    for k in levels.indices.reversed() {
      if classes[k] == .S || classes[k] == .B {
        levels[k] = paragraphLevel
        trailing = true
      } else if whitespace.contains(classes[k]) {
        if trailing { levels[k] = paragraphLevel }
      } else {
        trailing = false
      }
    }
    let firstKept = levels.indices.first { !removed[$0] }
    for k in levels.indices where removed[k] {
      levels[k] = k > 0 ? levels[k - 1] : firstKept.map { levels[$0] } ?? paragraphLevel
    }
    return levels
  }

  /// Lines broken anywhere, after and before characters removed by X9 too:
  /// their levels, runs and maps (which place the removed characters) are
  /// those of the plain reference, whether the line reads the paragraph's
  /// levels or a copy of them.
  func testRemovedCharactersJoinTheRunBeforeThemOnEveryLine() throws {
    var random = SeededGenerator(seed: 0x8E3A)
    var removedAtLineStart = 0
    for _ in 0..<1500 {
      let text = randomText(&random)
      guard text.count >= 2 else { continue }
      for direction in Self.directions {
        let paragraph = BidiParagraph(scalars: text, direction: direction)
        let levels = paragraph.levels(in: .utf32)
        let breaks = Array(Set((0..<3).map { _ in Int.random(in: 1..<text.count, using: &random) })).sorted()
        let lines = try [paragraph.line()] + paragraph.lines(breaks: breaks, in: .utf32)
        for line in lines {
          let range = line.range(in: .utf32)
          if range.lowerBound > 0 && levels[range.lowerBound].isRemoved { removedAtLineStart += 1 }
          let expected = Self.referenceLineLevels(text, range, levels, paragraph.level)
          let items = expected.indices.map { (index: range.lowerBound + $0, level: expected[$0]) }
          let context = "\(text) \(direction) \(range)"
          // Both in the paragraph's offsets.
          XCTAssertEqual(line.visualToLogical(in: .utf32), Self.referenceOrder(items), context)
          // The levels after L1, removed characters as such.
          let reported = expected.indices.map { levels[range.lowerBound + $0].isRemoved ? 0xFF : expected[$0] }
          XCTAssertEqual(line.levels(in: .utf32).map(\.rawValue), reported, context)
          var covered = 0
          for run in line.runs(in: .utf32) {
            covered += run.end - run.start
            for k in run.start..<run.end where expected[k - range.lowerBound] != run.level {
              XCTFail("character \(k) in a run at \(run.level), expected \(expected[k - range.lowerBound]): \(context)")
            }
          }
          XCTAssertEqual(covered, range.count, context)
        }
      }
    }
    XCTAssertGreaterThan(removedAtLineStart, 100, "the generator should start lines with removed characters")
  }
}
