#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new document's leaves, built on two threads when it is large.
///
/// Splitting a document into lines, counting them and copying them into
/// leaves runs after the whole `didOpen` has been decoded, before the first
/// answer: about a tenth of the time a 25 MB open takes, most of it copying
/// and first touching the leaves' memory. From `tuning.parallelBuildBytes`
/// on, the text is cut after a line feed near its middle and the second
/// half is packed on a thread of its own while the calling thread packs the
/// first; the leaves are the same lines with the same counts, cut into
/// leaves a little differently around the middle. Where a thread cannot be
/// started, all of it is packed here.
package enum LeafBuild {
  /// All of `utf8` split into lines (the text after the last terminator is
  /// the last line, possibly empty), packed into leaves, as nodes. With
  /// `wellFormed`, the caller vouches that `utf8` is well-formed UTF-8,
  /// which is then not validated again (`WellFormedLineScan`).
  static func nodes<Analysis: LineAnalysis>(
    _ utf8: UnsafeBufferPointer<UInt8>, wellFormed: Bool, tuning: LineTreeTuning, of: Analysis.Type
  ) throws(DocumentError) -> [LineTreeNode<Analysis>] {
    guard utf8.count >= tuning.parallelBuildBytes, let cut = splitPoint(utf8) else {
      return try pack(utf8, endsDocument: true, wellFormed: wellFormed, tuning: tuning, of: Analysis.self)
    }
    let second = UnsafeBufferPointer(rebasing: utf8[cut...])
    var rest: Result<[LineTreeNode<Analysis>], DocumentError> = .success([])
    let job = Job {
      rest = Result { () throws(DocumentError) in
        try pack(second, endsDocument: true, wellFormed: wellFormed, tuning: tuning, of: Analysis.self)
      }
    }
    _ = job.start()
    let first = Result { () throws(DocumentError) in
      try pack(
        UnsafeBufferPointer(rebasing: utf8[..<cut]), endsDocument: false, wellFormed: wellFormed, tuning: tuning,
        of: Analysis.self)
    }
    job.finish()
    // The first half's error comes first, as it would in one pass.
    var nodes = try first.get()
    nodes.append(contentsOf: try rest.get())
    return nodes
  }

  /// Just past the first line feed at or after the middle, if that leaves
  /// bytes after it (a `\r\n` stays whole; a lone `\r` is not looked for).
  package static func splitPoint(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = utf8.baseAddress, utf8.count >= 2 else { return nil }
    let middle = utf8.count / 2
    guard let found = memchr(base + middle, 0x0A, utf8.count - middle) else { return nil }
    let cut = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
    return cut < utf8.count ? cut : nil
  }

  private static func pack<Analysis: LineAnalysis>(
    _ utf8: UnsafeBufferPointer<UInt8>, endsDocument: Bool, wellFormed: Bool, tuning: LineTreeTuning,
    of: Analysis.Type
  ) throws(DocumentError) -> [LineTreeNode<Analysis>] {
    var packer = LeafPacker(utf8, maxLeafBytes: tuning.maxLeafBytes)
    try packer.scan(0..<utf8.count, endsDocument: endsDocument, wellFormed: wellFormed)
    return packer.finish().map(LineTreeNode<Analysis>.init(leaf:))
  }
}

/// Work run on a thread of its own (pthreads, no Foundation).
private final class Job: @unchecked Sendable {
  private let work: () -> Void
  #if canImport(Darwin)
    private var thread: pthread_t?
  #else
    private var thread = pthread_t()
  #endif
  private var running = false

  init(_ work: @escaping () -> Void) { self.work = work }

  /// Starts the thread; false if it could not be started.
  func start() -> Bool {
    let context = Unmanaged.passRetained(self).toOpaque()
    let status = pthread_create(
      &thread, nil,
      { context in
        #if canImport(Darwin)
          Unmanaged<Job>.fromOpaque(context).takeRetainedValue().work()
        #else
          Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().work()
        #endif
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<Job>.fromOpaque(context).release()
      return false
    }
    running = true
    return true
  }

  /// Waits for the thread started by `start`, or runs the work here.
  func finish() {
    guard running else { return work() }
    #if canImport(Darwin)
      if let thread { pthread_join(thread, nil) }
    #else
      pthread_join(thread, nil)
    #endif
    running = false
  }
}
