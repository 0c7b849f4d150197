import BidiTestSupport
import Dispatch
import Foundation
import JSONRPC
import XCTest

/// A handler for the tests; all state is touched on the worker thread only.
private final class TestHandler: MessageHandler, @unchecked Sendable {
  var values: [JSONValue] = []
  /// Released by the test to let `slow` finish.
  let slowGate = DispatchSemaphore(value: 0)

  func handle(request: Request, context: RequestContext, result: inout JSONWriter) throws(ResponseError) {
    switch request.method {
    case "get":
      result.value(.array(values))
    case "slow":
      guard slowGate.wait(timeout: .now() + 20) == .success else {
        throw .internalError("the test never released the slow request")
      }
      result.string("slow done")
    case "spin":
      let deadline = Date().addingTimeInterval(20)
      while !context.isCancelled {
        if Date() > deadline { throw .internalError("never cancelled") }
        usleep(1000)
      }
      throw .requestCancelled
    case "notifyMe":
      context.connection.send(notification: "test/note", params: ["for": request.id.json])
      result.bool(true)
    default:
      throw .methodNotFound(request.method)
    }
  }

  func handle(notification: JSONRPC.Notification, connection: Connection) {
    switch notification.method {
    case "append": values.append(notification.params?["value"] ?? .null)
    case "stop": connection.stop()
    default: break
    }
  }
}

/// A connection served on a background thread over two pipes.
private final class Harness: @unchecked Sendable {
  let handler = TestHandler()
  let connection: Connection
  let reader: MessageReader
  private var toServer: Int32
  private let serverInput: Int32
  private let serverOutput: Int32
  private var readerOpen = true
  private var hasEnded = false
  private let finished = DispatchSemaphore(value: 0)
  private var ending: Connection.Ending? = nil

  init(maximumMessageSize: Int = 1 << 20) {
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    precondition(pipe(&input) == 0 && pipe(&output) == 0)
    toServer = input[1]
    serverInput = input[0]
    serverOutput = output[1]
    reader = MessageReader(fileDescriptor: output[0])
    connection = Connection(
      input: input[0], output: output[1],
      options: Connection.Options(maximumMessageSize: maximumMessageSize),
      logger: Logger.disabled())
    let thread = Thread { [self] in
      ending = connection.run(handler)
      finished.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
  }

  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return write(toServer, base + offset, raw.count - offset)
      }
      precondition(written > 0, "write to the connection failed")
      offset += written
    }
  }

  func send(_ json: JSONValue) { send(MessageWriter.frame(json.encoded())) }

  func request(_ id: Int64, _ method: String, _ params: JSONValue? = nil) {
    send(Message.request(Request(id: .integer(id), method: method, params: params)).json)
  }

  func notify(_ method: String, _ params: JSONValue? = nil) {
    send(Message.notification(JSONRPC.Notification(method: method, params: params)).json)
  }

  func cancel(_ id: Int64) { notify("$/cancelRequest", ["id": .integer(id)]) }

  /// Closes the test's end of the server's output.
  func closeOutputReader() {
    if readerOpen { close(reader.fileDescriptor) }
    readerOpen = false
  }

  func closeInput() {
    if toServer >= 0 { close(toServer) }
    toServer = -1
  }

  /// Waits for `run` to return.
  func waitForEnding(timeout: Double = 20) -> Connection.Ending? {
    if !hasEnded {
      guard finished.wait(timeout: .now() + timeout) == .success else { return nil }
      hasEnded = true
    }
    return ending
  }

  deinit {
    closeInput()
    handler.slowGate.signal()
    if waitForEnding() == .endOfInput {
      close(serverInput)  // the reader thread is done with it
    }
    close(serverOutput)
    closeOutputReader()
  }
}

final class ConnectionTests: XCTestCase {
  private func errorCode(_ message: JSONValue) -> Int? { message["error"]?["code"]?.intValue }

