import BidiTestSupport
import StructuredText
import XCTest

@testable import Localization

/// The index after random edits equals a full read of the edited text:
/// same items (values and facts, positions included), same checkpoints,
/// same error.
final class IncrementalIndexTests: XCTestCase {
  /// Lines a document of a format is made of, entry by entry, and stray
  /// lines that break it (so errors come and go).
  static func entryLines(_ format: LocalizationFormat, _ k: Int) -> [String] {
    let words = ["مرحبا", "שלום", "سلام", "خوش آمدید", "hello", "%@", "{name}", "%d"]
    let word = words[k % words.count]
    switch format {
    case .strings:
      return k % 5 == 0
        ? ["/* entry \(k)", "   spans lines */", "\"k\(k)\" = \"\(word) \\U200F\(k)\";"]
        : ["\"k\(k)\" = \"\(word) \(k)\";"]
    case .po:
      return k % 3 == 0
        ? ["", "#, c-format", "msgid \"k\(k)\"", "msgstr \"\"", "\"\(word) \"", "\"%d\""]
        : ["", "msgid \"k\(k)\"", "msgstr \"\(word)\""]
    case .properties:
      return k % 4 == 0 ? ["k\(k) = \(word) \\", "    \(k)"] : ["# c", "k\(k)=\(word) {0}"]
    case .arb, .i18next:
      return k % 4 == 0
        ? ["  \"g\(k)\": {", "    \"k\(k)\": \"{n, plural, one{\(word)} other{# \(word)}}\"", "  },"]
        : ["  \"k\(k)\": \"\(word) {x}\",", "  \"@k\(k)\": {\"placeholders\": {\"x\": {\"type\": \"int\"}}},"]
    case .xcstrings:
      return ["    \"k\(k)\": {\"localizations\": {\"ar\": {\"stringUnit\": {\"value\": \"\(word)\"}}}},"]
    case .stringsdict:
      return [
        "  <key>k\(k)</key>", "  <dict><key>NSStringLocalizedFormatKey</key>",
        "  <string>\(word) %#@n@</string></dict>",
      ]
    case .xliff:
      return ["<trans-unit id=\"k\(k)\"><source>s</source>", "<target>\(word) <x id=\"1\"/></target></trans-unit>"]
    case .resx:
      return ["  <data name=\"k\(k)\" xml:space=\"preserve\">", "    <value>\(word) {0}</value>", "  </data>"]
    case .android:
      return k % 3 == 0
        ? ["  <plurals name=\"p\(k)\">", "    <item quantity=\"one\">\(word)</item>", "  </plurals>"]
        : ["  <string name=\"k\(k)\">\(word)", "     \\n <b>\(k)</b></string>"]
    case .qtLinguist:
      return k % 3 == 0
        ? [
          "  <message numerus=\"yes\"><source>%n k\(k)</source>", "    <translation>",
          "      <numerusform>\(word)</numerusform><numerusform>%n \(word)</numerusform>",
          "    </translation></message>",
        ]
        : ["  <message><source>k\(k)</source>", "    <translation>\(word) %1</translation></message>"]
    case .webExtension:
      return ["  \"k\(k)\": {\"message\": \"\(word) $1\",", "    \"description\": \"d\"},"]
    case .yaml:
      switch k % 4 {
      case 0: return ["  k\(k):", "    one: \"\(word) %{count}\"", "    other: \(word)", "      \(k)"]
      case 1: return ["  # c", "  k\(k): |", "    \(word)", "", "    %{x} \(k)"]
      case 2: return ["  k\(k): [\(word), '\(k)']"]
      default: return ["  k\(k):", "  - \(word)", "  - \"\(k)\""]
      }
    case .fluent:
      return k % 3 == 0
        ? ["k\(k) =", "    \(word) { $x }", "", "      \(k)", "    .attr = \(word)"]
        : k % 3 == 1
          ? ["k\(k) = { $n ->", "    [one] \(word)", "   *[other] { $n } \(word)", "}"]
          : ["# c", "k\(k) = \(word) {$n}"]
    }
  }

