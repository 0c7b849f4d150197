import BidiTestSupport
import DocumentStore
import UnicodeBidi
import XCTest

/// Thousands of random edits, each checked against `ShadowText`.
final class RandomEditTests: XCTestCase {
  typealias Tree = LineTree<LetterX>

  let tunings = [
    tinyTuning,
    LineTreeTuning(maxLeafBytes: 48, maxChildren: 4),
    LineTreeTuning(maxLeafBytes: 200, maxChildren: 6),
    LineTreeTuning.standard,
  ]

  func randomPosition(
    _ lines: [ShadowText.ShadowLine], line: Int, _ encoding: PositionEncoding,
    _ rng: inout SeededGenerator
  ) -> LSPPosition {
    guard line < lines.count else { return LSPPosition(line: line, character: 0) }
    let length = ShadowText.boundaries(lines[line].string, encoding).last?.units ?? 0
    return LSPPosition(line: line, character: Int.random(in: 0...(length + 2), using: &rng))
  }

  func randomRange(_ shadow: ShadowText, _ encoding: PositionEncoding, _ rng: inout SeededGenerator) -> LSPRange {
    let lines = shadow.lines
    let outOfRange = Int.random(in: 0..<60, using: &rng) == 0
    let startLine = outOfRange ? lines.count : Int.random(in: 0..<lines.count, using: &rng)
    let multiLine = Int.random(in: 0..<4, using: &rng) == 0
    let span = Int.random(in: 0...(multiLine ? 8 : 1), using: &rng)
    let endLine = min(startLine + span, lines.count - 1 + (outOfRange ? 1 : 0))
    var range = LSPRange(
      start: randomPosition(lines, line: startLine, encoding, &rng),
      end: randomPosition(lines, line: endLine, encoding, &rng))
    if startLine == endLine && range.end < range.start && Int.random(in: 0..<8, using: &rng) != 0 {
      swap(&range.start, &range.end)
    }
    return range
  }

  func testRandomEditsMatchANaiveModel() throws {
    var rng = SeededGenerator(seed: 0x00B1_D1F0_0D5E_ED01)
    var applied = 0
    var refused = 0
    var checkedPositions = 0
    for document in 0..<100 {
      let tuning = tunings[document % tunings.count]
      let initial = TextPieces.text(pieces: Int.random(in: 0...200, using: &rng), using: &rng)
      var tree = try Tree(initial, tuning: tuning)
      var shadow = ShadowText(initial)
      for step in 0..<110 {
        let encoding = PositionEncoding.allCases[Int.random(in: 0..<3, using: &rng)]
        let range = randomRange(shadow, encoding, &rng)
        let pieces = Int.random(in: 0..<10, using: &rng) == 0 ? 40 : Int.random(in: 0...5, using: &rng)
        let text = TextPieces.text(pieces: pieces, using: &rng)
        let valid = shadow.replace(range, with: text, encoding)
        do {
          try tree.replace(range, with: text, in: encoding)
          XCTAssertTrue(valid, "accepted an invalid change \(range)")
          applied += 1
        } catch {
          XCTAssertFalse(valid, "refused a valid change \(range): \(error)")
          refused += 1
        }
        checkedPositions += try check(tree, against: shadow, &rng, "document \(document) step \(step)")
        if step % 5 == 0 { try checkAnalysis(&tree, against: shadow, &rng) }
      }
    }
    XCTAssertGreaterThanOrEqual(applied, 10_000)
    XCTAssertGreaterThan(refused, 50)
    XCTAssertGreaterThan(checkedPositions, 1_000_000)
  }

