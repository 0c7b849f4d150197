/// Runs the parts of a job that do not depend on one another: on one
/// thread, or on several when its maker gives it a way to (StructuredText
/// starts no thread itself; `check` can make one on its own threads). The
/// results keep their parts' order, so what comes out is the same however
/// many threads ran the parts.
package struct PartRunner: Sendable {
  /// How many parts are worth making (the threads there are).
  package let threads: Int
  /// The fewest items worth a part of their own.
  package let minimumPart: Int
  private let run: @Sendable (_ count: Int, _ part: @escaping @Sendable (Int) -> Void) -> Void

  /// `run(count, part)` calls `part(0)`…`part(count - 1)`, each once, on
  /// any threads, and returns when all have returned.
  package init(
    threads: Int, minimumPart: Int,
    run: @escaping @Sendable (_ count: Int, _ part: @escaping @Sendable (Int) -> Void) -> Void
  ) {
    self.threads = threads
    self.minimumPart = minimumPart
    self.run = run
  }

  /// One thread: one part.
  package static let serial = PartRunner(threads: 1, minimumPart: .max) { count, part in
    for k in 0..<count { part(k) }
  }

  /// The ranges of `0..<count` to make parts of, in order: one per thread
  /// when each gets at least `minimumPart` items, else one.
  package func parts(_ count: Int) -> [Range<Int>] {
    let n = min(threads, count / max(minimumPart, 1))
    guard n > 1 else { return [0..<count] }
    return (0..<n).map { k in (count * k / n)..<(count * (k + 1) / n) }
  }

  /// `body` of each part, the results in the parts' order.
  package func map<T>(_ parts: [Range<Int>], _ body: @escaping @Sendable (Range<Int>) -> T) -> [T] {
    if parts.count == 1 { return [body(parts[0])] }
    let results = PartResults<T>(count: parts.count)
    run(parts.count) { k in results.set(k, body(parts[k])) }
    return results.values
  }
}

/// One slot per part, each written by the part's thread alone, read after
/// all have finished.
private final class PartResults<T>: @unchecked Sendable {
  private let slots: UnsafeMutablePointer<T?>
  private let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil, count: count)
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  func set(_ k: Int, _ value: T) { slots[k] = value }

  var values: [T] { (0..<count).map { slots[$0]! } }
}
