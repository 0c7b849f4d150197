import BidiMarks
import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

/// The four formats of issue 28 beyond what the corpus shows: detection,
/// each reader's rules at their edges, and the edits that must keep a file
/// valid (the corpus files are re-read by the formats' own parsers in
/// `IndependentParserTests`).
final class FluentYAMLQtWebExtensionTests: XCTestCase {
  func read(_ text: String, _ format: LocalizationFormat) -> LocalizationReadResult {
    LocalizationReader.read(text, format: format)
  }

  func testDetection() {
    let qt = Array("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- generated -->\n<!DOCTYPE TS>\n<TS version=\"2.1\">".utf8)
    let typescript = Array("import { TS } from './ts';\nconst x = <TS>y;\n".utf8)
    XCTAssertEqual(LocalizationFormat.detect(languageId: "typescript", path: "app_ar.ts", contents: qt), .qtLinguist)
    XCTAssertEqual(
      LocalizationFormat.detect(languageId: nil, path: "i18n/app_ar.ts", contents: Array("<TS>".utf8)), .qtLinguist)
    XCTAssertNil(LocalizationFormat.detect(languageId: "typescript", path: "src/ar.ts", contents: typescript))
    XCTAssertNil(LocalizationFormat.detect(languageId: nil, path: "app_ar.ts"), "a .ts path alone is TypeScript")
    XCTAssertEqual(LocalizationFormat.detect(languageId: "qt-linguist", path: ""), .qtLinguist)
    XCTAssertEqual(LocalizationFormat.detect(languageId: "json", path: "ext/_locales/ar/messages.json"), .webExtension)
    XCTAssertEqual(LocalizationFormat.detect(languageId: "json", path: "locales/ar/messages.json"), .i18next)
    XCTAssertEqual(LocalizationFormat.detect(languageId: nil, path: "browser/locales/he/app.ftl"), .fluent)
    for path in [
      "config/locales/ar.yml", "config/locales/models.yml", "translations/messages.fa.yaml", "devise.ar.yml",
    ] {
      XCTAssertEqual(LocalizationFormat.detect(languageId: "yaml", path: path), .yaml, path)
    }
    for path in ["docker-compose.yml", ".github/workflows/ci.yml", "config/database.yml"] {
      XCTAssertNil(LocalizationFormat.detect(languageId: "yaml", path: path), path)
    }
  }

  /// Fluent: the common indent removed (extra indent kept), trailing white
  /// space dropped, a string literal placeable decoded, numeric placeables.
  func testFluentPatterns() throws {
    let text = """
      multi =
          first line { $a }
            indented
          { NUMBER($n) } last  
      literal = { "[" }مرحبا{ " " }
      plural = { $n ->
          [one] { $n } ملف
         *[other] { $n } ملفات
      }
      gender = { $g ->
          [male] { $n } هو
         *[other] { $n } هي
      }
      """
    let values = read(text, .fluent).values
    XCTAssertNil(read(text, .fluent).error)
    XCTAssertEqual(values[0].text, "first line { $a }\n  indented\n{ NUMBER($n) } last")
    XCTAssertEqual(values[0].atoms.map(\.isNumeric), [false, true])
    XCTAssertEqual(values[1].text, "[مرحبا ")
    XCTAssertEqual(values[1].atoms, [])
    XCTAssertEqual(
      values.map(\.variant), [nil, nil, nil, "select:one", "select:other", nil, "select:male", "select:other"])
    XCTAssertEqual(values[2].atoms.map(\.isNumeric), [true], "a plural select is numeric")
    XCTAssertEqual(values[3].atoms.map(\.isNumeric), [true], "{ $n } inside a plural on $n")
    XCTAssertEqual(values[6].atoms.map(\.isNumeric), [false], "{ $n } inside a select on $g")
    // A direction mark before the extra indent goes after the common indent.
    let planner = EntryPlanner(values[0], spelling: .literal)
    let edits = planner.directionEdits(.rightToLeft)
    XCTAssertTrue(edits.allSatisfy { $0.range.start.column >= 4 }, "\(edits)")
  }

  func testFluentErrors() {
    let cases: [(String, String)] = [
      ("# a comment\n  indented = x\n", "an entry starts"),
      ("a = { $x ->\n   [one] x\n}\n", "default variant"),
      ("a = x }\n", "closes no placeable"),
      ("-t =\n  .attr = x\n", "has no value"),
      ("a = { lower() }\n", "upper case"),
      ("#comment\n", "comment"),
    ]
    for (text, message) in cases {
      let error = read(text, .fluent).error
      XCTAssertTrue(error?.message.contains(message) == true, "\(text.debugDescription): \(String(describing: error))")
    }
    let deep = "a = " + String(repeating: "{ ", count: 500) + "$x" + String(repeating: " }", count: 500)
    XCTAssertTrue(read(deep, .fluent).error?.message.contains("nested") == true)
  }

