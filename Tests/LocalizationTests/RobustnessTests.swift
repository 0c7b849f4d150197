import Foundation
import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

/// Bad and enormous input: a clear error at the right place, the values
/// before it kept, and no hang (generous timeouts only, never a speed
/// threshold: the inputs are sized so that a quadratic pass would not end).
final class RobustnessTests: XCTestCase {
  final class Box<T>: @unchecked Sendable {
    var value: T?
  }

  /// Runs `work` on another thread and waits for it at most `seconds`.
  func finishes<T>(within seconds: Double = 900, _ work: @escaping @Sendable () -> T) -> T? {
    let box = Box<T>()
    let done = expectation(description: "finished")
    DispatchQueue.global().async {
      box.value = work()
      done.fulfill()
    }
    wait(for: [done], timeout: seconds)
    return box.value
  }

  /// Reads a value and plans over it: directions, findings, placeholders
  /// and runs; returns the value, its findings and the two plans' sizes.
  static func exercise(_ text: String, _ format: LocalizationFormat) -> (
    read: LocalizationReadResult, findings: [Finding], isolates: Int, runs: Int
  ) {
    let read = LocalizationReader.read(text, format: format)
    var findings: [Finding] = []
    var isolates = 0
    var runs = 0
    for value in read.values {
      findings += valueFindings(value, spelling: .literal)
      let planner = EntryPlanner(value, spelling: .literal)
      isolates += planner.placeholderEdits(style: .isolate).count
      runs += planner.runEdits(directions: [.rightToLeft]).count
    }
    return (read, findings, isolates, runs)
  }

  func testAValueWithAHundredThousandPlaceholders() {
    let text = "\"many\" = \"" + String(repeating: "%@ مرحبا ", count: 100_000) + "\";\n"
    guard let result = finishes({ Self.exercise(text, .strings) }) else { return }
    XCTAssertNil(result.read.error)
    XCTAssertEqual(result.read.values.first?.atoms.count, 100_000)
    XCTAssertEqual(result.findings.map(\.code), [.placeholderDirection])
    XCTAssertEqual(result.isolates, 200_000)
  }

  /// A 2 MB value of 100,000 paragraphs, each with a placeholder: every
  /// paragraph's analysis costs its own length (it once cost the value's,
  /// which made this quadratic).
  func testATwoMegabyteValueOfAHundredThousandParagraphsWithPlaceholders() {
    let text = "\"many\" = \"" + String(repeating: "%1$@ مدفوعات\\n", count: 100_000) + "\";\n"
    XCTAssertGreaterThan(text.utf8.count, 2_000_000)
    guard let result = finishes({ Self.exercise(text, .strings) }) else { return }
    XCTAssertNil(result.read.error)
    let value = result.read.values.first
    XCTAssertEqual(value?.atoms.count, 100_000)
    XCTAssertEqual(value?.paragraphs.count, 100_000)
    XCTAssertEqual(result.findings.count, 100_000)
    XCTAssertEqual(Set(result.findings.map(\.code)), [.placeholderDirection])
    XCTAssertEqual(result.findings.last?.range.start, SourcePosition(line: 0, column: 10 + 99_999 * 21))
    XCTAssertEqual(result.isolates, 200_000)
  }

  func testATwentyMegabyteValue() {
    let word = "مدفوعات بدون فوائد "  // 35 bytes
    let text = "\"big\" = \"%@ " + String(repeating: word, count: 600_000) + "\";\n\"after\" = \"بعد\";\n"
    guard let result = finishes({ Self.exercise(text, .strings) }) else { return }
    XCTAssertNil(result.read.error)
    XCTAssertEqual(result.read.values.map(\.key), ["big", "after"])
    XCTAssertGreaterThan(result.read.values[0].text.utf8.count, 20_000_000)
    XCTAssertEqual(result.findings.map(\.code), [.placeholderDirection])
  }