  static func frame(_ format: LocalizationFormat) -> (head: [String], tail: [String]) {
    switch format {
    case .strings, .po, .properties: ([], [])
    case .arb, .i18next: (["{", "  \"@@locale\": \"ar\","], ["  \"end\": \"x\"", "}"])
    case .xcstrings: (["{\"sourceLanguage\": \"en\", \"strings\": {"], ["    \"end\": {}", "}, \"version\": \"1.0\"}"])
    case .stringsdict: (["<?xml version=\"1.0\"?>", "<plist version=\"1.0\"><dict>"], ["</dict></plist>"])
    case .xliff:
      (
        ["<xliff version=\"1.2\"><file source-language=\"en\" target-language=\"he\"><body>"],
        ["</body></file></xliff>"]
      )
    case .resx: (["<root>"], ["</root>"])
    case .android: (["<resources>"], ["</resources>"])
    case .fluent: ([], [])
    case .yaml: (["---", "ar:"], ["  end: x"])
    case .qtLinguist:
      (
        ["<?xml version=\"1.0\"?>", "<!DOCTYPE TS>", "<TS language=\"ar\"><context><name>c</name>"], ["</context></TS>"]
      )
    case .webExtension: (["{"], ["  \"end\": {\"message\": \"x\"}", "}"])
    }
  }

  static let breakers = [
    "\"", "{", "<", "}", "</x>", "msgstr", "\"open", "  ", "", "<!-- c", "-->", "*/", "    more", ".attr = x",
  ]

