import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

/// What real localization files of public projects do, reproduced with
/// inputs of our own (AOSP and app `res/values-ar`, GNOME `.po` files,
/// `ar.lproj` strings of iOS apps, Xcode and Angular XLIFF, String
/// Catalogs, Flutter ARB, i18next locales, .resx).
final class RealWorldQuirksTests: XCTestCase {
  func read(_ text: String, _ format: LocalizationFormat) -> LocalizationReadResult {
    LocalizationReader.read(text, format: format)
  }

  func directions(_ value: TextEntry) -> String {
    let analysis = ParagraphAnalysis(value, paragraph: 0)
    return Corpus.name(analysis.direction()) + "/" + Corpus.name(analysis.direction(filled: true))
  }

  /// AOSP writes every translation in quotes, `<xliff:g>` inside them,
  /// with `msgid` and `product` attributes; apps add `tools:` attributes,
  /// `translatable`, `formatted`, comments between items, CRLF and a BOM.
  func testAndroidResources() {
    let text =
      "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- Copyright -->\r\n"
      + "<resources xmlns:tools=\"http://schemas.android.com/tools\" xmlns:xliff=\"urn:oasis:names:tc:xliff:document:1.2\">\r\n"
      + "    <string name=\"select\" msgid=\"123\">\"تحديد \\\"<xliff:g id=\"DIR\">^1</xliff:g>\\\"\"</string>\r\n"
      + "    <string name=\"free\" msgid=\"456\">\"<xliff:g id=\"SIZE\">%1$s</xliff:g> خالية\"</string>\r\n"
      + "    <string name=\"adv\" product=\"tablet\">\"إظهار\"</string>\r\n"
      + "    <string name=\"adv\" product=\"default\">\"عرض\"</string>\r\n"
      + "    <string name=\"brand\" translatable=\"false\" tools:ignore=\"Typos\">Acme</string>\r\n"
      + "    <plurals name=\"n\" tools:ignore=\"UnusedQuantity\">\r\n"
      + "        <!-- one -->\r\n        <item quantity=\"one\">دقيقة</item>\r\n"
      + "        <item quantity=\"other\">\"%d دقائق\"</item>\r\n    </plurals>\r\n"
      + "    <string name=\"pct\" formatted=\"false\">100% مجاني</string>\r\n"
      + "    <string name=\"none\"/>\r\n</resources>\r\n"
    let result = read(text, .android)
    XCTAssertNil(result.error)
    XCTAssertEqual(
      result.values.map(\.text),
      [
        "تحديد \"<xliff:g id=\"DIR\">^1</xliff:g>\"", "<xliff:g id=\"SIZE\">%1$s</xliff:g> خالية", "إظهار", "عرض",
        "Acme", "دقيقة", "%d دقائق", "100% مجاني", "",
      ])
    XCTAssertEqual(result.values.map(\.key), ["select", "free", "adv", "adv", "brand", "n", "n", "pct", "none"])
    XCTAssertEqual(directions(result.values[1]), "rtl/ltr")
    XCTAssertEqual(result.values[7].atoms, [])
    // The quotes are delimiters: an inserted mark goes inside them, before
    // the <xliff:g> (whose content translators must not touch).
    let fix = valueFindings(result.values[1], spelling: .literal)
    XCTAssertEqual(fix.first?.fixes.first?.edits.first?.range.start, SourcePosition(line: 4, column: 37))
  }

