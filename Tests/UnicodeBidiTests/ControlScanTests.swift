import UnicodeBidi
import XCTest

/// `BidiControl.nextControlOrInvalid` (the hazard scan's search, sixteen
/// bytes at a time over ASCII and two-byte sequences) against a
/// reference that walks the sequences as Swift's own UTF-8 parser splits
/// them.
final class ControlScanTests: XCTestCase {
  /// A control (`control`) or an ill-formed sequence (nil) at `offset`.
  struct Stop: Equatable {
    var offset: Int
    var control: BidiControl?
  }

  /// Each stop of the reference: every control and every ill-formed
  /// sequence, in order.
  static func referenceStops(_ bytes: [UInt8]) -> [Stop] {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var stops: [Stop] = []
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        if let control = BidiControl(scalar: Unicode.UTF8.decode(encoded).value) {
          stops.append(Stop(offset: offset, control: control))
        }
        offset += encoded.count
      case .error(let length):
        stops.append(Stop(offset: offset, control: nil))
        offset += length
      case .emptyInput:
        return stops
      }
    }
  }

  /// The stops `nextControlOrInvalid` gives, stepping past each one by its
  /// sequence's length.
  static func scannedStops(_ bytes: [UInt8]) -> [Stop] {
    bytes.withUnsafeBufferPointer { buffer in
      var stops: [Stop] = []
      var i = 0
      while true {
        let found = BidiControl.nextControlOrInvalid(buffer, from: i)
        i = found.offset
        guard i < buffer.count else {
          XCTAssertNil(found.control)
          return stops
        }
        stops.append(Stop(offset: i, control: found.control))
        i += UTF8Decoder.decode(buffer, at: i).length
      }
    }
  }

  /// The stops `appendControls` gives (its controls, and where it stops:
  /// each ill-formed sequence, stepped over by its length).
  static func appendedStops(_ bytes: [UInt8]) -> [Stop] {
    bytes.withUnsafeBufferPointer { buffer in
      var stops: [Stop] = []
      var controls = BidiControlList()
      var i = 0
      while true {
        let before = controls.count
        i = BidiControl.appendControls(in: buffer, from: i, to: &controls)
        stops += controls[before...].map { Stop(offset: $0.offset, control: $0.control) }
        guard i < buffer.count else { return stops }
        stops.append(Stop(offset: i, control: nil))
        i += UTF8Decoder.decode(buffer, at: i).length
      }
    }
  }

  func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    let expected = Self.referenceStops(bytes)
    let got = Self.scannedStops(bytes)
    if got != expected {
      XCTFail("\(bytes.map { String($0, radix: 16) }): \(got), expected \(expected)", file: file, line: line)
    }
    let appended = Self.appendedStops(bytes)
    if appended != expected {
      XCTFail(
        "appendControls: \(bytes.map { String($0, radix: 16) }): \(appended), expected \(expected)", file: file,
        line: line)
    }
  }

  /// Pieces a word is made of: ASCII, two-byte letters (Hebrew, Arabic,
  /// D8 ones among them), ALM and the other controls, three- and four-byte
  /// characters, over-long leads, stray continuations, truncated sequences.
  static let pieces: [[UInt8]] = [
    [0x61], [0x20], [0x7F], [0xD7, 0x90], [0xD8, 0xA7], [0xD9, 0x85], [0xDB, 0x8C], [0xC2, 0x80], [0xDF, 0xBF],
    [0xD8, 0x9C], [0xD8, 0x9B], [0xD8, 0x9D], [0x9C], [0xE2, 0x80, 0x8F], [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6],
    [0xE2, 0x80, 0x94], [0xF0, 0x9F, 0x98, 0x80], [0xC0, 0x80], [0xC1, 0xBF], [0x80], [0xBF], [0xD8], [0xE2, 0x80],
    [0xF5, 0x80], [0xFF], [0xED, 0xA0, 0x80], [0xE2, 0x80, 0x8E], [0xE2, 0x80, 0xAA], [0xE2, 0x81, 0xA9],
    [0xE2, 0x81, 0xA5], [0xE2, 0x80, 0x8D], [0xE0, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
    [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x9F],
  ]

  func testEveryPairOfPiecesAtEveryAlignment() {
    for a in Self.pieces {
      for b in Self.pieces {
        // Up to twice the vector scan's block: every position in a block
        // and across two.
        for padding in 0..<34 {
          let ascii = [UInt8](repeating: 0x61, count: padding)
          check(ascii + a + b)
          check(ascii + a + [0xD7, 0x90, 0xD7, 0x90] + b + ascii)
        }
      }
    }
  }

  /// Each piece after and between long ASCII stretches (passed over 64
  /// bytes at a time), at every offset up to past one such step.
  func testPiecesAfterLongASCII() {
    for piece in Self.pieces {
      for lead in 0..<80 {
        let ascii = [UInt8](repeating: 0x61, count: lead)
        let long = [UInt8](repeating: 0x20, count: 150)
        check(ascii + piece + long + piece + ascii)
        check(long + ascii + piece)
        check(long + [0xD7, 0x90] + ascii + piece + long)
      }
    }
  }

  /// More controls than `appendControls` takes from C in one batch, at
  /// every spacing up to two vector blocks.
  func testLinesDenseWithControls() {
    let controls: [[UInt8]] = [[0xE2, 0x80, 0x8F], [0xE2, 0x81, 0xA6], [0xD8, 0x9C], [0xE2, 0x81, 0xA9]]
    for gap in 0..<34 {
      var bytes: [UInt8] = []
      for k in 0..<150 {
        bytes += controls[k % controls.count] + [UInt8](repeating: k.isMultiple(of: 3) ? 0x61 : 0x20, count: gap)
      }
      check(bytes)
      check(bytes + [0xFF] + bytes)
    }
  }

  func testRandomMixes() {
    var generator = SystemRandomNumberGenerator()
    // Mostly plain two-byte text with a rarer piece of every other kind, as
    // right-to-left text with controls is.
    let common: [[UInt8]] = [[0x61], [0x20], [0xD8, 0xA7], [0xD9, 0x85], [0xD7, 0x90]]
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...120, using: &generator) {
        bytes +=
          Int.random(in: 0..<10, using: &generator) == 0
          ? Self.pieces.randomElement(using: &generator)! : common.randomElement(using: &generator)!
      }
      check(bytes)
    }
  }
}
