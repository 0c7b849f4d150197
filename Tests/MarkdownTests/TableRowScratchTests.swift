import BidiTestSupport
import XCTest

@testable import Markdown

/// The reader keeps one array for the cells of every table row it reads
/// (`Tables.row(_:from:to:into:)`, `BlockParser.rowCells`): on generated
/// lines of pipes, escapes, spaces, tabs, words and ill-formed bytes, one
/// array kept from line to line gives each line the cells a fresh read
/// gives, and the delimiter row's alignments are the same; and tables read
/// with the kept array are the documents' tables (their cells' blocks are
/// those the reader gives a document of the table alone after a blank line).
final class TableRowScratchTests: XCTestCase {
  static let tokens: [[UInt8]] = [
    Array("|".utf8), Array("|".utf8), Array(" ".utf8), Array("\t".utf8), Array("\\|".utf8), Array("a".utf8),
    Array("مرحبا".utf8), Array("---".utf8), Array(":-".utf8), Array("-:".utf8), Array("`x`".utf8), [0xFF], [0xD8],
  ]

  func testKeptCellsAreAFreshRowsCells() {
    var random = SeededGenerator(seed: 4_547)
    var kept: [Range<Int>] = []
    var rows = 0
    var delimiterRows = 0
    var illFormed = 0
    for _ in 0..<20_000 {
      var line: [UInt8] = []
      for _ in 0..<Int.random(in: 0...10, using: &random) { line += Self.tokens.randomElement(using: &random)! }
      line.withUnsafeBufferPointer { bytes in
        let fresh = Tables.row(bytes, from: 0, to: bytes.count)
        let found = Tables.row(bytes, from: 0, to: bytes.count, into: &kept)
        XCTAssertEqual(found ? kept : nil, fresh, "\(line)")
        if fresh != nil { rows += 1 }
        let cursor = LineCursor(bytes: bytes, start: 0, end: bytes.count)
        var cells: [Range<Int>] = [0..<1, 2..<3]
        var empty: [Range<Int>] = []
        let alignments = Tables.delimiterRow(cursor, from: 0, cells: &cells)
        XCTAssertEqual(alignments, Tables.delimiterRow(cursor, from: 0, cells: &empty), "\(line)")
        // The cells of a well-formed row read unchecked (`wellFormed`, as
        // the delimiter row and the header row are) are the checked read's;
        // a delimiter row (read unchecked) is well-formed.
        var unchecked: [Range<Int>] = []
        let wellFormed = Tables.isWellFormed(bytes, 0..<bytes.count)
        if wellFormed {
          let found = Tables.row(bytes, from: 0, to: bytes.count, into: &unchecked, wellFormed: true)
          XCTAssertEqual(found ? unchecked : nil, fresh, "\(line)")
        } else {
          XCTAssertNil(alignments, "\(line)")
          illFormed += 1
        }
        if alignments != nil { XCTAssertEqual(cells, fresh, "\(line)") }
        if alignments != nil { delimiterRows += 1 }
      }
    }
    XCTAssertGreaterThan(rows, 5_000)
    XCTAssertGreaterThan(delimiterRows, 100)
    XCTAssertGreaterThan(illFormed, 1_000)
  }

  /// Documents of several tables, rows of varied cell counts, with lines
  /// between them that open other blocks: each table's cells are those of
  /// the same table read alone.
  func testTablesReadWithTheKeptCells() {
    var random = SeededGenerator(seed: 4_548)
    let rows = ["| a | b |", "| c |", "| d | e | f |", "x | y", "|\\|a|b|", "> | q |", "- | r |", "| مرحبا | ب |"]
    var tables = 0
    for _ in 0..<2_000 {
      var parts: [String] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        var table = ["| h | i |", "| --- | :-: |"]
        for _ in 0..<Int.random(in: 0...4, using: &random) { table.append(rows.randomElement(using: &random)!) }
        parts.append(table.joined(separator: "\n"))
      }
      let whole = MarkdownReader().read(MarkdownSource(parts.joined(separator: "\n\n")), startsDocument: true)
      var line = 0
      var cells: [MarkdownBlock] = []
      for part in parts {
        let alone = MarkdownReader().read(MarkdownSource(part), startsDocument: true)
        for var block in alone.blocks {
          block.lines = (block.lines.lowerBound + line)...(block.lines.upperBound + line)
          block.pieces = MarkdownPieces(
            block.pieces.map { MarkdownPiece(line: $0.line + line, columns: $0.columns) })
          cells.append(block)
        }
        line += part.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        tables += 1
      }
      XCTAssertEqual(whole.blocks, cells, parts.joined(separator: "\n\n"))
    }
    XCTAssertGreaterThan(tables, 4_000)
  }

  /// `Tables.nextPipe` (eight bytes a step) finds the `|` a byte-by-byte
  /// search finds, from every start, in random bytes where pipes, other
  /// ASCII and bytes past ASCII (whose lanes borrow) are near each other.
  func testNextPipeIsTheFirstPipe() {
    var random = SeededGenerator(seed: 4_549)
    let alphabet: [UInt8] = [0x7C, 0x7C, 0x7B, 0x7D, 0x3C, 0x00, 0x01, 0x20, 0x5C, 0x61, 0xFC, 0xFD, 0x80, 0xD8, 0xFF]
    var found = 0
    for _ in 0..<5_000 {
      let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
      bytes.withUnsafeBufferPointer { buffer in
        for start in 0...buffer.count {
          let end = Int.random(in: start...buffer.count, using: &random)
          let expected = buffer[start..<end].firstIndex(of: 0x7C) ?? end
          XCTAssertEqual(Tables.nextPipe(buffer, from: start, end: end), expected, "\(bytes) \(start)..<\(end)")
          if expected < end { found += 1 }
        }
      }
    }
    XCTAssertGreaterThan(found, 20_000)
  }
}