  func testHundredThousandDeepNesting() {
    let depth = 100_000
    let json = String(repeating: "{\"a\":", count: depth) + "\"عمق\"" + String(repeating: "}", count: depth)
    let xml =
      "<resources>" + String(repeating: "<group>", count: depth) + "<string name=\"deep\">عمق</string>"
      + String(repeating: "</group>", count: depth) + "</resources>"
    let inValue =
      "<resources><string name=\"bold\">" + String(repeating: "<b>", count: depth) + "عريض"
      + String(repeating: "</b>", count: depth) + "</string></resources>"
    let unclosed = "[" + String(repeating: "[", count: depth)
    guard
      let results = finishes({
        (
          LocalizationReader.read(json, format: .i18next), LocalizationReader.read(xml, format: .android),
          Self.exercise(inValue, .android), LocalizationReader.read(unclosed, format: .i18next)
        )
      })
    else { return }
    XCTAssertNil(results.0.error)
    XCTAssertEqual(results.0.values.first?.text, "عمق")
    XCTAssertEqual(results.0.values.first?.key.utf8.count, 2 * depth - 1)
    XCTAssertNil(results.1.error)
    XCTAssertEqual(results.1.values.map(\.text), ["عمق"])
    XCTAssertNil(results.2.read.error)
    XCTAssertEqual(results.2.read.values.first?.markup.count, 2 * depth)
    XCTAssertEqual(results.2.findings, [])
    XCTAssertEqual(results.3.error?.message.hasPrefix("unexpected end of the file"), true)
  }

  func testUnclosedPythonAndNestingFormsStayLinear() {
    // Each `%(` (no `)` anywhere after it) and each `$t(` (never closed)
    // once made the placeholder scan look to the end of the value.
    let count = 100_000
    let po =
      "#, python-format\nmsgid \"x\"\nmsgstr \"" + String(repeating: "%(a ", count: count) + "%(name)s سلام\"\n"
    let i18next = "{\"x\": \"" + String(repeating: "$t(a ", count: count) + "$t(b) שלום {{n}}\"}"
    let icu = "{\"x\": \"" + String(repeating: "{a, number, ", count: count) + "مرحبا\"}"
    guard
      let results = finishes({
        (Self.exercise(po, .po), Self.exercise(i18next, .i18next), Self.exercise(icu, .arb))
      })
    else { return }
    let poValue = results.0.read.values[0]
    XCTAssertEqual(poValue.atoms.map(\.kind), [.pythonPercent])
    XCTAssertEqual(poValue.atoms.first?.name, "name")
    let nesting = results.1.read.values[0]
    // Parentheses nest: only the last `$t(` is closed, then `{{n}}`.
    XCTAssertEqual(nesting.atoms.map(\.kind), [.nesting, .doubleBraces])
    XCTAssertEqual(results.2.read.values[0].atoms, [])
  }

  func testNulBytes() {
    let strings = LocalizationReader.read("\"a\" = \"مر\u{0}حبا\";\n\"b\" = \"ב\";\n", format: .strings)
    XCTAssertNil(strings.error)
    XCTAssertEqual(strings.values.map(\.text), ["مر\u{0}حبا", "ב"])
    let json = LocalizationReader.read("{\"a\": \"ok\",\n \"b\": \"x\u{0}y\"}", format: .i18next)
    XCTAssertEqual(json.values.map(\.text), ["ok"])
    XCTAssertEqual(json.error?.position, SourcePosition(line: 1, column: 8))
    let xml = LocalizationReader.read("<resources><string name=\"a\">م\u{0}ر</string></resources>", format: .android)
    XCTAssertNil(xml.error)
    XCTAssertEqual(xml.values.map(\.text), ["م\u{0}ر"])
  }

