import BidiTestSupport
import Dispatch
import MarkdownFormat
import StructuredText
import XCTest

/// A Markdown read and its findings in parts (`PartRunner`: the blocks of
/// a stretch, the entries' findings) against one thread's: the same
/// entries, regions and findings in the same order, with the parts run
/// last to first on one thread and at once on several.
final class PartRunnerTests: XCTestCase {
  /// Parts run last to first: a runner that keeps no order by itself.
  static let reversed = PartRunner(threads: 3, minimumPart: 1) { count, part in
    for k in (0..<count).reversed() { part(k) }
  }
  static let threaded = PartRunner(threads: 4, minimumPart: 2) { count, part in
    DispatchQueue.concurrentPerform(iterations: count) { part($0) }
  }

  func testPartsGiveWhatOneThreadGives() {
    var random = SeededGenerator(seed: 38)
    var findings = 0
    var entries = 0
    for _ in 0..<400 {
      let text = (0..<4).map { _ in MarkdownFindingsLaneTests.document(&random) }.joined(separator: "\n")
      let lines = TextLines(text)
      let format = MarkdownFormat()
      for findingsOnly in [false, true] {
        let serial = WholeRead(lines, format: format, findingsOnly: findingsOnly)
        let engine = FindingsEngine(format: format, spelling: serial.spelling)
        let expected = engine.findings(in: lines, read: serial) { _ in nil }
        for runner in [Self.reversed, Self.threaded] {
          let read = WholeRead(lines, format: format, findingsOnly: findingsOnly, runner: runner)
          XCTAssertEqual(read.entries, serial.entries, text.debugDescription)
          XCTAssertEqual(read.regions, serial.regions, text.debugDescription)
          XCTAssertEqual(read.spelling, serial.spelling, text.debugDescription)
          XCTAssertEqual(read.decided.map(\.before), serial.decided.map(\.before), text.debugDescription)
          XCTAssertEqual(read.decided.map(\.finding), serial.decided.map(\.finding), text.debugDescription)
          XCTAssertEqual(
            engine.findings(in: lines, read: serial, runner: runner) { _ in nil }, expected, text.debugDescription)
        }
        findings += expected.count
        entries += serial.entries.count
      }
    }
    print("part runner: \(entries) entries, \(findings) findings")
    XCTAssertGreaterThan(entries, 9_000)
    XCTAssertGreaterThan(findings, 1_000)
  }

  static func runner(threads: Int, minimumPart: Int) -> PartRunner {
    PartRunner(threads: threads, minimumPart: minimumPart) { count, part in
      for k in 0..<count { part(k) }
    }
  }

  func testPartsOfAJob() {
    XCTAssertEqual(Self.runner(threads: 2, minimumPart: 10).parts(25), [0..<12, 12..<25])
    XCTAssertEqual(Self.runner(threads: 2, minimumPart: 10).parts(19), [0..<19])
    XCTAssertEqual(Self.runner(threads: 3, minimumPart: 1).parts(2), [0..<1, 1..<2])
    XCTAssertEqual(PartRunner.serial.parts(100_000), [0..<100_000])
    XCTAssertEqual(PartRunner.serial.parts(0), [0..<0])
  }
}
