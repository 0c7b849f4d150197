import BidiHazards
import BidiTestSupport
import UnicodeBidi
import XCTest

/// The balanced-line shortcut (`HazardScanner.isBalanced`) against the
/// pairing analysis it skips: on lines of random controls and words, with
/// and without a language, the scan finds the same hazards either way.
final class BalancedLinesTests: XCTestCase {
  static let controls: [BidiControl] = [.lre, .rle, .lro, .rlo, .pdf, .lri, .rli, .fsi, .pdi, .lrm, .rlm, .alm]

  static let words = ["abc", "مرحبا", "שלום", " ", "1.5", "x = y", "(", ")", "\"s\"", "// c", "# c"]

  /// A line of `count` random pieces: words, spaces and controls, mostly
  /// unbalanced.
  static func randomLine(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
    var line: [UInt8] = []
    for _ in 0..<count {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0..<4: line += words.randomElement(using: &generator)!.utf8
      case 4..<6: line += [BidiControl.lri, .rli, .fsi, .lre, .rle].randomElement(using: &generator)!.utf8
      case 6..<8: line += [BidiControl.pdi, .pdi, .pdf].randomElement(using: &generator)!.utf8
      default: line += controls.randomElement(using: &generator)!.utf8
      }
    }
    return line
  }

  /// A balanced line of words, marks and nested scopes (an isolate's PDI
  /// sometimes closing an embedding left open inside it), `depth` deep at
  /// most.
  static func balancedLine(depth: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
    var line: [UInt8] = []
    for _ in 0..<Int.random(in: 1...4, using: &generator) {
      switch Int.random(in: 0..<6, using: &generator) {
      case 0, 1: line += words.randomElement(using: &generator)!.utf8
      case 2: line += [BidiControl.lrm, .rlm, .alm].randomElement(using: &generator)!.utf8
      case 3 where depth > 0:
        line += [BidiControl.lre, .rle, .lro, .rlo].randomElement(using: &generator)!.utf8
        line += balancedLine(depth: depth - 1, using: &generator) + BidiControl.pdf.utf8
      case 4 where depth > 0:
        line += [BidiControl.lri, .rli, .fsi].randomElement(using: &generator)!.utf8
        line += balancedLine(depth: depth - 1, using: &generator)
        if Bool.random(using: &generator) { line += BidiControl.rle.utf8 + words[1].utf8 }
        line += BidiControl.pdi.utf8
      default: line += words.randomElement(using: &generator)!.utf8
      }
    }
    return line
  }

  func scan(_ line: [UInt8], language: SourceLanguage?, shortcut: Bool) -> LineScan {
    var scanner = HazardScanner(language: language, renderer: HazardScanner.visualOrderRenderer)
    scanner.checksBalancedLinesFirst = shortcut
    return scanner.scanLine(line, lineNumber: 0)
  }

  func testSameHazardsWithAndWithoutTheShortcut() {
    var generator = SeededGenerator(seed: 0xBA1A)
    // Lines the shortcut answers alone, and lines with controls it passes on.
    var balanced = 0
    var analysed = 0
    for trial in 0..<6_000 {
      let line =
        trial.isMultiple(of: 2)
        ? Self.randomLine(Int.random(in: 1...24, using: &generator), using: &generator)
        : Self.balancedLine(depth: 3, using: &generator)
      let language: SourceLanguage? = trial % 3 == 0 ? nil : trial % 3 == 1 ? .swift : .python
      let fast = scan(line, language: language, shortcut: true)
      let full = scan(line, language: language, shortcut: false)
      XCTAssertEqual(fast, full, String(decoding: line, as: UTF8.self))
      let controls = line.withUnsafeBufferPointer { buffer in
        var found: [(offset: Int, control: BidiControl)] = []
        _ = BidiControl.appendControls(in: buffer, from: 0, to: &found)
        return found
      }
      if !controls.isEmpty {
        if HazardScanner.isBalanced(controls) { balanced += 1 } else { analysed += 1 }
      }
    }
    // Both kinds of line were tried, many times.
    XCTAssertGreaterThan(balanced, 500)
    XCTAssertGreaterThan(analysed, 500)
  }

  func testBalancedAndUnbalancedExamples() {
    func controls(_ list: [BidiControl]) -> [(offset: Int, control: BidiControl)] {
      list.enumerated().map { ($0.offset * 3, $0.element) }
    }
    XCTAssertTrue(HazardScanner.isBalanced(controls([.rli, .lre, .pdi])))  // PDI closes the embedding too
    XCTAssertTrue(HazardScanner.isBalanced(controls([.lre, .rli, .pdi, .pdf, .lrm])))
    XCTAssertFalse(HazardScanner.isBalanced(controls([.rli, .pdf, .pdi])))  // PDF inside an isolate
    XCTAssertFalse(HazardScanner.isBalanced(controls([.pdi])))
    XCTAssertFalse(HazardScanner.isBalanced(controls([.lri])))
    XCTAssertFalse(HazardScanner.isBalanced(controls([.rlo, .pdf])))  // an override is always a hazard
  }
}
