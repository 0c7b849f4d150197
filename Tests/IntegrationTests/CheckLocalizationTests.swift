import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// `bidi-lsp check` on localization files (Protocol/localization.md, last points), run
/// as CI runs it: the localization corpus against its manifest, UTF-16
/// files, `--locale`, malformed files, controls outside values, standard
/// input, and a CI tree of `*.lproj`, `res/values-*` and `locales/`.
final class CheckLocalizationTests: XCTestCase {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("LocalizationTests/Corpus")

  /// A finding as `check` prints it and the manifest lists it.
  struct Finding: Hashable, Comparable, CustomStringConvertible {
    var path: String
    var line: Int
    var column: Int
    var code: String
    var description: String { "\(path):\(line):\(column) \(code)" }
    static func < (a: Finding, b: Finding) -> Bool {
      (a.path, a.line, a.column, a.code) < (b.path, b.line, b.column, b.code)
    }
  }

  /// One line of text output.
  struct Line {
    var finding: Finding
    var severity: String
    var message: String
  }

  /// The manifest's findings per file (`finding CODE LINE:COLUMN`), every file listed.
  static func manifest() throws -> [String: [Finding]] {
    let text = try String(contentsOf: corpus.appendingPathComponent("manifest.tsv"), encoding: .utf8)
    var result: [String: [Finding]] = [:]
    var path = ""
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if fields[0] == "file" {
        path = fields[1]
        result[path] = []
      } else if fields[0] == "finding" {
        let place = fields[2].split(separator: ":").compactMap { Int($0) }
        result[path, default: []].append(Finding(path: path, line: place[0], column: place[1], code: fields[1]))
      }
    }
    return result
  }

  func check(_ arguments: [String], input: Data = Data(), in directory: URL? = corpus) throws -> HazardCommand.Result {
    try HazardCommand.run(["check"] + arguments, input: input, in: directory)
  }

  /// Parses `path:line:column: severity: message [code]` lines.
  func parse(_ result: HazardCommand.Result, file: StaticString = #filePath, line number: UInt = #line) -> [Line] {
    result.lines.compactMap { text in
      let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
      guard parts.count == 4, let line = Int(parts[1]), let column = Int(parts[2]),
        let severityEnd = parts[3].range(of: ": "), let codeStart = parts[3].range(of: " [", options: .backwards),
        parts[3].hasSuffix("]")
      else {
        XCTFail("not path:line:column: severity: message [code]: \(text)", file: file, line: number)
        return nil
      }
      let rest = parts[3]
      return Line(
        finding: Finding(
          path: String(parts[0]), line: line, column: column,
          code: String(rest[codeStart.upperBound..<rest.index(before: rest.endIndex)])),
        severity: String(rest[rest.index(after: rest.startIndex)..<severityEnd.lowerBound]),
        message: String(rest[severityEnd.upperBound..<codeStart.lowerBound]))
    }
  }

  static func severity(_ code: String) -> String {
    ["bidi.unpaired", "bidi.inIdentifier", "bidi.inComment", "bidi.inString"].contains(code) ? "error" : "warning"
  }

  // MARK: The corpus

  /// The corpus folders walked in one run: exactly the manifest's findings,
  /// nothing missing, nothing extra, per file and in total.
  func testCorpusGivesExactlyTheManifest() throws {
    let manifest = try Self.manifest()
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0 != "manifest.tsv" }
      .sorted()
    let result = try check(folders)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.errorOutput, "")
    let lines = parse(result)
    let expected = manifest.values.flatMap { $0 }.sorted()
    XCTAssertGreaterThan(expected.count, 50)
    XCTAssertEqual(lines.count, expected.count, "finding count")
    let found = lines.map(\.finding).sorted()
    for missing in Set(expected).subtracting(found) { XCTFail("missing \(missing)") }
    for extra in Set(found).subtracting(expected) { XCTFail("not in the manifest: \(extra)") }
    XCTAssertEqual(found, expected)
    for (path, findings) in manifest {
      XCTAssertEqual(lines.filter { $0.finding.path == path }.count, findings.count, path)
    }
    for line in lines {
      XCTAssertEqual(line.severity, Self.severity(line.finding.code), "\(line.finding)")
      XCTAssertFalse(line.message.isEmpty)
      XCTAssertFalse(line.message.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) }, line.message)
    }
    // Files in sorted order, findings in document order.
    XCTAssertEqual(
      lines.map(\.finding),
      lines.map(\.finding).sorted { a, b in
        a.path != b.path
          ? Array(a.path.utf8).lexicographicallyPrecedes(Array(b.path.utf8)) : (a.line, a.column) < (b.line, b.column)
      })
  }

  /// Every corpus file alone, in JSON: its manifest findings, the exit
  /// status they give, `key` on each value's finding.
  func testEveryCorpusFileAloneInJSON() throws {
    let manifest = try Self.manifest()
    // 35 files, and 20 of source pairing (pairing/).
    XCTAssertEqual(manifest.count, 55)
    for (path, expected) in manifest.sorted(by: { $0.key < $1.key }) {
      let result = try check(["--format", "json", path])
      XCTAssertEqual(result.status, expected.isEmpty ? 0 : 1, path)
      let json = try JSONValue(decoding: [UInt8](result.output))
      XCTAssertEqual(json["filesChecked"], 1, path)
      XCTAssertEqual(json["findingCount"], JSONValue(expected.count), path)
      let items = json["findings"]?.arrayValue ?? []
      let found = items.map { item in
        Finding(
          path: item["path"]?.stringValue ?? "", line: item["line"]?.intValue ?? 0,
          column: item["column"]?.intValue ?? 0, code: item["code"]?.stringValue ?? "")
      }
      XCTAssertEqual(found.sorted(), expected.sorted(), path)
      for item in items {
        let isSyntax = item["code"] == "bidi.localizationSyntax"
        XCTAssertEqual(item["key"] == nil, isSyntax, "\(path): \(item)")
        XCTAssertNotNil(item["length"]?.intValue)
      }
    }
  }

  // MARK: Encodings

  static let seed = "\"payment\" = \"%@ مدفوعات بدون فوائد من %@\";\n"

  static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
    var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
    for unit in text.utf16 {
      bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    return bytes
  }

  /// A UTF-16 `.strings` file (old Xcode's encoding), either byte order, is
  /// decoded by its BOM, not skipped as binary: the same findings, at the
  /// same lines and UTF-8 columns, as the file in UTF-8.
  func testUTF16StringsFilesAreDecodedByTheirBOM() throws {
    let scratch = try HazardScratch()
    let text = "/* Arabic */\n" + Self.seed + "\"ok\" = \"حسنا\";\n"
    try scratch.write("le/ar.lproj/Localizable.strings", Self.utf16(text, bigEndian: false))
    try scratch.write("be/ar.lproj/Localizable.strings", Self.utf16(text, bigEndian: true))
    try scratch.write("u8/ar.lproj/Localizable.strings", text)
    var outputs: [String] = []
    for folder in ["le", "be", "u8"] {
      let result = try check(["--format", "json", "\(folder)/ar.lproj/Localizable.strings"], in: scratch.url)
      XCTAssertEqual(result.status, 1, folder)
      let json = try JSONValue(decoding: [UInt8](result.output))
      XCTAssertEqual(json["skipped"], [], folder)
      XCTAssertEqual(json["findingCount"], 1, folder)
      let finding = json["findings"]?[0]
      XCTAssertEqual(finding?["code"], "bidi.placeholderDirection", folder)
      XCTAssertEqual(finding?["line"], 2, folder)
      XCTAssertEqual(finding?["column"], 14, folder)
      XCTAssertEqual(finding?["key"], "payment", folder)
      outputs.append(
        parse(try check(["\(folder)/ar.lproj/Localizable.strings"], in: scratch.url)).map {
          "\($0.finding.line):\($0.finding.column) \($0.finding.code) \($0.message)"
        }.joined())
    }
    XCTAssertEqual(Set(outputs).count, 1, "UTF-16LE, UTF-16BE and UTF-8 give the same findings")
    // An unpaired surrogate is invalid text at its place: the syntax error,
    // the value before it still checked.
    var broken = Self.utf16(Self.seed + "\"bad\" = \"", bigEndian: false)
    broken += [0x00, 0xD8] + Array(Self.utf16("\";\n", bigEndian: false).dropFirst(2))
    try scratch.write("bad/ar.lproj/Localizable.strings", broken)
    let result = try check(["bad/ar.lproj/Localizable.strings"], in: scratch.url)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      parse(result).map { "\($0.finding.line):\($0.finding.column) \($0.finding.code)" },
      ["1:14 bidi.placeholderDirection", "2:10 bidi.localizationSyntax"])
    // Named as the file has it, not as the conversion's bytes; an odd last
    // byte likewise.
    XCTAssertEqual(
      parse(result).last?.message,
      "This file stops being readable as an Apple .strings file here: an unpaired UTF-16 surrogate (0xD800)"
        + " is not UTF-16 text. The lines after it are read as plain text")
    try scratch.write("odd/ar.lproj/Localizable.strings", Self.utf16(Self.seed, bigEndian: true) + [0x22])
    let odd = try check(["odd/ar.lproj/Localizable.strings"], in: scratch.url)
    XCTAssertEqual(
      parse(odd).last?.message,
      "This file stops being readable as an Apple .strings file here: an odd last byte (UTF-16 is read two"
        + " bytes at a time) is not UTF-16 text. The lines after it are read as plain text")
  }

  // MARK: Locales

  /// `--locale` forces the locale of every file: `valueDirection` needs an
  /// RTL locale, which the path or contents give, or `--locale`.
  func testLocaleOptionForcesTheLocale() throws {
    let scratch = try HazardScratch()
    let text = "\"available\" = \"iPhone متوفر الآن\";\n"
    try scratch.write("Base.lproj/Localizable.strings", text)
    try scratch.write("ar.lproj/Localizable.strings", text)
    let noLocale = try check(["Base.lproj"], in: scratch.url)
    XCTAssertEqual(noLocale.status, 0, "no locale: the file's locale is not known to be RTL")
    XCTAssertEqual(noLocale.text, "")
    let fromPath = try check(["ar.lproj"], in: scratch.url)
    XCTAssertEqual(fromPath.status, 1)
    XCTAssertEqual(parse(fromPath).map(\.finding.code), ["bidi.valueDirection"])
    for option in [["--locale", "ar"], ["--locale=he-IL"], ["--locale", "fa_IR"]] {
      let forced = try check(option + ["Base.lproj"], in: scratch.url)
      XCTAssertEqual(forced.status, 1, "\(option)")
      XCTAssertEqual(
        parse(forced).map(\.finding),
        [Finding(path: "Base.lproj/Localizable.strings", line: 1, column: 16, code: "bidi.valueDirection")])
    }
    let english = try check(["--locale", "en", "ar.lproj"], in: scratch.url)
    XCTAssertEqual(english.status, 0, "--locale wins over the path")
    // The contents' locale (a .po header) applies without --locale.
    try scratch.write("po/app.po", "msgid \"\"\nmsgstr \"Language: he\\n\"\n\nmsgid \"a\"\nmsgstr \"iPhone זמין\"\n")
    XCTAssertEqual(parse(try check(["po/app.po"], in: scratch.url)).map(\.finding.code), ["bidi.valueDirection"])
    XCTAssertEqual(try check(["--locale", "de", "po/app.po"], in: scratch.url).status, 0)
    for bad in [["--locale", "xx-!!"], ["--locale", "values"], ["--locale"]] {
      let refused = try check(bad + ["ar.lproj"], in: scratch.url)
      XCTAssertEqual(refused.status, 2, "\(bad)")
      XCTAssertTrue(refused.errorOutput.hasPrefix("bidi-lsp check: "), refused.errorOutput)
      XCTAssertEqual(refused.text, "")
    }
  }

  // MARK: Malformed files

  /// A file that stops being its format: one `bidi.localizationSyntax` at
  /// the first error with a message saying what was expected, the values
  /// before it still checked, the lines after it checked as plain lines;
  /// exit 1 (a finding), and 2 only with an I/O error.
  func testMalformedFilesReportTheErrorAndCheckTheValuesBeforeIt() throws {
    let scratch = try HazardScratch()
    let rlo = "\u{202E}"
    let files: [(path: String, text: String, expected: [String])] = [
      (
        "ar.lproj/Localizable.strings", Self.seed + "\"bad\" = \"غير مغلق;\n// \(rlo) after the error\n",
        ["1:14 bidi.placeholderDirection", "2:9 bidi.localizationSyntax", "3:4 bidi.unpaired", "3:4 bidi.override"]
      ),
      (
        "locales/ar/app.json", "{\n  \"pay\": \"%s مدفوعات بدون فوائد من %s\",\n  \"bad\": \"x\n}\n",
        ["2:11 bidi.placeholderDirection", "3:10 bidi.localizationSyntax"]
      ),
      (
        "res/values-ar/strings.xml",
        "<resources>\n<string name=\"pay\">%1$s مدفوعات بدون فوائد من %2$s</string>\n<string name=\"x\">a</strin>\n</resources>\n",
        ["2:20 bidi.placeholderDirection", "3:19 bidi.localizationSyntax"]
      ),
      (
        "he.po", "msgid \"%s paid by %s\"\nmsgstr \"%s שולם על ידי %s\"\n\n\"orphan\"\n",
        ["2:9 bidi.placeholderDirection", "4:1 bidi.localizationSyntax"]
      ),
    ]
    for file in files { try scratch.write(file.path, file.text) }
    for file in files {
      let result = try check([file.path], in: scratch.url)
      XCTAssertEqual(result.status, 1, file.path)
      XCTAssertEqual(result.errorOutput, "", file.path)
      let lines = parse(result)
      XCTAssertEqual(
        lines.map { "\($0.finding.line):\($0.finding.column) \($0.finding.code)" }, file.expected, file.path)
      let syntax = try XCTUnwrap(lines.first { $0.finding.code == "bidi.localizationSyntax" }, file.path)
      XCTAssertTrue(syntax.message.contains("stops being readable as"), syntax.message)
      XCTAssertEqual(syntax.severity, "warning")
    }
    // Invalid UTF-8 is the syntax error at its byte, reported once.
    try scratch.write(
      "fa.lproj/Localizable.strings", Array(Self.seed.utf8) + Array("\"b\" = \"".utf8) + [0xFF, 0x22, 0x3B, 0x0A])
    let invalid = parse(try check(["fa.lproj"], in: scratch.url))
    XCTAssertEqual(
      invalid.map { "\($0.finding.line):\($0.finding.column) \($0.finding.code)" },
      ["1:14 bidi.placeholderDirection", "2:8 bidi.localizationSyntax"])
    XCTAssertTrue(invalid.last?.message.contains("0xFF") ?? false, invalid.last?.message ?? "")
    // With an unreadable path too: the findings, then exit 2.
    let both = try check(["ar.lproj", "no-such.strings"], in: scratch.url)
    XCTAssertEqual(both.status, 2)
    XCTAssertEqual(parse(both).count, 4)
    XCTAssertTrue(both.errorOutput.contains("no-such.strings"), both.errorOutput)
  }

  // MARK: Where each rule applies

  /// Inside a value the value's rules (a balanced isolate is fine, a
  /// control left open is `unpaired` at the value's end); outside values —
  /// comments, metadata — the whole-line rules; a control in a key is
  /// `inIdentifier`, once. Files that are not localization files keep the
  /// plain rules.
  func testControlsInsideAndOutsideValues() throws {
    let scratch = try HazardScratch()
    let (rli, pdi, rlo, pdf) = ("\u{2067}", "\u{2069}", "\u{202E}", "\u{202C}")
    try scratch.write(
      "he.lproj/Localizable.strings",
      "\"a\" = \"\(rli)שלום\(pdi)\"; /* \(pdi) */\n\"b\(rlo)\" = \"שלום\";\n/* \(rlo) */ \"c\" = \"שלום \(rlo)עולם\";\n"
    )
    let lines = parse(try check(["he.lproj"], in: scratch.url))
    XCTAssertEqual(
      lines.map { "\($0.finding.line):\($0.finding.column) \($0.finding.code)" },
      [
        "1:28 bidi.unmatched",  // the PDI of the comment: nothing to close outside the value
        "2:3 bidi.inIdentifier",
        "3:4 bidi.unpaired", "3:4 bidi.override",  // the comment's RLO, by the line rules
        "3:27 bidi.unpaired", "3:27 bidi.override",  // the value's RLO, open at its end
      ])
    // A .json outside locale folders and an .xml outside values folders are
    // not localization files: the line rules on every line, as before.
    try scratch.write("config/settings.json", "{\"a\": \"\(rlo)x\"}\n")
    try scratch.write("layout/main.xml", "<a>\(rlo)\(pdf)</a>\n")
    let plain = parse(try check(["config", "layout"], in: scratch.url))
    XCTAssertEqual(plain.map(\.finding.code), ["bidi.unpaired", "bidi.override", "bidi.override"])
  }

  /// Standard input is a localization file when `--language` names a format.
  func testStandardInputWithALocalizationLanguage() throws {
    let input = Data(Self.seed.utf8)
    let result = try check(["--language", "strings", "-"], input: input)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      parse(result).map(\.finding), [Finding(path: "-", line: 1, column: 14, code: "bidi.placeholderDirection")])
    let asJSON = try check(
      ["--language=arb", "-"], input: Data("{\"@@locale\": \"ar\", \"a\": \"{name} أرسل لك رسالة\"}".utf8))
    XCTAssertEqual(parse(asJSON).map(\.finding.code), ["bidi.placeholderDirection"])
    let plain = try check(["-"], input: input)
    XCTAssertEqual(plain.status, 0, "without --language, standard input is plain text")
  }

  // MARK: CI

  /// The CI step of the README: `check ios/*.lproj res/values-* locales/`
  /// fails on a flip, passes once each value starts with RLM.
  func testCIStepFailsOnAFlipAndPassesOnceFixed() throws {
    let scratch = try HazardScratch()
    let rlm = "\u{200F}"
    func write(fixed: Bool) throws {
      let mark = fixed ? rlm : ""
      try scratch.write("ios/ar.lproj/Localizable.strings", "\"payment\" = \"\(mark)%@ مدفوعات بدون فوائد من %@\";\n")
      try scratch.write("ios/en.lproj/Localizable.strings", "\"payment\" = \"%@ interest-free payments from %@\";\n")
      try scratch.write(
        "res/values-iw/strings.xml",
        "<resources>\n  <string name=\"sent\">\(mark)<xliff:g id=\"n\">%1$s</xliff:g> שלח לך הודעה</string>\n</resources>\n"
      )
      try scratch.write(
        "res/values/strings.xml",
        "<resources>\n  <string name=\"sent\">%1$s sent you a message</string>\n</resources>\n")
      try scratch.write("locales/fa/common.json", "{\n  \"welcome\": {\"title\": \"\(mark){{name}} خوش آمدید\"}\n}\n")
      try scratch.write("locales/en/common.json", "{\n  \"welcome\": {\"title\": \"Welcome {{name}}\"}\n}\n")
    }
    try write(fixed: false)
    let failing = try check(
      ["ios/ar.lproj", "ios/en.lproj", "res/values", "res/values-iw", "locales"], in: scratch.url)
    XCTAssertEqual(failing.status, 1)
    XCTAssertEqual(
      parse(failing).map(\.finding.description),
      [
        "ios/ar.lproj/Localizable.strings:1:14 bidi.placeholderDirection",
        "res/values-iw/strings.xml:2:23 bidi.placeholderDirection",
        "locales/fa/common.json:2:25 bidi.placeholderDirection",
      ])
    try write(fixed: true)
    let passing = try check(["ios", "res", "locales"], in: scratch.url)
    XCTAssertEqual(passing.status, 0, passing.text)
    XCTAssertEqual(passing.text, "")
  }
}