  /// Compares everything observable; returns how many positions it checked.
  func check(_ tree: Tree, against shadow: ShadowText, _ rng: inout SeededGenerator, _ context: String) throws -> Int {
    XCTAssertEqual(tree.utf8Bytes, shadow.bytes, context)
    let lines = shadow.lines
    XCTAssertEqual(tree.lineCount, lines.count, context)
    XCTAssertEqual(tree.invariantViolations(), [], context)
    var positions = 0
    var visited = 0
    // Every line, walked leaf by leaf: content, terminator, counts and
    // conversions both ways in every encoding.
    tree.forEachLine(in: 0..<lines.count) { index, line in
      visited += 1
      let expected = lines[index]
      XCTAssertEqual(line.withUTF8 { Array($0) }, expected.content, context)
      XCTAssertEqual(line.terminator.utf8Count, expected.terminator.count, context)
      let string = expected.string
      for encoding in PositionEncoding.allCases {
        let boundaries = ShadowText.boundaries(string, encoding)
        let length = boundaries.last?.units ?? 0
        XCTAssertEqual(line.count(in: encoding), length, context)
        for _ in 0..<2 {
          let character = Int.random(in: 0...(length + 1), using: &rng)
          let offset = line.utf8Offset(ofCharacter: character, in: encoding)
          XCTAssertEqual(offset, ShadowText.utf8Offset(boundaries, character: character), context)
          let back = line.character(atUTF8Offset: offset, in: encoding)
          XCTAssertEqual(back, ShadowText.character(boundaries, utf8Offset: offset), context)
          XCTAssertEqual(line.utf8Offset(ofCharacter: back, in: encoding), offset, context)
          let byte = Int.random(in: 0...(expected.content.count + 1), using: &rng)
          XCTAssertEqual(
            line.character(atUTF8Offset: byte, in: encoding), ShadowText.character(boundaries, utf8Offset: byte),
            context)
          positions += 2
        }
      }
    }
    XCTAssertEqual(visited, lines.count, context)
    // Random positions through the tree's own API.
    for _ in 0..<12 {
      let encoding = PositionEncoding.allCases[Int.random(in: 0..<3, using: &rng)]
      let index = Int.random(in: 0..<lines.count, using: &rng)
      let boundaries = ShadowText.boundaries(lines[index].string, encoding)
      let character = Int.random(in: 0...((boundaries.last?.units ?? 0) + 2), using: &rng)
      let point = try tree.resolve(LSPPosition(line: index, character: character), in: encoding)
      XCTAssertEqual(
        point, SourcePosition(line: index, column: ShadowText.utf8Offset(boundaries, character: character)))
      let back = try tree.position(of: point, in: encoding)
      XCTAssertEqual(back.character, ShadowText.character(boundaries, utf8Offset: point.column), context)
      XCTAssertEqual(try tree.resolve(back, in: encoding), point, context)
      XCTAssertEqual(try tree.line(index).withUTF8 { Array($0) }, lines[index].content, context)
      XCTAssertEqual(try tree.metrics(upTo: index).utf8Count, lines[index].start, context)
      positions += 2
    }
    return positions
  }

  /// Fills some caches, checks queries against a naive fold, and checks
  /// that every cached analysis is still that of its line's current text.
  func checkAnalysis(_ tree: inout Tree, against shadow: ShadowText, _ rng: inout SeededGenerator) throws {
    let lines = shadow.lines
    let naive = lines.map { LetterX(content: $0.content).summary }
    for index in lines.indices {
      if let cached = tree.cachedAnalysis(ofLine: index) {
        XCTAssertEqual(cached.xCount, LetterX(content: lines[index].content).xCount, "stale cache for line \(index)")
      }
    }
    let lower = Int.random(in: 0...lines.count, using: &rng)
    let upper = Int.random(in: lower...lines.count, using: &rng)
    XCTAssertEqual(
      try tree.summary(ofLines: lower..<upper), naive[lower..<upper].reduce(LetterX.emptySummary, LetterX.combine))
    XCTAssertEqual(try tree.summary(ofLines: 0..<lines.count), naive.reduce(LetterX.emptySummary, LetterX.combine))
    let k = Int.random(in: 0...lines.count, using: &rng)
    XCTAssertEqual(tree.lastLine(before: k) { $0.linesWithX > 0 }, naive[..<k].lastIndex { $0.linesWithX > 0 })
    XCTAssertEqual(tree.firstLine(from: k) { $0.linesWithX > 0 }, naive[k...].firstIndex { $0.linesWithX > 0 })
    let line = Int.random(in: 0..<lines.count, using: &rng)
    XCTAssertEqual(try tree.analysis(ofLine: line).xCount, LetterX(content: lines[line].content).xCount)
  }

  /// Big splices (hundreds of lines removed or inserted at once) in deep
  /// trees: concatenations of subtrees of very different heights.
  func testLargeSplicesKeepTheTreeBalanced() throws {
    var rng = SeededGenerator(seed: 7)
    let initial = (0..<3000).map { "\($0) " + TextPieces.text(pieces: 2, using: &rng) }.joined(separator: "\n")
    for tuning in [tinyTuning, LineTreeTuning(maxLeafBytes: 64, maxChildren: 6)] {
      var tree = try Tree(initial, tuning: tuning)
      var shadow = ShadowText(initial)
      for step in 0..<150 {
        let lineCount = shadow.lines.count
        let startLine = Int.random(in: 0..<lineCount, using: &rng)
        let endLine = min(lineCount - 1, startLine + Int.random(in: 0...1500, using: &rng))
        let range = LSPRange(
          startLine, Int.random(in: 0...3, using: &rng), endLine, Int.random(in: 0...3, using: &rng))
        let inserted = (0..<Int.random(in: 0...600, using: &rng)).map { "new \($0) x" }.joined(separator: "\r\n")
        let applied = (try? tree.replace(range, with: inserted, in: .utf16)) != nil
        XCTAssertEqual(shadow.replace(range, with: inserted, .utf16), applied)
        XCTAssertEqual(tree.utf8Bytes, shadow.bytes, "step \(step)")
        XCTAssertEqual(tree.lineCount, shadow.lines.count, "step \(step)")
        XCTAssertEqual(tree.invariantViolations(), [], "step \(step)")
      }
    }
  }
}
