#if canImport(Glibc)
  import CMalloc
#endif

/// Gives the memory that the allocator keeps free back to the system
/// (glibc's `malloc_trim(0)`; nothing elsewhere), and the large block that
/// jansson's allocator keeps for reuse (`JanssonMemory`).
///
/// After a flood of small messages or one huge answer, glibc keeps the
/// freed pages of each thread's arena: the process would stay at its peak
/// size although its queues are empty. `Connection` calls this once its
/// queues have drained after having been large. (It is called directly: a
/// look-up at run time with `dlsym` finds nothing in the static release
/// executable.)
enum MemoryTrim {
  /// Returns free memory to the system; true if the allocator could.
  @discardableResult
  static func trim() -> Bool {
    JanssonMemory.releaseSpare()
    #if canImport(Glibc)
      return malloc_trim(0) != 0
    #else
      return false
    #endif
  }
}