  func testMessagesAreHandledInOrder() throws {
    let harness = Harness()
    harness.notify("append", ["value": "a"])
    harness.notify("append", ["value": "b"])
    harness.request(1, "get")
    harness.notify("append", ["value": "c"])
    harness.request(2, "get")
    XCTAssertEqual(try harness.reader.next(), ["jsonrpc": "2.0", "id": 1, "result": ["a", "b"]])
    XCTAssertEqual(
      try harness.reader.next(), ["jsonrpc": "2.0", "id": 2, "result": ["a", "b", "c"]])
  }

  func testManyMessagesInOneWriteKeepTheirOrder() throws {
    let harness = Harness()
    var bytes: [UInt8] = []
    for index in 0..<500 {
      let message = Message.notification(
        JSONRPC.Notification(method: "append", params: ["value": JSONValue(index)]))
      bytes += MessageWriter.frame(message.encoded())
    }
    bytes += MessageWriter.frame(Message.request(Request(id: 1, method: "get")).encoded())
    harness.send(bytes)
    XCTAssertEqual(try harness.reader.next()["result"], .array((0..<500).map { JSONValue($0) }))
  }

  func testRequestQueuedBehindASlowOneIsCancelled() throws {
    let harness = Harness()
    harness.request(1, "slow")
    harness.request(2, "get")
    harness.cancel(2)
    // The slow request cannot finish before the test releases it, so request 2
    // is still queued when the cancel arrives: it must be answered -32800.
    let cancelled = try harness.reader.next()
    XCTAssertEqual(cancelled["id"], 2)
    XCTAssertEqual(errorCode(cancelled), -32800)
    harness.handler.slowGate.signal()
    XCTAssertEqual(try harness.reader.next(), ["jsonrpc": "2.0", "id": 1, "result": "slow done"])
    // Cancels for finished and unknown requests are ignored.
    harness.cancel(1)
    harness.cancel(2)
    harness.cancel(99)
    harness.notify("$/cancelRequest", ["id": true])
    harness.request(3, "get")
    XCTAssertEqual(try harness.reader.next(), ["jsonrpc": "2.0", "id": 3, "result": []])
  }

  func testCancellingOneOfSeveralQueuedRequestsKeepsTheOthersInOrder() throws {
    let harness = Harness()
    harness.request(1, "slow")
    harness.request(2, "get")
    harness.notify("append", ["value": "x"])
    harness.request(3, "get")
    harness.cancel(3)
    let cancelled = try harness.reader.next()
    XCTAssertEqual(cancelled["id"], 3)
    XCTAssertEqual(errorCode(cancelled), -32800)
    harness.handler.slowGate.signal()
    XCTAssertEqual(try harness.reader.next()["id"], 1)
    XCTAssertEqual(try harness.reader.next(), ["jsonrpc": "2.0", "id": 2, "result": []])
    harness.request(4, "get")
    XCTAssertEqual(try harness.reader.next(), ["jsonrpc": "2.0", "id": 4, "result": ["x"]])
  }

  func testRunningRequestSeesCancellation() throws {
    let harness = Harness()
    harness.request(5, "spin")
    harness.cancel(5)
    let response = try harness.reader.next()
    XCTAssertEqual(response["id"], 5)
    XCTAssertEqual(errorCode(response), -32800)
  }

