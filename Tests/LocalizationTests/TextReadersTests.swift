import UnicodeBidi
import XCTest

@testable import Localization

final class TextReadersTests: XCTestCase {
  func testStringsSeedCase() {
    let text = """
      /* Payment */
      "payment" = "%@ مدفوعات بدون فوائد من %@";
      // comment
      "escaped" = "\\U200F\\"quoted\\"\\nline two";
      """
    let result = LocalizationReader.read(text, format: .strings)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["payment", "escaped"])
    let payment = result.values[0]
    XCTAssertEqual(payment.text, "%@ مدفوعات بدون فوائد من %@")
    XCTAssertEqual(
      payment.range,
      SourceRange(start: .init(line: 1, column: 13), end: .init(line: 1, column: 13 + payment.text.utf8.count)))
    XCTAssertEqual(payment.atoms.map(\.range), [0..<2, payment.text.utf8.count - 2..<payment.text.utf8.count])
    XCTAssertEqual(payment.atoms.map(\.isNumeric), [false, false])
    let escaped = result.values[1]
    XCTAssertEqual(escaped.text, "\u{200F}\"quoted\"\nline two")
    XCTAssertEqual(escaped.controlSpelling, .backslashUpperU(uppercaseHex: true))
    XCTAssertEqual(escaped.paragraphs.count, 2)
    // The RLM's source position is the start of its escape.
    XCTAssertEqual(escaped.sourcePosition(ofDecoded: 0), SourcePosition(line: 3, column: 13))
    XCTAssertEqual(escaped.sourcePosition(ofDecoded: 3), SourcePosition(line: 3, column: 19))
  }

  func testStringsSyntaxErrorKeepsValuesBefore() {
    let result = LocalizationReader.read("\"a\" = \"b\";\n\"c\" = \"d\n", format: .strings)
    XCTAssertEqual(result.values.map(\.text), ["b"])
    XCTAssertEqual(result.error?.position, SourcePosition(line: 1, column: 6))
  }

  func testPOJoinsPiecesAndReadsFlags() {
    let text = """
      msgid ""
      msgstr ""
      "Language: fa\\n"

      #, c-format
      msgid "%d files"
      msgid_plural "%d files"
      msgstr[0] "%d فایل"
      msgstr[1] ""
      "%d "
      "فایل"

      #, no-c-format
      msgid "50%d"
      msgstr "۵۰%d"
      """
    let result = LocalizationReader.read(text, format: .po)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.contentLocale, "fa")
    XCTAssertEqual(result.values.map(\.variant), ["plural:0", "plural:1", nil])
    XCTAssertEqual(result.values[1].text, "%d فایل")
    XCTAssertEqual(result.values[1].atoms.map(\.isNumeric), [true])
    // The value starts at its first character, past the empty first piece (issue 28).
    XCTAssertEqual(result.values[1].range.start, SourcePosition(line: 9, column: 1))
    XCTAssertEqual(result.values[1].range.end, SourcePosition(line: 10, column: 9))
    XCTAssertEqual(result.values[2].atoms, [])
  }

  func testPropertiesContinuationsAndEscapes() {
    let text = "# c\ngreeting = \\u0645\\u0631\\u062d\\u0628\\u0627 {0}\\\n    \u{0639}\u{0644}\u{0649}\nkey2:value"
    let result = LocalizationReader.read(text, format: .properties)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["greeting", "key2"])
    XCTAssertEqual(result.values[0].text, "مرحبا {0}على")
    XCTAssertEqual(result.values[0].atoms.count, 1)
    XCTAssertEqual(result.values[0].range.end, SourcePosition(line: 2, column: 10))
    XCTAssertEqual(result.values[1].text, "value")
  }

  /// A `\u` escape of a high surrogate followed by the escape of a low one
  /// is one scalar (`.strings` also takes `\U` for the low half); a lone
  /// surrogate, high or low, is U+FFFD; the next escape after a lone high
  /// one is read by itself.
  func testSurrogateEscapesAreJoinedAndLoneOnesReplaced() {
    let cases: [(String, LocalizationFormat)] = [
      ("\"a\" = \"\\UD83D\\uDE00 \\uD83D\\UDE00\";\n\"b\" = \"\\uD83Dx \\uDE00 \\uD83D\\u0041\";\n", .strings),
      ("a = \\uD83D\\uDE00 \\uD83D\\uDE00\nb = \\uD83Dx \\uDE00 \\uD83D\\u0041\n", .properties),
      ("{\"a\": \"\\uD83D\\uDE00 \\uD83D\\uDE00\", \"b\": \"\\uD83Dx \\uDE00 \\uD83D\\u0041\"}", .i18next),
    ]
    for (text, format) in cases {
      let result = LocalizationReader.read(text, format: format)
      XCTAssertNil(result.error, "\(format)")
      XCTAssertEqual(result.values.map(\.text), ["😀 😀", "\u{FFFD}x \u{FFFD} \u{FFFD}A"], "\(format)")
    }
  }
}