  /// iOS apps' `ar.lproj`: comments after entries, `// MARK:` lines,
  /// duplicate keys, `<br />` in values, untranslated English values,
  /// placeholders glued to words.
  func testAppleStrings() {
    let text = """
      // MARK: - Player
      "FORMAT" = "%ix%i بكسل";
      "LOGGED" = "%dدخل في الخدمة"; /* a comment after the entry */
      "TITLE" = "العنوان"; // and another
      "TITLE" = "العنوان";
      "BASED" = "مؤسّس على:<br />%@";
      "AIRPLAY" = "AirPlay or Bluetooth";
      "FULL" = "%@ لا يمكن تخزينه على %@, لأنه ليس لديك مساحة";
      """
    let result = read(text, .strings)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["FORMAT", "LOGGED", "TITLE", "TITLE", "BASED", "AIRPLAY", "FULL"])
    XCTAssertEqual(result.values[0].atoms.map(\.range), [0..<2, 3..<5])
    XCTAssertEqual(result.values[1].atoms.map(\.range), [0..<2])
    XCTAssertEqual(result.values[4].markup.count, 1)
    let findings = result.values.flatMap {
      valueFindings($0, spelling: .literal).map(\.code)
    }
    // "%ix%i بكسل" starts with the Latin x once %i is a placeholder: it
    // displays left to right (as "1920x1080 بكسل" would), a true finding.
    XCTAssertEqual(findings, [.valueDirection, .placeholderDirection])
  }

  /// GNOME and KDE `.po` files: translator comments, references, fuzzy
  /// flags combined with format flags, `#|` previous strings, `msgctxt`,
  /// obsolete `#~` entries (with their own `#~ msgctxt` and `#~|`),
  /// `\n\n{err}` values, CRLF.
  func testGettext() {
    let text = [
      "# Persian translation.", "msgid \"\"", "msgstr \"\"", "\"Language: fa\\n\"",
      "\"Plural-Forms: nplurals=1; plural=0;\\n\"", "", "#. Translators: keep the semicolons",
      "#: data/app.desktop.in:5", "msgid \"editor;text;\"", "msgstr \"\"", "\"editor;text;ویرایشگر;\"", "",
      "#: src/export.py:158", "#, fuzzy, python-brace-format", "#| msgid \"An error: {err}\"", "msgid \"\"",
      "\"An error happened:\\n\"", "\"\\n\"", "\"{err_msg}\"", "msgstr \"\"", "\"خطایی رخ داد:\\n\"", "\"\\n\"",
      "\"{err_msg}\"", "", "msgctxt \"shortcut window\"", "msgid \"Open\"", "msgstr \"گشودن\"", "",
      "#~ msgctxt \"old\"", "#~| msgid \"Old\"", "#~ msgid \"Gone\"", "#~ msgstr \"رفته\"", "",
    ].joined(separator: "\r\n")
    let result = read(text, .po)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.contentLocale, "fa")
    XCTAssertEqual(result.values.map(\.key), ["editor;text;", "An error happened:\n\n{err_msg}", "Open"])
    XCTAssertEqual(result.values[2].context, "shortcut window")
    let error = result.values[1]
    XCTAssertEqual(error.text, "خطایی رخ داد:\n\n{err_msg}")
    XCTAssertEqual(error.paragraphs.count, 3)
    XCTAssertEqual(error.atoms.map(\.kind), [.braces])
    XCTAssertEqual(directions(result.values[0]), "ltr/ltr")
  }

  /// Xcode and Angular XLIFF: `<context-group>`, `<note>`, `<x
  /// equiv-text>`, `state="new"`, `xml:lang`, several `<file>`s with their
  /// own target language; 2.0 `<notes>`.
  func testXLIFFFromTools() {
    let text = """
      <?xml version="1.0" encoding="UTF-8" ?>
      <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
        <file original="ar.lproj/InfoPlist.strings" source-language="en" target-language="ar" datatype="plaintext">
          <body>
            <trans-unit id="CFBundleName" xml:space="preserve">
              <source>Demo</source>
              <target state="new" xml:lang="ar">ديمو</target>
              <note>Bundle name</note>
            </trans-unit>
            <trans-unit id="greet" datatype="html">
              <source>Hi <x id="INTERPOLATION" equiv-text="{{ name }}"/></source>
              <target><x id="INTERPOLATION" equiv-text="{{ name }}"/> مرحبا</target>
              <context-group purpose="location">
                <context context-type="sourcefile">src/app/app.component.html</context>
                <context context-type="linenumber">7</context>
              </context-group>
            </trans-unit>
          </body>
        </file>
        <file original="he.lproj/Main.strings" source-language="en" target-language="he" datatype="plaintext">
          <body><trans-unit id="title"><source>Title</source><target>כותרת</target></trans-unit></body>
        </file>
      </xliff>
      """
    let result = read(text, .xliff)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["CFBundleName", "greet", "title"])
    XCTAssertEqual(result.values.map(\.locale), ["ar", "ar", "he"])
    XCTAssertEqual(directions(result.values[1]), "rtl/ltr")
    let two = """
      <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="fa">
       <file id="ngi18n" original="ng.template">
        <unit id="intro">
         <notes><note category="location">src/app/app.component.html:3</note></notes>
         <segment><source>Hello <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/></source>
          <target>سلام <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/></target></segment>
        </unit>
       </file>
      </xliff>
      """
    let xcode = """
      <xliff version="1.2"><file original="ar.lproj/Localizable.stringsdict" target-language="ar"><body>
      <trans-unit id="/%d files:dict/NSStringLocalizedFormatKey:dict/:string" xml:space="preserve">
        <source>%#@files@</source><target>%#@files@</target><note/></trans-unit>
      <trans-unit id="/%d files:dict/files:dict/one:dict/:string" xml:space="preserve">
        <source>%d file</source><target>ملف واحد</target><note/></trans-unit>
      </body></file></xliff>
      """
    XCTAssertEqual(read(xcode, .xliff).values.map(\.variant), [nil, "plural:one"])
    let second = read(two, .xliff)
    XCTAssertNil(second.error)
    XCTAssertEqual(second.values.map(\.key), ["intro"])
    XCTAssertEqual(second.values[0].locale, "fa")
    XCTAssertEqual(second.values[0].atoms.map(\.kind), [.inlineElement])
  }

  /// Xcode's String Catalogs: `extractionState`, `shouldTranslate`,
  /// `comment`, keys with escapes, entries with no localizations.
  func testStringCatalogs() {
    let text = """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "" : {

          },
          "Line one\\nLine two" : {
            "comment" : "Two lines",
            "extractionState" : "manual",
            "localizations" : {
              "ar" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "السطر الأول\\nالسطر الثاني"
                }
              }
            }
          },
          "Version" : {
            "extractionState" : "stale",
            "shouldTranslate" : false
          }
        },
        "version" : "1.0"
      }
      """
    let result = read(text, .xcstrings)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["Line one\nLine two"])
    XCTAssertEqual(result.values[0].paragraphs.count, 2)
    XCTAssertEqual(result.values[0].locale, "ar")
  }

  /// Flutter ARB: `@@last_modified`, `@@x-` keys, placeholders typed
  /// `DateTime` with a `format`, `optionalParameters`, descriptions.
  func testARB() {
    let text = """
      {
        "@@locale": "he",
        "@@last_modified": "2024-05-01T10:00:00.000Z",
        "@@x-template": "app_en.arb",
        "updated": "עודכן ב-{date}",
        "@updated": {
          "description": "When",
          "placeholders": {
            "date": {"type": "DateTime", "format": "yMd"}
          }
        },
        "price": "{value} ש\\"ח",
        "@price": {
          "placeholders": {
            "value": {"type": "double", "format": "currency", "optionalParameters": {"decimalDigits": 2}}
          }
        }
      }
      """
    let result = read(text, .arb)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.contentLocale, "he")
    XCTAssertEqual(result.values.map(\.key), ["updated", "price"])
    XCTAssertEqual(result.values.map { $0.atoms.map(\.isNumeric) }, [[false], [true]])
    XCTAssertEqual(result.values[1].text, "{value} ש\"ח")
  }

  /// i18next: context and plural suffixes are keys; nesting with options
  /// (`$t(key, {"count": 2})`), unescaped interpolation, formats.
  func testI18next() {
    let text = """
      {
        "friend_male": "הוא חבר",
        "friend_female": "היא חברה",
        "item_plural": "{{count}} פריטים",
        "nested": "ראה $t(help.link, {\\"count\\": 2}) עכשיו",
        "date": "עודכן {{date, datetime}}",
        "html": "<strong>{{- name}}</strong> הצטרף",
        "&Width:": "ה&רוחב:",
        "%s bytes": "%s בתים",
        "Zoom to 100%.": "הגדל ל-100%."
      }
      """
    let result = read(text, .i18next)
    XCTAssertNil(result.error)
    XCTAssertEqual(
      result.values.map(\.key),
      ["friend_male", "friend_female", "item_plural", "nested", "date", "html", "&Width:", "%s bytes", "Zoom to 100%."])
    // Windows-style mnemonics (`&`) are text; printf forms of i18next's
    // sprintf post-processor are placeholders; `100%.` is text.
    XCTAssertEqual(result.values[6].markup, [])
    XCTAssertEqual(result.values[7].atoms.map(\.kind), [.printf])
    XCTAssertEqual(directions(result.values[7]), "rtl/ltr")
    XCTAssertEqual(result.values[8].atoms, [])
    XCTAssertEqual(result.values[3].atoms.map(\.kind), [.nesting])
    XCTAssertEqual(result.values[3].atoms.first?.range.count, "$t(help.link, {\"count\": 2})".utf8.count)
    XCTAssertEqual(result.values[5].markup.count, 2)
    XCTAssertEqual(directions(result.values[5]), "rtl/ltr")
  }

  /// .resx from Visual Studio: schema, `resheader`s, `assembly`,
  /// `metadata`, designer entries (`>>label.Name`), file references,
  /// `<value />`.
  func testResX() {
    let text = """
      <?xml version="1.0" encoding="utf-8"?>
      <root>
        <xsd:schema id="root" xmlns="" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><xsd:element name="root"/></xsd:schema>
        <resheader name="reader"><value>System.Resources.ResXResourceReader, System.Windows.Forms</value></resheader>
        <assembly alias="System.Windows.Forms" name="System.Windows.Forms, Version=4.0.0.0" />
        <metadata name="toolTip1.TrayLocation" type="System.Drawing.Point, System.Drawing"><value>17, 17</value></metadata>
        <data name="label1.Text" xml:space="preserve"><value>שם המשתמש: {0}</value></data>
        <data name="&gt;&gt;label1.Name" xml:space="preserve"><value>label1</value></data>
        <data name="Logo" type="System.Resources.ResXFileRef, System.Windows.Forms"><value>Logo.png;System.Byte[]</value></data>
        <data name="Typed" type="System.String, mscorlib"><value>טקסט</value></data>
        <data name="Empty" xml:space="preserve"><value /></data>
        <data name="menu.file" xml:space="preserve"><value>&amp;קובץ</value></data>
        <data name="page.size" xml:space="preserve"><value>עמוד: {0:0.###} x {1:0.###} {2}</value></data>
      </root>
      """
    let result = read(text, .resx)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["label1.Text", ">>label1.Name", "Typed", "menu.file", "page.size"])
    XCTAssertEqual(result.values[0].atoms.map(\.isNumeric), [false])
    // A Windows mnemonic `&` is text; custom numeric formats are numeric.
    XCTAssertEqual(result.values[3].text, "&קובץ")
    XCTAssertEqual(result.values[4].atoms.map(\.isNumeric), [true, true, false])
  }

  /// Java `.properties`: `key:value`, `key value`, escaped separators in
  /// keys, a comment ending in a backslash (no continuation), a
  /// continuation with trailing white space on the next line.
  func testProperties() {
    let text = "a:\\u05d0\nb \\u05d1\nc\\:d\\=e = \\u05d2\n# comment \\\nf = \\u05d3 \\\n   \\u05d4\n"
    let result = read(text, .properties)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["a", "b", "c:d=e", "f"])
    XCTAssertEqual(result.values.map(\.text), ["א", "ב", "ג", "ד ה"])
  }
}
