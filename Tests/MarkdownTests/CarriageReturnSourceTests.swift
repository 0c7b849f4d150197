import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

@testable import MarkdownFormat

/// `check` reads a whole Markdown file as its own `MarkdownSource` (the
/// file's bytes and `TextLines`' line starts and ends, not copied), CR LF
/// and lone CR line ends included: the findings are those of the source
/// the daemon reads, its lines joined again with line feeds.
final class CarriageReturnSourceTests: XCTestCase {
  /// The lines of a text, seen only through `DocumentLines` (as the
  /// daemon's line tree is): `MarkdownFormat.source` joins them.
  struct JoinedLines: DocumentLines {
    let text: TextLines
    var lineCount: Int { text.lineCount }
    func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
      try text.withUTF8(ofLine: line, body)
    }
  }

  /// `text` with each line feed replaced by CR LF, a lone CR or kept, as
  /// `style` says: 0 all CR LF (a file written on Windows), 1 mixed.
  static func withLineEnds(_ text: String, style: Int, _ random: inout SeededGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      guard byte == 0x0A else {
        bytes.append(byte)
        continue
      }
      switch style == 0 ? 1 : Int.random(in: 0..<6, using: &random) {
      case 0, 2, 3: bytes.append(0x0A)
      case 1, 4: bytes += [0x0D, 0x0A]
      default: bytes.append(0x0D)
      }
    }
    return bytes
  }

  func testFindingsOfAWholeFileWithCarriageReturnsAreThoseOfItsJoinedLines() {
    var random = SeededGenerator(seed: 4_501)
    var findings = 0
    var withReturns = 0
    var onSourceBytes = 0
    for round in 0..<2_400 {
      let text =
        round % 2 == 0
        ? MarkdownFindingsLaneTests.document(&random)
        : RandomDocumentTests.structuredDocument(&random)
      let bytes = Self.withLineEnds(text, style: round % 3 == 0 ? 0 : 1, &random)
      if bytes.contains(0x0D) { withReturns += 1 }
      let lines = TextLines(bytes)
      let format = MarkdownFormat()
      if MarkdownFormat.source(lines, 0..<lines.lineCount).0.bytes == bytes { onSourceBytes += 1 }
      for findingsOnly in [false, true] {
        let joined = JoinedLines(text: lines)
        let reference = WholeRead(joined, format: format, findingsOnly: findingsOnly)
        let read = WholeRead(lines, format: format, findingsOnly: findingsOnly)
        let engine = FindingsEngine(format: format, spelling: reference.spelling)
        let expected = engine.findings(in: joined, read: reference) { _ in nil }
        if !findingsOnly { findings += expected.count }
        XCTAssertEqual(
          engine.findings(in: lines, read: read) { _ in nil }, expected, "\(bytes) findingsOnly \(findingsOnly)")
      }
    }
    XCTAssertGreaterThan(withReturns, 2_000)
    // Every whole text is read as its own bytes, carriage returns and all.
    XCTAssertEqual(onSourceBytes, 2_400)
    XCTAssertGreaterThan(findings, 1_000)
  }
}
