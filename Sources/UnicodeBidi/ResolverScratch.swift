#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The resolver's scratch memory above the stack limit, one block kept per
/// thread between paragraphs: a resolution takes it and gives it back, so
/// that a run of paragraphs (the lines of a document) costs no malloc and
/// free each, and the block stays in the cache. Blocks above `keptLimit`
/// bytes are freed at once; a thread's kept block is freed when it exits.
package enum ResolverScratch {
  /// The largest block kept for the next paragraph.
  package static let keptLimit = 1 << 16
  /// Bytes before the memory handed out: the block's capacity.
  private static let header = 16

  /// The thread's kept block (its header first), freed with the thread;
  /// nil if the process has no key left (then nothing is kept).
  private static let key: pthread_key_t? = {
    var key = pthread_key_t()
    return pthread_key_create(&key) { free($0) } == 0 ? key : nil
  }()

  /// At least `size` bytes, 16-byte aligned: the thread's kept block when it
  /// is large enough, else a new one.
  package static func take(_ size: Int) -> UnsafeMutableRawPointer {
    if let key = Self.key, let kept = pthread_getspecific(key) {
      pthread_setspecific(key, nil)
      if kept.load(as: Int.self) >= size { return kept + header }
      free(kept)
    }
    // Some room to grow, so that slightly longer paragraphs reuse it.
    let capacity = size + size / 4
    guard let block = malloc(capacity + header) else {
      fatalError("out of memory for \(size) bytes of scratch memory")
    }
    block.storeBytes(of: capacity, as: Int.self)
    return block + header
  }

  /// Gives back memory from `take`: kept for the thread's next paragraph
  /// when none is kept and it is not too large, else freed.
  package static func give(_ memory: UnsafeMutableRawPointer) {
    let block = memory - header
    if let key = Self.key, block.load(as: Int.self) <= keptLimit, pthread_getspecific(key) == nil,
      pthread_setspecific(key, block) == 0
    {
      return
    }
    free(block)
  }
}
