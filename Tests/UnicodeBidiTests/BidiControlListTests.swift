import UnicodeBidi
import XCTest

/// `BidiControlList`, which the C scan of `BidiControl.appendControls`
/// writes in place, and the code-point tests the pairing analysis uses
/// instead of `BidiControl`'s properties.
final class BidiControlListTests: XCTestCase {
  /// One list kept across lines (its storage reused, grown while a line is
  /// scanned, filled to the last entry): each line's controls are
  /// `BidiControl.occurrences`'s.
  func testOneListAcrossLinesOfEveryDensity() {
    var generator = SystemRandomNumberGenerator()
    var list = BidiControlList()
    var grown = 0
    for trial in 0..<400 {
      // Up to 3,000 controls, each after 0–3 letters (ASCII or Arabic):
      // from a control every three bytes to one every twelve or so.
      var line: [UInt8] = []
      let count =
        trial % 7 == 0 ? Int.random(in: 500...3_000, using: &generator) : Int.random(in: 0...80, using: &generator)
      for _ in 0..<count {
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
          line += Bool.random(using: &generator) ? [0x61] : [0xD8, 0xA7]
        }
        line += BidiControl.allCases.randomElement(using: &generator)!.utf8
      }
      let storage = list.offsets.count
      list.removeAll()
      XCTAssertTrue(list.isEmpty)
      let end = line.withUnsafeBufferPointer { BidiControl.appendControls(in: $0, from: 0, to: &list) }
      XCTAssertEqual(end, line.count)
      if list.offsets.count > storage { grown += 1 }
      let expected = BidiControl.occurrences(in: line)
      XCTAssertEqual(list.count, expected.count, "trial \(trial)")
      XCTAssertEqual(list.map(\.offset), expected.map(\.offset), "trial \(trial)")
      XCTAssertEqual(list.map(\.control), expected.map(\.control), "trial \(trial)")
      XCTAssertEqual(Array(list.codePoints.prefix(list.count)), expected.map(\.control.rawValue))
    }
    // The storage grew while lines were scanned.
    XCTAssertGreaterThanOrEqual(grown, 1)
  }

  /// A line of 3,000 controls and nothing else, into an empty list: room is
  /// made for one control every 16 bytes, so the C scan fills the storage
  /// and the list grows several times within the line.
  func testDenseLineGrowsTheListWithinTheLine() {
    let line = (0..<3_000).flatMap { BidiControl.allCases[$0 % 12].utf8 }
    var list = BidiControlList()
    let end = line.withUnsafeBufferPointer { BidiControl.appendControls(in: $0, from: 0, to: &list) }
    XCTAssertEqual(end, line.count)
    XCTAssertEqual(list.count, 3_000)
    let expected = BidiControl.occurrences(in: line)
    XCTAssertEqual(list.map(\.offset), expected.map(\.offset))
    XCTAssertEqual(list.map(\.control), expected.map(\.control))
  }

  /// Appending to a list that already holds controls, from an offset, up
  /// to an ill-formed sequence and on after it.
  func testAppendsAfterWhatTheListHolds() {
    let rli = BidiControl.rli.utf8
    let line: [UInt8] = Array(repeating: rli, count: 40).flatMap { $0 } + [0xFF] + BidiControl.pdi.utf8 + [0x61]
    var list = BidiControlList([(offset: 0, control: .lrm)])
    let stop = line.withUnsafeBufferPointer { BidiControl.appendControls(in: $0, from: 3, to: &list) }
    XCTAssertEqual(stop, 120)
    XCTAssertEqual(list.count, 40)
    XCTAssertEqual(list.first?.control, .lrm)
    XCTAssertEqual(list.dropFirst().map(\.offset), Array(stride(from: 3, to: 120, by: 3)))
    let end = line.withUnsafeBufferPointer { BidiControl.appendControls(in: $0, from: 121, to: &list) }
    XCTAssertEqual(end, line.count)
    XCTAssertEqual(list.count, 41)
    XCTAssertEqual(list.last?.offset, 121)
    XCTAssertEqual(list.last?.control, .pdi)
  }

  /// The code-point tests agree with `BidiControl`'s properties on every
  /// control, and `known` gives each control back from its code point.
  func testCodePointTestsAgreeWithTheProperties() {
    for control in BidiControl.allCases {
      let value = control.rawValue
      XCTAssertEqual(BidiControl.known(value), control)
      XCTAssertEqual(BidiControl.isOpener(value), control.isOpener, "\(control)")
      XCTAssertEqual(BidiControl.isIsolateOpener(value), control.isIsolateOpener, "\(control)")
      XCTAssertEqual(BidiControl.isEmbeddingOrOverride(value), control.isEmbeddingOrOverride, "\(control)")
      XCTAssertEqual(BidiControl.isOverride(value), control.isOverride, "\(control)")
      XCTAssertEqual(BidiControl.utf8Count(value), control.utf8Count, "\(control)")
    }
  }
}
