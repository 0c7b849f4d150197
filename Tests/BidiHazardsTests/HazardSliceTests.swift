import BidiHazards
import BidiTestSupport
import DocumentStore
import XCTest

/// The server's bounds on hazard work: a per-line diagnostic limit that
/// counts what it leaves out without changing the pairing, and refresh
/// slices bounded by bytes and by a stop condition.
final class HazardSliceTests: XCTestCase {
  typealias Tree = LineTree<NoLineAnalysis>

  func testPerLineLimitCountsTheRestAndKeepsThePairing() throws {
    let line = Array(("a" + String(repeating: "\u{202A}b", count: 5) + " /* \u{202E} */").utf8)
    let full = HazardScanner(language: .c)
    var capped = full
    capped.maximumDiagnosticsPerLine = 3
    let all = full.scanLine(line, lineNumber: 0)
    let some = capped.scanLine(line, lineNumber: 0)
    XCTAssertEqual(all.diagnostics.count, 7)  // 5 unpaired LRE, inComment + override for the RLO
    XCTAssertEqual(all.omitted, 0)
    XCTAssertEqual(some.diagnostics.count, 3)
    XCTAssertEqual(some.omitted, 4)
    XCTAssertTrue(some.diagnostics.allSatisfy { all.diagnostics.contains($0) })
    XCTAssertEqual(some.endState, all.endState)
    // Disabled rules are not counted.
    capped.settings[.override] = .off
    XCTAssertEqual(capped.scanLine(line, lineNumber: 0).omitted, 3)
  }

  func testRefreshSlicesEndAfterTheirBytesOrWhenToldToStop() throws {
    var text = try Tree((0..<10).map { _ in String(repeating: "x", count: 99) }.joined(separator: "\n"))
    let cache = HazardLineCache(scanner: HazardScanner(language: nil))
    // 250 bytes: three lines of 99 (the third crosses the budget).
    XCTAssertEqual(cache.refreshSlice(&text, bytes: 250, until: { false }), 297)
    XCTAssertEqual(cache.firstUnscannedLine(text), 3)
    // Told to stop: one line per slice, whatever the bytes.
    XCTAssertEqual(cache.refreshSlice(&text, bytes: .max, until: { true }), 99)
    XCTAssertEqual(cache.firstUnscannedLine(text), 4)
    XCTAssertEqual(cache.refreshSlice(&text, bytes: .max, until: { false }), 6 * 99)
    XCTAssertFalse(cache.needsRefresh(text))
  }
}
