import BidiTestSupport
import JSONRPC
import XCTest

/// `window/workDoneProgress` for long work such as opening a very large
/// document, when the client supports it (specification,
/// "window/workDoneProgress": documents of 8 MiB or more).
final class ProgressTests: XCTestCase {
  func initialized(progress: Bool) throws -> TestClient {
    let client = try TestServer.bidiLSP.client()
    let response = try client.request(
      "initialize", ["processId": nil, "capabilities": ["window": ["workDoneProgress": .bool(progress)]]], timeout: 30)
    XCTAssertNotNil(response["result"]?["capabilities"])
    try client.notify("initialized", [:])
    return client
  }

  /// About 9 MiB of mixed lines.
  static let largeText: String = {
    let line = "שלום world مرحبا 123 (x) \u{2067}RLI\u{2069} plain ASCII text for the rest of the line\n"
    return String(repeating: line, count: (9 << 20) / line.utf8.count + 1)
  }()

  func open(_ client: TestClient, _ text: String) throws {
    try client.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": "file:///large.txt", "languageId": "plaintext", "version": 1, "text": .string(text)]])
  }

  func testOpeningALargeDocumentReportsProgressFromBeginToEnd() throws {
    let client = try initialized(progress: true)
    defer { client.terminate() }
    try open(client, Self.largeText)
    let create = try client.reader.next(timeout: 60, what: "window/workDoneProgress/create") {
      $0["method"] == "window/workDoneProgress/create"
    }
    let token = try XCTUnwrap(create["params"]?["token"])
    XCTAssertNotNil(create["id"], "window/workDoneProgress/create is a request")
    var kinds: [String] = []
    var percentages: [Int] = []
    while kinds.last != "end" {
      let progress = try client.waitForNotification("$/progress", timeout: 60)
      XCTAssertEqual(progress["params"]?["token"], token)
      let value = progress["params"]?["value"]
      kinds.append(value?["kind"]?.stringValue ?? "?")
      if let percentage = value?["percentage"]?.intValue { percentages.append(percentage) }
    }
    XCTAssertEqual(kinds.first, "begin")
    XCTAssertEqual(kinds.last, "end")
    XCTAssertTrue(kinds.dropFirst().dropLast().allSatisfy { $0 == "report" }, "\(kinds)")
    XCTAssertGreaterThan(kinds.count, 2, "the hazard scan of a large document reports its progress")
    XCTAssertEqual(percentages, percentages.sorted(), "percentages never go back")
    XCTAssertTrue(percentages.allSatisfy { (0...100).contains($0) })
    // The diagnostics follow the end of the scan.
    let published = try client.waitForNotification("textDocument/publishDiagnostics", timeout: 60)
    XCTAssertEqual(published["params"]?["uri"], "file:///large.txt")
  }

  func testNoProgressWithoutTheClientCapability() throws {
    let client = try initialized(progress: false)
    defer { client.terminate() }
    try open(client, Self.largeText)
    _ = try client.waitForNotification("textDocument/publishDiagnostics", timeout: 60)
    let info = try client.request("bidi/documentInfo", ["textDocument": ["uri": "file:///large.txt"]], timeout: 30)
    XCTAssertEqual(info["result"]?["utf8Length"]?.intValue, Self.largeText.utf8.count)
    let methods = client.reader.takePending().compactMap { $0["method"]?.stringValue }
    XCTAssertFalse(methods.contains("$/progress"), "\(methods)")
    XCTAssertFalse(methods.contains("window/workDoneProgress/create"), "\(methods)")
  }

  func testSmallDocumentsReportNoProgress() throws {
    let client = try initialized(progress: true)
    defer { client.terminate() }
    try open(client, "שלום world\n")
    _ = try client.waitForNotification("textDocument/publishDiagnostics", timeout: 30)
    let methods = client.reader.takePending().compactMap { $0["method"]?.stringValue }
    XCTAssertFalse(methods.contains("$/progress"), "\(methods)")
  }
}
