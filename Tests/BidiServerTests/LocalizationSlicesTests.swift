import BidiTestSupport
import JSONRPC
import XCTest

/// A large localization document is read lazily and its findings computed
/// in idle slices: what is published, with edits and requests arriving while
/// the slices run, is the full set of the final text, as a fresh open of it
/// publishes.
final class LocalizationSlicesTests: XCTestCase {
  static let flip = "%@ مدفوعات بدون فوائد من %@"

  /// 30,000 entries (many idle slices), every 100th the seed case.
  static func document() -> (text: String, flips: [Int]) {
    var text = ""
    var flips: [Int] = []
    for index in 0..<30_000 {
      if index % 100 == 7 {
        flips.append(index)
        text += "\"k\(index)\" = \"\(flip)\";\n"
      } else {
        text += "\"k\(index)\" = \"قيمة رقم \(index) %@\";\n"
      }
    }
    return (text, flips)
  }

  func testEditsAndRequestsDuringTheSlicesPublishTheFinalSet() throws {
    let session = try TestSession(.bidiLSP, encoding: .utf16)
    let uri = "file:///ar.lproj/Large.strings"
    let (text, flips) = Self.document()
    try session.open(uri, languageId: "strings", text: text)
    // The first screen is answered from the first lines read.
    let first = try session.paragraphs("bidi/naturalDirection", ["range": lineRange(0)], uri: uri)
    XCTAssertEqual(first.first?["key"]?.stringValue, "k0")
    // Edits at the top and in the middle while the rest is read and the
    // findings are computed: one more flip at the top, one removed.
    let entry = "\"new\" = \"\(Self.flip)\";\n"
    try session.apply(uri, edits: [["range": lspRange(0, 0, 0, 0), "newText": .string(entry)]])
    let removed = flips[flips.count / 2] + 1
    try session.apply(uri, edits: [["range": lspRange(removed, 0, removed + 1, 0), "newText": ""]])
    // A request on the last value reads the file through.
    let last = try session.paragraphs("bidi/naturalDirection", ["range": lineRange(30_000 - 1)], uri: uri)
    XCTAssertEqual(last.first?["key"]?.stringValue, "k29999")
    let published = try session.diagnostics(uri, version: session.version(uri))
    let expected = [0] + flips.map { $0 + 1 }.filter { $0 != removed }.map { $0 < removed ? $0 : $0 - 1 }
    XCTAssertEqual(
      published.filter { $0.diagnosticCode == "bidi.placeholderDirection" }.map(\.startLine), expected)
    // The same as a fresh open of the final text.
    var model = TestText(entry + text)
    model = try model.applying([["range": lspRange(removed, 0, removed + 1, 0), "newText": ""]], in: .utf16)
    let fresh = try session.openAndDiagnose("file:///ar.lproj/Fresh.strings", languageId: "strings", text: model.text)
    XCTAssertEqual(published, fresh)
  }
}
