import BidiHazards
import UnicodeBidi
import XCTest

/// The rules' sentences as bytes (`HazardMessage.utf8`, what `check`
/// writes) and as the `message` of a diagnostic (what the daemon
/// publishes), and diagnostics whose message is a sentence compared with
/// ones made from a `String`.
final class HazardMessageTests: XCTestCase {
  func testEverySentenceHasTheSameTextAsBytesAndAsAString() {
    var seen = Set<String>()
    for situation in HazardMessage.allCases {
      for control in BidiControl.allCases {
        let bytes = Array(situation.utf8(control))
        let text = situation.text(control)
        XCTAssertEqual(bytes, Array(text.utf8), "\(situation) \(control)")
        XCTAssertTrue(text.hasPrefix(control.displayName), "\(situation) \(control): \(text)")
        XCTAssertTrue(bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(situation) \(control): \(text)")
        seen.insert(text)
        // Asked again: the same bytes, in the same memory.
        XCTAssertEqual(situation.utf8(control).baseAddress, situation.utf8(control).baseAddress)
      }
    }
    // Every situation tells every control apart.
    XCTAssertEqual(seen.count, HazardMessage.allCases.count * BidiControl.allCases.count)
  }

  func testASentenceReadsAsWritten() {
    XCTAssertEqual(
      HazardMessage.overrideUntilPDF.text(.rlo),
      "U+202E RIGHT-TO-LEFT OVERRIDE forces the text after it to display right to left, in reverse order, "
        + "until its PDF: the text displays in a different order from the one it is read in")
    XCTAssertEqual(HazardMessage.pdiUnmatched.text(.pdi), "U+2069 POP DIRECTIONAL ISOLATE has no isolate to close")
  }

  func testADiagnosticOfASentenceEqualsOneOfTheSameText() throws {
    // RLO ... PDF, then an LRI left open, then a PDI with nothing to close.
    let line = "a \u{202E}b\u{202C} c \u{2066}d e \u{2069}\u{2069}"
    let scanned = HazardScanner(language: nil).scanLine(Array(line.utf8), lineNumber: 0).diagnostics
    XCTAssertEqual(scanned.map(\.code), [.override, .unmatched])
    for diagnostic in scanned {
      let sentence = try XCTUnwrap(diagnostic.sentence, "\(diagnostic.code)")
      let control = try XCTUnwrap(diagnostic.control)
      XCTAssertEqual(diagnostic.message, sentence.text(control))
      let same = HazardDiagnostic(
        code: diagnostic.code, severity: diagnostic.severity, line: diagnostic.line, range: diagnostic.range,
        control: diagnostic.control, message: diagnostic.message, closing: diagnostic.closing,
        pairedCloser: diagnostic.pairedCloser)
      XCTAssertNil(same.sentence)
      XCTAssertEqual(same, diagnostic)
      XCTAssertEqual(same.hashValue, diagnostic.hashValue)
      var other = same
      other.message += "!"
      XCTAssertNotEqual(other, diagnostic)
    }
  }

  func testDiagnosticsOfSentencesAreEqualOnlyForTheSameSentence() throws {
    let scanner = HazardScanner(language: nil)
    let closed = try XCTUnwrap(scanner.scanLine(Array("a \u{202E}b\u{202C}".utf8), lineNumber: 0).diagnostics.first)
    let again = try XCTUnwrap(scanner.scanLine(Array("a \u{202E}b\u{202C}".utf8), lineNumber: 0).diagnostics.first)
    XCTAssertEqual(closed, again)
    XCTAssertEqual(closed.hashValue, again.hashValue)
    // The same override, left open: another sentence (and a closing).
    let open = try XCTUnwrap(
      scanner.scanLine(Array("a \u{202E}b".utf8), lineNumber: 0).diagnostics.first { $0.code == .override })
    XCTAssertNotEqual(closed.sentence, open.sentence)
    XCTAssertNotEqual(closed, open)
  }

  func testAMessageSetOnASentenceReplacesIt() throws {
    var diagnostic = try XCTUnwrap(
      HazardScanner(language: nil).scanLine(Array("x \u{202D}y".utf8), lineNumber: 3).diagnostics.first)
    let sentence = diagnostic.message
    XCTAssertNotNil(diagnostic.sentence)
    diagnostic.message += " The line displays as: “x y”"
    XCTAssertNil(diagnostic.sentence)
    XCTAssertEqual(diagnostic.message, sentence + " The line displays as: “x y”")
  }
}
