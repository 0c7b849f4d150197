import BidiTestSupport
import Dispatch
import Foundation
import JSONRPC
import Synchronization
import XCTest

/// Input that counts the bytes the connection has read from it.
private final class CountingSource: ByteSource, @unchecked Sendable {
  let pipe = MemoryPipe()
  private let taken = Mutex(0)
  var bytesRead: Int { taken.withLock { $0 } }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
    let outcome = pipe.read(into: buffer)
    if case .bytes(let count) = outcome { taken.withLock { $0 += count } }
    return outcome
  }
}

/// Output that takes nothing while it is closed: a client that does not read.
private final class GatedSink: ByteSink, @unchecked Sendable {
  let pipe = MemoryPipe()
  private let condition = NSCondition()
  private var open = false

  func write(_ bytes: UnsafeRawBufferPointer) -> String? {
    condition.lock()
    while !open { condition.wait() }
    condition.unlock()
    return pipe.write(bytes)
  }

  func openGate() {
    condition.lock()
    open = true
    condition.broadcast()
    condition.unlock()
  }
}

private final class CountingHandler: MessageHandler, @unchecked Sendable {
  private let handled = Mutex(0)
  let slowGate = DispatchSemaphore(value: 0)
  var requestsHandled: Int { handled.withLock { $0 } }

  func handle(request: Request, context: RequestContext, result: inout JSONWriter) throws(ResponseError) {
    handled.withLock { $0 += 1 }
    if request.method == "slow" {
      guard slowGate.wait(timeout: .now() + 20) == .success else { throw .internalError("never released") }
    }
    result.value(request.id.json)
  }

  func handle(notification: JSONRPC.Notification, connection: Connection) {}
}

/// Connection's bounded queues (Protocol/specification.md, “Back-pressure”):
/// a client that stops reading stops the worker, then the reader; cancels
/// still withdraw what is queued.
final class BackPressureTests: XCTestCase {
  private let source = CountingSource()
  private let sink = GatedSink()
  private let handler = CountingHandler()
  private var finished = DispatchSemaphore(value: 0)

  private func serve(incoming: QueueBounds, outgoing: QueueBounds) {
    let connection = Connection(
      input: source, output: sink,
      options: Connection.Options(readSize: 4096, incoming: incoming, outgoing: outgoing),
      logger: Logger.disabled())
    let handler = self.handler
    let finished = self.finished
    let thread = Thread {
      _ = connection.run(handler)
      finished.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
  }

  override func tearDown() {
    sink.openGate()
    for _ in 0..<100 { handler.slowGate.signal() }
    source.pipe.close()
    XCTAssertEqual(finished.wait(timeout: .now() + 20), .success, "the connection did not end")
  }

  private func framed(_ id: Int, _ method: String = "get") -> [UInt8] {
    MessageWriter.frame(Message.request(Request(id: .integer(Int64(id)), method: method)).encoded())
  }

  private func framedCancel(_ id: Int) -> [UInt8] {
    MessageWriter.frame(
      Message.notification(JSONRPC.Notification(method: "$/cancelRequest", params: ["id": .integer(Int64(id))]))
        .encoded())
  }

  /// Waits until the connection has read nothing more for 300 ms.
  private func waitUntilReadingStops() -> Int {
    var last = -1
    var quiet = 0
    while quiet < 15 {
      usleep(20_000)
      let now = source.bytesRead
      quiet = now == last ? quiet + 1 : 0
      last = now
    }
    return last
  }

  private func answers(_ count: Int, _ reader: MessageReader) throws -> [JSONValue] {
    try (0..<count).map { _ in try reader.next(timeout: 20) }
  }

  private func checkFlood(
    incoming: QueueBounds, outgoing: QueueBounds, file: StaticString = #filePath, line: UInt = #line
  )
    throws
  {
    serve(incoming: incoming, outgoing: outgoing)
    let total = 2000
    let messages = (1...total).map { framed($0) }
    let size = messages[0].count
    let totalSize = messages.reduce(0) { $0 + $1.count }
    source.pipe.write(messages.flatMap { $0 })
    let read = waitUntilReadingStops()
    // Queued in: the incoming bound (+ one message over the byte bound; a
    // body is at least 30 bytes), the request the worker holds, and one
    // read(2) of at most 4096 bytes.
    let inFlight = min(incoming.messages, incoming.bytes / 30 + 1) + 2
    XCTAssertLessThanOrEqual(read, 4096 + inFlight * size + 64, "the reader kept reading", file: file, line: line)
    // Handled: those queued out (+ one over), one being written, one waiting to be queued.
    let queuedOut = min(outgoing.messages, outgoing.bytes / 30 + 1) + 2
    XCTAssertLessThanOrEqual(handler.requestsHandled, queuedOut, "the worker kept working", file: file, line: line)
    sink.openGate()
    let reader = MessageReader(sink.pipe)
    let ids = try answers(total, reader).map { $0["result"]?.intValue ?? -1 }
    XCTAssertEqual(ids, Array(1...total), "every request answered once, in order", file: file, line: line)
    XCTAssertEqual(source.bytesRead, totalSize, file: file, line: line)
  }

  func testAClientThatDoesNotReadStopsTheWorkerThenTheReader() throws {
    try checkFlood(
      incoming: QueueBounds(messages: 8, bytes: 1 << 20), outgoing: QueueBounds(messages: 4, bytes: 1 << 20))
  }

  func testQueuesAreBoundedByBytesToo() throws {
    try checkFlood(incoming: QueueBounds(messages: 1000, bytes: 600), outgoing: QueueBounds(messages: 1000, bytes: 120))
  }

  /// A cancel needs no room in the queue: it is handled as soon as the reader
  /// gets to it, which it does unless it holds a message waiting for room.
  func testCancelsWithdrawQueuedRequestsWhileTheQueueIsFull() throws {
    serve(incoming: QueueBounds(messages: 8, bytes: 1 << 20), outgoing: QueueBounds(messages: 8, bytes: 1 << 20))
    sink.openGate()
    let reader = MessageReader(sink.pipe)
    // 1 runs (and waits for the test); 2…9 fill the queue; the cancel of 5
    // is read and answered at once, which makes room for 10; 11 waits for
    // room, so the cancel of 7 behind it is not read yet.
    var bytes = (1...9).flatMap { framed($0, "slow") } + framedCancel(5)
    bytes += framed(10, "slow") + framed(11, "slow") + framedCancel(7)
    source.pipe.write(bytes)
    let first = try reader.next(timeout: 20)
    XCTAssertEqual(first["id"], 5)
    XCTAssertEqual(first["error"]?["code"], -32800)
    XCTAssertThrowsError(try reader.next(timeout: 0.3), "the cancel of 7 waits behind request 11")
    handler.slowGate.signal()
    // 1 finishes, the worker takes 2, 11 gets its place, the cancel of 7 is read.
    let next = try answers(2, reader)
    XCTAssertEqual(Set(next.compactMap { $0["id"]?.intValue }), [1, 7])
    XCTAssertEqual(next.first { $0["id"] == 7 }?["error"]?["code"], -32800)
    for _ in 0..<8 { handler.slowGate.signal() }
    let rest = try answers(8, reader).compactMap { $0["result"]?.intValue }
    XCTAssertEqual(rest, [2, 3, 4, 6, 8, 9, 10, 11])
    XCTAssertEqual(handler.requestsHandled, 9)
  }
}
