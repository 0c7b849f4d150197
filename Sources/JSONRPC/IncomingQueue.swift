/// How much a queue between two of a connection's threads may hold: a
/// number of messages and a number of bytes (message bodies as encoded).
/// A sender waits while the queue holds `messages` messages or at least
/// `bytes` bytes, so one message larger than `bytes` still passes (into a
/// queue below the bound): a queue holds at most `bytes` plus one message.
package struct QueueBounds: Sendable, Hashable {
  package var messages: Int
  package var bytes: Int

  package init(messages: Int, bytes: Int) {
    self.messages = max(1, messages)
    self.bytes = max(1, bytes)
  }

  /// Whether a queue holding `count` messages of `size` bytes must make a
  /// sender wait.
  func isFull(count: Int, size: Int) -> Bool {
    count >= messages || size >= bytes
  }
}

/// Drops the taken elements (before `head`) of an array used as a queue
/// once it is empty or at least half taken, so each element moves O(1)
/// times.
func compactQueue<Element>(_ items: inout [Element], head: inout Int) {
  if head == items.count {
    items.removeAll(keepingCapacity: items.capacity <= 4096)
    head = 0
  } else if head >= 1024, head * 2 >= items.count {
    items.removeFirst(head)
    head = 0
  }
}

/// One unit of work for the worker.
enum Item {
  case request(PendingRequest)
  case notification(Notification)
  case reply(Response)
  case endOfInput

  /// Whether queuing it waits while the queue is full (the end of input
  /// never does).
  var waitsForRoom: Bool {
    if case .endOfInput = self { return false }
    return true
  }
}

/// A request between arrival and response. `phase` is guarded by the
/// connection's lock.
final class PendingRequest: @unchecked Sendable {
  enum Phase { case queued, running, cancelled }
  let request: Request
  let cancellation = CancellationFlag()
  var phase = Phase.queued
  init(_ request: Request) { self.request = request }
}

/// The messages read and not yet handled, bounded by `QueueBounds`, with
/// the requests in flight by id; every access holds the connection's lock.
final class IncomingQueue: @unchecked Sendable {
  private var items: [(item: Item, size: Int)] = []
  private var head = 0
  /// Requests queued or running, by id (a client may reuse an id).
  private var inFlight: [RequestID: [PendingRequest]] = [:]
  /// The bytes of the queued items.
  private(set) var size = 0
  /// Whether the queue reached `largeSize` bytes or its message bound
  /// since `takeWasLarge()` (memory may then be given back once drained).
  private var wasLarge = false
  let bounds: QueueBounds
  private let largeSize: Int
  var stopRequested = false

  init(bounds: QueueBounds, largeSize: Int) {
    self.bounds = bounds
    self.largeSize = largeSize
  }

  var isEmpty: Bool { head == items.count }
  var count: Int { items.count - head }
  /// Whether the reader must wait before queuing more.
  var isFull: Bool { bounds.isFull(count: count, size: size) }

  func enqueue(_ item: Item, size itemSize: Int) {
    if case .request(let pending) = item {
      inFlight[pending.request.id, default: []].append(pending)
    }
    items.append((item, itemSize))
    size += itemSize
    if size >= largeSize || count >= bounds.messages { wasLarge = true }
  }

  /// The next item; the queue must not be empty.
  func dequeue() -> Item {
    let (item, itemSize) = items[head]
    head += 1
    size -= itemSize
    compactQueue(&items, head: &head)
    return item
  }

  /// True once, after the queue was large.
  func takeWasLarge() -> Bool {
    defer { wasLarge = false }
    return wasLarge
  }

  /// Cancels requests with `id`: queued ones are withdrawn (true is returned:
  /// answer -32800 now); a running one is flagged.
  func cancel(_ id: RequestID) -> Bool {
    guard let requests = inFlight[id] else { return false }
    var withdrew = false
    for pending in requests {
      switch pending.phase {
      case .queued:
        pending.phase = .cancelled
        withdrew = true
      case .running:
        pending.cancellation.set()
      case .cancelled:
        break
      }
    }
    if withdrew {
      items = items[head...].filter { entry in
        if case .request(let pending) = entry.item, pending.phase == .cancelled { return false }
        return true
      }
      head = 0
      size = items.reduce(0) { $0 + $1.size }
      let remaining = requests.filter { $0.phase != .cancelled }
      inFlight[id] = remaining.isEmpty ? nil : remaining
    }
    return withdrew
  }

  /// Drops a finished request.
  func forget(_ pending: PendingRequest) {
    guard var requests = inFlight[pending.request.id] else { return }
    requests.removeAll { $0 === pending }
    inFlight[pending.request.id] = requests.isEmpty ? nil : requests
  }
}
