import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Receives the messages of a `Connection`.
///
/// All methods are called on the thread that called `Connection.run`, one
/// message at a time, in the order the messages arrived: a request that
/// follows a `textDocument/didChange` sees the change. Lifecycle rules
/// (`initialize`, -32002 before it, `shutdown`/`exit`) belong to the handler.
package protocol MessageHandler: AnyObject {
  /// Answers a request: writes its result, one JSON value, into `result`
  /// (entry by entry for a large answer), or throws the error to answer
  /// with (what was written is then dropped). Long work should poll
  /// `context.isCancelled` and throw `.requestCancelled` when it turns true.
  func handle(request: Request, context: RequestContext, result: inout JSONWriter) throws(ResponseError)

  /// Handles a notification (`$/cancelRequest` never arrives here: the
  /// connection handles it).
  func handle(notification: Notification, connection: Connection)

  /// Called on the worker thread whenever it has handled every message
  /// received so far, before it waits for more: the place for work that
  /// should wait until the client pauses (debounced diagnostics). Do a
  /// short slice of work and return true to be called again while the
  /// input stays quiet, false when there is nothing left to do: messages
  /// that arrive meanwhile wait for the slice. The default does nothing.
  func connectionIsIdle(_ connection: Connection) -> Bool
}

extension MessageHandler {
  package func connectionIsIdle(_ connection: Connection) -> Bool { false }
}

/// What a request handler can see and do while it runs.
package struct RequestContext: Sendable {
  package let id: RequestID
  /// The connection, to send notifications (e.g. `window/logMessage`).
  package let connection: Connection
  private let cancellation: CancellationFlag

  init(id: RequestID, connection: Connection, cancellation: CancellationFlag) {
    self.id = id
    self.connection = connection
    self.cancellation = cancellation
  }

  /// True once the client has sent `$/cancelRequest` for this request.
  package var isCancelled: Bool { cancellation.isSet }
}

final class CancellationFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  var isSet: Bool { flag.load(ordering: .acquiring) }
  func set() { flag.store(true, ordering: .releasing) }
}

