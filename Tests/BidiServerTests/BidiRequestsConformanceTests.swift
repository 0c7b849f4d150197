import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// `bidi/visualOrder` must give exactly the levels and order of Unicode's
/// BidiCharacterTest.txt (specification, "bidi/visualOrder"): a sample of its cases, each sent
/// as one line of a document through the server.
final class BidiRequestsConformanceTests: XCTestCase {
  struct Case {
    var lineNumber: Int
    var scalars: [Unicode.Scalar]
    /// 0 ltr, 1 rtl, 2 auto.
    var direction: Int
    var paragraphLevel: Int
    /// nil where the file says `x` (removed by X9).
    var levels: [Int?]
    var order: [Int]
  }

  /// `$BIDI_UCD_DIR`, `../shared/ucd/17.0.0` beside the package root, then
  /// `/usr/share/unicode` (Debian's unicode-data, whose conformance cases
  /// are the same).
  static func dataFile(_ name: String) -> URL? {
    var directories: [URL] = []
    if let variable = ProcessInfo.processInfo.environment["BIDI_UCD_DIR"], !variable.isEmpty {
      directories.append(URL(fileURLWithPath: variable))
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    directories.append(root.appendingPathComponent("../shared/ucd/17.0.0").standardizedFileURL)
    directories.append(URL(fileURLWithPath: "/usr/share/unicode"))
    return directories.map { $0.appendingPathComponent(name) }.first { FileManager.default.fileExists(atPath: $0.path) }
  }

  static func parse(_ line: Substring, number: Int) -> Case? {
    let fields = line.split(separator: ";", omittingEmptySubsequences: false)
    guard fields.count >= 5, let direction = Int(fields[1]), let level = Int(fields[2]) else { return nil }
    let scalars = fields[0].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
    let levels = fields[3].split(separator: " ").map { Int($0) }
    let order = fields[4].split(separator: " ").compactMap { Int($0) }
    guard !scalars.isEmpty, levels.count == scalars.count else { return nil }
    return Case(
      lineNumber: number, scalars: scalars, direction: direction, paragraphLevel: level, levels: levels, order: order)
  }

  /// Paragraph separators and line breaks would split the case into
  /// several paragraphs or lines.
  static func isSingleLine(_ scalars: [Unicode.Scalar]) -> Bool {
    !scalars.contains { [0x0A, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2029].contains($0.value) }
  }

  static func hasBracket(_ scalars: [Unicode.Scalar]) -> Bool {
    scalars.contains {
      [0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x2329, 0x232A, 0x3008, 0x3009, 0xFF08, 0xFF09].contains($0.value)
    }
  }

  static func hasIsolate(_ scalars: [Unicode.Scalar]) -> Bool {
    scalars.contains { (0x2066...0x2069).contains($0.value) }
  }

  /// About 330 cases spread over the file, 60 more chosen among those with
  /// brackets, and every case with an isolate (the file has few: 39).
  static func sample() throws -> [Case] {
    guard let url = dataFile("BidiCharacterTest.txt") else {
      throw XCTSkip("BidiCharacterTest.txt not found (set BIDI_UCD_DIR)")
    }
    let text = try String(contentsOf: url, encoding: .utf8)
    var all: [Case] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard !line.hasPrefix("#"), !line.isEmpty, let parsed = parse(line, number: index + 1),
        isSingleLine(parsed.scalars)
      else { continue }
      all.append(parsed)
    }
    let brackets = all.indices.filter { hasBracket(all[$0].scalars) }
    let isolates = all.indices.filter { hasIsolate(all[$0].scalars) }
    var chosen = Set<Int>()
    for index in stride(from: 0, to: all.count, by: max(1, all.count / 250)) { chosen.insert(index) }
    for index in stride(from: 0, to: brackets.count, by: max(1, brackets.count / 60)) { chosen.insert(brackets[index]) }
    chosen.formUnion(isolates)
    return chosen.sorted().map { all[$0] }
  }

  func testASampleOfBidiCharacterTestThroughTheDaemon() throws {
    let cases = try Self.sample()
    XCTAssertGreaterThanOrEqual(cases.count, 300)
    XCTAssertGreaterThanOrEqual(cases.filter { Self.hasBracket($0.scalars) }.count, 60)
    XCTAssertGreaterThanOrEqual(cases.filter { Self.hasIsolate($0.scalars) }.count, 30)
    XCTAssertEqual(Set(cases.map(\.direction)), [0, 1, 2])

    // UTF-32, so that offsets are the file's character indices.
    let session = try TestSession(.bidiLSP, encoding: .utf32)
    var text = ""
    for (index, test) in cases.enumerated() {
      if index > 0 { text += "\n" }
      text.unicodeScalars.append(contentsOf: test.scalars)
    }
    try session.open(text: text)
    let include: JSONValue = ["levels", "visualOrder"]
    let answers = [
      try session.paragraphs("bidi/visualOrder", ["direction": "ltr", "include": include]),
      try session.paragraphs("bidi/visualOrder", ["direction": "rtl", "include": include]),
      // UAX #9's default: firstStrong, and ltr when there is no strong character.
      try session.paragraphs(
        "bidi/visualOrder", ["direction": "auto", "strategy": "firstStrong", "fallback": "ltr", "include": include]),
    ]
    for answer in answers { XCTAssertEqual(answer.count, cases.count) }
    guard answers.allSatisfy({ $0.count == cases.count }) else { return }

    var failures: [String] = []
    for (index, test) in cases.enumerated() {
      let paragraph = answers[test.direction][index]
      let display = paragraph["lines"]?[0]
      let levels = display?["levels"]?.arrayValue?.map(\.intValue) ?? []
      let order = display?["visualOrder"]?.arrayValue?.compactMap(\.intValue) ?? []
      if paragraph["paragraphLevel"]?.intValue != test.paragraphLevel || levels != test.levels || order != test.order {
        failures.append(
          "BidiCharacterTest.txt line \(test.lineNumber): \(TestControls.visible(test.scalars)) direction \(test.direction): "
            + "level \(paragraph["paragraphLevel"] ?? .null), levels \(levels), order \(order); "
            + "expected \(test.paragraphLevel), \(test.levels), \(test.order)")
      }
    }
    XCTAssertEqual(failures.count, 0, failures.prefix(10).joined(separator: "\n"))
  }
}
