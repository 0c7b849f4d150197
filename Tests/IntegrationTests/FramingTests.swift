import BidiTestSupport
import JSONRPC
import XCTest

/// Contract §1, transport: LSP framing as the built daemon reads it, and
/// the memory rules for announced lengths.
final class FramingTests: XCTestCase {
  private func infoRequest(_ id: Int, uri: String = "file:///a.txt") -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"bidi/documentInfo","params":{"textDocument":{"uri":"\#(uri)"},"includeText":true}}"#
  }

  private func daemonWithDocument() throws -> Daemon {
    let daemon = try Daemon.initialized()
    try daemon.open("file:///a.txt", "نص\r\ntext")
    return daemon
  }

  func testHeaderNamesAreCaseInsensitive() throws {
    let daemon = try daemonWithDocument()
    for (index, name) in ["content-length", "CONTENT-LENGTH", "Content-length", "cOnTeNt-LeNgTh"].enumerated() {
      let body = infoRequest(10 + index)
      try daemon.sendRaw(Array("\(name): \(body.utf8.count)\r\n\r\n\(body)".utf8))
      let answer = try daemon.client.waitForResponse(id: .integer(Int64(10 + index)), timeout: 20)
      XCTAssertEqual(answer["result"]?["text"], "نص\r\ntext", name)
    }
  }

  func testContentTypeHeaderIsOptionalAndAccepted() throws {
    let daemon = try daemonWithDocument()
    let headers = [
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n",
      "content-type: application/vscode-jsonrpc; charset=utf8\r\n",
      "Content-Type: text/plain\r\n",
      "",
    ]
    for (index, header) in headers.enumerated() {
      let body = infoRequest(20 + index)
      try daemon.sendRaw(Array("\(header)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
      let answer = try daemon.client.waitForResponse(id: .integer(Int64(20 + index)), timeout: 20)
      XCTAssertNotNil(answer["result"], "\(header): \(answer)")
    }
  }

  func testBareLFHeaderLinesAreAccepted() throws {
    let daemon = try daemonWithDocument()
    let body = infoRequest(30)
    try daemon.sendRaw(Array("Content-Length: \(body.utf8.count)\n\n\(body)".utf8))
    XCTAssertNotNil(try daemon.client.waitForResponse(id: 30, timeout: 20)["result"])
  }

  func testMessageWrittenOneByteAtATimeIsServed() throws {
    let daemon = try daemonWithDocument()
    let bytes =
      frame(
        #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.txt","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":4}},"text":"نص"}]}}"#
      )
      + frame(infoRequest(40))
    for byte in bytes {
      try daemon.sendRaw([byte])
      usleep(100)
    }
    let answer = try daemon.client.waitForResponse(id: 40, timeout: 20)
    XCTAssertEqual(answer["result"]?["text"], "نص\r\nنص")
    XCTAssertEqual(answer["result"]?["version"], 2)
  }

  func testSeveralMessagesInOneWriteAreServedInOrder() throws {
    let daemon = try daemonWithDocument()
    var bytes: [UInt8] = []
    for version in 2...21 {
      bytes += frame(
        #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.txt","version":\#(version)},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"\#(version % 10)"}]}}"#
      )
      bytes += frame(infoRequest(100 + version))
    }
    try daemon.sendRaw(bytes)
    var expected = "نص\r\ntext"
    for version in 2...21 {
      expected = "\(version % 10)" + expected
      let answer = try daemon.client.waitForResponse(id: .integer(Int64(100 + version)), timeout: 20)
      XCTAssertEqual(answer["result"]?["text"]?.stringValue, expected, "request after the change to version \(version)")
      XCTAssertEqual(answer["result"]?["version"], JSONValue(version))
    }
  }

  func testResponsesAlwaysCarryJsonrpc() throws {
    let daemon = try daemonWithDocument()
    try daemon.sendRaw(frame("42") + frame(infoRequest(50)) + frame(infoRequest(51, uri: "file:///none")))
    let messages = [
      try daemon.client.nextMessage(timeout: 20), try daemon.client.nextMessage(timeout: 20),
      try daemon.client.nextMessage(timeout: 20),
    ]
    for message in messages { XCTAssertEqual(message["jsonrpc"], "2.0", "\(message)") }
  }

  // MARK: Memory

  /// Peak resident and virtual memory of a process, in KiB, from /proc.
  private func memoryPeaks(_ pid: pid_t) throws -> (resident: Int, virtual: Int) {
    let status = try TestClient.run("/bin/cat", arguments: ["/proc/\(pid)/status"]).standardOutput
    func field(_ name: String) -> Int {
      for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
        return Int(line.dropFirst(name.count + 1).split(separator: " ").first ?? "") ?? 0
      }
      return 0
    }
    return (field("VmHWM"), field("VmPeak"))
  }

  func testAnnouncedLengthReservesNoMemoryBeforeTheBytesArrive() throws {
    let daemon = try daemonWithDocument()
    XCTAssertNotNil(try daemon.info("file:///a.txt"))
    let before = try memoryPeaks(daemon.client.processID)
    // 500,000,000 bytes announced (under the default 512 MiB limit), 1 sent.
    try daemon.sendRaw(Array("Content-Length: 500000000\r\n\r\n{".utf8))
    usleep(300_000)
    let after = try memoryPeaks(daemon.client.processID)
    XCTAssertLessThan(after.virtual - before.virtual, 256 << 10, "KiB of address space reserved: \(before) → \(after)")
    XCTAssertLessThan(after.resident - before.resident, 64 << 10, "KiB resident: \(before) → \(after)")
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
  }

  func testOversizedBodyIsSkippedWithoutBeingHeld() throws {
    let daemon = try Daemon.initialized(arguments: ["--max-message-size", "1000"])
    try daemon.open("file:///a.txt", "kept")
    XCTAssertNotNil(try daemon.info("file:///a.txt"))
    let before = try memoryPeaks(daemon.client.processID)
    let size = 128 << 20
    try daemon.sendRaw(Array("Content-Length: \(size)\r\n\r\n".utf8))
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    for _ in 0..<(size >> 20) { try daemon.sendRaw(chunk) }
    try daemon.sendRaw(frame(infoRequest(60)))
    assertError(try daemon.client.nextMessage(timeout: 30), code: -32600, id: .null, mentioning: "1000")
    XCTAssertEqual(try daemon.client.waitForResponse(id: 60, timeout: 30)["result"]?["text"], "kept")
    let after = try memoryPeaks(daemon.client.processID)
    XCTAssertLessThan(after.resident - before.resident, 64 << 10, "KiB resident: \(before) → \(after)")
  }
}
