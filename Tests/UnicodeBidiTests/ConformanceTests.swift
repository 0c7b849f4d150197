import Foundation
import UnicodeBidi
import XCTest

/// Runs every case of Unicode's BidiTest.txt and BidiCharacterTest.txt.
final class ConformanceTests: XCTestCase {
  /// A character of each class, for BidiTest.txt (none is a paired bracket).
  static let representatives: [String: UInt32] = [
    "L": 0x61, "R": 0x5D0, "AL": 0x627, "EN": 0x30, "ES": 0x2B, "ET": 0x24, "AN": 0x660,
    "CS": 0x2C, "NSM": 0x300, "BN": 0xAD, "B": 0x2029, "S": 0x09, "WS": 0x20, "ON": 0x21,
    "LRE": 0x202A, "LRO": 0x202D, "RLE": 0x202B, "RLO": 0x202E, "PDF": 0x202C,
    "LRI": 0x2066, "RLI": 0x2067, "FSI": 0x2068, "PDI": 0x2069,
  ]

  struct Failures {
    var count = 0
    var first: String?
    var last: String?

    mutating func record(_ description: @autoclosure () -> String) {
      count += 1
      let text = description()
      if first == nil { first = text }
      last = text
    }

    var summary: String {
      "\(count) failures; first: \(first ?? "-"); last: \(last ?? "-")"
    }
  }

  func load(_ name: String) throws -> [Substring] {
    guard let url = UCDDirectory.locate(name) else {
      XCTFail("\(name) not found in: \(UCDDirectory.searchedPaths); set BIDI_UCD_DIR")
      throw CocoaError(.fileNoSuchFile)
    }
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false)
  }

  static func levelsText(_ levels: [BidiLevel]) -> String {
    levels.map(\.description).joined(separator: " ")
  }

  func testBidiTestFile() throws {
    let lines = try load("BidiTest.txt")
    var expectedLevels = ""
    var expectedOrder: [Int] = []
    var dataLines = 0
    var resolutions = 0
    var failures = Failures()
    for (number, line) in lines.enumerated() {
      if line.hasPrefix("@Levels:") {
        expectedLevels = line.dropFirst(8).split(whereSeparator: { $0 == " " || $0 == "\t" })
          .joined(separator: " ")
        continue
      }
      if line.hasPrefix("@Reorder:") {
        expectedOrder = line.dropFirst(9).split(whereSeparator: { $0 == " " || $0 == "\t" })
          .compactMap { Int($0) }
        continue
      }
      let content = line.prefix { $0 != "#" }
      guard let semicolon = content.firstIndex(of: ";") else { continue }
      dataLines += 1
      let names = content[..<semicolon].split(whereSeparator: { $0 == " " || $0 == "\t" })
      let scalars = names.map { Self.representatives[String($0)] ?? 0 }
      let bitset = Int(content[content.index(after: semicolon)...].trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
      let directions: [(Int, DirectionChoice)] = [(1, .auto), (2, .leftToRight), (4, .rightToLeft)]
      for (bit, direction) in directions where bitset & bit != 0 {
        resolutions += 1
        let line = BidiParagraph(scalars: scalars, direction: direction).line()
        let levels = Self.levelsText(line.levels(in: .utf32))
        let order = line.visualOrder(in: .utf32)
        if levels != expectedLevels || order != expectedOrder {
          failures.record(
            "line \(number + 1) [\(names.joined(separator: " "))] \(direction): levels \(levels) "
              + "(expected \(expectedLevels)), order \(order) (expected \(expectedOrder))")
        }
      }
    }
    XCTAssertEqual(dataLines, 490_846, "BidiTest.txt data lines")
    XCTAssertEqual(resolutions, 770_241, "BidiTest.txt resolutions")
    XCTAssertEqual(failures.count, 0, failures.summary)
    print("BidiTest.txt: \(dataLines) lines, \(resolutions) resolutions, \(failures.count) failures")
  }

  func testBidiCharacterTestFile() throws {
    let lines = try load("BidiCharacterTest.txt")
    var dataLines = 0
    var failures = Failures()
    for (number, line) in lines.enumerated() {
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(separator: ";", omittingEmptySubsequences: false)
      guard fields.count == 5 else {
        XCTFail("line \(number + 1): \(fields.count) fields")
        continue
      }
      dataLines += 1
      let scalars = fields[0].split(separator: " ").compactMap { UInt32($0, radix: 16) }
      let direction: DirectionChoice
      switch fields[1] {
      case "0": direction = .leftToRight
      case "1": direction = .rightToLeft
      default: direction = .auto
      }
      let expectedParagraphLevel = UInt8(fields[2]) ?? 0xFF
      let expectedLevels = fields[3].split(separator: " ").joined(separator: " ")
      let expectedOrder = fields[4].split(separator: " ").compactMap { Int($0) }
      let paragraph = BidiParagraph(scalars: scalars, direction: direction)
      let line = paragraph.line()
      let levels = Self.levelsText(line.levels(in: .utf32))
      let order = line.visualOrder(in: .utf32)
      if paragraph.level != expectedParagraphLevel || levels != expectedLevels || order != expectedOrder {
        failures.record(
          "line \(number + 1) [\(fields[0])] \(direction): paragraph \(paragraph.level) "
            + "(expected \(expectedParagraphLevel)), levels \(levels) (expected \(expectedLevels)), "
            + "order \(order) (expected \(expectedOrder))")
      }
    }
    XCTAssertEqual(dataLines, 91_707, "BidiCharacterTest.txt data lines")
    XCTAssertEqual(failures.count, 0, failures.summary)
    print("BidiCharacterTest.txt: \(dataLines) lines, \(failures.count) failures")
  }
}
