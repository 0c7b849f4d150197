import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

/// Every mode over generated lines, given as bytes (some of them not valid
/// UTF-8): the plans are well formed and idempotent, and planning never traps.
final class RandomizedPlanTests: XCTestCase {
  /// Applies byte-offset edits to bytes, checking they are sorted, apart,
  /// inside the line and not inside a UTF-8 sequence.
  private func applying(_ edits: [MarkEdit], to bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
    -> [UInt8]
  {
    var result: [UInt8] = []
    var position = 0
    var previousStart = -1
    for edit in edits {
      guard edit.start >= position, edit.start > previousStart, edit.start <= edit.end, edit.end <= bytes.count else {
        XCTFail("badly placed \(edit) among \(edits)", file: file, line: line)
        return bytes
      }
      for offset in [edit.start, edit.end] where offset < bytes.count {
        XCTAssertFalse(
          bytes[offset] & 0xC0 == 0x80 && offset > 0 && isInsideSequence(bytes, offset), "\(edit) splits a character",
          file: file, line: line)
      }
      result += bytes[position..<edit.start] + Array(edit.newText.utf8)
      position = edit.end
      previousStart = edit.start
    }
    return result + bytes[position...]
  }

  /// True when `offset` is a continuation byte that a valid lead byte before
  /// it covers.
  private func isInsideSequence(_ bytes: [UInt8], _ offset: Int) -> Bool {
    var lead = offset - 1
    while lead >= 0 && offset - lead < 4 && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
    guard lead >= 0 else { return false }
    let length = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : bytes[lead] >= 0xC2 ? 2 : 1
    guard lead + length > offset, lead + length <= bytes.count else { return false }
    var decoder = UTF8()
    var iterator = bytes[lead..<lead + length].makeIterator()
    if case .scalarValue = decoder.decode(&iterator) { return true }
    return false
  }

  private func randomBytes(_ generator: inout SeededGenerator) -> [UInt8] {
    var bytes = Array(randomLine(&generator, pieces: 14).utf8)
    if Int.random(in: 0..<4, using: &generator) == 0, !bytes.isEmpty {
      // Break the encoding: a stray continuation byte, a truncated sequence
      // or an invalid lead byte.
      let damage: [UInt8] = [[0x80], [0xE2, 0x80], [0xFF], [0xC0, 0xAF]].randomElement(using: &generator) ?? [0x80]
      bytes.insert(contentsOf: damage, at: Int.random(in: 0...bytes.count, using: &generator))
    }
    return bytes
  }

  func testEveryModeIsIdempotentAndWellFormed() throws {
    var generator = SeededGenerator(seed: 20_260_101)
    for _ in 0..<1500 {
      let bytes = randomBytes(&generator)
      let planner = MarkPlanner(utf8: bytes)
      let directions = (0..<3).map { _ in randomDirection(&generator) }
      let direction = randomDirection(&generator)
      let plans: [(String, (MarkPlanner) -> [MarkEdit])] = [
        ("direction", { $0.directionEdits(direction) }),
        ("placeholders isolate", { $0.placeholderEdits(style: .isolate, directions: directions) }),
        ("placeholders marks", { $0.placeholderEdits(style: .marks, directions: directions) }),
        ("runs", { $0.runEdits(directions: directions) }),
        ("strip all", { $0.stripEdits(.all) }),
        ("strip unpaired", { $0.stripEdits(.unpaired) }),
      ]
      for (name, plan) in plans {
        let edits = plan(planner)
        let result = applying(edits, to: bytes)
        XCTAssertEqual(plan(MarkPlanner(utf8: result)), [], "\(name) not idempotent on \(bytes)")
      }
      // A random range for the isolate mode.
      let a = Int.random(in: 0...bytes.count, using: &generator)
      let b = Int.random(in: 0...bytes.count, using: &generator)
      let range = min(a, b)..<max(a, b)
      if let edits = try? planner.isolateEdits(range) {
        let result = applying(edits, to: bytes)
        XCTAssertEqual(
          try MarkPlanner(utf8: result).isolateEdits(grown(range, by: edits)), [],
          "isolate not idempotent on \(bytes) \(range)")
      }
    }
  }

  func testByteAndStringInputAgree() {
    var generator = SeededGenerator(seed: 77)
    for _ in 0..<200 {
      let text = randomLine(&generator)
      let fromBytes = MarkPlanner(utf8: Array(text.utf8))
      let fromString = MarkPlanner(text)
      XCTAssertEqual(fromBytes.paragraphs, fromString.paragraphs)
      XCTAssertEqual(fromBytes.utf8Count, text.utf8.count)
      XCTAssertEqual(fromBytes.runEdits(directions: [.rightToLeft]), fromString.runEdits(directions: [.rightToLeft]))
      XCTAssertEqual(fromBytes.placeholders(), fromString.placeholders())
    }
  }

  func testInvalidBytesAreNeverSplit() {
    // An invalid sequence reads as one U+FFFD that no edit enters.
    let bytes: [UInt8] = [0xE2, 0x80] + Array("abc".utf8) + [0xFF] + Array(" שלום".utf8)
    let planner = MarkPlanner(utf8: bytes)
    XCTAssertEqual(planner.utf8Count, bytes.count)
    XCTAssertEqual(planner.runEdits(directions: [.rightToLeft]).map(\.start), [2, 5])
    XCTAssertThrowsError(try planner.isolateEdits(1..<5)) {
      XCTAssertEqual($0 as? MarkError, .notOnScalarBoundary(1))
    }
  }

  func testLongPathologicalLinesAreHandled() {
    // Each of these would take quadratic time in a naive scanner; planning
    // must simply finish (no time limit is asserted).
    let count = 20_000
    let lines = [
      String(repeating: "\\(", count: count),
      String(repeating: "{", count: count) + "name",
      String(repeating: "%1", count: count),
      String(repeating: "a(", count: count) + String(repeating: "ש)", count: count),
      String(repeating: "1 ", count: count) + "(",
      String(repeating: "(1 ", count: count),
      String(repeating: rli, count: count) + String(repeating: pdi, count: count),
      String(repeating: "a ש ", count: count),
      String(repeating: "$", count: count) + "5",
    ]
    for line in lines {
      let planner = MarkPlanner(line)
      _ = planner.directionEdits(.rightToLeft)
      _ = planner.placeholderEdits(style: .isolate)
      _ = planner.runEdits(directions: [.rightToLeft])
      _ = planner.runEdits(directions: [.leftToRight])
      _ = planner.stripEdits(.unpaired)
      _ = try? planner.isolateEdits(0..<planner.utf8Count)
    }
  }
}