  func testRandomEditsMatchAFullRead() {
    for format in LocalizationFormat.allCases {
      var generator = SeededGenerator(seed: UInt64(format.rawValue.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
      let (head, tail) = Self.frame(format)
      var lines = head
      for k in 0..<120 { lines += Self.entryLines(format, k) }
      lines += tail
      var index = StructuredIndex(TextLines(lines.joined(separator: "\n")), format: format)
      var pool: [String] = []
      for k in 0..<40 { pool += Self.entryLines(format, 1000 + k) }
      for step in 0..<400 {
        let start = Int.random(in: 0...lines.count - 1, using: &generator)
        let length = Int.random(in: 0...min(3, lines.count - start), using: &generator)
        var replacement: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
          if Int.random(in: 0..<20, using: &generator) == 0 {
            replacement.append(Self.breakers.randomElement(using: &generator)!)
          } else {
            replacement.append(pool.randomElement(using: &generator)!)
          }
        }
        if lines.count - length + replacement.count == 0 { replacement = [""] }
        lines.replaceSubrange(start..<start + length, with: replacement)
        let text = TextLines(lines.joined(separator: "\n"))
        index.edit(text, replacing: start..<start + length, newLineCount: replacement.count)
        let fresh = StructuredIndex(text, format: format)
        guard index.allItems == fresh.allItems, index.error == fresh.error,
          index.allCheckpoints == fresh.allCheckpoints
        else {
          XCTFail(
            "\(format) step \(step): edit \(start)..<\(start + length) → \(replacement); items \(index.allItems.count) vs \(fresh.allItems.count), error \(String(describing: index.error)) vs \(String(describing: fresh.error))"
          )
          return
        }
        XCTAssertEqual(index.entries, fresh.entries)
        XCTAssertEqual(
          index.contentLocale, fresh.contentLocale,
          "\(format) \(step) \(start) \(length) \(replacement) \(lines.prefix(3))")
        XCTAssertEqual(index.spelling, fresh.spelling)
      }
    }
  }

  func testAnEditReReadsOnlyTheEntriesItTouches() {
    for format in [LocalizationFormat.strings, .po, .android, .i18next] {
      let (head, tail) = Self.frame(format)
      var lines = head
      for k in 0..<5000 { lines += Self.entryLines(format, k) }
      lines += tail
      var index = StructuredIndex(TextLines(lines.joined(separator: "\n")), format: format)
      XCTAssertNil(index.error, "\(format)")
      let middle = lines.count / 2
      let replacement = Self.entryLines(format, 99_999)
      lines.replaceSubrange(middle..<middle, with: replacement)
      index.edit(
        TextLines(lines.joined(separator: "\n")), replacing: middle..<middle, newLineCount: replacement.count)
      XCTAssertLessThan(index.lastReadItemCount, 20, "\(format)")
      XCTAssertEqual(
        index.allItems, StructuredIndex(TextLines(lines.joined(separator: "\n")), format: format).allItems)
    }
  }

  /// The readable text ends at an ill-formed byte in the middle of a line;
  /// an edit before it must read as a fresh read does (the fuzzer's case:
  /// a blank line inserted after `msgid ""` made the old error stay).
  func testEditsBeforeAnIllFormedByteMatchAFullRead() {
    let cases: [(LocalizationFormat, [String])] = [
      (.po, ["msgid \"\"", "msgstr \"\"\u{1}anguage: he\\n\"", "\"X: y\"", "", "msgid \"a\"", "msgstr \"b\""]),
      (.strings, ["\"a\" = \"b\";", "\"c\" = \"d\u{1}\";", "\"e\" = \"f\";"]),
      (.properties, ["a = b", "c = d\u{1}", "e = f"]),
    ]
    let insertions = ["", "#", "msgid \"z\"", "\"x\" = \"y\";", "k = v", "\""]
    var compared = 0
    for (format, lines) in cases {
      for line in 0..<lines.count {
        for insertion in insertions {
          for replaced in 0...1 where line + replaced <= lines.count {
            // \u{1} stands for the ill-formed byte 0xED.
            func bytes(_ lines: [String]) -> [UInt8] {
              Array(lines.joined(separator: "\n").utf8).map { $0 == 1 ? 0xED : $0 }
            }
            var index = StructuredIndex(TextLines(bytes(lines)), format: format)
            var edited = lines
            let old = Array(edited[line..<line + replaced])
            edited.replaceSubrange(line..<line + replaced, with: old + [insertion])
            let text = TextLines(bytes(edited))
            index.edit(text, replacing: line..<line + replaced, newLineCount: replaced + 1)
            let fresh = StructuredIndex(text, format: format)
            XCTAssertEqual(index.error, fresh.error, "\(format): \(insertion) after line \(line)")
            XCTAssertEqual(index.allItems, fresh.allItems, "\(format): \(insertion) after line \(line)")
            XCTAssertEqual(index.allCheckpoints, fresh.allCheckpoints, "\(format): \(insertion) after line \(line)")
            compared += 1
          }
        }
      }
    }
    XCTAssertEqual(compared, insertions.count * 2 * (6 + 3 + 3))
  }

  /// The message of a byte that is not UTF-8 names the legacy encoding
  /// the text after it looks written in, told from up to 4 KB across the
  /// lines after it: an edit of those lines, which reads nothing (reading
  /// stops at the error), must still give a fresh read's message (the
  /// fuzzer's case: Windows-1255 bytes on the lines after `msgid ""`, then
  /// edited away, left the old hint).
  func testAnEditAfterAnIllFormedByteGivesAFreshReadsHint() {
    // Hebrew in Windows-1255: letters 0xE0...0xFA, words of four.
    let hebrew: [UInt8] = [0xF9, 0xEC, 0xE5, 0xED, 0x20, 0xF2, 0xE5, 0xEC, 0xED, 0x20]
    // Lines that end the readable text inside a value.
    let firsts: [(LocalizationFormat, String)] = [(.po, "msgid \"\""), (.strings, "\"a\" = \""), (.properties, "a = ")]
    let variants: [[UInt8]] = [Array("plain text".utf8), hebrew + hebrew, [], Array(hebrew.prefix(4))]
    var hinted = 0
    for before in variants {
      for after in variants {
        for (format, start) in firsts {
          let lines = [Array(start.utf8) + [0xE5, 0xE5], before, Array("msgstr \"x\"".utf8)]
          var index = StructuredIndex(TextLines(Array(lines.joined(separator: [0x0A]))), format: format)
          var edited = lines
          edited[1] = after
          let text = TextLines(Array(edited.joined(separator: [0x0A])))
          index.edit(text, replacing: 1..<2, newLineCount: 1)
          let fresh = StructuredIndex(text, format: format)
          XCTAssertNotNil(fresh.error, "\(format)")
          XCTAssertEqual(index.error, fresh.error, "\(format): \(before) → \(after)")
          if fresh.error?.message.contains("WINDOWS-1255") == true { hinted += 1 }
        }
      }
    }
    // The hint comes and goes with the edited line.
    XCTAssertEqual(hinted, firsts.count * variants.count)
  }
}
