import BidiTestSupport
import CByteScan
import XCTest

/// The AVX-512 and AVX2 control searches (`cbs_find_bidi_controls` at
/// vector levels 3 and 2) against the byte loop they pass over (level 0),
/// on text dense with
/// controls: the sequence a 64-byte block ends in is carried into the
/// next block (a two-byte lead in its last byte, an E2 in one of its last
/// two, written only once the next block shows it whole), a block that is
/// not simple is decided from the first sequence that starts in it (or
/// from the carried one when it is ill-formed), a block's E2 controls are
/// written without a capacity test when there is room for all of them
/// (AVX-512: compressed, sixteen written at a time, when there is room for
/// sixteen and a block holds at most sixteen E2s).
final class ControlSearchBlockEdgeTests: XCTestCase {
  /// The search at `level`: the controls found, and where it stopped.
  static func search(_ bytes: [UInt8], from start: Int, capacity: Int, level: Int32) -> (
    offsets: [Int], controls: [UInt32], end: Int
  ) {
    let before = cbs_set_vector_level(level)
    defer { _ = cbs_set_vector_level(before) }
    var offsets = [Int](repeating: -1, count: capacity)
    var controls = [UInt32](repeating: 0, count: capacity)
    var end = -1
    let count = bytes.withUnsafeBufferPointer { buffer in
      cbs_find_bidi_controls(
        buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, start, buffer.count, &offsets, &controls, capacity, &end)
    }
    return (Array(offsets.prefix(count)), Array(controls.prefix(count)), end)
  }

  /// Every search from `start` to the end of `bytes`, as a caller makes
  /// them (after a full batch from its end, after a stop from the next
  /// sequence's start), the same at each level; returns the number of
  /// controls found.
  @discardableResult
  func checkWalk(_ bytes: [UInt8], from start: Int, capacity: Int, _ context: @autoclosure () -> String) -> Int {
    var i = start
    var total = 0
    while i < bytes.count {
      let plain = Self.search(bytes, from: i, capacity: capacity, level: 0)
      var fast = plain
      for level: Int32 in [3, 2] {
        fast = Self.search(bytes, from: i, capacity: capacity, level: level)
        guard fast.offsets == plain.offsets, fast.controls == plain.controls, fast.end == plain.end else {
          XCTFail(
            "\(context()), from \(i), capacity \(capacity): level \(level) \(fast.offsets) \(fast.controls) "
              + "to \(fast.end), bytes \(plain.offsets) \(plain.controls) to \(plain.end); "
              + bytes.map { String($0, radix: 16) }.joined(separator: " "))
          return total
        }
      }
      total += fast.offsets.count
      if fast.offsets.count == capacity {
        i = fast.end
        continue
      }
      // A stop: on from the next byte that is not a continuation byte.
      i = fast.end + 1
      while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
    }
    return total
  }

  /// Whole sequences of text dense with controls: letters (two bytes, D8
  /// among their leads), ASCII, the E2 controls, ALM and other E2
  /// sequences.
  static let whole: [[UInt8]] = [
    [0xD8, 0xA7], [0xD9, 0x85], [0xD7, 0x90], [0x20], [0x61], [0xE2, 0x81, 0xA6], [0xE2, 0x81, 0xA9],
    [0xE2, 0x80, 0xAB], [0xE2, 0x80, 0xAC], [0xE2, 0x80, 0x8F], [0xD8, 0x9C], [0xE2, 0x80, 0x94],
  ]

