import BidiTestSupport
import UnicodeBidi
import XCTest

/// The text foundation's decoder and validator against Swift's own UTF-8
/// decoding (`Unicode.UTF8.ForwardParser`, `String(decoding:as:)`,
/// `String(validating:as:)`), on every string of one and two bytes, every
/// ill-formed form of three and four, and random strings.
final class UTF8DecoderTests: XCTestCase {
  /// The sequences of `bytes` as Swift's parser splits them.
  static func referenceSequences(_ bytes: [UInt8]) -> [DecodedScalar] {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var result: [DecodedScalar] = []
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        result.append(DecodedScalar(value: Unicode.UTF8.decode(encoded).value, length: encoded.count, isValid: true))
      case .error(let length):
        result.append(DecodedScalar(value: 0xFFFD, length: length, isValid: false))
      case .emptyInput:
        return result
      }
    }
  }

  static func decodedSequences(_ bytes: [UInt8]) -> [DecodedScalar] {
    bytes.withUnsafeBufferPointer { buffer in
      var result: [DecodedScalar] = []
      var i = 0
      while i < buffer.count {
        let decoded = UTF8Decoder.decode(buffer, at: i)
        result.append(decoded)
        i += decoded.length
      }
      return result
    }
  }

  func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    let decoded = Self.decodedSequences(bytes)
    guard decoded == Self.referenceSequences(bytes) else {
      XCTFail("\(bytes.map { String($0, radix: 16) }): \(decoded)", file: file, line: line)
      return
    }
    let scalars = decoded.map(\.value)
    XCTAssertEqual(scalars, String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value), file: file, line: line)
    // Validation agrees with Swift's, and names the first ill-formed sequence.
    let valid = String(validating: bytes, as: UTF8.self) != nil
    var firstInvalid: Int?
    var offset = 0
    for sequence in decoded {
      if !sequence.isValid {
        firstInvalid = offset
        break
      }
      offset += sequence.length
    }
    do {
      try bytes.withUnsafeBufferPointer { (buffer) throws(InvalidUTF8) in try UTF8Decoder.validate(buffer) }
      XCTAssertTrue(valid, "validate accepted \(bytes)", file: file, line: line)
    } catch {
      XCTAssertFalse(valid, "validate refused \(bytes)", file: file, line: line)
      XCTAssertEqual(error.offset, firstInvalid, file: file, line: line)
    }
    // Every offset's sequence start.
    var starts: [Int] = []
    var start = 0
    for sequence in decoded {
      starts += repeatElement(start, count: sequence.length)
      start += sequence.length
    }
    bytes.withUnsafeBufferPointer { buffer in
      for k in buffer.indices where UTF8Decoder.sequenceStart(buffer, containing: k) != starts[k] {
        XCTFail("sequence start of byte \(k) of \(bytes)", file: file, line: line)
      }
    }
  }

  func testEveryStringOfOneAndTwoBytes() {
    for a in 0...255 {
      check([UInt8(a)])
      for b in 0...255 { check([UInt8(a), UInt8(b)]) }
    }
  }

  func testEveryLeadWithEverySecondByteAndEdgeContinuations() {
    // Third and fourth bytes at the edges of the continuation range and
    // outside it; second bytes all 256 (overlongs, surrogates, past U+10FFFF).
    let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xFF]
    for lead in 0xC0...0xFF {
      for second in 0...255 {
        for third in edges {
          check([UInt8(lead), UInt8(second), third])
          // Four-byte forms only matter after a four-byte lead.
          if lead >= 0xF0 && lead <= 0xF7 {
            for fourth in edges { check([UInt8(lead), UInt8(second), third, fourth]) }
          }
        }
      }
    }
  }

  func testNamedIllFormedForms() {
    let forms: [[UInt8]] = [
      [0xC0, 0x80], [0xC1, 0xBF],  // overlong two-byte
      [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong three-byte
      [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong four-byte
      [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],  // past U+10FFFF
      [0x80], [0xBF, 0x80, 0x80],  // lone continuations
      [0xE2, 0x80], [0xF0, 0x9F, 0x98], [0x61, 0xF0, 0x9F, 0x98, 0x62],  // truncated
      // Unicode's §3.9.6 example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
      [0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64],
    ]
    for form in forms { check(form) }
    XCTAssertEqual(
      Self.decodedSequences([0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64]).map(
        \.length),
      [1, 3, 2, 1, 1, 1, 1, 1, 1, 1], "the maximal subparts of Unicode's example")
  }

  func testRandomStrings() {
    var random = SeededGenerator(seed: 0x0A7F_8DEC)
    for _ in 0..<20_000 {
      check(Self.randomBytes(&random))
    }
  }

  func testScanLineStopsAtTheFirstBreakWithTheCountsOfItsContent() throws {
    var random = SeededGenerator(seed: 0x5CA9)
    for _ in 0..<5_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        text += ["a", "שלום", "😀", "\n", "\r", "\r\n", "é", "中", "        ", "𝒜x"].randomElement(using: &random)!
      }
      let bytes = Array(text.utf8)
      let scan = try bytes.withUnsafeBufferPointer { (buffer) throws(InvalidUTF8) in
        try UTF8Decoder.scanLine(buffer, from: 0)
      }
      let content = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
      XCTAssertEqual(scan.contentEnd, content.count)
      let string = String(decoding: content, as: UTF8.self)
      XCTAssertEqual(scan.utf16Count, string.utf16.count)
      XCTAssertEqual(scan.scalarCount, string.unicodeScalars.count)
    }
  }

  /// Well-formed pieces, ill-formed pieces and random bytes, mixed.
  static func randomBytes(_ random: inout SeededGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 0...24, using: &random) {
      switch Int.random(in: 0..<4, using: &random) {
      case 0:
        bytes.append(UInt8.random(in: 0...255, using: &random))
      case 1:
        let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random)) ?? "\u{FFFD}"
        bytes += Array(String(scalar).utf8)
      case 2:
        // A truncated well-formed sequence.
        let scalar = Unicode.Scalar(UInt32.random(in: 0x80...0x10FFFF, using: &random)) ?? "\u{10000}"
        let encoded = Array(String(scalar).utf8)
        bytes += encoded.prefix(Int.random(in: 1..<encoded.count, using: &random))
      default:
        bytes.append([0x61, 0x0A, 0xD7, 0x90, 0xE2, 0x80, 0xAE].randomElement(using: &random)!)
      }
    }
    return bytes
  }
}

