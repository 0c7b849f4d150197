#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex with one condition variable, over pthreads (no Foundation).
package final class ConditionLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  package init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  package func withLock<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Waits (the lock held) until `ready()` is true.
  package func wait(until ready: () -> Bool) {
    while !ready() { pthread_cond_wait(condition, mutex) }
  }

  /// Waits (the lock held) until `ready()` is true or `milliseconds` have
  /// passed; returns whether `ready()` is true.
  func wait(milliseconds: Int, until ready: () -> Bool) -> Bool {
    var deadline = timespec()
    clock_gettime(CLOCK_REALTIME, &deadline)
    let nanoseconds = Int(deadline.tv_nsec) + (milliseconds % 1000) * 1_000_000
    deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    while !ready() {
      if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return ready() }
    }
    return true
  }

  /// Wakes every waiter (call with the lock held or not).
  package func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts a detached thread running `body`, with a stack large enough for
/// jansson's and our recursion over 2048-deep JSON.
package func startThread(stackSize: Int = 16 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
  createThread(stackSize: stackSize, detached: true, body) != nil
}

/// A thread started by `startJoinableThread`: `join()` waits until it has
/// finished, its body and everything the body held released.
package struct JoinableThread {
  #if os(Linux)
    fileprivate let thread: pthread_t
  #else
    fileprivate let thread: pthread_t?
  #endif

  package func join() {
    #if os(Linux)
      pthread_join(thread, nil)
    #else
      if let thread { pthread_join(thread, nil) }
    #endif
  }
}

/// Starts a thread running `body`, to be waited for with `join()`; nil if
/// the system cannot start one.
package func startJoinableThread(stackSize: Int = 16 << 20, _ body: @escaping @Sendable () -> Void)
  -> JoinableThread?
{
  createThread(stackSize: stackSize, detached: false, body).map(JoinableThread.init)
}

/// The one place threads are created: `body` runs on a new thread with a
/// stack of `stackSize` bytes, released when it returns.
#if os(Linux)
  private typealias ThreadHandle = pthread_t
#else
  private typealias ThreadHandle = pthread_t?
#endif

private func createThread(stackSize: Int, detached: Bool, _ body: @escaping @Sendable () -> Void) -> ThreadHandle? {
  final class Box: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setstacksize(&attributes, stackSize)
  pthread_attr_setdetachstate(
    &attributes, Int32(detached ? PTHREAD_CREATE_DETACHED : PTHREAD_CREATE_JOINABLE))
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  #if os(Linux)
    var thread = pthread_t()
  #else
    var thread: pthread_t? = nil
  #endif
  let result = pthread_create(
    &thread, &attributes,
    { context in
      // (An optional pointer on Linux, not on Darwin.)
      let context: UnsafeMutableRawPointer? = context
      guard let context else { return nil }
      let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
      box.body()
      return nil
    }, context)
  if result != 0 {
    Unmanaged<Box>.fromOpaque(context).release()
    return nil
  }
  return thread
}
