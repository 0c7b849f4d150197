import BidiHazards
import BidiTestSupport
import UnicodeBidi
import XCTest

/// `HazardScanner.recordsClosings` off (`bidi-lsp check` where it writes no
/// fixes): the same diagnostics as with it on, less their `closing`.
final class RecordsClosingsTests: XCTestCase {
  func testSameDiagnosticsWithoutClosings() {
    var generator = SeededGenerator(seed: 0xC105E)
    var withClosing = 0
    for trial in 0..<4_000 {
      let size = Int.random(in: 1...70, using: &generator)
      let line =
        trial.isMultiple(of: 2)
        ? BalancedLinesTests.randomLine(size / 3 + 1, using: &generator)
        : BalancedLinesTests.nestedLine(depth: size, mutations: 2, using: &generator)
      let language: SourceLanguage? = trial % 3 == 0 ? nil : trial % 3 == 1 ? .swift : .python
      var scanner = HazardScanner(language: language)
      let full = scanner.scanLine(line, lineNumber: 3)
      scanner.recordsClosings = false
      let without = scanner.scanLine(line, lineNumber: 3)
      XCTAssertTrue(without.diagnostics.allSatisfy { $0.closing == nil })
      var expected = full
      for k in expected.diagnostics.indices where expected.diagnostics[k].closing != nil {
        expected.diagnostics[k].closing = nil
        withClosing += 1
      }
      XCTAssertEqual(without, expected, String(decoding: line, as: UTF8.self))
    }
    // Many openers left open were tried.
    XCTAssertGreaterThan(withClosing, 1_000)
  }
}
