/// A small deterministic random generator (SplitMix64) for tests: the same
/// seed gives the same sequence on every machine, so failures reproduce.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension SeededGenerator {
  /// `count` elements of `pool`, each drawn at random: the one random text
  /// of the property tests (pieces of text, scalar values).
  package mutating func elements<T>(of pool: [T], count: Int) -> [T] {
    (0..<count).map { _ in pool[Int.random(in: 0..<pool.count, using: &self)] }
  }

  /// A random number (in `lengths`) of elements of `pool`.
  package mutating func elements<T>(of pool: [T], lengths: ClosedRange<Int>) -> [T] {
    elements(of: pool, count: Int.random(in: lengths, using: &self))
  }

  /// `count` pieces of `pieces` drawn at random, joined.
  package mutating func text(_ pieces: [String], count: Int) -> String {
    elements(of: pieces, count: count).joined()
  }

  /// A random number (in `lengths`) of pieces of `pieces`, joined.
  package mutating func text(_ pieces: [String], lengths: ClosedRange<Int>) -> String {
    elements(of: pieces, lengths: lengths).joined()
  }
}
