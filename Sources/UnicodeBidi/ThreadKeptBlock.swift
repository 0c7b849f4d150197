#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One block of memory kept per thread between uses, so that a run of
/// paragraphs (the lines of a document) costs no malloc and free each and
/// the block stays in the cache: `take` hands out the thread's kept block
/// when it is large enough, `give` keeps it for the thread's next `take`.
/// Blocks above `limit` bytes are freed at once; a thread's kept block is
/// freed when it exits. Each instance is a slot of its own (a thread key).
package struct ThreadKeptBlock: Sendable {
  /// The largest block kept.
  package let limit: Int
  /// The thread's kept block (its header first), freed with the thread;
  /// nil if the process has no key left (then nothing is kept).
  private let key: pthread_key_t?
  /// Bytes before the memory handed out: the block's capacity.
  private static let header = 16

  package init(limit: Int) {
    self.limit = limit
    var key = pthread_key_t()
    self.key = pthread_key_create(&key) { free($0) } == 0 ? key : nil
  }

  /// At least `size` bytes, 16-byte aligned: the thread's kept block when it
  /// is large enough, else a new one.
  package func take(_ size: Int) -> UnsafeMutableRawPointer {
    if let key, let kept = pthread_getspecific(key) {
      pthread_setspecific(key, nil)
      if kept.load(as: Int.self) >= size { return kept + Self.header }
      free(kept)
    }
    // Some room to grow when it will be kept, so that slightly longer
    // paragraphs reuse it; none when it will not (a huge paragraph).
    let capacity = size <= limit ? min(size + size / 4, limit) : size
    guard let block = malloc(capacity + Self.header) else {
      fatalError("out of memory for a block of \(size) bytes")
    }
    block.storeBytes(of: capacity, as: Int.self)
    return block + Self.header
  }

  /// Gives back memory from `take`: kept for the thread's next `take` when
  /// none is kept and it is not above `limit`, else freed.
  package func give(_ memory: UnsafeMutableRawPointer) {
    let block = memory - Self.header
    if let key, block.load(as: Int.self) <= limit, pthread_getspecific(key) == nil,
      pthread_setspecific(key, block) == 0
    {
      return
    }
    free(block)
  }
}

/// One object kept per thread between uses (a thread key holding a
/// reference), released when the thread exits: `take` hands it out and
/// forgets it, `give` keeps one.
struct ThreadKeptObject<Object: AnyObject>: Sendable {
  /// Nil if the process has no key left (then nothing is kept).
  private let key: pthread_key_t?

  init() {
    var key = pthread_key_t()
    self.key =
      pthread_key_create(&key) { object in
        if let object { Unmanaged<AnyObject>.fromOpaque(object).release() }
      } == 0 ? key : nil
  }

  /// The thread's kept object, no longer kept; nil if there is none.
  func take() -> Object? {
    guard let key, let kept = pthread_getspecific(key) else { return nil }
    pthread_setspecific(key, nil)
    return Unmanaged<Object>.fromOpaque(kept).takeRetainedValue()
  }

  /// Keeps `object` for the thread's next `take`, in place of any kept one.
  func give(_ object: Object) {
    guard let key else { return }
    if let kept = pthread_getspecific(key) { Unmanaged<Object>.fromOpaque(kept).release() }
    if pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque()) != 0 {
      Unmanaged.passUnretained(object).release()
    }
  }
}
