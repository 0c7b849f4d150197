import BidiHazards
import BidiTestSupport
import StructuredText
import XCTest

/// `LegacyEncoding.guess` on text that `iconv` (glibc's converters, an
/// independent encoder) writes in the legacy encodings of right-to-left
/// scripts, and in the 8-bit encodings of other scripts it must not take
/// for them.
final class LegacyEncodingTests: XCTestCase {
  /// `text` in `encoding`, as iconv writes it.
  private func encoded(_ text: String, _ encoding: String) throws -> [UInt8] {
    let result = try TestClient.run(
      "/usr/bin/iconv", arguments: ["-f", "UTF-8", "-t", encoding], input: Array(text.utf8))
    XCTAssertEqual(result.status, 0, "iconv -t \(encoding): \(result.standardError)")
    return result.standardOutputBytes
  }

  static let arabic = "مرحبا بالعالم! كيف حالك اليوم؟ هذا الفيلم جميل جدا، شاهدناه في السينما أمس.\n"
  static let persian = "سلام دنيا، امروز هوا خوب است و ما به پارك رفتيم.\n"
  static let hebrew = "שלום עולם! מה שלומך היום? הסרט הזה יפה מאוד, ראינו אותו בקולנוע אתמול.\n"

  func testRightToLeftScriptsAreTold() throws {
    let cases: [(String, String, LegacyEncoding)] = [
      (Self.arabic, "WINDOWS-1256", .windows1256), (Self.persian, "WINDOWS-1256", .windows1256),
      (Self.hebrew, "WINDOWS-1255", .windows1255), (Self.hebrew, "ISO-8859-8", .windows1255),
      // A subtitle line with English around the Arabic or Hebrew.
      ("1\n00:00:01,000 --> 00:00:02,000\n<i>" + Self.arabic + "</i> OK\n", "WINDOWS-1256", .windows1256),
      ("- " + Self.hebrew + "- Yes, 2012.\n", "WINDOWS-1255", .windows1255),
    ]
    for (text, encoding, expected) in cases {
      XCTAssertEqual(LegacyEncoding.guess(try encoded(text, encoding)), expected, "\(encoding): \(text)")
    }
  }

  func testOtherScriptsAndLatinTextAreNotTakenForThem() throws {
    let cases: [(String, String)] = [
      ("Le café est très bon, la crème brûlée aussi. À bientôt, garçon !\n", "ISO-8859-1"),
      ("Grüße aus München: Bäcker, Käse, Straße, übermorgen.\n", "WINDOWS-1252"),
      ("Привет, мир! Как дела сегодня? Этот фильм очень хороший, мы смотрели его вчера.\n", "WINDOWS-1251"),
      ("ПРИВЕТ МИР, ЗДРАВСТВУЙ ЗАВТРА\n", "WINDOWS-1251"),
      ("Γειά σου κόσμε! Πώς είσαι σήμερα; Αυτή η ταινία είναι πολύ ωραία.\n", "WINDOWS-1253"),
      ("Merhaba dünya! Bugün nasılsın? Bu film çok güzel, dün izledik.\n", "WINDOWS-1254"),
    ]
    for (text, encoding) in cases {
      XCTAssertNil(LegacyEncoding.guess(try encoded(text, encoding)), "\(encoding): \(text)")
    }
    // Too few bytes to tell.
    XCTAssertNil(LegacyEncoding.guess(try encoded("مرحبا", "WINDOWS-1256")))
  }

  /// The syntax error of a structured file at its first byte that is not
  /// UTF-8 says which encoding the rest looks like, and how to convert it.
  func testTheSyntaxErrorSaysHowToConvert() throws {
    let subtitle = "1\n00:00:01,000 --> 00:00:02,000\n" + Self.arabic + "\n"
    let read = WholeRead(TextLines(try encoded(subtitle, "WINDOWS-1256")), format: ToyFormat())
    let message = try XCTUnwrap(read.error?.message)
    XCTAssertTrue(message.hasPrefix("byte 0x"), message)
    XCTAssertTrue(
      message.hasSuffix("; it looks like WINDOWS-1256 (Arabic script): `iconv -f WINDOWS-1256 -t UTF-8` converts it"),
      message)
    let latin = WholeRead(TextLines(try encoded("Le café est très bon\n", "ISO-8859-1")), format: ToyFormat())
    XCTAssertEqual(latin.error?.message.contains("looks like"), false)
  }

  /// In plain text (no syntax error: every ill-formed run is a
  /// `bidi.invalidUtf8` finding) the first finding of each line names the
  /// encoding the rest of the line looks written in; the line's other
  /// findings and lines in other 8-bit encodings do not.
  func testPlainTextFindingsSayHowToConvert() throws {
    let cases: [(text: String, encoding: String, hint: String?)] = [
      (Self.arabic + Self.persian, "WINDOWS-1256", "WINDOWS-1256 (Arabic script)"),
      (Self.hebrew + Self.hebrew, "WINDOWS-1255", "WINDOWS-1255 (Hebrew)"),
      (Self.hebrew, "ISO-8859-8", "WINDOWS-1255 (Hebrew)"),
      ("Le café est très bon, à côté de l'église où j'étais.\n", "ISO-8859-1", nil),
      ("Привет, как дела? Сегодня хорошая погода.\n", "WINDOWS-1251", nil),
    ]
    for (text, encoding, hint) in cases {
      let findings = HazardScanner(language: nil).scanDocument(try encoded(text, encoding))
      XCTAssertFalse(findings.isEmpty, encoding)
      XCTAssertTrue(findings.allSatisfy { $0.code == .invalidUtf8 }, encoding)
      var linesSeen: Set<Int> = []
      for finding in findings {
        let first = linesSeen.insert(finding.line).inserted
        let hinted = finding.message.hasSuffix(
          "; it looks like \(hint ?? "?"): `iconv -f \(hint?.prefix { $0 != " " } ?? "?") -t UTF-8` converts it")
        XCTAssertEqual(hinted, first && hint != nil, "\(encoding) line \(finding.line): \(finding.message)")
        XCTAssertTrue(finding.message.hasPrefix("invalid UTF-8 (bytes 0x"), finding.message)
      }
      XCTAssertEqual(linesSeen.count, text.split(separator: "\n").count, encoding)
    }
  }
}