  /// YAML: plain scalars by YAML 1.1 types, the Rails locale key, the
  /// constructs refused with a message naming them.
  func testYAMLValuesAndRefusals() {
    let text = """
      he:
        yes_key: yes
        count: 3
        version: 1.0
        date: 2024-01-31
        text: שלום
        quoted: "3"
        list: [א, 'ב']
        inline: {a: א, b: 2}
      """
    let result = read(text, .yaml)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["text", "quoted", "list", "list", "inline.a"])
    XCTAssertEqual(result.values.map(\.locale), Array(repeating: "he", count: 5))
    XCTAssertEqual(result.contentLocale, "he")
    let refused: [(String, String)] = [
      ("a: &x b\n", "anchors"), ("a: !str b\n", "tags"), ("? a\n: b\n", "complex keys"),
      ("a:\n- b: c\n", "mapping inside a sequence item"), ("a: b\n---\nc: d\n", "second YAML document"),
      ("a: b: c\n", "second :"),
      ("a:\n\tb: c\n", "tab"), ("a: [b, [c]]\n", "flow collections inside"),
    ]
    for (text, message) in refused {
      let error = read(text, .yaml).error
      XCTAssertTrue(error?.message.contains(message) == true, "\(text.debugDescription): \(String(describing: error))")
    }
  }

  /// A folded scalar's more-indented line keeps its line breaks only while
  /// it starts with white space: a mark goes after that white space.
  func testYAMLFoldedMoreIndentedLineKeepsItsIndent() throws {
    let text = "k: >\n  سطر\n    مسافة بادئة\n  نهاية\n"
    let value = try XCTUnwrap(read(text, .yaml).values.first)
    XCTAssertEqual(value.text, "سطر\n  مسافة بادئة\nنهاية\n")
    let edits = EntryPlanner(value, spelling: .literal).directionEdits(.leftToRight)
    XCTAssertEqual(
      edits.map(\.range.start),
      [
        SourcePosition(line: 1, column: 2), SourcePosition(line: 2, column: 4), SourcePosition(line: 3, column: 2),
      ])
  }

  func testYAMLPlaceholders() throws {
    let text = "a: \"%{name} و %{count} و %<sum>.2f و %<who>s و %title% و %count% و {{ limit }}\"\n"
    let value = try XCTUnwrap(read(text, .yaml).values.first)
    XCTAssertEqual(
      value.atoms.map { String(Array(value.text.utf8)[$0.range].map { Character(Unicode.Scalar($0)) }) },
      ["%{name}", "%{count}", "%<sum>.2f", "%<who>s", "%title%", "%count%", "{{ limit }}"])
    XCTAssertEqual(value.atoms.map(\.isNumeric), [false, true, true, false, false, true, false])
  }

  /// Qt: obsolete and vanished translations are no values; an id is the
  /// key; the source is kept; `<byte>` is its character.
  func testQtLinguistMessages() {
    let text = """
      <TS language="fa"><context><name>Dialog</name>
      <message id="dlg.ok"><source>OK</source><translation>تأیید</translation></message>
      <message><source>Old</source><translation type="obsolete">کهنه</translation></message>
      <message><source>Esc</source><translation>کلید<byte value="x9"/>Esc</translation></message>
      </context></TS>
      """
    let result = read(text, .qtLinguist)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.values.map(\.key), ["dlg.ok", "Esc"])
    XCTAssertEqual(result.values.map(\.source), ["OK", "Esc"])
    XCTAssertEqual(result.values.map(\.context), ["Dialog", "Dialog"])
    XCTAssertEqual(result.values[1].text, "کلید\tEsc")
    XCTAssertEqual(result.contentLocale, "fa")
  }

  func testWebExtensionPlaceholders() throws {
    let text = "{\"a\": {\"message\": \"$$ $1 $USER_NAME$ $0 $x\", \"description\": \"$2\"}}"
    let result = read(text, .webExtension)
    XCTAssertEqual(result.values.count, 1, "the description is no value")
    let value = try XCTUnwrap(result.values.first)
    XCTAssertEqual(value.atoms.map(\.range), [3..<5, 6..<17])
  }
}