/// `LineUnits` against counts taken from Swift's decoding, in every
/// encoding, for every offset of well-formed and ill-formed lines.
final class LineUnitsConversionTests: XCTestCase {
  func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    // The line inside a larger buffer, to check that the range is honoured.
    let storage = [0xE2, 0x80] + bytes + [0xAE]
    let range = 2..<(2 + bytes.count)
    let sequences = UTF8DecoderTests.referenceSequences(bytes)
    for encoding in PositionEncoding.allCases {
      // From Swift's decoding: the units before each byte (moved to its
      // sequence's start), and the byte offset of each unit's sequence.
      var unitsBefore: [Int] = []
      var unitStarts: [Int] = []
      var start = 0
      var total = 0
      for sequence in sequences {
        let text = String(decoding: bytes[start..<(start + sequence.length)], as: UTF8.self)
        let width =
          switch encoding {
          case .utf8: sequence.length
          case .utf16: text.utf16.count
          case .utf32: text.unicodeScalars.count
          }
        unitsBefore += repeatElement(total, count: sequence.length)
        unitStarts += repeatElement(start, count: width)
        total += width
        start += sequence.length
      }
      let units = LineUnits(storage, range: range, encoding: encoding)
      XCTAssertEqual(units.count, total, "\(encoding) count of \(bytes)", file: file, line: line)
      XCTAssertEqual(units.utf8Count, bytes.count, file: file, line: line)
      bytes.withUnsafeBufferPointer { buffer in
        XCTAssertEqual(LineUnits.count(of: buffer, in: encoding), total, file: file, line: line)
        for offset in -1...(bytes.count + 1) {
          let expected = offset <= 0 ? 0 : offset >= bytes.count ? total : unitsBefore[offset]
          let got = units.character(atUTF8Offset: offset)
          let once = LineUnits.character(atUTF8Offset: offset, in: buffer, encoding)
          if got != expected || once != expected {
            XCTFail(
              "\(encoding) byte \(offset) of \(bytes): \(got), \(once), expected \(expected)", file: file, line: line)
          }
        }
        for character in -1...(total + 1) {
          let expected = character <= 0 ? 0 : character >= total ? bytes.count : unitStarts[character]
          let got = units.utf8Offset(ofCharacter: character)
          let once = LineUnits.utf8Offset(ofCharacter: character, in: buffer, encoding)
          if got != expected || once != expected {
            XCTFail(
              "\(encoding) unit \(character) of \(bytes): \(got), \(once), expected \(expected)", file: file, line: line
            )
          }
        }
      }
    }
  }

  func testShortLines() {
    check([])
    check(Array("abc".utf8))
    check(Array("a😀b".utf8))
    check(Array("שלום عربي 中 𝒜".utf8))
    check([0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64])
  }

  func testRandomLines() {
    var random = SeededGenerator(seed: 0x11_4E5)
    for _ in 0..<2_000 { check(UTF8DecoderTests.randomBytes(&random)) }
  }

  func testLongLinesPastSeveralRecords() {
    // Lines of some thousand bytes, so that conversions start from records.
    var random = SeededGenerator(seed: 0x10_0C)
    let pieces = ["a", "bc ", "שלום", "عربي", "😀", "𝒜", "\u{2067}", "é", "中", " "]
    for round in 0..<6 {
      var text = ""
      for _ in 0..<Int.random(in: 200...900, using: &random) { text += pieces.randomElement(using: &random)! }
      var bytes = Array(text.utf8)
      if round.isMultiple(of: 2) { bytes.insert(0xF0, at: bytes.count / 2) }  // one ill-formed byte
      check(bytes)
    }
  }
}
