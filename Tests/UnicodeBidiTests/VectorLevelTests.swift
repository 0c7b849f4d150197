import BidiTestSupport
import CByteScan
import XCTest

/// The byte scans of `CByteScan` at each vector level (AVX-512, AVX2, SSE2,
/// byte by byte) against a plain Swift statement of what each returns. A
/// processor with AVX-512 or AVX2 never reaches the narrower loops on long
/// texts unless the level is lowered, so each level is forced in turn
/// (`cbs_set_vector_level`); where the processor lacks a level's vectors,
/// the next level down runs.
final class VectorLevelTests: XCTestCase {
  /// Pieces the random texts are made of: printable ASCII, tabs and line
  /// breaks, Arabic and Hebrew two-byte sequences, ALM (D8 9C), every bidi
  /// control led by E2, other E2 and three-byte sequences, four-byte ones,
  /// and ill-formed bytes (stray continuations, a lone lead, overlongs).
  static let pieces: [[UInt8]] = [
    Array("a".utf8), Array("Hello ".utf8), Array("x = 1;".utf8), [0x09], [0x0A], [0x0D], [0x0D, 0x0A], [0x7F], [0x00],
    Array("مرحبا".utf8), Array("שלום".utf8), Array("é".utf8), [0xD8, 0x9C],
    [0xE2, 0x80, 0x8E], [0xE2, 0x80, 0x8F], [0xE2, 0x80, 0xAA], [0xE2, 0x80, 0xAB], [0xE2, 0x80, 0xAC],
    [0xE2, 0x80, 0xAD], [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6], [0xE2, 0x81, 0xA7], [0xE2, 0x81, 0xA8],
    [0xE2, 0x81, 0xA9], [0xE2, 0x80, 0x94], [0xE2, 0x80, 0xA9], [0xE2, 0x81, 0xA5], Array("€".utf8),
    Array("中".utf8), Array("😀".utf8), [0x80], [0xBF], [0xC2], [0xC0, 0xAF], [0xE2, 0x80], [0xF5], [0xFF],
  ]

  /// Long runs of one kind, so that whole 16-, 32- and 64-byte blocks pass.
  static let runs: [[UInt8]] = [
    Array(repeating: UInt8(ascii: "a"), count: 70), Array(String(repeating: "ب", count: 40).utf8),
    Array(String(repeating: "a ب", count: 20).utf8),
  ]

  func randomBytes(_ random: inout SeededGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    let count = Int.random(in: 0...60, using: &random)
    for _ in 0..<count {
      if Int.random(in: 0..<8, using: &random) == 0 {
        bytes += Self.runs[Int.random(in: 0..<Self.runs.count, using: &random)]
      } else {
        bytes += Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
      }
    }
    return bytes
  }

  /// Runs `body` at each vector level, the default level restored after.
  func atEachLevel(_ body: (Int32) throws -> Void) rethrows {
    defer { _ = cbs_set_vector_level(3) }
    for level: Int32 in [3, 2, 1, 0] {
      _ = cbs_set_vector_level(level)
      try body(level)
    }
  }

  static func isPlain(_ b: UInt8) -> Bool { (b >= 0x20 && b < 0x7F) || b == 0x09 || b == 0x0A }

  func testPlainPrefixes() {
    var random = SeededGenerator(seed: 29)
    for round in 0..<1500 {
      let bytes = randomBytes(&random)
      let plain = bytes.firstIndex { !Self.isPlain($0) } ?? bytes.count
      let feeds = bytes[..<plain].filter { $0 == 0x0A }.count
      atEachLevel { level in
        bytes.withUnsafeBufferPointer { buffer in
          let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
          var lineFeeds = 0
          XCTAssertEqual(cbs_plain_text_prefix(base, buffer.count, &lineFeeds), plain, "round \(round), level \(level)")
          XCTAssertEqual(lineFeeds, feeds, "round \(round), level \(level)")
          XCTAssertEqual(cbs_plain_line_prefix(base, buffer.count), plain, "round \(round), level \(level)")
        }
      }
    }
  }

