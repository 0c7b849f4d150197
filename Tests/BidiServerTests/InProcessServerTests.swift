import BidiTestSupport
import JSONRPC
import XCTest

/// The server run in process over `MemoryPipe`s: the transport seam, and
/// answers written entry by entry.
final class InProcessServerTests: XCTestCase {
  func testVisualOrderOfAWholeDocumentArrivesEntryByEntry() throws {
    let session = try TestSession(.bidiLSP, initialize: false)
    XCTAssertTrue(session.client.isInProcess)
    XCTAssertEqual(try session.initialize(encodings: nil)["result"]?["capabilities"]?["positionEncoding"], "utf-16")
    let lines = (0..<3000).map { $0 % 2 == 0 ? "line \($0) abc" : "שלום \($0)" }
    try session.open("file:///a.txt", text: lines.joined(separator: "\n"))
    let response = try session.request(
      "bidi/visualOrder", ["textDocument": ["uri": "file:///a.txt"], "include": ["runs", "visualText"]])
    let paragraphs = try XCTUnwrap(response["result"]?["paragraphs"]?.arrayValue)
    XCTAssertEqual(paragraphs.count, 3000)
    XCTAssertEqual(paragraphs[0]["direction"], "ltr")
    XCTAssertEqual(paragraphs[0]["lines"]?[0]?["visualText"], "line 0 abc")
    // "שלום 1" in a right-to-left paragraph: the digits stay left to right,
    // the Hebrew word is reversed and shown on the right.
    XCTAssertEqual(paragraphs[1]["direction"], "rtl")
    XCTAssertEqual(paragraphs[1]["paragraphLevel"], 1)
    XCTAssertEqual(paragraphs[1]["lines"]?[0]?["visualText"], "1 םולש")
    XCTAssertEqual(paragraphs[1]["end"], 6)
    XCTAssertEqual(paragraphs[1]["lines"]?[0]?["runs"]?.arrayValue?.count, 2)

    // An error is answered as an error, nothing of a partial result.
    let failed = try session.request(
      "bidi/visualOrder", ["textDocument": ["uri": "file:///a.txt"], "include": ["nothing"]])
    XCTAssertNil(failed["result"])
    XCTAssertEqual(failed["error"]?["code"], -32602)
    XCTAssertEqual(
      failed["error"]?["message"]?.stringValue?.hasPrefix("params.include[0]: expected one of runs"), true)

    session.client.closeInput()
    XCTAssertEqual(session.client.exitStatus(timeout: 20), 1, "end of input before shutdown exits 1")
  }

  func testShutdownAndExitOverMemory() throws {
    let session = try TestSession(.bidiLSP)
    XCTAssertEqual(try session.shutdownAndExit(), 0)
    XCTAssertThrowsError(try session.client.nextMessage(timeout: 20), "the output ends with the server") { error in
      guard case TestClientError.endOfOutput = error else { return XCTFail("\(error)") }
    }
  }

  func testTheServerLogsToItsLogFile() throws {
    let session = try TestSession(.bidiLSP)
    try session.sendFramed("{")
    assertError(try session.barrier().first, code: -32700, id: .null)
    XCTAssertTrue(
      session.client.standardError().contains("message that is not valid JSON"), session.client.standardError())
  }

  func testTheSmokeSessionInProcess() throws {
    try TestSession.runSmokeSession(.bidiLSP)
  }
}