/// A JSON-RPC 2.0 connection with LSP framing over a pair of byte streams:
/// by default stdin and stdout, or any `ByteSource` and `ByteSink` (a
/// server run in process over `MemoryPipe`s).
///
/// A reader thread reads input, frames, decodes and classifies it, and
/// queues the messages; the thread that calls `run` is the one worker that
/// handles them in order; a writer thread writes what they send. Because
/// reading does not wait for the worker (until the queue is full):
///
/// - `$/cancelRequest {id}` is handled as soon as it is read: a request
///   still queued is removed and answered -32800 immediately; a running one
///   has its `context.isCancelled` set; unknown or finished ids are ignored.
/// - Input errors are answered in order with the other messages, and the
///   connection keeps serving: unparsable JSON and framing errors -32700 with
///   `id: null`; JSON that is not a JSON-RPC message -32600 (with the
///   message's id when it had a valid one, else `null`); a message over the
///   size limit -32600 with `id: null`, naming the limit. Each is also
///   logged, since a lost notification can desynchronise client and server.
///   Broken responses from the client are only logged.
///
/// Back-pressure: both queues are bounded (`Options.incoming`,
/// `Options.outgoing`). A client that stops reading fills the outgoing
/// queue; then the worker waits to send, the incoming queue fills, and the
/// reader stops reading, so the client's writes block in the pipe and
/// memory stays bounded. Once both queues drain after having been large,
/// free memory is given back to the system (`MemoryTrim`).
///
/// At the end of input the worker finishes the queued work, everything
/// queued is written, and `run` returns `.endOfInput`. Responses from the
/// client are logged and dropped (the server sends no requests).
///
/// Output goes through a `MessageWriter`; SIGPIPE is ignored process-wide
/// so that a client that has gone cannot kill the process.
package final class Connection: Sendable {
  /// Tunables.
  package struct Options: Sendable {
    /// Messages with a larger body are refused (-32600) and skipped.
    package var maximumMessageSize: Int = 512 << 20
    /// Header sections longer than this are a framing error.
    package var maximumHeaderSize: Int = 64 << 10
    /// Bytes asked of each read(2).
    package var readSize: Int = 1 << 20
    /// The messages read and not yet handled: when the queue is full the
    /// reader stops reading (Protocol/specification.md, “Back-pressure”).
    package var incoming = QueueBounds(messages: 1024, bytes: 16 << 20)
    /// The messages encoded and not yet written: when the queue is full
    /// whoever sends waits (the worker, or the reader answering a cancel).
    package var outgoing = QueueBounds(messages: 1024, bytes: 16 << 20)
    /// Once a queue has held this many bytes (or its message bound), the
    /// connection gives free memory back to the system when both drain.
    package var trimThreshold = 4 << 20

    package init(
      maximumMessageSize: Int = 512 << 20, maximumHeaderSize: Int = 64 << 10,
      readSize: Int = 1 << 20, incoming: QueueBounds = QueueBounds(messages: 1024, bytes: 16 << 20),
      outgoing: QueueBounds = QueueBounds(messages: 1024, bytes: 16 << 20), trimThreshold: Int = 4 << 20
    ) {
      self.maximumMessageSize = maximumMessageSize
      self.maximumHeaderSize = maximumHeaderSize
      self.readSize = readSize
      self.incoming = incoming
      self.outgoing = outgoing
      self.trimThreshold = trimThreshold
    }
  }

  /// Why `run` returned.
  package enum Ending: Sendable, Hashable {
    /// Input ended (EOF or a read error) and all queued messages were handled.
    case endOfInput
    /// `stop()` was called.
    case stopped
  }

  package let logger: Logger
  package let options: Options
  private let input: any ByteSource
  private let outgoing: OutgoingQueue
  private let lock = ConditionLock()
  private let hasRun = Atomic<Bool>(false)
  /// Guarded by `lock`.
  private let state: IncomingQueue

  /// Serves the file descriptors `input` and `output`; ignores SIGPIPE for
  /// the whole process.
  package convenience init(
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
    options: Options = Options(), logger: Logger = Logger(level: .warning)
  ) {
    signal(SIGPIPE, SIG_IGN)
    #if os(Linux)
      // A pipe on stdin holds 1 MiB instead of 64 KiB where the system
      // allows it (F_SETPIPE_SZ; anything else, or a refusal, changes
      // nothing): a large message crosses it in 16 times fewer refills.
      _ = fcntl(input, 1031, Int32(1 << 20))
    #endif
    self.init(
      input: FileDescriptorStream(input), output: FileDescriptorStream(output), options: options, logger: logger)
  }

  /// Serves any pair of byte streams.
  package init(
    input: any ByteSource, output: any ByteSink, options: Options = Options(),
    logger: Logger = Logger(level: .warning)
  ) {
    self.input = input
    self.options = options
    self.logger = logger
    let state = IncomingQueue(bounds: options.incoming, largeSize: options.trimThreshold)
    self.state = state
    self.outgoing = OutgoingQueue(
      writer: MessageWriter(sink: output, logger: logger), bounds: options.outgoing,
      largeSize: options.trimThreshold)
  }

  // MARK: Sending

  /// Sends a notification to the client (from any thread).
  package func send(notification method: String, params: JSONValue? = nil) {
    outgoing.enqueue(Message.notification(Notification(method: method, params: params)).encoded())
  }

  /// Sends a notification whose params `encode` writes (one JSON object or
  /// array), entry by entry (from any thread).
  package func send(notification method: String, encodingParams encode: (inout JSONWriter) -> Void) {
    var body = JSONWriter()
    body.beginObject()
    body.member("jsonrpc", "2.0")
    body.member("method", method)
    body.key("params")
    encode(&body)
    body.endObject()
    outgoing.enqueue(chunks: body.takeChunks())
  }

  /// Sends any message (from any thread).
  package func send(_ message: Message) {
    outgoing.enqueue(message.encoded())
  }

  // MARK: Running

  /// Reads and handles messages until the input ends or `stop()` is called.
  /// Blocks the calling thread, which runs every handler call. Call once (a
  /// second call returns `.stopped` at once).
  package func run(_ handler: some MessageHandler) -> Ending {
    guard !hasRun.exchange(true, ordering: .acquiringAndReleasing) else {
      logger.error("Connection.run called twice")
      return .stopped
    }
    // Whichever of the worker and the writer finds both queues drained trims.
    if !outgoing.start(drained: { [self] in trimIfDrained() }) {
      logger.warning("cannot start the writer thread: writing in place")
    }
    // What is queued for the client is written before `run` returns.
    defer { outgoing.finish() }
    let started = startThread { [self] in readLoop() }
    if !started {
      logger.error("cannot start the reader thread")
      return .endOfInput
    }
    while true {
      trimIfDrained()
      while lock.withLock({ state.isEmpty && !state.stopRequested }) {
        if !handler.connectionIsIdle(self) { break }
      }
      let next: Item? = lock.withLock {
        lock.wait { state.stopRequested || !state.isEmpty }
        if state.stopRequested { return nil }
        let item = state.dequeue()
        if case .request(let pending) = item { pending.phase = .running }
        // The reader may be waiting for room.
        lock.broadcast()
        return item
      }
      guard let next else { return .stopped }
      switch next {
      case .endOfInput:
        return .endOfInput
      case .reply(let response):
        outgoing.enqueue(Message.response(response).encoded())
      case .notification(let notification):
        handler.handle(notification: notification, connection: self)
      case .request(let pending):
        let request = pending.request
        let context = RequestContext(
          id: request.id, connection: self, cancellation: pending.cancellation)
        let body = Self.answer(request, context, handler)
        lock.withLock { state.forget(pending) }
        outgoing.enqueue(chunks: body)
      }
    }
  }

  /// Gives free memory back to the system when the input queue is empty,
  /// everything is written, and a queue was large since the last time.
  private func trimIfDrained() {
    guard lock.withLock({ state.isEmpty }), outgoing.isIdle else { return }
    let inputWasLarge = lock.withLock { state.takeWasLarge() }
    if outgoing.takeWasLarge() || inputWasLarge {
      logger.debug("queues drained: giving free memory back")
      MemoryTrim.trim()
    }
  }

  /// Makes `run` return `.stopped` once the current message is handled;
  /// queued messages are dropped. (The reader thread may stay blocked in
  /// read(2) until the input closes or the process exits.)
  package func stop() {
    lock.withLock {
      state.stopRequested = true
      lock.broadcast()
    }
  }

  /// The encoded response to `request`: the result the handler writes
  /// after `{"jsonrpc":"2.0","id":…,"result":`, or its error.
  private static func answer(_ request: Request, _ context: RequestContext, _ handler: some MessageHandler)
    -> [[UInt8]]
  {
    var body = JSONWriter()
    body.beginObject()
    body.member("jsonrpc", "2.0")
    body.member("id", request.id.json)
    body.key("result")
    let start = body.count
    do throws(ResponseError) {
      try handler.handle(request: request, context: context, result: &body)
    } catch {
      return [Message.response(Response(id: request.id, result: .failure(error))).encoded()]
    }
    if body.count == start { body.null() }
    body.endObject()
    return body.takeChunks()
  }

  // MARK: Reader

  /// Reads, frames and decodes. A body is decoded as it arrives
  /// (`readBody`): the framer stops where it begins, and jansson pulls its
  /// bytes straight from the read buffer, which is refilled from the input
  /// while jansson still parses; a body that is already whole in the buffer
  /// is decoded in place. No body is gathered into a copy first.
  private func readLoop() {
    var framer = MessageFramer(
      maximumMessageSize: options.maximumMessageSize,
      maximumHeaderSize: options.maximumHeaderSize, streamsBodies: true)
    var buffer = ReadBuffer(size: max(4096, options.readSize))
    defer { buffer.deallocate() }
    reading: while !lock.withLock({ state.stopRequested }) {
      if buffer.isEmpty {
        guard fill(&buffer) else { break reading }
      }
      buffer.consume(framer.feed(buffer.unread) { receive($0) })
      if let length = framer.streamedBodyLength {
        let whole = readBody(length: length, &buffer)
        framer.endStreamedBody()
        if !whole { break reading }
      }
    }
    if let event = framer.finish() { receive(event) }
    logger.debug("end of input")
    enqueue(.endOfInput, size: 0)
  }

  /// Reads the next bytes of input into the (empty) buffer; false at the
  /// end of input or when reading failed (logged).
  private func fill(_ buffer: inout ReadBuffer) -> Bool {
    switch input.read(into: buffer.storage) {
    case .bytes(let count):
      buffer.filled(count)
      return true
    case .endOfInput:
      return false
    case .failed(let reason):
      logger.error("reading input failed: \(reason)")
      return false
    }
  }

  /// Reads and decodes a body of `length` bytes that begins at the
  /// buffer's first unread byte, and queues what it is. False when the
  /// input ended before the body did (reported as a framing error).
  private func readBody(length: Int, _ buffer: inout ReadBuffer) -> Bool {
    if buffer.count >= length {
      let result = Result { () throws(JSONDecodeError) in
        try JSONValue(decoding: UnsafeRawBufferPointer(rebasing: buffer.unread.prefix(length)))
      }
      buffer.consume(length)
      receive(decoded: result, size: length)
      return true
    }
    var remaining = length
    var ended = false
    let result = Result { () throws(JSONDecodeError) in
      try JSONValue(decodingFrom: { destination in
        guard remaining > 0 else { return 0 }
        if buffer.isEmpty {
          guard !ended, fill(&buffer) else {
            ended = true
            return 0
          }
        }
        let take = min(destination.count, buffer.count, remaining)
        destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer.unread.prefix(take)))
        buffer.consume(take)
        remaining -= take
        return take
      })
    }
    // jansson stops at the first error: the rest of the body is skipped.
    while remaining > 0 && !ended {
      if buffer.isEmpty && !fill(&buffer) {
        ended = true
        break
      }
      let take = min(buffer.count, remaining)
      buffer.consume(take)
      remaining -= take
    }
    guard remaining == 0 else {
      receive(.error(.truncatedBody(expected: length, received: length - remaining)))
      return false
    }
    receive(decoded: result, size: length)
    return true
  }

  private func receive(_ event: MessageFramer.Event) {
    switch event {
    case .message(let body):
      receive(body: body)
    case .oversized(let length, let limit):
      logger.error("refusing a message of \(length) bytes: over the limit of \(limit) bytes")
      reply(
        nil,
        .invalidRequest(
          "Message too large: \(length) bytes exceeds the limit of \(limit) bytes"
            + " (\(Self.describe(size: limit)))"))
    case .error(let error):
      logger.error("framing error: \(error); skipping to the next Content-Length header")
      reply(nil, .parseError("Invalid message framing: \(error)"))
    }
  }

  private func receive(body: MessageBody) {
    let size = body.count
    receive(decoded: Result { () throws(JSONDecodeError) in try JSONValue(decoding: body) }, size: size)
  }

  /// Classifies and queues a decoded message (or answers why it is none).
  private func receive(decoded: Result<JSONValue, JSONDecodeError>, size: Int) {
    let value: JSONValue
    switch decoded {
    case .success(let decoded): value = decoded
    case .failure(let error):
      logger.error("dropping a \(size)-byte message that is not valid JSON: \(error)")
      return reply(nil, .parseError("Parse error: \(error)"))
    }
    if logger.isEnabled(.trace) { logger.trace("<-- \(Self.abbreviate(value, limit: 4000))") }
    let message: Message
    do {
      message = try Message(classifying: value)
    } catch {
      if error.isResponse {
        logger.warning("ignoring an invalid response: \(error.reason)")
      } else {
        logger.error("invalid message (\(error.reason)): \(Self.abbreviate(value))")
        reply(error.id, error.responseError)
      }
      return
    }
    switch message {
    case .request(let request):
      logger.debug("<-- request \(request.id) \(request.method)")
      enqueue(.request(PendingRequest(request)), size: size)
    case .notification(let notification) where notification.method == "$/cancelRequest":
      cancel(notification.params?["id"])
    case .notification(let notification):
      logger.debug("<-- notification \(notification.method)")
      enqueue(.notification(notification), size: size)
    case .response(let response):
      logger.debug("ignoring a response from the client (id \(response.id?.description ?? "null"))")
    }
  }

  private func reply(_ id: RequestID?, _ error: ResponseError) {
    enqueue(.reply(Response(id: id, result: .failure(error))), size: 256)
  }

  /// Queues an item for the worker, waiting while the queue is full (the
  /// end of input never waits): meanwhile nothing more is read.
  private func enqueue(_ item: Item, size: Int) {
    lock.withLock {
      if item.waitsForRoom { lock.wait { state.stopRequested || !state.isFull } }
      state.enqueue(item, size: size)
      lock.broadcast()
    }
  }

  private func cancel(_ idValue: JSONValue?) {
    guard let idValue, let id = RequestID(json: idValue) else {
      logger.warning("ignoring $/cancelRequest without a valid id")
      return
    }
    let cancelledQueued = lock.withLock { state.cancel(id) }
    logger.debug("cancel \(id): \(cancelledQueued ? "answered" : "flagged or unknown")")
    if cancelledQueued {
      // Through the outgoing queue: while it is full the reader waits here.
      outgoing.enqueue(Message.response(Response(id: id, result: .failure(.requestCancelled))).encoded())
    }
  }

  // MARK: Helpers

  private static func describe(size: Int) -> String {
    if size >= 1 << 20, size % (1 << 20) == 0 { return "\(size >> 20) MiB" }
    if size >= 1 << 10, size % (1 << 10) == 0 { return "\(size >> 10) KiB" }
    return "\(size) bytes"
  }

  private static func abbreviate(_ value: JSONValue, limit: Int = 200) -> String {
    let text = value.encoded()
    return text.count <= limit
      ? String(decoding: text, as: UTF8.self)
      : String(decoding: text.prefix(limit), as: UTF8.self) + "…"
  }
}

/// The reader's buffer: bytes read from the input, of which those from
/// `start` to `end` are not consumed yet.
private struct ReadBuffer {
  let storage: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0

  init(size: Int) {
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
  }

  func deallocate() { storage.deallocate() }

  var count: Int { end - start }
  var isEmpty: Bool { start == end }
  var unread: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[start..<end]) }

  /// The input wrote `count` bytes at the start of the storage.
  mutating func filled(_ count: Int) {
    start = 0
    end = count
  }

  mutating func consume(_ count: Int) { start += count }
}