  func testByteCounts() {
    var random = SeededGenerator(seed: 5)
    for round in 0..<1500 {
      var bytes = randomBytes(&random)
      if round % 100 == 0 { bytes += [UInt8](repeating: 0x0A, count: 64 * 63 * 2 + 17) }  // past a lane's 255
      for byte: UInt8 in [0x0A, 0xD8, 0x61] {
        let expected = bytes.filter { $0 == byte }.count
        atEachLevel { level in
          bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            XCTAssertEqual(cbs_count_byte(base, buffer.count, byte), expected, "round \(round), level \(level)")
            var carriageReturn: Int32 = -1
            XCTAssertEqual(
              cbs_count_line_feeds(base, buffer.count, &carriageReturn), bytes.filter { $0 == 0x0A }.count,
              "round \(round), level \(level)")
            XCTAssertEqual(carriageReturn != 0, bytes.contains(0x0D), "round \(round), level \(level)")
          }
        }
      }
    }
  }

  func testWellFormedLines() {
    var random = SeededGenerator(seed: 17)
    for round in 0..<1500 {
      let bytes = randomBytes(&random)
      let start = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
      let end = bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
      let tails = bytes[start..<end].filter { $0 & 0xC0 == 0x80 }.count
      let fours = bytes[start..<end].filter { $0 >= 0xF0 }.count
      atEachLevel { level in
        bytes.withUnsafeBufferPointer { buffer in
          let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
          var continuations = 0
          var fourByteLeads = 0
          let found = cbs_well_formed_line(base, start, buffer.count, &continuations, &fourByteLeads)
          XCTAssertEqual(found, end, "round \(round), level \(level)")
          XCTAssertEqual(continuations, tails, "round \(round), level \(level)")
          XCTAssertEqual(fourByteLeads, fours, "round \(round), level \(level)")
        }
      }
    }
  }

  /// `cbs_find_bidi_controls` as its header states it: sequence by
  /// sequence from `start`, stopping at one that is not ASCII, a
  /// well-formed two-byte sequence or a well-formed E2 three-byte one, or
  /// after the `capacity`-th control.
  static func controls(in bytes: [UInt8], from start: Int, capacity: Int) -> (found: [(Int, UInt32)], end: Int) {
    var found: [(Int, UInt32)] = []
    var i = start
    func continuation(_ k: Int) -> Bool { k < bytes.count && bytes[k] & 0xC0 == 0x80 }
    while i < bytes.count, found.count < capacity {
      let b = bytes[i]
      var length = 0
      var control: UInt32 = 0
      if b < 0x80 {
        length = 1
      } else if (0xC2...0xDF).contains(b), continuation(i + 1) {
        length = 2
        if b == 0xD8 && bytes[i + 1] == 0x9C { control = 0x061C }
      } else if b == 0xE2, continuation(i + 1), continuation(i + 2) {
        length = 3
        let scalar = 0x2000 + (UInt32(bytes[i + 1] & 0x3F) << 6) + UInt32(bytes[i + 2] & 0x3F)
        if [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].contains(scalar) {
          control = scalar
        }
      }
      if length == 0 { break }
      if control != 0 { found.append((i, control)) }
      i += length
    }
    return (found, i)
  }

  func testBidiControls() {
    var random = SeededGenerator(seed: 42)
    for round in 0..<1500 {
      let bytes = randomBytes(&random)
      // `start` must begin a sequence: the end of a search from 0.
      let start = Self.controls(in: bytes, from: 0, capacity: Int.random(in: 0...3, using: &random)).end
      let capacity = [1, 2, 5, 1000][Int.random(in: 0..<4, using: &random)]
      let expected = Self.controls(in: bytes, from: start, capacity: capacity)
      atEachLevel { level in
        bytes.withUnsafeBufferPointer { buffer in
          let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
          var offsets = [Int](repeating: -1, count: capacity)
          var controls = [UInt32](repeating: 0, count: capacity)
          var end = -1
          let count = cbs_find_bidi_controls(base, start, buffer.count, &offsets, &controls, capacity, &end)
          XCTAssertEqual(count, expected.found.count, "round \(round), level \(level)")
          XCTAssertEqual(Array(offsets.prefix(count)), expected.found.map(\.0), "round \(round), level \(level)")
          XCTAssertEqual(Array(controls.prefix(count)), expected.found.map(\.1), "round \(round), level \(level)")
          XCTAssertEqual(end, expected.end, "round \(round), level \(level)")
        }
      }
    }
  }

  /// Controls, other sequences and ill-formed bytes at every offset
  /// around the 16-, 32- and 64-byte block edges and the end of texts of
  /// 34 to 200 bytes (the AVX2 scan's rounds take 64 bytes from a
  /// sequence's start, its last block is the text's last 64 bytes, its
  /// bytes before the search's position left out), in text dense with
  /// controls (whole blocks of two-byte letters and controls).
  func testBidiControlsAtBlockEdges() {
    let inserts: [[UInt8]] = [
      [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6], [0xD8, 0x9C], [0xE2, 0x80, 0x94], [0xD8], [0xE2, 0x80], [0xE2],
      [0x9C], [0xC1, 0x81], Array("😀".utf8), [0xD8, 0x9C, 0xE2, 0x81, 0xA9],
    ]
    var random = SeededGenerator(seed: 40)
    var checked = 0
    for length in 34...200 {
      // Filler: letters (D8 xx, D9 xx), ASCII and controls, whole.
      var filler: [UInt8] = []
      while filler.count < length {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: filler += [0x20]
        case 1: filler += [0xE2, 0x80, 0xAB]
        case 2: filler += [0xD8, 0x9C]
        default: filler += [0xD8 + UInt8.random(in: 0...1, using: &random), 0xA7]
        }
      }
      for insert in inserts {
        // Near the end, and about the edges of the rounds from the start.
        let edges = [14...18, 30...35, 62...67, 94...99, 126...131].joined().filter { $0 < length - 40 }
        for at in Array(max(0, length - 40)...length) + edges {
          // Cut at a sequence's start before `at` so that the insert stands whole.
          var cut = min(at, filler.count)
          while cut > 0 && cut < filler.count && filler[cut] & 0xC0 == 0x80 { cut -= 1 }
          let bytes = Array(filler[..<cut]) + insert
          let starts = [0, 1, 2, 3, 31, 32, 33, 63, 64, 65].filter { $0 < bytes.count && bytes[$0] & 0xC0 != 0x80 }
          let start: Int = starts.randomElement(using: &random) ?? 0
          let capacity = [1, 3, 1000][Int.random(in: 0..<3, using: &random)]
          let expected = Self.controls(in: bytes, from: start, capacity: capacity)
          atEachLevel { level in
            bytes.withUnsafeBufferPointer { buffer in
              var offsets = [Int](repeating: -1, count: capacity)
              var controls = [UInt32](repeating: 0, count: capacity)
              var end = -1
              let count = cbs_find_bidi_controls(
                buffer.baseAddress!, start, buffer.count, &offsets, &controls, capacity, &end)
              let context = "length \(bytes.count), from \(start), capacity \(capacity), level \(level)"
              XCTAssertEqual(count, expected.found.count, context)
              XCTAssertEqual(Array(offsets.prefix(count)), expected.found.map(\.0), context)
              XCTAssertEqual(Array(controls.prefix(count)), expected.found.map(\.1), context)
              XCTAssertEqual(end, expected.end, context)
            }
          }
          checked += 1
        }
      }
    }
    XCTAssertGreaterThan(checked, 10_000)
  }

  func testLevelIsRestoredAndReported() {
    let before = cbs_set_vector_level(1)
    XCTAssertEqual(before, 3)
    XCTAssertEqual(cbs_set_vector_level(3), 1)
  }
}
