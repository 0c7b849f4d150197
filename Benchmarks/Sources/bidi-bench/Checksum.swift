/// Folds levels and visual maps into one number, so the optimiser cannot drop
/// any of the work being measured, and so a run can be checked against the
/// next (every repetition must give the same value).
///
/// Levels fold as Σ level[i]·(i+1) and maps as Σ map[i]·(i+1), with wrapping
/// arithmetic. A uniform-level line with identity order, which an API may
/// report in compact form, folds through the closed forms of those sums, so
/// the compact and the expanded answer give the same checksum.
struct Checksum: Equatable {
  private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

  private mutating func mix(_ x: UInt64) {
    value = (value ^ x) &* 0x0000_0100_0000_01B3
  }

  mutating func add(levels: UnsafePointer<UInt8>, count: Int) {
    var sum: UInt64 = 0
    for i in 0..<count {
      sum &+= UInt64(levels[i]) &* UInt64(i &+ 1)
    }
    mix(sum)
  }

  mutating func add(uniformLevel level: UInt8, count: Int) {
    let n = UInt64(count)
    let triangle = n % 2 == 0 ? (n / 2) &* (n &+ 1) : n &* ((n &+ 1) / 2)
    mix(UInt64(level) &* triangle)
  }

  /// Folds a visual-to-logical map whose values count from `base`.
  mutating func add(visualMap map: UnsafePointer<Int32>, count: Int, base: Int32 = 0) {
    var sum: UInt64 = 0
    for i in 0..<count {
      sum &+= UInt64(UInt32(bitPattern: map[i] &- base)) &* UInt64(i &+ 1)
    }
    mix(sum)
  }

  /// Folds the identity map of `count` entries: Σ i·(i+1) = (n−1)·n·(n+1)/3.
  mutating func addIdentityMap(count: Int) {
    guard count > 1 else { return mix(0) }
    var a = UInt64(count - 1), b = UInt64(count), c = UInt64(count + 1)
    if a % 3 == 0 { a /= 3 } else if b % 3 == 0 { b /= 3 } else { c /= 3 }
    mix(a &* b &* c)
  }

  /// Folds a visual-to-logical map of Int offsets counting from `base`.
  mutating func add(visualMap map: UnsafePointer<Int>, count: Int, base: Int = 0) {
    var sum: UInt64 = 0
    for i in 0..<count {
      sum &+= UInt64(truncatingIfNeeded: map[i] &- base) &* UInt64(i &+ 1)
    }
    mix(sum)
  }

  /// Folds the reversed map of `count` entries (a uniform right-to-left line):
  /// Σ (n−1−i)·(i+1) = (n−1)·n·(n+1)/6.
  mutating func addReversedMap(count: Int) {
    guard count > 1 else { return mix(0) }
    var a = UInt64(count - 1), b = UInt64(count), c = UInt64(count + 1)
    if a % 3 == 0 { a /= 3 } else if b % 3 == 0 { b /= 3 } else { c /= 3 }
    if a % 2 == 0 { a /= 2 } else if b % 2 == 0 { b /= 2 } else { c /= 2 }
    mix(a &* b &* c)
  }

  /// An empty paragraph: nothing to lay out.
  mutating func addEmpty() {
    mix(0x9E37_79B9)
  }
}
