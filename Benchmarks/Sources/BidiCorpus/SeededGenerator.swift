/// SplitMix64: a small, fast, seedable generator, so that every corpus is the
/// same bytes on every machine and every run.
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniformly chosen integer in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool {
    Double(next() >> 11) * 0x1p-53 < p
  }

  /// A uniformly chosen element of a non-empty array.
  public mutating func pick<T>(_ items: [T]) -> T {
    items[Int(next() % UInt64(items.count))]
  }
}
