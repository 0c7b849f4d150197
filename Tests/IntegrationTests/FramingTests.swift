import BidiTestSupport
import JSONRPC
import XCTest

/// Specification, “Transport”, transport: LSP framing as the built daemon reads it, and
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

  // MARK: Resynchronisation (issue 10, findings 1 and 2)

  private func didChange(version: Int, text: String) -> String {
    #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.txt","version":\#(version)},"contentChanges":[{"text":"\#(text)"}]}}"#
  }

  /// Finding 1: a header whose blank line lacks its LF made the daemon skip
  /// the body of the *next* message by the broken header's length, so the
  /// didChange after it was lost while the client had applied it.
  func testMessageAfterABlankLineWithoutItsLineFeedIsApplied() throws {
    let daemon = try daemonWithDocument()
    let broken = didChange(version: 2, text: "two")
    try daemon.sendRaw(Array("Content-Length: \(broken.utf8.count)\r\n\r\(broken)".utf8))
    try daemon.sendFramed(didChange(version: 3, text: "three"))
    try daemon.sendFramed(infoRequest(70))
    assertError(try daemon.client.nextMessage(timeout: 20), code: -32700, id: .null, mentioning: "framing")
    let answer = try daemon.client.waitForResponse(id: 70, timeout: 20)
    XCTAssertEqual(answer["result"]?["text"], "three", "\(answer)")
    XCTAssertEqual(answer["result"]?["version"], 3)
  }

  /// The same, with every way of breaking the blank line, each written in
  /// one piece and byte by byte.
  func testEveryBrokenBlankLineLosesOnlyItsOwnMessage() throws {
    let daemon = try daemonWithDocument()
    var version = 1
    for separator in ["\r", "\r\r", "\r \r\n", "x\r\n"] {
      for byteByByte in [false, true] {
        let lost = didChange(version: version + 1, text: "lost")
        let kept = didChange(version: version + 2, text: "v\(version + 2)")
        version += 2
        let bytes = Array("Content-Length: \(lost.utf8.count)\r\n\(separator)\(lost)".utf8) + frame(kept)
        if byteByByte {
          for byte in bytes { try daemon.sendRaw([byte]) }
        } else {
          try daemon.sendRaw(bytes)
        }
        let messages = try daemon.barrier()
        let context = "\(separator.debugDescription), byte by byte: \(byteByByte)"
        XCTAssertEqual(responses(in: messages).map { $0["error"]?["code"] }, [-32700], "\(context): \(messages)")
        let info = try daemon.info("file:///a.txt")
        XCTAssertEqual(info["text"]?.stringValue, "v\(version)", context)
        XCTAssertEqual(info["version"], JSONValue(version), context)
      }
    }
  }

  /// Finding 2: after `Content-Length: 1000000000000000` the daemon waited
  /// for 10^15 bytes and never answered again.
  func testRequestsAfterAnAbsurdContentLengthAreAnswered() throws {
    let daemon = try daemonWithDocument()
    try daemon.sendRaw(Array("Content-Length: 1000000000000000\r\n\r\n".utf8))
    try daemon.sendFramed(didChange(version: 2, text: "after"))
    try daemon.sendFramed(infoRequest(71))
    assertError(try daemon.client.nextMessage(timeout: 20), code: -32600, id: .null, mentioning: "512 MiB")
    let answer = try daemon.client.waitForResponse(id: 71, timeout: 20)
    XCTAssertEqual(answer["result"]?["text"], "after", "\(answer)")
    XCTAssertEqual(try daemon.info("file:///a.txt")["version"], 2)
  }

  /// An oversized message whose bytes do arrive: the daemon searches them
  /// as they pass and reads the next header after them.
  func testOversizedMessageWithItsBytesIsFollowedByTheNextMessage() throws {
    let daemon = try Daemon.initialized(arguments: ["--max-message-size", "1000"])
    try daemon.open("file:///a.txt", "kept")
    let big = didChange(version: 2, text: String(repeating: "content-length: 7 ", count: 200))
    try daemon.sendRaw(frame(big) + frame(infoRequest(72)))
    assertError(try daemon.client.nextMessage(timeout: 20), code: -32600, id: .null, mentioning: "1000")
    let answer = try daemon.client.waitForResponse(id: 72, timeout: 20)
    XCTAssertEqual(answer["result"]?["text"], "kept")
    XCTAssertEqual(answer["result"]?["version"], 1)
  }

  /// A body of an acceptable length is the body, even when it holds text
  /// that frames a message: it is never read as messages.
  func testFramedTextInsideAnAcceptableBodyIsNotRead() throws {
    let daemon = try daemonWithDocument()
    let inner = String(decoding: frame(#"{"jsonrpc":"2.0","id":73,"method":"shutdown"}"#), as: UTF8.self)
    try daemon.sendRaw(frame(inner))
    let messages = try daemon.barrier()
    XCTAssertEqual(responses(in: messages).map { $0["error"]?["code"] }, [-32700], "\(messages)")
    XCTAssertFalse(messages.contains { $0["id"] == 73 }, "the body was read as a message: \(messages)")
    XCTAssertNotNil(try daemon.info("file:///a.txt")["text"], "still serving")
  }

  /// The tail of a body announced too short runs into the next header as
  /// token characters (`2Content-Length: …`): the message is still read.
  func testMessageAfterABodyAnnouncedTooShortIsRead() throws {
    let daemon = try daemonWithDocument()
    try daemon.sendRaw(Array("Content-Length: 1\r\n\r\n42".utf8) + frame(didChange(version: 2, text: "short")))
    let messages = try daemon.barrier()
    XCTAssertEqual(responses(in: messages).map { $0["error"]?["code"] }, [-32600, -32700], "\(messages)")
    XCTAssertEqual(try daemon.text("file:///a.txt"), "short")
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
