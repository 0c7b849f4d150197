import BidiTestSupport
import JSONRPC
import XCTest

/// A document without any bidi control is published (empty) before its
/// first scan, which goes on in the background (specification,
/// “textDocument/publishDiagnostics”): what is published after later edits
/// is still what a fresh scan gives, whether the edit lands while that scan
/// runs or after it.
final class HazardCleanDocumentTests: XCTestCase {
  /// About 1.5 MB of C inside one block comment that never closes, so every
  /// line's tokenizer state depends on the first line's `/*`.
  static let text =
    "/* a comment that runs to the end\n"
    + (0..<30_000).map { "line \($0): مرحبا بالعالم — שלום עולם\n" }.joined()

  func testACleanDocumentIsPublishedEmptyAndLaterEditsMatchAFreshScan() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///clean.c"
    XCTAssertEqual(try session.openAndDiagnose(uri, languageId: "c", text: Self.text), [])
    // At once, while the background scan may still run: an RLO on the last
    // line, inside the comment.
    let last = 30_000
    let added = try session.change(uri, [["range": lspRange(last, 0, last, 0), "text": "\u{202E}x"]])
    let after = try session.diagnostics(uri, version: added)
    XCTAssertEqual(after.map(\.diagnosticCode).sorted(), ["bidi.inComment", "bidi.override"])
    XCTAssertEqual(after, try session.freshDiagnostics(of: session.text(uri), languageId: "c", like: uri))
    // Closing the comment on line 1: the RLO is now in code, before the
    // identifier `xline`.
    let closed = try session.change(uri, [["range": lspRange(1, 0, 1, 0), "text": "*/"]])
    let code = try session.diagnostics(uri, version: closed)
    XCTAssertEqual(code.map(\.diagnosticCode).sorted(), ["bidi.inIdentifier", "bidi.override"])
    XCTAssertEqual(code, try session.freshDiagnostics(of: session.text(uri), languageId: "c", like: uri))
  }

  func testADocumentWithOneControlIsScannedBeforeItsFirstPublish() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///one.c"
    let diagnostics = try session.openAndDiagnose(uri, languageId: "c", text: Self.text + "\u{2067}")
    XCTAssertEqual(diagnostics.map(\.diagnosticCode), ["bidi.inComment"])
  }
}
