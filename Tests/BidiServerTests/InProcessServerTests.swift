import BidiServer
import Foundation
import JSONRPC
import XCTest

/// The server run in process over `MemoryPipe`s: the transport seam, and
/// answers written entry by entry.
final class InProcessServerTests: XCTestCase {
  /// A server on a background thread, and the client's ends of its pipes.
  private final class Harness: @unchecked Sendable {
    let toServer = MemoryPipe()
    let fromServer = MemoryPipe()
    private var framer = MessageFramer()
    private var received: [JSONValue] = []
    private let finished = DispatchSemaphore(value: 0)
    private var status: Int32?

    init() {
      let connection = Connection(input: toServer, output: fromServer, logger: Logger.disabled())
      let thread = Thread { [self] in
        let server = BidiLanguageServer(logger: connection.logger)
        _ = connection.run(server)
        status = server.finalStatus()
        finished.signal()
      }
      thread.stackSize = 16 << 20
      thread.start()
    }

    func send(_ value: JSONValue) {
      toServer.write(MessageWriter.frame(value.encoded()))
    }

    /// The next message from the server (20 s at most).
    func next() throws -> JSONValue {
      let deadline = Date().addingTimeInterval(20)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while received.isEmpty {
        guard Date() < deadline else { throw XCTSkip("the server did not answer in 20 s") }
        let outcome = buffer.withUnsafeMutableBytes { fromServer.read(into: $0, timeoutMilliseconds: 100) }
        guard case .bytes(let count)? = outcome else { continue }
        var failure: Error?
        buffer.withUnsafeBytes { raw in
          framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { event in
            guard case .message(let body) = event else { return }
            do { received.append(try JSONValue(decoding: body)) } catch { failure = error }
          }
        }
        if let failure { throw failure }
      }
      return received.removeFirst()
    }

    /// The response to request `id` (notifications before it are dropped).
    func response(_ id: Int) throws -> JSONValue {
      while true {
        let message = try next()
        if message["id"] == JSONValue(id) && message["method"] == nil { return message }
      }
    }

    func exitStatus() -> Int32? {
      finished.wait(timeout: .now() + 20) == .success ? status : nil
    }
  }

  private func request(_ id: Int, _ method: String, _ params: JSONValue) -> JSONValue {
    ["jsonrpc": "2.0", "id": JSONValue(id), "method": .string(method), "params": params]
  }

  func testVisualOrderOfAWholeDocumentArrivesEntryByEntry() throws {
    let harness = Harness()
    harness.send(request(1, "initialize", ["capabilities": [:]]))
    XCTAssertEqual(try harness.response(1)["result"]?["capabilities"]?["positionEncoding"], "utf-16")
    let lines = (0..<3000).map { $0 % 2 == 0 ? "line \($0) abc" : "שלום \($0)" }
    harness.send(
      [
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": [
          "textDocument": [
            "uri": "file:///a.txt", "languageId": "plaintext", "version": 1,
            "text": .string(lines.joined(separator: "\n")),
          ]
        ],
      ])
    harness.send(
      request(2, "bidi/visualOrder", ["textDocument": ["uri": "file:///a.txt"], "include": ["runs", "visualText"]]))
    let paragraphs = try XCTUnwrap(try harness.response(2)["result"]?["paragraphs"]?.arrayValue)
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
    harness.send(request(3, "bidi/visualOrder", ["textDocument": ["uri": "file:///a.txt"], "include": ["nothing"]]))
    let failed = try harness.response(3)
    XCTAssertNil(failed["result"])
    XCTAssertEqual(failed["error"]?["code"], -32602)
    XCTAssertEqual(
      failed["error"]?["message"]?.stringValue?.hasPrefix("params.include[0]: expected one of runs"), true)

    harness.toServer.close()
    XCTAssertEqual(harness.exitStatus(), 1, "end of input before shutdown exits 1")
  }

  func testShutdownAndExitOverMemory() throws {
    let harness = Harness()
    harness.send(request(1, "initialize", ["capabilities": [:]]))
    _ = try harness.response(1)
    harness.send(request(2, "shutdown", [:]))
    XCTAssertEqual(try harness.response(2)["result"], .null)
    harness.send(["jsonrpc": "2.0", "method": "exit"])
    XCTAssertEqual(harness.exitStatus(), 0)
    harness.toServer.close()
  }
}
