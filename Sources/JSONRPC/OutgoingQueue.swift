/// The encoded messages waiting to be written, and the writer thread that
/// writes them, one whole message at a time, through a `MessageWriter`.
///
/// Bounded by `QueueBounds`: `enqueue` waits while the queue is full, so a
/// client that does not read its input stops the threads that send to it
/// (the worker, and the reader when it answers a cancelled request) instead
/// of letting answers pile up in memory. Before `start` and after `finish`
/// messages are written by the caller, in place.
final class OutgoingQueue: @unchecked Sendable {
  private let writer: MessageWriter
  private let bounds: QueueBounds
  private let largeSize: Int
  private let lock = ConditionLock()
  // Guarded by `lock`.
  private var bodies: [(chunks: [[UInt8]], size: Int)] = []
  private var head = 0
  private var size = 0
  /// A message taken from the queue and being written.
  private var writing = false
  private var running = false
  private var wasLarge = false
  init(writer: MessageWriter, bounds: QueueBounds, largeSize: Int) {
    self.writer = writer
    self.bounds = bounds
    self.largeSize = largeSize
  }

  /// Starts the writer thread, which calls `drained` each time it has
  /// written everything queued; false (messages are then written in place)
  /// when it cannot be started.
  func start(drained: @escaping @Sendable () -> Void) -> Bool {
    lock.withLock { running = true }
    let started = startThread(stackSize: 1 << 20) { [self] in writeLoop(drained) }
    if !started { lock.withLock { running = false } }
    return started
  }

  /// Queues one message body, waiting while the queue is full.
  func enqueue(_ body: [UInt8]) {
    enqueue(chunks: [body])
  }

  /// Queues one message body held as chunks, waiting while the queue is full.
  func enqueue(chunks: [[UInt8]]) {
    let bodySize = chunks.reduce(0) { $0 + $1.count }
    let queued = lock.withLock { () -> Bool in
      lock.wait { !running || !bounds.isFull(count: bodies.count - head, size: size) }
      guard running else { return false }
      bodies.append((chunks, bodySize))
      size += bodySize
      if size >= largeSize || bodies.count - head >= bounds.messages { wasLarge = true }
      lock.broadcast()
      return true
    }
    if !queued { writer.write(chunks: chunks) }
  }

  /// Whether nothing is queued or being written.
  var isIdle: Bool { lock.withLock { head == bodies.count && !writing } }

  /// True once, after the queue held `largeSize` bytes or its message bound.
  func takeWasLarge() -> Bool {
    lock.withLock {
      defer { wasLarge = false }
      return wasLarge
    }
  }

  /// Writes what is queued, then stops the writer thread; later messages
  /// are written in place.
  func finish() {
    lock.withLock {
      lock.wait { head == bodies.count && !writing }
      running = false
      lock.broadcast()
    }
  }

  private func writeLoop(_ drained: @Sendable () -> Void) {
    while true {
      let next: (chunks: [[UInt8]], size: Int)? = lock.withLock {
        lock.wait { !running || head < bodies.count }
        guard head < bodies.count else { return nil }
        let body = bodies[head]
        bodies[head] = ([], 0)
        head += 1
        writing = true
        return body
      }
      guard let next else { return }
      writer.write(chunks: next.chunks)
      let isEmpty = lock.withLock { () -> Bool in
        size -= next.size
        writing = false
        compactQueue(&bodies, head: &head)
        lock.broadcast()
        return head == bodies.count
      }
      if isEmpty { drained() }
    }
  }
}
