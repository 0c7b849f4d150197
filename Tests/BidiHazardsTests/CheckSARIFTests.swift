import BidiCommands
import BidiHazards
import Foundation
import UnicodeBidi
import XCTest

/// `bidi-lsp check --format sarif` (contract §9): the log read back by
/// Foundation's JSON parser; regions recounted in code points from the
/// files themselves; fixes applied in code points and compared with the
/// hazard engine's byte edits, or checked again. (The log is validated
/// against the official SARIF 2.1.0 schema by packaging/tests, with the
/// built binary.)
final class CheckSARIFTests: XCTestCase {
  static let localizationCorpus = corpusURL.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("LocalizationTests/Corpus")

  /// The log of `check --format sarif ARGUMENTS`, its exit status and stderr.
  func sarif(_ arguments: [String], in directory: URL? = nil) throws -> (
    log: [String: Any], status: Int32, stderr: String
  ) {
    var out: [UInt8] = []
    var err = ""
    let previous = FileManager.default.currentDirectoryPath
    if let directory { FileManager.default.changeCurrentDirectoryPath(directory.path) }
    defer { FileManager.default.changeCurrentDirectoryPath(previous) }
    let status = runCheck(
      arguments: ["--format", "sarif"] + arguments, output: { out += $0 }, stderr: { err += $0 }, version: "9.8.7")
    let log = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
    return (log, status, err)
  }

  func run(_ log: [String: Any]) throws -> [String: Any] {
    XCTAssertEqual(log["version"] as? String, "2.1.0")
    let runs = try XCTUnwrap(log["runs"] as? [[String: Any]])
    XCTAssertEqual(runs.count, 1)
    return runs[0]
  }

  func results(_ log: [String: Any]) throws -> [[String: Any]] {
    try XCTUnwrap(try run(log)["results"] as? [[String: Any]])
  }

  struct Region: Equatable, CustomStringConvertible {
    var startLine, startColumn, endLine, endColumn: Int
    var description: String { "\(startLine):\(startColumn)-\(endLine):\(endColumn)" }

    init(_ any: Any?) throws {
      let object = try XCTUnwrap(any as? [String: Int])
      startLine = try XCTUnwrap(object["startLine"])
      startColumn = try XCTUnwrap(object["startColumn"])
      endLine = try XCTUnwrap(object["endLine"])
      endColumn = try XCTUnwrap(object["endColumn"])
    }

    init(_ startLine: Int, _ startColumn: Int, _ endLine: Int, _ endColumn: Int) {
      (self.startLine, self.startColumn, self.endLine, self.endColumn) = (startLine, startColumn, endLine, endColumn)
    }
  }

  func location(_ result: [String: Any]) throws -> (uri: String?, region: Region) {
    let locations = try XCTUnwrap(result["locations"] as? [[String: Any]])
    let physical = try XCTUnwrap(locations.first?["physicalLocation"] as? [String: Any])
    let artifact = try XCTUnwrap(physical["artifactLocation"] as? [String: Any])
    return (artifact["uri"] as? String, try Region(physical["region"]))
  }

