import DocumentStore
import UnicodeBidi
import XCTest

/// The packed cache of `BidiLineAnalysis` (`BidiAnalysisColumn`) gives back
/// exactly what was analysed, on both sides of each field's packing limit.
final class BidiAnalysisColumnTests: XCTestCase {
  /// Lines at and past each limit of a packed word: the first strong
  /// character's offset (2,047), the words of each direction (127), one
  /// paragraph (U+2029 makes two), and lines of every shape besides.
  static let lines: [String] = {
    var lines = ["", " \t", "abc", "שלום world", "123 -- 456", "\u{2067}abc", "ab\u{2029}שלום", "abc\u{2029}"]
    for offset in [2046, 2047, 2048, 70_000] {
      lines.append(String(repeating: "1", count: offset) + "a")
      lines.append(String(repeating: " ", count: offset) + "ש")
    }
    for count in [126, 127, 128, 5000] {
      lines.append(Array(repeating: "ab", count: count).joined(separator: " "))
      lines.append(Array(repeating: "שלום", count: count).joined(separator: " ") + " x")
    }
    lines.append(String(repeating: "abc שלום ", count: 20_000))
    return lines
  }()

  func testEveryLineReadsBackAsItsAnalysis() throws {
    for tuning in [LineTreeTuning.standard, tinyTuning] {
      var text = try Document.Text(Self.lines.joined(separator: "\n"), tuning: tuning)
      for (index, line) in Self.lines.enumerated() {
        let expected = Array(line.utf8).withUnsafeBufferPointer { BidiLineAnalysis(utf8: $0) }
        XCTAssertNil(text.cachedAnalysis(ofLine: index))
        XCTAssertEqual(try text.analysis(ofLine: index), expected, "line \(index)")
        XCTAssertEqual(text.cachedAnalysis(ofLine: index), expected, "line \(index), cached")
      }
      // Reading back again, after every line is cached, and after an edit
      // elsewhere that keeps them.
      try text.replace(LSPRange(0, 0, 0, 0), with: "x", in: .utf8)
      for (index, line) in Self.lines.enumerated().dropFirst() {
        let expected = Array(line.utf8).withUnsafeBufferPointer { BidiLineAnalysis(utf8: $0) }
        XCTAssertEqual(text.cachedAnalysis(ofLine: index), expected, "line \(index) after an edit")
      }
      XCTAssertEqual(text.invariantViolations(), [])
    }
  }
}
