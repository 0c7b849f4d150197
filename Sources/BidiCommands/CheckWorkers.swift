import JSONRPC

/// The threads that scan the parts of `check`'s plain text
/// (`scanPlainParts`): `count` of them, started once for a run, when the
/// first part is queued, and stopped at its end (`stop`). The thread that
/// queues the parts scans them too while it waits for the one it is to
/// write next (`wait(for:)`), so a run on `--jobs N` scans on N threads.
/// Parts are taken in the order queued, each by one thread only; a part's
/// `done`, set under the lock once its scan is over, hands it back.
final class PartWorkers: @unchecked Sendable {
  private let lock = ConditionLock()
  private let count: Int
  private var threads: [JoinableThread] = []
  private var started = false
  /// The parts queued; those from `taken` on are not taken yet.
  private var queued: [ScanPart] = []
  private var taken = 0
  private var stopping = false
  /// The part the queuing thread waits for, woken only when it is done.
  private var awaited: ScanPart?

  init(threads count: Int) { self.count = count }

  /// Queues `part` to be scanned by the first thread free.
  func queue(_ part: ScanPart) {
    lock.withLock {
      if !started {
        started = true
        for _ in 0..<count {
          guard let thread = startJoinableThread({ [self] in work() }) else { break }
          threads.append(thread)
        }
      }
      part.done = false
      queued.append(part)
      lock.broadcast()
    }
  }

  /// Returns once `part` is scanned, scanning on this thread meanwhile the
  /// parts that no thread has taken (all of them if no thread started).
  func wait(for part: ScanPart) {
    while let next = lock.withLock({ () -> ScanPart? in
      awaited = part
      lock.wait { part.done || taken < queued.count }
      awaited = nil
      return part.done ? nil : take()
    }) {
      scan(next)
    }
  }

  /// Stops the threads once they are idle and waits for them: no part is
  /// held by another thread after (call with no part waiting).
  func stop() {
    lock.withLock {
      stopping = true
      lock.broadcast()
    }
    for thread in threads { thread.join() }
    threads = []
  }

  /// The next part not taken (the lock held); the queue emptied once all
  /// are, so that it holds no part no longer scanned.
  private func take() -> ScanPart {
    let part = queued[taken]
    taken += 1
    if taken == queued.count {
      queued.removeAll(keepingCapacity: true)
      taken = 0
    }
    return part
  }

  private func scan(_ part: ScanPart) {
    part.scan()
    lock.withLock {
      part.done = true
      if part === awaited { lock.broadcast() }
    }
  }

  private func work() {
    while let next = lock.withLock({ () -> ScanPart? in
      lock.wait { stopping || taken < queued.count }
      return stopping ? nil : take()
    }) {
      scan(next)
    }
  }
}