  /// A file's lines as Unicode scalars, decoded by Foundation (UTF-16 by
  /// its byte order mark, else UTF-8, the UTF-8 BOM dropped), split at LF,
  /// CR LF and CR.
  func lines(of url: URL) throws -> [[Unicode.Scalar]] {
    let data = try Data(contentsOf: url)
    var text: String
    if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
      text = try XCTUnwrap(String(data: data, encoding: .utf16))
    } else {
      text = String(decoding: data, as: UTF8.self)
    }
    if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
    var result: [[Unicode.Scalar]] = [[]]
    var previousCR = false
    for scalar in text.unicodeScalars {
      if scalar == "\n" && previousCR {
        previousCR = false
        continue
      }
      previousCR = scalar == "\r"
      if scalar == "\n" || scalar == "\r" { result.append([]) } else { result[result.count - 1].append(scalar) }
    }
    return result
  }

  // MARK: The log

  func testTheRulesAreEveryCodeOnceAndEveryResultNamesItsRule() throws {
    let paths = [corpusURL.path, Self.localizationCorpus.path]
    let (log, status, stderr) = try sarif(paths)
    XCTAssertEqual(status, 1)
    XCTAssertEqual(stderr, "")
    let run = try run(log)
    let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    XCTAssertEqual(driver["name"] as? String, "bidi-lsp")
    XCTAssertEqual(driver["version"] as? String, "9.8.7")
    XCTAssertEqual(run["columnKind"] as? String, "unicodeCodePoints")
    let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
    let ids = rules.compactMap { $0["id"] as? String }
    XCTAssertEqual(
      ids,
      [
        "bidi.unpaired", "bidi.unmatched", "bidi.override", "bidi.inIdentifier", "bidi.inComment",
        "bidi.inString", "bidi.invalidUtf8", "bidi.placeholderDirection", "bidi.valueDirection",
        "bidi.placeholderMismatch", "bidi.localizationSyntax", "bidi.blockDirection", "bidi.cueDirection",
        "bidi.subtitleSyntax",
      ])
    XCTAssertEqual(ids, RuleCode.allCases.filter { $0 != .truncated }.map(\.rawValue))
    for rule in rules {
      let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
      let code = try XCTUnwrap(RuleCode(rawValue: rule["id"] as? String ?? ""))
      XCTAssertEqual(level, code.defaultSeverity == .error ? "error" : "warning")
      XCTAssertFalse(((rule["fullDescription"] as? [String: Any])?["text"] as? String ?? "").isEmpty)
    }
    // As many results as the JSON output has findings, each with its rule.
    let results = try results(log)
    let json = check(["--format", "json"] + paths)
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
    XCTAssertEqual(results.count, findings.count)
    // The hazard corpus's 92 and the localization manifest's 101 findings
    // (every file of both corpora, the Fluent, Qt, YAML and WebExtension
    // files included; 78 of direction, hazards and syntax, 23
    // bidi.placeholderMismatch: 22 in pairing/, one in the String Catalog).
    XCTAssertEqual(results.count, 193)
    for (result, finding) in zip(results, findings) {
      let ruleId = try XCTUnwrap(result["ruleId"] as? String)
      XCTAssertEqual(ruleId, finding["code"] as? String)
      XCTAssertEqual(ids[try XCTUnwrap(result["ruleIndex"] as? Int)], ruleId)
      let severity = finding["severity"] as? String
      XCTAssertEqual(result["level"] as? String, severity == "error" || severity == "warning" ? severity : "note")
      XCTAssertEqual((result["message"] as? [String: Any])?["text"] as? String, finding["message"] as? String)
      if let key = finding["key"] as? String {
        XCTAssertEqual((result["properties"] as? [String: Any])?["key"] as? String, key)
      }
    }
    let invocations = try XCTUnwrap(run["invocations"] as? [[String: Any]])
    XCTAssertEqual(invocations.first?["executionSuccessful"] as? Bool, true)
    XCTAssertEqual(invocations.first?["exitCode"] as? Int, 1)
  }

  /// Every region of the corpora recounted: the JSON output's byte column
  /// and length turned into code points from the file as Foundation decodes
  /// it (UTF-16 files included).
  func testRegionsCountCodePointsOfTheFiles() throws {
    let paths = [corpusURL.path, Self.localizationCorpus.path]
    let results = try results(try sarif(paths).log)
    let json = check(["--format", "json"] + paths)
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
    var nonASCII = 0
    for (result, finding) in zip(results, findings) {
      let path = try XCTUnwrap(finding["path"] as? String)
      let line = try XCTUnwrap(finding["line"] as? Int) - 1
      let column = try XCTUnwrap(finding["column"] as? Int) - 1
      let length = try XCTUnwrap(finding["length"] as? Int)
      let text = try lines(of: URL(fileURLWithPath: path))
      // The byte column in the line's UTF-8 (its BOM counted, as check does).
      var utf8 = Array(String(String.UnicodeScalarView(text[line])).utf8)
      let file = try Data(contentsOf: URL(fileURLWithPath: path))
      let bom = line == 0 && file.starts(with: [0xEF, 0xBB, 0xBF])
      if bom { utf8 = [0xEF, 0xBB, 0xBF] + utf8 }
      func scalars(_ bytes: ArraySlice<UInt8>) -> Int { String(decoding: bytes, as: UTF8.self).unicodeScalars.count }
      let start = scalars(utf8[..<column]) - (bom ? 1 : 0) + 1
      let end = scalars(utf8[..<min(column + length, utf8.count)]) - (bom ? 1 : 0) + 1
      XCTAssertEqual(try location(result).region, Region(line + 1, start, line + 1, end), "\(path):\(line + 1)")
      if start != column + 1 { nonASCII += 1 }
    }
    XCTAssertGreaterThan(nonASCII, 20, "the corpora have findings after non-ASCII text")
  }

  /// Lines of `SARIFColumns.longLine` bytes or more are counted from
  /// records kept while their findings are written: their regions are the
  /// code points of the text all the same, in two files whose long lines
  /// have the same number (so a record is never taken for another file's
  /// line).
  func testRegionsOnLongLinesCountCodePoints() throws {
    let dir = try temporaryDirectory(self)
    var paths: [String] = []
    for (name, letter) in [("a.txt", "ب"), ("b.txt", "😀")] {
      // One long line each, the first: the second file's findings start on
      // the line the first file's ended on.
      var text = "x"
      for n in 0..<360 { text += String(repeating: letter, count: 20 + n * 7 % 13) + " \u{202E}ab\u{202C} e\u{301} " }
      text += "\nshort \u{2067}\n"
      let url = dir.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      paths.append(url.path)
    }
    let results = try results(try sarif(paths).log)
    XCTAssertGreaterThan(results.count, 700)
    let json = check(["--format", "json"] + paths)
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
    XCTAssertEqual(findings.count, results.count)
    var long = 0
    for (result, finding) in zip(results, findings) {
      let path = try XCTUnwrap(finding["path"] as? String)
      let line = try XCTUnwrap(finding["line"] as? Int) - 1
      let column = try XCTUnwrap(finding["column"] as? Int) - 1
      let length = try XCTUnwrap(finding["length"] as? Int)
      let utf8 = Array(String(String.UnicodeScalarView(try lines(of: URL(fileURLWithPath: path))[line])).utf8)
      func scalars(_ bytes: ArraySlice<UInt8>) -> Int { String(decoding: bytes, as: UTF8.self).unicodeScalars.count }
      let region = Region(line + 1, scalars(utf8[..<column]) + 1, line + 1, scalars(utf8[..<(column + length)]) + 1)
      XCTAssertEqual(try location(result).region, region, "\(path):\(line + 1)")
      if utf8.count >= 4096 { long += 1 }
    }
    XCTAssertGreaterThan(long, 700)
  }

  // MARK: Fixes

  /// Applies SARIF replacements (regions in code points, 1-based) to lines.
  func apply(_ fix: [String: Any], to lines: [[Unicode.Scalar]]) throws -> [[Unicode.Scalar]] {
    let changes = try XCTUnwrap(fix["artifactChanges"] as? [[String: Any]])
    XCTAssertEqual(changes.count, 1)
    let replacements = try XCTUnwrap(changes[0]["replacements"] as? [[String: Any]])
    var edits = try replacements.map { replacement -> (Region, [Unicode.Scalar]) in
      let inserted = (replacement["insertedContent"] as? [String: Any])?["text"] as? String ?? ""
      return (try Region(replacement["deletedRegion"]), Array(inserted.unicodeScalars))
    }
    // From the end backwards; at one place, the later-listed edit first.
    edits = edits.enumerated().sorted { a, b in
      let (ra, rb) = (a.element.0, b.element.0)
      if (ra.startLine, ra.startColumn) != (rb.startLine, rb.startColumn) {
        return (ra.startLine, ra.startColumn) > (rb.startLine, rb.startColumn)
      }
      return a.offset > b.offset
    }.map(\.element)
    var result = lines
    for (region, inserted) in edits {
      XCTAssertEqual(region.startLine, region.endLine)
      let line = region.startLine - 1
      result[line].replaceSubrange((region.startColumn - 1)..<(region.endColumn - 1), with: inserted)
    }
    return result
  }

  /// A Trojan Source line after Arabic text (so that code points and bytes
  /// differ): every fix of every result, applied in code points, gives the
  /// line that the hazard engine's own edits, in bytes, give.
  func testHazardFixesInCodePointsEqualTheEnginesByteEdits() throws {
    let directory = try temporaryDirectory(self)
    let line = "  /* تعليق \u{202E} } \u{2066}if (isAdmin)\u{2069} \u{2066} للمشرفين */ x = \"\u{202B}نص\";"
    let file = directory.appendingPathComponent("access.c")
    try Data(("int a;\n" + line + "\n").utf8).write(to: file)
    let results = try results(try sarif([file.path]).log)
    let diagnostics = HazardScanner(language: .c).scanLine(Array(line.utf8)[...], lineNumber: 1).diagnostics
    XCTAssertEqual(results.map { $0["ruleId"] as? String }, diagnostics.map(\.code.rawValue))
    var fixesChecked = 0
    for (result, diagnostic) in zip(results, diagnostics) {
      let fixes = try XCTUnwrap(result["fixes"] as? [[String: Any]])
      XCTAssertEqual(fixes.count, diagnostic.fixes.count)
      for (fix, expected) in zip(fixes, diagnostic.fixes) {
        XCTAssertEqual((fix["description"] as? [String: Any])?["text"] as? String, expected.title)
        let applied = try apply(fix, to: try lines(of: file))
        let bytes = HazardTextEdit.apply(expected.edits, to: Array(line.utf8))
        XCTAssertEqual(String(String.UnicodeScalarView(applied[1])), String(decoding: bytes, as: UTF8.self))
        fixesChecked += 1
      }
    }
    XCTAssertGreaterThanOrEqual(fixesChecked, 8)
  }

  /// A localization value that flips: each of its fixes, applied in code
  /// points, leaves a file that `check` passes.
  func testLocalizationFixesInCodePointsRemoveTheFinding() throws {
    let directory = try temporaryDirectory(self)
    let file = directory.appendingPathComponent("ar.lproj/Localizable.strings")
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let text = "/* دفع */\n\"payment\" = \"%@ مدفوعات بدون فوائد من %@\";\n"
    for encoding in [String.Encoding.utf8, .utf16] {
      try XCTUnwrap(text.data(using: encoding)).write(to: file)
      let results = try results(try sarif([file.path]).log)
      XCTAssertEqual(results.map { $0["ruleId"] as? String }, ["bidi.placeholderDirection"])
      XCTAssertEqual(try location(results[0]).region, Region(2, 14, 2, 41))
      let fixes = try XCTUnwrap(results[0]["fixes"] as? [[String: Any]])
      XCTAssertEqual(fixes.count, 2)
      for fix in fixes {
        let fixed = try apply(fix, to: try lines(of: file))
        let fixedText = fixed.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
        try XCTUnwrap(fixedText.data(using: encoding)).write(to: file)
        XCTAssertEqual(check([file.path]).stdout, "", "\(fixedText)")
        try XCTUnwrap(text.data(using: encoding)).write(to: file)
      }
    }
  }

  /// Markdown files checked ahead on the `--jobs` threads (`CheckPrefetch`,
  /// two files or more) keep their fixes in SARIF, as one file checked
  /// alone does; text and JSON, which write none, get the same findings.
  func testFilesCheckedAheadKeepTheirFixes() throws {
    let directory = try temporaryDirectory(self)
    var paths: [String] = []
    for name in ["a.md", "b.md", "c.md"] {
      let file = directory.appendingPathComponent(name)
      try "# Apple مرحبا بالعالم والكتاب\n\n- **iPhone** متوفر في جميع المتاجر\n".write(
        to: file, atomically: true, encoding: .utf8)
      paths.append(file.path)
    }
    let alone = try results(try sarif(["--jobs", "1", paths[0]]).log)
    XCTAssertEqual(alone.count, 2)
    let ahead = try results(try sarif(["--jobs", "2"] + paths).log)
    XCTAssertEqual(ahead.count, 3 * alone.count)
    for result in ahead {
      XCTAssertEqual((result["fixes"] as? [[String: Any]])?.count, 1, "\(result)")
    }
    XCTAssertEqual(check(["--jobs", "2"] + paths).stdout, check(["--jobs", "1"] + paths).stdout)
  }

  // MARK: Locations and the invocation

  func testArtifactLocationsAreURIs() throws {
    let directory = try temporaryDirectory(self)
    let name = "a b/ü%#.txt"
    let file = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("x \u{202E}y\n".utf8).write(to: file)
    let relative = try sarif(["./" + name], in: directory)
    XCTAssertEqual(try location(try results(relative.log)[0]).uri, "a%20b/%C3%BC%25%23.txt")
    let base = try XCTUnwrap(try run(relative.log)["originalUriBaseIds"] as? [String: [String: String]])
    let root = try XCTUnwrap(base["%SRCROOT%"]?["uri"])
    XCTAssertTrue(root.hasPrefix("file:///") && root.hasSuffix("/"), root)
    XCTAssertEqual(URL(string: root + "a%20b/%C3%BC%25%23.txt")?.path, file.resolvingSymlinksInPath().path)
    let absolute = try sarif([file.path])
    XCTAssertEqual(try location(try results(absolute.log)[0]).uri, URL(fileURLWithPath: file.path).absoluteString)
  }

  func testInvalidUTF8CountsOneCodePointPerMaximalSubpart() throws {
    let directory = try temporaryDirectory(self)
    let file = directory.appendingPathComponent("bytes.txt")
    // é, F0 9F (a cut 4-byte sequence: one subpart), FF (another), then an
    // RLO: one finding for the invalid bytes, two code points long.
    try Data([0xC3, 0xA9, 0xF0, 0x9F, 0xFF, 0xE2, 0x80, 0xAE, 0x0A]).write(to: file)
    let results = try results(try sarif([file.path]).log)
    XCTAssertEqual(
      try results.map { "\($0["ruleId"] as? String ?? ""):\(try location($0).region)" },
      ["bidi.invalidUtf8:1:2-1:4", "bidi.unpaired:1:4-1:5", "bidi.override:1:4-1:5"])
  }

  func testErrorsAndSkippedFilesAreNotifications() throws {
    let directory = try temporaryDirectory(self)
    let binary = directory.appendingPathComponent("image.bin")
    try Data([0x00, 0xE2, 0x80, 0xAE]).write(to: binary)
    let missing = directory.appendingPathComponent("missing.txt")
    let (log, status, stderr) = try sarif([binary.path, missing.path])
    XCTAssertEqual(status, 2)
    XCTAssertTrue(stderr.contains("missing.txt"), stderr)
    let invocation = try XCTUnwrap((try run(log)["invocations"] as? [[String: Any]])?.first)
    XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)
    XCTAssertEqual(invocation["exitCode"] as? Int, 2)
    let notifications = try XCTUnwrap(invocation["toolExecutionNotifications"] as? [[String: Any]])
    XCTAssertEqual(notifications.map { $0["level"] as? String }, ["error", "note"])
    XCTAssertEqual(try results(log).count, 0)
  }
}
