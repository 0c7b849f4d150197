import BidiTestSupport
import DocumentStore
import UnicodeBidi
import XCTest

/// The line change an edit answers is exact, and the line states of
/// `LineState` follow it: kept outside the change, stale on its first line,
/// gone from its other lines.
final class LineChangeTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  /// A state that remembers the line it was made for. The tag of an empty
  /// line is the common state, which leaves keep in a byte.
  struct Tag: LineState, Hashable {
    var line: [UInt8]
    var isFlagged: Bool { line.contains(0x78) }  // an "x"
    static var common: Tag? { Tag(line: []) }
    var isCommon: Bool { line.isEmpty }
  }

  func testRandomEditsAnswerTheLinesTheyChangedAndKeepTheOtherStates() throws {
    var rng = SeededGenerator(seed: 0x11E_C4A9)
    var edits = 0
    var joins = 0
    for document in 0..<60 {
      let tuning = document.isMultiple(of: 2) ? tinyTuning : LineTreeTuning(maxLeafBytes: 64, maxChildren: 6)
      var tree = try Tree(TextPieces.text(pieces: Int.random(in: 0...120, using: &rng), using: &rng), tuning: tuning)
      for step in 0..<80 {
        let before = ShadowText(tree.text).lines
        // Tag every line, some stale, some not at all.
        for n in 0..<before.count where Int.random(in: 0..<8, using: &rng) != 0 {
          let stale = Int.random(in: 0..<4, using: &rng) == 0
          tree.setLineState(StoredLineState(Tag(line: before[n].content), isStale: stale), ofLine: n)
        }
        let startLine = Int.random(in: 0..<before.count, using: &rng)
        let endLine = min(before.count - 1, startLine + Int.random(in: 0...3, using: &rng))
        let range = LSPRange(
          startLine, Int.random(in: 0...6, using: &rng), endLine, Int.random(in: 0...6, using: &rng))
        guard range.start <= range.end else { continue }
        let saved = (0..<before.count).map { tree.lineState(ofLine: $0, as: Tag.self) }
        let text = TextPieces.text(pieces: Int.random(in: 0...4, using: &rng), using: &rng)
        let change = try tree.replace(range, with: text, in: .utf16)
        edits += 1
        let after = ShadowText(tree.text).lines
        let context = "document \(document) step \(step): \(range) → \(change)"
        XCTAssertEqual(after.count, before.count - change.oldLines.count + change.newLineCount, context)
        // Exact: the lines from the start's to the end's, and the line
        // before when its lone CR joined a LF the edit brought.
        XCTAssertEqual(change.oldLines.upperBound, range.end.line + 1, context)
        if change.oldLines.lowerBound == range.start.line - 1 {
          joins += 1
          XCTAssertEqual(before[range.start.line - 1].terminator, [0x0D], context)
          XCTAssertEqual(after[range.start.line - 1].terminator, [0x0D, 0x0A], context)
        } else {
          XCTAssertEqual(change.oldLines.lowerBound, range.start.line, context)
        }
        // Every other line is byte for byte the one it was, state included.
        let shift = change.newLineCount - change.oldLines.count
        for n in 0..<before.count where !change.oldLines.contains(n) {
          let m = n < change.oldLines.lowerBound ? n : n + shift
          XCTAssertEqual(after[m].content, before[n].content, context)
          XCTAssertEqual(after[m].terminator, before[n].terminator, context)
          let state = tree.lineState(ofLine: m, as: Tag.self)
          XCTAssertEqual(state?.state, saved[n]?.state, context)
          XCTAssertEqual(state?.isStale, saved[n]?.isStale, context)
        }
        // The first touched line keeps its state, stale; the others have none.
        let first = change.oldLines.lowerBound
        XCTAssertEqual(tree.lineState(ofLine: first, as: Tag.self)?.state, saved[first]?.state, context)
        if saved[first] != nil { XCTAssertEqual(tree.lineState(ofLine: first, as: Tag.self)?.isStale, true, context) }
        for m in change.newLines.dropFirst() { XCTAssertNil(tree.lineState(ofLine: m, as: Tag.self), context) }
        // The counts behind the queries.
        XCTAssertEqual(tree.invariantViolations(), [], context)
        let fresh = Set(
          (0..<after.count).filter { tree.lineState(ofLine: $0, as: Tag.self).map { !$0.isStale } ?? false })
        XCTAssertEqual(tree.freshStateCount, fresh.count, context)
        let k = Int.random(in: 0...after.count, using: &rng)
        XCTAssertEqual(
          tree.firstLineWithoutFreshState(from: k), (k..<after.count).first { !fresh.contains($0) }, context)
        XCTAssertEqual(
          tree.nextFlaggedLine(from: k),
          (k..<after.count).first { tree.lineState(ofLine: $0, as: Tag.self)?.state.isFlagged ?? false }, context)
      }
      tree.removeAllLineStates()
      XCTAssertEqual(tree.freshStateCount, 0)
      XCTAssertNil(tree.nextFlaggedLine(from: 0))
      XCTAssertEqual(tree.invariantViolations(), [])
    }
    XCTAssertGreaterThan(edits, 3_000)
    XCTAssertGreaterThan(joins, 0, "no edit joined a CR with a LF")
  }

  func testAWholeReplacementAnswersEveryLine() throws {
    var tree = try Tree("a\nb\nc")
    XCTAssertEqual(try tree.replaceAll(with: "x\ny"), LineChange(oldLines: 0..<3, newLineCount: 2))
    var document = Document(uri: "file:///a", languageId: "plaintext", version: 1, text: try Document.Text("a\r\nb"))
    let changes = try document.apply(
      [
        ContentChange(range: LSPRange(0, 1, 1, 0), text: "\n\n"),
        ContentChange(range: LSPRange(2, 0, 2, 1), text: "c"),
        .full("z"),
      ], version: 2, encoding: .utf16)
    XCTAssertEqual(
      changes,
      [
        LineChange(oldLines: 0..<2, newLineCount: 3), LineChange(oldLines: 2..<3, newLineCount: 1),
        LineChange(oldLines: 0..<3, newLineCount: 1),
      ])
    XCTAssertEqual(document.text.text, "z")
  }

  func testUpdateLineStatesVisitsLinesInOrderAcrossLeavesAndStopsWhenAsked() throws {
    var rng = SeededGenerator(seed: 0x5747E5)
    for document in 0..<40 {
      let tuning = document.isMultiple(of: 2) ? tinyTuning : LineTreeTuning(maxLeafBytes: 64, maxChildren: 6)
      var tree = try Tree(TextPieces.text(pieces: Int.random(in: 1...150, using: &rng), using: &rng), tuning: tuning)
      let lines = ShadowText(tree.text).lines
      // A model: the same states set line by line with setLineState.
      var model = tree
      for n in lines.indices where Int.random(in: 0..<3, using: &rng) == 0 {
        let state = StoredLineState(Tag(line: [UInt8(n & 0x7F)]))
        tree.setLineState(state, ofLine: n)
        model.setLineState(state, ofLine: n)
      }
      let start = Int.random(in: 0..<lines.count, using: &rng)
      let stop = Int.random(in: start..<(lines.count + 3), using: &rng)
      var visited: [Int] = []
      tree.updateLineStates(from: start, as: Tag.self) { n, line, slot in
        visited.append(n)
        XCTAssertEqual(line.withUTF8 { Array($0) }, lines[n].content, "line \(n)")
        XCTAssertEqual(slot?.state, model.lineState(ofLine: n, as: Tag.self)?.state, "line \(n)")
        slot = n.isMultiple(of: 3) ? nil : StoredLineState(Tag(line: lines[n].content), isStale: n.isMultiple(of: 5))
        return n < stop
      }
      let last = min(stop, lines.count - 1)
      XCTAssertEqual(visited, Array(start...last), "document \(document)")
      for n in start...last {
        model.setLineState(
          n.isMultiple(of: 3) ? nil : StoredLineState(Tag(line: lines[n].content), isStale: n.isMultiple(of: 5)),
          ofLine: n)
      }
      for n in lines.indices {
        XCTAssertEqual(tree.lineState(ofLine: n, as: Tag.self)?.state, model.lineState(ofLine: n, as: Tag.self)?.state)
        XCTAssertEqual(
          tree.lineState(ofLine: n, as: Tag.self)?.isStale, model.lineState(ofLine: n, as: Tag.self)?.isStale)
      }
      XCTAssertEqual(tree.freshStateCount, model.freshStateCount, "document \(document)")
      XCTAssertEqual(tree.nextFlaggedLine(from: 0), model.nextFlaggedLine(from: 0))
      XCTAssertEqual(tree.firstLineWithoutFreshState(from: 0), model.firstLineWithoutFreshState(from: 0))
    }
  }
}
