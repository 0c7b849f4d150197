import XCTest

@testable import Markdown

/// `BlockParser.mayOpenBlock` (the bytes after which `openNewBlocks` tries
/// the block starts) against the block starts themselves: after any other
/// byte, none of them matches.
final class BlockStartFilterTests: XCTestCase {
  func testNoBlockStartsAfterAnotherByte() {
    var passed = 0
    for byte in UInt8(0)...UInt8(255) where byte != 0x0A && byte != 0x0D {
      for rest in [
        "", " ", "  a", "\(Character(UnicodeScalar(byte)))\(Character(UnicodeScalar(byte)))", "!-- x", " [ ] x",
      ] {
        var line = [byte]
        line += Array(rest.utf8)
        let opens = Self.opensBlock(line)
        if !BlockParser.mayOpenBlock(byte) {
          passed += 1
          XCTAssertFalse(opens, "\(line)")
        }
      }
    }
    XCTAssertGreaterThan(passed, 1000)
    // The filter lets the starts through.
    for line in ["# a", "```", "~~~", "<div>", "<a>", "===", "---", "***", "___", "- a", "+ a", "* a", "1. a", "> a"] {
      XCTAssertTrue(Self.opensBlock(Array(line.utf8)), line)
    }
  }

  /// Whether a block start (but a table's) matches at the line's start.
  static func opensBlock(_ line: [UInt8]) -> Bool {
    line.withUnsafeBufferPointer { bytes in
      var cursor = LineCursor(bytes: bytes, start: 0, end: bytes.count)
      cursor.findFirstNonspace()
      let first = cursor.firstNonspace
      let html = HTMLSyntax(bytes: bytes, end: cursor.end)
      return cursor[first] == UInt8(ascii: ">") || cursor.atxHeadingStart(at: first) > 0
        || cursor.openCodeFence(at: first) > 0 || html.blockStart(at: first) > 0 || html.blockStart7(at: first)
        || cursor.setextHeadingLine(at: first) > 0 || cursor.thematicBreak(at: first)
        || cursor.listMarker(at: first, interruptsParagraph: false) != nil
        || cursor.listMarker(at: first, interruptsParagraph: true) != nil
    }
  }
}