  func testInvalidUTF8IsAnErrorAtItsByteAndTheValuesBeforeItStay() {
    let before = Array("\"a\" = \"مرحبا\";\n\"b\" = \"שלום\";\n\"c\" = \"xx".utf8)
    let bytes = before + [0xFF] + Array("yy\";\n\"d\" = \"after\";\n".utf8)
    let text = TextLines(bytes)
    let read = LocalizationReader.read(text, format: .strings)
    XCTAssertEqual(read.values.map(\.key), ["a", "b"])
    XCTAssertEqual(read.error?.position, SourcePosition(line: 2, column: 9))
    XCTAssertEqual(read.error?.message.hasPrefix("byte 0xFF is not UTF-8"), true)
    let index = StructuredIndex(text, format: LocalizationFormat.strings)
    XCTAssertEqual(index.error, read.error)
    XCTAssertEqual(index.entries, read.values)
    for format in LocalizationFormat.allCases {
      // A truncated sequence at the very start: an error at 0:0 in every format.
      let broken = LocalizationReader.read(TextLines([0xE2, 0x80]), format: format)
      XCTAssertEqual(broken.error?.position, SourcePosition(line: 0, column: 0), "\(format)")
      XCTAssertEqual(broken.values, [], "\(format)")
    }
    // In a properties value, the value reaching the byte is dropped.
    let properties = LocalizationReader.read(TextLines(Array("a=b\nc=d".utf8) + [0xC3]), format: .properties)
    XCTAssertEqual(properties.values.map(\.key), ["a"])
    XCTAssertEqual(properties.error?.position, SourcePosition(line: 1, column: 3))
  }

  /// An edit that brings in or takes out a byte that is not UTF-8 leaves
  /// the index equal to a full read.
  func testIncrementalEditsAroundInvalidBytes() {
    var lines: [[UInt8]] = (0..<40).map { Array("\"k\($0)\" = \"قيمة \($0)\";".utf8) }
    func text() -> TextLines { TextLines(Array(lines.joined(separator: [0x0A]))) }
    var index = StructuredIndex(text(), format: LocalizationFormat.strings)
    let steps: [(Int, [UInt8])] = [
      (20, Array("\"bad\" = \"x".utf8) + [0xC0, 0x80] + Array("\";".utf8)), (5, Array("\"a\" = \"b\";".utf8)),
      (30, Array("\"c\" = \"d\";".utf8)), (20, Array("\"good\" = \"ok\";".utf8)), (0, [0xFF]),
      (0, Array("/* */".utf8)),
    ]
    for (line, replacement) in steps {
      lines[line] = replacement
      index.edit(text(), replacing: line..<line + 1, newLineCount: 1)
      let fresh = StructuredIndex(text(), format: LocalizationFormat.strings)
      XCTAssertEqual(index.allItems, fresh.allItems, "after editing line \(line)")
      XCTAssertEqual(index.error, fresh.error, "after editing line \(line)")
    }
    XCTAssertNil(index.error)
    XCTAssertEqual(index.entries.count, 39)  // line 0 is a comment now
  }

  func testUTF16AndBOMFilesAreDecodedByTheirByteOrderMark() {
    let source = "/* c */\n\"greeting\" = \"שלום %@\";\n\"emoji\" = \"😀 \\U200F\";\n"
    let utf16 = Array(source.utf16)
    let little: [UInt8] = [0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let big: [UInt8] = [0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(source.utf8)
    for (bytes, encoding) in [
      (little, FileEncoding.utf16LittleEndian), (big, .utf16BigEndian), (bom, .utf8WithBOM),
      (Array(source.utf8), .utf8),
    ] {
      let file = DecodedFile(bytes)
      XCTAssertEqual(file.encoding, encoding)
      let read = LocalizationReader.read(file.text, format: .strings)
      XCTAssertNil(read.error, "\(encoding)")
      XCTAssertEqual(read.values.map(\.text), ["שלום %@", "😀 \u{200F}"], "\(encoding)")
    }
    // An unpaired surrogate and an odd last byte are reported where they are.
    let unpaired: [UInt8] =
      [0xFF, 0xFE] + Array("\"a\" = \"".utf16).flatMap { [UInt8($0), 0] } + [0x00, 0xD8, 0x22, 0x00]
    let read = LocalizationReader.read(DecodedFile(unpaired).text, format: .strings)
    XCTAssertEqual(read.error?.position, SourcePosition(line: 0, column: 7))
    let odd = DecodedFile([0xFF, 0xFE, 0x22, 0x00, 0x61])
    XCTAssertEqual(odd.utf8, [0x22, 0xFF])
  }
}
