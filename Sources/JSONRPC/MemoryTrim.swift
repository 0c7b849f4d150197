#if canImport(Glibc)
  import Glibc
#endif

/// Gives the memory that the allocator keeps free back to the system
/// (glibc's `malloc_trim(0)`, found at run time; nothing elsewhere).
///
/// After a flood of small messages or one huge answer, glibc keeps the
/// freed pages of each thread's arena: the process would stay at its peak
/// size although its queues are empty. `Connection` calls this once its
/// queues have drained after having been large.
enum MemoryTrim {
  #if canImport(Glibc)
    private typealias TrimFunction = @convention(c) (Int) -> Int32
    private static let function: TrimFunction? = {
      // RTLD_DEFAULT is the null handle on glibc.
      guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: TrimFunction.self)
    }()
  #endif

  /// Returns free memory to the system; true if the allocator could.
  @discardableResult
  static func trim() -> Bool {
    #if canImport(Glibc)
      return (function?(0) ?? 0) != 0
    #else
      return false
    #endif
  }
}