  func testInputErrorsAreAnsweredInOrderAndServingContinues() throws {
    let harness = Harness(maximumMessageSize: 1000)
    func raw(_ text: String) -> [UInt8] { MessageWriter.frame(Array(text.utf8)) }
    harness.send(raw("{not json"))
    harness.send(raw("42"))
    harness.send(raw(#"[{"jsonrpc":"2.0","id":1,"method":"get"}]"#))
    harness.send(raw(#"{"jsonrpc":"2.0","id":null,"method":"get"}"#))
    harness.send(raw(#"{"jsonrpc":"2.0","id":7,"method":3}"#))
    harness.send(raw(#"{"jsonrpc":"2.0","id":1,"result":"ignored: a response"}"#))
    // (An oversized message's bytes are searched for the next header, and
    // broken headers met there are not answered again: the broken header
    // comes first here.)
    harness.send(Array("Content-Length: -3\r\n\r\nabc".utf8))
    harness.send(raw("\"" + String(repeating: "x", count: 2000) + "\""))
    harness.send(raw(#"{"jsonrpc":"2.0","id":8,"method":"get","params":"x"}"#))
    harness.send(raw(#"[1,123456789012345678901234567890]"#))
    harness.request(9, "get")
    let expected: [(id: JSONValue, code: Int?)] = [
      (nil, -32700), (nil, -32600), (nil, -32600), (nil, -32600), (7, -32600), (nil, -32700),
      (nil, -32600), (8, -32600), (nil, -32700), (9, nil),
    ]
    for (index, (id, code)) in expected.enumerated() {
      let message = try harness.reader.next()
      XCTAssertEqual(message["id"], id, "reply \(index): \(message)")
      XCTAssertEqual(errorCode(message), code, "reply \(index): \(message)")
      if index == 6 {
        let text = message["error"]?["message"]?.stringValue ?? ""
        XCTAssertTrue(text.contains("1000"), "names the limit: \(text)")
      }
    }
  }

  func testEndOfInputFinishesQueuedWork() throws {
    let harness = Harness()
    harness.request(1, "slow")
    for index in 0..<100 { harness.notify("append", ["value": JSONValue(index)]) }
    harness.request(2, "get")
    harness.closeInput()
    harness.handler.slowGate.signal()
    XCTAssertEqual(try harness.reader.next()["id"], 1)
    XCTAssertEqual(try harness.reader.next()["result"]?.arrayValue?.count, 100)
    XCTAssertEqual(harness.waitForEnding(), .endOfInput)
  }

  func testTruncatedMessageAtEndOfInputIsReported() throws {
    let harness = Harness()
    harness.send(Array("Content-Length: 100\r\n\r\n{\"jsonrpc\"".utf8))
    harness.closeInput()
    let message = try harness.reader.next()
    XCTAssertEqual(errorCode(message), -32700)
    XCTAssertEqual(message["id"], nil as JSONValue)
    XCTAssertEqual(harness.waitForEnding(), .endOfInput)
  }

  func testHandlersCanSendNotifications() throws {
    let harness = Harness()
    harness.request(1, "notifyMe")
    XCTAssertEqual(
      try harness.reader.next(), ["jsonrpc": "2.0", "method": "test/note", "params": ["for": 1]])
    XCTAssertEqual(try harness.reader.next()["result"], true)
  }

  func testStopEndsRun() throws {
    let harness = Harness()
    harness.notify("stop")
    harness.request(1, "get")
    XCTAssertEqual(harness.waitForEnding(), .stopped)
  }

  func testUnknownMethodIsTheHandlersAnswer() throws {
    let harness = Harness()
    harness.request(1, "nope")
    XCTAssertEqual(errorCode(try harness.reader.next()), -32601)
  }

  func testClosedOutputDoesNotKillTheProcess() throws {
    let harness = Harness()
    harness.closeOutputReader()
    for index in 0..<20 { harness.request(Int64(index), "get") }
    harness.closeInput()
    XCTAssertEqual(harness.waitForEnding(), .endOfInput)
  }

  func testLargeMessageRoundTrip() throws {
    let harness = Harness(maximumMessageSize: 64 << 20)
    let text = String(repeating: "שלום abc 😀 ", count: 300_000)  // about 5 MB
    harness.notify("append", ["value": .string(text)])
    harness.request(1, "get")
    XCTAssertEqual(try harness.reader.next(timeout: 60)["result"], [.string(text)])
  }
}