  /// Ill-formed and other bytes put at a block's edge: leads cut off
  /// (before ASCII, before another lead), stray continuation bytes,
  /// over-long leads, a surrogate, E2 followed by ASCII where a control's
  /// third byte would be (`E2 80 2E`: RLO's low six bits), three- and
  /// four-byte sequences, a line break.
  static let edges: [[UInt8]] = [
    [0xE2], [0xE2, 0x80], [0xE2, 0x80, 0x2E], [0xE2, 0x81, 0x29], [0xD8], [0xD8, 0x20], [0x9C], [0x80, 0x80],
    [0xC0, 0xAE], [0xC1, 0x81], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0xAE], [0xF0, 0x9F, 0x98, 0x80],
    [0xE4, 0xB8, 0xAD], [0xFF], [0x0A], [0xE2, 0xE2, 0x80, 0xAE], [0xD8, 0xE2, 0x80, 0xAE],
  ]

  /// Dense text with a sequence from `whole` or `edges` placed so that it
  /// starts at each offset from 58 to 67 (the first block's edge) and
  /// from 122 to 131 (the second's), after a search start at each offset
  /// from 0 to 63: every alignment of a carried sequence, whole or not.
  func testSequencesAcrossBlockEdges() {
    var random = SeededGenerator(seed: 46)
    var checked = 0
    var controls = 0
    for piece in Self.whole + Self.edges {
      for start in 0..<64 {
        for edge in [58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131] {
          var bytes = [UInt8](repeating: 0x61, count: start)
          while bytes.count < start + edge {
            bytes += Self.whole[Int.random(in: 0..<Self.whole.count, using: &random)]
          }
          // Cut back to a sequence's start at or before the edge, then
          // ASCII up to it: the piece starts exactly there.
          var cut = start + edge
          while cut > start && cut < bytes.count && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
          bytes.removeSubrange(cut...)
          bytes += [UInt8](repeating: 0x20, count: start + edge - cut) + piece
          let tail = Int.random(in: 0..<150, using: &random)
          while bytes.count < start + edge + piece.count + tail {
            bytes += Self.whole[Int.random(in: 0..<Self.whole.count, using: &random)]
          }
          let capacity = [1, 2, 3, 5, 1000][checked % 5]
          controls += checkWalk(bytes, from: start, capacity: capacity, "piece \(piece), start \(start), edge \(edge)")
          checked += 1
        }
      }
    }
    XCTAssertEqual(checked, (Self.whole.count + Self.edges.count) * 64 * 20)
    XCTAssertGreaterThan(controls, checked * 3)
  }

  /// Random lines dense with controls (a control every few bytes, most
  /// blocks simple) with a rarer ill-formed byte, at every length up to
  /// five blocks, searched with room for fewer controls than a block holds
  /// and for about as many as it holds (the write without a capacity test
  /// stops one short of the room; the compressed one needs room for
  /// seventeen).
  func testRandomDenseLines() {
    var random = SeededGenerator(seed: 4646)
    var controls = 0
    for round in 0..<6000 {
      var bytes: [UInt8] = []
      let length = Int.random(in: 0...320, using: &random)
      while bytes.count < length {
        if Int.random(in: 0..<40, using: &random) == 0 {
          bytes += Self.edges[Int.random(in: 0..<Self.edges.count, using: &random)]
        } else {
          bytes += Self.whole[Int.random(in: 0..<Self.whole.count, using: &random)]
        }
      }
      let capacity = [1, 4, 7, 8, 9, 12, 15, 16, 17, 18, 30, 33, 1000][round % 13]
      controls += checkWalk(bytes, from: 0, capacity: capacity, "round \(round)")
    }
    XCTAssertGreaterThan(controls, 100_000)
  }

  /// Blocks of controls only (up to 21 E2s a block, more than the
  /// compressed write takes), of controls and other E2 sequences, and of
  /// controls with ALM, from every start in the first block, with room for
  /// fewer controls than a block holds, about as many, and more.
  func testBlocksFullOfControls() {
    let lines: [[UInt8]] = [
      Array(String(repeating: "\u{202E}", count: 70).utf8),
      Array(String(repeating: "\u{2066}\u{2014}", count: 40).utf8),
      Array(String(repeating: "\u{200F}\u{61C}\u{2069}", count: 30).utf8),
      Array(String(repeating: "\u{2067}ab\u{200E}", count: 40).utf8),
    ]
    var controls = 0
    for (k, line) in lines.enumerated() {
      for start in stride(from: 0, to: 64, by: 1) where line[start] & 0xC0 != 0x80 {
        for capacity in [1, 15, 16, 17, 18, 21, 22, 40, 1000] {
          controls += checkWalk(line, from: start, capacity: capacity, "line \(k), start \(start)")
        }
      }
    }
    XCTAssertGreaterThan(controls, 50_000)
  }
}
