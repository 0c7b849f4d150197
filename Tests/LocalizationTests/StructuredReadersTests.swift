import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

final class StructuredReadersTests: XCTestCase {
  func testARBMetadataAndPlurals() {
    let text = """
      {
        "@@locale": "ar",
        "greeting": "مرحبا {name}",
        "@greeting": {"placeholders": {"name": {"type": "String"}}},
        "count": "{count, plural, =0{لا رسائل} one{رسالة واحدة} other{{count} رسائل و#}}",
        "score": "النتيجة {score}",
        "@score": {"placeholders": {"score": {"type": "int"}}}
      }
      """
    let result = LocalizationReader.read(text, format: .arb)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.contentLocale, "ar")
    XCTAssertEqual(result.values.map(\.key), ["greeting", "count", "count", "count", "count", "score"])
    XCTAssertEqual(result.values.map(\.variant), [nil, nil, "plural:=0", "plural:one", "plural:other", nil])
    XCTAssertEqual(result.values[1].atoms.map(\.kind), [.icuComplex])
    XCTAssertEqual(result.values[4].text, "{count} رسائل و#")
    XCTAssertEqual(result.values[4].atoms.map(\.isNumeric), [true, true])
    XCTAssertEqual(result.values[0].atoms.map(\.isNumeric), [false])
    XCTAssertEqual(result.values[5].atoms.map(\.isNumeric), [true])
    // The branch's source range is inside the value's.
    let branch = result.values[3]
    XCTAssertEqual(
      TextLines(text).line(branch.range.start.line),
      "  \"count\": \"{count, plural, =0{لا رسائل} one{رسالة واحدة} other{{count} رسائل و#}}\",")
  }

  func testNestedI18nextAndEscapes() {
    let text = #"{"home": {"title": "\u200Fשלום {{name}}", "items": ["a", "ב $t(home.title)"]}, "n": 5}"#
    let result = LocalizationReader.read(text, format: .i18next)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["home.title", "home.items.0", "home.items.1"])
    XCTAssertEqual(result.values[0].text, "\u{200F}שלום {{name}}")
    XCTAssertEqual(result.values[0].controlSpelling, .backslashLowerU(uppercaseHex: true))
    XCTAssertEqual(result.values[2].atoms.map(\.kind), [.nesting])
  }

  func testJSONErrorsAndDepth() {
    let deep = String(repeating: "{\"a\":", count: 100_000) + "\"x\"" + String(repeating: "}", count: 100_000)
    let result = LocalizationReader.read(deep, format: .i18next)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.count, 1)
    let broken = LocalizationReader.read("{\"a\": \"b\",\n \"c\": \"d\" \"e\": 1}", format: .i18next)
    XCTAssertEqual(broken.values.map(\.text), ["b", "d"])
    XCTAssertEqual(broken.error?.position, SourcePosition(line: 1, column: 10))
  }

  func testXCStringsVariations() {
    let text = """
      {"sourceLanguage": "en", "strings": {"%lld items": {"localizations": {
        "he": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "פריט אחד"}},
                                         "other": {"stringUnit": {"state": "translated", "value": "%lld פריטים"}}}}},
        "ar": {"stringUnit": {"state": "translated", "value": "%#@items@"},
               "substitutions": {"items": {"argNum": 1, "formatSpecifier": "lld",
                 "variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%arg عنصر"}}}}}}}
      }}}, "version": "1.0"}
      """
    let result = LocalizationReader.read(text, format: .xcstrings)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.locale), ["he", "he", "ar", "ar"])
    XCTAssertEqual(result.values.map(\.variant), ["plural:one", "plural:other", nil, "substitution:items/plural:one"])
    XCTAssertEqual(result.values[2].atoms.map(\.range), [0..<9])
    XCTAssertEqual(result.values[3].atoms.map(\.isNumeric), [true])
    XCTAssertEqual(result.values[1].atoms.map(\.isNumeric), [true])
  }

  func testStringsDict() {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>files</key>
        <dict>
          <key>NSStringLocalizedFormatKey</key>
          <string>%#@files@</string>
          <key>files</key>
          <dict>
            <key>NSStringFormatSpecTypeKey</key>
            <string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key>
            <string>d</string>
            <key>one</key>
            <string>&#x200F;ملف واحد</string>
            <key>other</key>
            <string>%d ملفات</string>
          </dict>
        </dict>
      </dict>
      </plist>
      """
    let result = LocalizationReader.read(text, format: .stringsdict)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.variant), [nil, "plural:one", "plural:other"])
    XCTAssertEqual(result.values[1].text, "\u{200F}ملف واحد")
    XCTAssertEqual(result.values[1].controlSpelling, .xmlHex(uppercaseHex: true))
    XCTAssertEqual(result.values[1].sourcePosition(ofDecoded: 0), SourcePosition(line: 15, column: 14))
  }

  func testXLIFFInlineElements() {
    let text = """
      <xliff version="1.2"><file source-language="en" target-language="he"><body>
      <trans-unit id="welcome"><source>Hi <x id="1"/></source>
      <target>שלום <ph id="1">%@</ph> <g id="2">ברוך</g> &amp; הבא</target></trans-unit>
      </body></file></xliff>
      """
    let result = LocalizationReader.read(text, format: .xliff)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.contentLocale, "he")
    XCTAssertEqual(result.values.count, 1)
    let value = result.values[0]
    XCTAssertEqual(value.locale, "he")
    XCTAssertEqual(value.text, "שלום <ph id=\"1\">%@</ph> <g id=\"2\">ברוך</g> & הבא")
    XCTAssertEqual(value.atoms.map(\.kind), [.inlineElement])
    XCTAssertEqual(value.markup.count, 2)
  }

  func testAndroidWhitespaceQuotesEscapesCDATA() {
    let text = """
      <resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
        <string name="a">
          مرحبا   <b>%1$s</b>\\n  \\'x\\'
        </string>
        <string name="b">"  مسافات  "</string>
        <string name="c"><![CDATA[<b>عريض</b> %d]]></string>
        <string name="d">\\u200F<xliff:g id="n" example="Bob">%s</xliff:g> يكتب</string>
        <plurals name="p"><item quantity="one">%d يوم</item><item quantity="other">%d أيام</item></plurals>
        <string-array name="arr"><item>أ</item><item>ب</item></string-array>
      </resources>
      """
    let result = LocalizationReader.read(text, format: .android)
    XCTAssertNil(result.error)
    XCTAssertEqual(
      result.values.map(\.text),
      [
        "مرحبا <b>%1$s</b>\n 'x'", "  مسافات  ", "<b>عريض</b> %d",
        "\u{200F}<xliff:g id=\"n\" example=\"Bob\">%s</xliff:g> يكتب", "%d يوم", "%d أيام", "أ", "ب",
      ])
    XCTAssertEqual(
      result.values.map(\.variant), [nil, nil, nil, nil, "plural:one", "plural:other", "item:0", "item:1"])
    XCTAssertEqual(result.values[0].paragraphs.count, 2)
    XCTAssertEqual(result.values[2].markup.count, 2)
    XCTAssertEqual(result.values[3].controlSpelling, .backslashLowerU(uppercaseHex: true))
    XCTAssertEqual(result.values[0].sourcePosition(ofDecoded: 0), SourcePosition(line: 2, column: 4))
  }

  /// Markup the reader keeps whole is not scanned again: an inline
  /// element whose attribute holds `>`, before a placeholder, stays one
  /// markup range (found by the l10n-xml fuzz target: the scan of the
  /// decoded text also took `<xliff:g id="n" example="Bob>` as a tag, so
  /// two markup ranges overlapped).
  func testMarkupWithAngleBracketInAttributeIsOneRange() {
    let text = """
      <resources>
        <string name="sender"><xliff:g id="name" example="Bob>>">%1$s</xliff:g> أرسل لك <b>رسالة</b></string>
      </resources>
      """
    let result = LocalizationReader.read(text, format: .android)
    XCTAssertNil(result.error)
    let value = result.values[0]
    let utf8 = Array(value.text.utf8)
    func slice(_ range: Range<Int>) -> String { String(decoding: utf8[range], as: UTF8.self) }
    XCTAssertEqual(
      value.markup.map(slice), ["<xliff:g id=\"name\" example=\"Bob>>\">", "</xliff:g>", "<b>", "</b>"])
    XCTAssertEqual(value.atoms.map { slice($0.range) }, ["%1$s"])
  }

  /// A backslash just before markup escapes nothing (found by the l10n-xml
  /// fuzz target: the escape was applied to the first character after the
  /// element's start tag, which then mapped back to the backslash, before
  /// the tag in the file).
  func testBackslashBeforeMarkupEscapesNothing() {
    let text = """
      <resources>
        <string name="a">\\<b>%1$s</b> يكتب \\u06<i>x</i>\\</string>
      </resources>
      """
    let result = LocalizationReader.read(text, format: .android)
    XCTAssertNil(result.error)
    let value = result.values[0]
    XCTAssertEqual(value.text, "<b>%1$s</b> يكتب \u{06}<i>x</i>")
    // Every decoded byte maps to the file in order.
    var before = value.range.start
    for offset in 0..<value.text.utf8.count {
      let position = value.sourcePosition(ofDecoded: offset)
      XCTAssertLessThanOrEqual(before, position, "byte \(offset)")
      before = position
    }
  }

  /// A self-closing element where none may stand is the syntax error, and
  /// the value open around it ends with it: no value past the error (found
  /// by the l10n-xml fuzz target: the `<string/>` inside a `<string>` also
  /// ended the outer value, whose source range then ended before its text).
  func testSelfClosingTagInsideAStringdictValueIsTheError() {
    let text = """
      <plist version="1.0"><dict><key>messages</key><dict>
      <key>NSStringLocalizedFormatKey</key><string>%#@n@
      <string name="x"/> after</string></dict></dict></plist>
      """
    let result = LocalizationReader.read(text, format: .stringsdict)
    XCTAssertEqual(result.error?.position, SourcePosition(line: 2, column: 0))
    XCTAssertEqual(result.values.count, 0)
  }

  func testResXAndXMLErrors() {
    let text = """
      <root><data name="Hello" xml:space="preserve"><value>שלום {0:N2}</value><comment>c</comment></data>
      <data name="Icon" type="System.Drawing.Bitmap" mimetype="application/x-microsoft.net.object.bytearray.base64"><value>AAA</value></data>
      <data name="Bad"><value>x</valu></data></root>
      """
    let result = LocalizationReader.read(text, format: .resx)
    XCTAssertEqual(result.values.map(\.key), ["Hello"])
    XCTAssertEqual(result.values[0].atoms.map(\.isNumeric), [true])
    XCTAssertEqual(result.error?.position, SourcePosition(line: 2, column: 25))
  }

  /// The source text a value translates is kept where the file holds it
  /// (for the checks of a translation against its source): an XLIFF
  /// `<source>` (1.2's unit, 2.0's segment), a `.po` `msgid` or `msgid_plural`.
  func testSourceTextIsRecorded() {
    let xliff = """
      <xliff version="2.0" srcLang="en" trgLang="ar"><file id="f">
        <unit id="u"><segment><source>Pay &amp; go <ph id="1"/></source>
          <target>ادفع <ph id="1"/></target></segment>
          <segment><source>Second</source><target>الثاني</target></segment></unit>
        <unit id="v"><segment><target>بلا مصدر</target></segment></unit>
      </file></xliff>
      """
    let values = LocalizationReader.read(xliff, format: .xliff).values
    XCTAssertEqual(values.map(\.source), ["Pay & go <ph id=\"1\"/>", "Second", nil])
    let po = "msgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d ملف\"\nmsgstr[1] \"%d ملفات\"\n"
    XCTAssertEqual(LocalizationReader.read(po, format: .po).values.map(\.source), ["%d file", "%d files"])
  }
}
