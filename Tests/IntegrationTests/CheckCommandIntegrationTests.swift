import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// `bidi-lsp check` as a user runs it (specification, “The command line”): the corpus against its
/// manifest, the text and JSON formats, exit codes, invalid UTF-8, binary
/// files, directory walks, standard input and streaming.
final class CheckCommandIntegrationTests: XCTestCase {
  /// One line of text output: `path:line:column: severity: message [code]`.
  struct Line: Hashable, CustomStringConvertible {
    var path: String
    var line: Int
    var column: Int
    var severity: String
    var message: String
    var code: String
    var description: String { "\(path):\(line):\(column): \(severity): \(message) [\(code)]" }
    var finding: HazardCorpus.Finding { HazardCorpus.Finding(path: path, line: line, column: column, code: code) }
  }

  /// Parses text output; a line that does not have the form fails the test.
  func parse(_ result: HazardCommand.Result, file: StaticString = #filePath, line number: UInt = #line) -> [Line] {
    result.lines.compactMap { text in
      let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
      guard parts.count == 4, let line = Int(parts[1]), let column = Int(parts[2]), parts[3].hasPrefix(" "),
        let severityEnd = parts[3].range(of: ": "), let codeStart = parts[3].range(of: " [", options: .backwards),
        parts[3].hasSuffix("]")
      else {
        XCTFail("not path:line:column: severity: message [code]: \(text)", file: file, line: number)
        return nil
      }
      let rest = parts[3]
      return Line(
        path: String(parts[0]), line: line, column: column,
        severity: String(rest[rest.index(after: rest.startIndex)..<severityEnd.lowerBound]),
        message: String(rest[severityEnd.upperBound..<codeStart.lowerBound]),
        code: String(rest[codeStart.upperBound..<rest.index(before: rest.endIndex)]))
    }
  }

  func check(_ arguments: [String], input: Data = Data(), in directory: URL? = HazardCorpus.root) throws
    -> HazardCommand.Result
  {
    try HazardCommand.run(["check"] + arguments, input: input, in: directory)
  }

  static func severityName(_ code: String) -> String {
    HazardCorpus.defaultSeverity(code) == 1 ? "error" : "warning"
  }

  // MARK: The corpus

  func testHazardCorpusGivesExactlyTheManifest() throws {
    let result = try check(["hazards"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.errorOutput, "")
    let lines = parse(result)
    let expected = try HazardCorpus.expected()
    XCTAssertEqual(lines.count, HazardCorpus.findingCount)
    XCTAssertEqual(lines.map(\.finding).sorted(), expected)
    for line in lines {
      XCTAssertEqual(line.severity, Self.severityName(line.code), "\(line)")
      XCTAssertTrue(line.message.hasPrefix("U+"), "\(line)")
    }
    // Files in sorted order (bytes), findings in file order; an override
    // that is also unpaired, in a comment, string or identifier is listed
    // right after that other finding of the same character.
    let keys = lines.map {
      [Array($0.path.utf8).map(Int.init), [$0.line, $0.column, $0.code == "bidi.override" ? 1 : 0]]
    }
    XCTAssertTrue(
      zip(keys, keys.dropFirst()).allSatisfy { a, b in
        a[0] != b[0] ? a[0].lexicographicallyPrecedes(b[0]) : a[1].lexicographicallyPrecedes(b[1])
      }, "output order")
  }

  func testEveryHazardFileIsFlaggedAndNoCleanFileIs() throws {
    var flagged = 0
    for path in try HazardCorpus.files("hazards") {
      let result = try check([path])
      XCTAssertEqual(result.status, 1, path)
      XCTAssertEqual(
        Set(parse(result).map(\.finding)), Set(try HazardCorpus.expected().filter { $0.path == path }), path)
      flagged += 1
    }
    var clean = 0
    for path in try HazardCorpus.files("clean") {
      let result = try check([path])
      XCTAssertEqual(result.status, 0, path)
      XCTAssertEqual(result.text, "", path)
      clean += 1
    }
    XCTAssertEqual(flagged, HazardCorpus.hazardFileCount)
    XCTAssertEqual(clean, HazardCorpus.cleanFileCount)
  }

  func testCleanDirectoryExitsZeroWithoutOutput() throws {
    let result = try check(["clean"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.text, "")
    XCTAssertEqual(result.errorOutput, "")
  }

  func testDirectoriesAndFilesTogether() throws {
    let both = try check(["hazards", "clean"])
    XCTAssertEqual(both.status, 1)
    XCTAssertEqual(parse(both).map(\.finding).sorted(), try HazardCorpus.expected())
    let files = try check(try HazardCorpus.allFiles())
    XCTAssertEqual(files.status, 1)
    XCTAssertEqual(files.text, both.text)
    // The whole corpus folder, by absolute path (expected.txt included).
    let root = HazardCorpus.root.path
    let whole = try check([root], in: nil)
    XCTAssertEqual(whole.status, 1)
    let relative = parse(whole).map { line -> HazardCorpus.Finding in
      var finding = line.finding
      XCTAssertTrue(finding.path.hasPrefix(root + "/"), finding.path)
      finding.path = String(finding.path.dropFirst(root.count + 1))
      return finding
    }
    XCTAssertEqual(relative.sorted(), try HazardCorpus.expected())
  }

  func testJSONFormatHasTheSameFindings() throws {
    let text = try check(["hazards", "clean"])
    let result = try check(["--format", "json", "hazards", "clean"])
    XCTAssertEqual(result.status, 1)
    let json = try JSONValue(decoding: [UInt8](result.output))
    XCTAssertEqual(json["findingCount"], JSONValue(HazardCorpus.findingCount))
    XCTAssertEqual(json["filesChecked"], JSONValue(HazardCorpus.hazardFileCount + HazardCorpus.cleanFileCount))
    XCTAssertEqual(json["skipped"], [])
    XCTAssertEqual(json["errors"], [])
    let findings = json["findings"]?.arrayValue ?? []
    XCTAssertEqual(findings.count, HazardCorpus.findingCount)
    var lines: [Line] = []
    for finding in findings {
      let line = Line(
        path: finding["path"]?.stringValue ?? "", line: finding["line"]?.intValue ?? 0,
        column: finding["column"]?.intValue ?? 0,
        severity: finding["severity"]?.stringValue ?? "", message: finding["message"]?.stringValue ?? "",
        code: finding["code"]?.stringValue ?? "")
      lines.append(line)
      let source = TestText(try HazardCorpus.text(line.path))
      let scalar = source.scalar(line: line.line - 1, utf8Offset: line.column - 1)
      XCTAssertEqual(finding["length"]?.intValue, scalar.map { UTF8.width($0) }, "\(line)")
    }
    XCTAssertEqual(lines, parse(text), "JSON and text list the same findings, in the same order")
    // No finding: still a JSON document; an I/O error is listed.
    let clean = try check(["--format", "json", "clean"])
    XCTAssertEqual(clean.status, 0)
    let cleanJSON = try JSONValue(decoding: [UInt8](clean.output))
    XCTAssertEqual(cleanJSON["findings"], [])
    XCTAssertEqual(cleanJSON["findingCount"], 0)
    XCTAssertEqual(cleanJSON["filesChecked"], JSONValue(HazardCorpus.cleanFileCount))
    let missing = try check(["--format", "json", "no-such-file", "hazards/notes.txt"])
    XCTAssertEqual(missing.status, 2)
    let missingJSON = try JSONValue(decoding: [UInt8](missing.output))
    XCTAssertEqual(missingJSON["errors"]?[0]?["path"], "no-such-file")
    XCTAssertEqual(missingJSON["findingCount"], 9)
  }

  func testCheckAgreesWithTheDaemon() throws {
    // The daemon (in UTF-8 positions) and `check` give the same findings
    // with the same messages.
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    var compared = 0
    for path in try HazardCorpus.files("hazards") {
      let fromCheck = parse(try check([path])).map { "\($0.line):\($0.column) \($0.severity) \($0.code) \($0.message)" }
      let diagnostics = try session.openAndDiagnose(
        "file:///corpus/\(path)", languageId: HazardCorpus.languageId(path), text: try HazardCorpus.text(path))
      let fromDaemon = diagnostics.map { d in
        let severity = d["severity"] == 1 ? "error" : "warning"
        return
          "\(d.startLine + 1):\(d.startCharacter + 1) \(severity) \(d.diagnosticCode) \(d["message"]?.stringValue ?? "")"
      }
      XCTAssertEqual(fromCheck, fromDaemon, path)
      compared += fromCheck.count
    }
    XCTAssertEqual(compared, HazardCorpus.findingCount)
  }

  func testCRLFAndCRLineEndsGiveTheSameFindings() throws {
    let scratch = try HazardScratch()
    for path in try HazardCorpus.allFiles() {
      let text = try HazardCorpus.text(path)
      try scratch.write("crlf/\(path)", text.replacingOccurrences(of: "\n", with: "\r\n"))
      try scratch.write("cr/\(path)", text.replacingOccurrences(of: "\n", with: "\r"))
    }
    for ending in ["crlf", "cr"] {
      let result = try check(["hazards", "clean"], in: scratch.url.appendingPathComponent(ending))
      XCTAssertEqual(result.status, 1, ending)
      XCTAssertEqual(parse(result).map(\.finding).sorted(), try HazardCorpus.expected(), ending)
    }
  }

  // MARK: Formats and special files

  func testColumnsCountUTF8BytesFromOne() throws {
    let scratch = try HazardScratch()
    let prefix = "\u{5E9}\u{5DC}\u{5D5}\u{5DD} 😀 "
    try scratch.write("columns.txt", "first line\n\(prefix)\u{202E}x\n")
    let lines = parse(try check(["columns.txt"], in: scratch.url))
    // The RLO is unpaired and an override: two findings of one character.
    XCTAssertEqual(lines.map(\.code), ["bidi.unpaired", "bidi.override"])
    XCTAssertEqual(lines.map(\.line), [2, 2])
    XCTAssertEqual(lines.map(\.column), [prefix.utf8.count + 1, prefix.utf8.count + 1])
    XCTAssertEqual(lines.first?.column, 15)
  }

  func testInvalidUTF8IsReportedAndTheRestIsStillChecked() throws {
    let scratch = try HazardScratch()
    let bytes = Array("ok\n".utf8) + [0xFF, 0xFE] + Array(" bad \u{202E} x\nnext \u{2069}\n".utf8)
    try scratch.write("invalid.txt", bytes)
    let result = try check(["invalid.txt"], in: scratch.url)
    XCTAssertEqual(result.status, 1)
    let lines = parse(result)
    XCTAssertEqual(
      lines.map { "\($0.line):\($0.column) \($0.severity) \($0.code)" },
      [
        "2:1 warning bidi.invalidUtf8", "2:8 error bidi.unpaired", "2:8 warning bidi.override",
        "3:6 warning bidi.unmatched",
      ])
    XCTAssertTrue(lines.first?.message.contains("0xFF 0xFE") ?? false, "\(lines)")
    let json = try JSONValue(decoding: [UInt8](try check(["--format", "json", "invalid.txt"], in: scratch.url).output))
    XCTAssertEqual(json["findings"]?[0]?["length"], 2)
    // Invalid bytes alone count as a finding.
    try scratch.write("only-invalid.txt", [0x61, 0xC3, 0x28, 0x0A])
    let alone = try check(["only-invalid.txt"], in: scratch.url)
    XCTAssertEqual(alone.status, 1)
    XCTAssertEqual(parse(alone).map(\.code), ["bidi.invalidUtf8"])
  }

  func testBinaryFilesAreSkipped() throws {
    let scratch = try HazardScratch()
    try scratch.write("dir/binary.dat", Array("x".utf8) + [0] + Array("\u{202E}\n".utf8))
    let result = try check(["dir"], in: scratch.url)
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.text, "")
    let json = try JSONValue(decoding: [UInt8](try check(["--format", "json", "dir"], in: scratch.url).output))
    XCTAssertEqual(json["skipped"], ["dir/binary.dat"])
    XCTAssertEqual(json["filesChecked"], 0)
    // A NUL after the first 8 KiB does not make a file binary.
    let late = [UInt8](repeating: 0x61, count: 9000) + [0x0A, 0x00, 0x0A] + Array("\u{202E}\n".utf8)
    try scratch.write("late-nul.txt", late)
    let checked = try check(["late-nul.txt"], in: scratch.url)
    XCTAssertEqual(checked.status, 1)
    XCTAssertEqual(
      parse(checked).map { "\($0.line):\($0.column) \($0.code)" }, ["3:1 bidi.unpaired", "3:1 bidi.override"])
  }

  func testMissingFilesAndUsageErrorsExitTwo() throws {
    let missing = try check(["no-such-file.c"])
    XCTAssertEqual(missing.status, 2)
    XCTAssertEqual(missing.text, "")
    XCTAssertTrue(missing.errorOutput.contains("no-such-file.c"), missing.errorOutput)
    // The files that exist are still checked; the status says an I/O error.
    let mixed = try check(["hazards/notes.txt", "no-such-file.c"])
    XCTAssertEqual(mixed.status, 2)
    XCTAssertEqual(parse(mixed).count, 9)
    for arguments in [
      [], ["--bogus", "clean"], ["--format", "xml", "clean"], ["--format"], ["--language", "klingon", "clean"],
    ] {
      let result = try check(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertEqual(result.text, "", "\(arguments)")
      XCTAssertTrue(result.errorOutput.contains("usage: bidi-lsp check"), "\(arguments): \(result.errorOutput)")
    }
  }

  func testDirectoriesAreWalkedRecursivelyInSortedOrder() throws {
    let scratch = try HazardScratch()
    for path in [
      "tree/b/c/z.txt", "tree/a/w.txt", "tree/A.txt", "tree/a/b/deep/x.c", "tree/a b.txt", "tree/.git/hidden.txt",
    ] {
      try scratch.write(path, "x \u{2069}\n")
    }
    try scratch.write("tree/a/clean.txt", "\u{5E9}\u{5DC}\u{5D5}\u{5DD}\n")
    let result = try check(["tree"], in: scratch.url)
    XCTAssertEqual(result.status, 1)
    // Depth first, each folder's entries sorted by their bytes (so folder
    // `a` and its contents come before `a b.txt`); `.git` is skipped.
    XCTAssertEqual(
      parse(result).map(\.path), ["tree/A.txt", "tree/a/b/deep/x.c", "tree/a/w.txt", "tree/a b.txt", "tree/b/c/z.txt"])
    // A trailing slash gives the same paths.
    XCTAssertEqual(parse(try check(["tree/"], in: scratch.url)).map(\.path), parse(result).map(\.path))
  }

  func testStandardInput() throws {
    let plain = try check(["-"], input: Data("x \u{202E}\n".utf8))
    XCTAssertEqual(plain.status, 1)
    XCTAssertEqual(
      parse(plain).map { "\($0.path):\($0.line):\($0.column) \($0.code)" },
      ["-:1:3 bidi.unpaired", "-:1:3 bidi.override"])
    // With a language, comments are told apart.
    let c = try check(["--language", "c", "-"], input: Data("int a; /* \u{202E} */\n".utf8))
    XCTAssertEqual(parse(c).map(\.code), ["bidi.inComment", "bidi.override"])
    let clean = try check(["-"], input: Data("\u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{2066}abc\u{2069}\n".utf8))
    XCTAssertEqual(clean.status, 0)
    XCTAssertEqual(clean.text, "")
  }

  func testLargeFilesAcrossReadChunks() throws {
    // The checker reads 64 KiB at a time: a CR LF, a control, and a UTF-8
    // sequence split between two reads must not matter.
    let chunk = 65_536
    let scratch = try HazardScratch()
    let rlo = Array("\u{202E}".utf8)
    // An unclosed RLO is two findings at one place.
    func unclosedRLO(_ place: String) -> [String] { ["\(place) bidi.unpaired", "\(place) bidi.override"] }
    let cases: [(String, [UInt8], [String])] = [
      (
        "crlf-split.txt", [UInt8](repeating: 0x61, count: chunk - 1) + [0x0D, 0x0A] + Array("x ".utf8) + rlo + [0x0A],
        unclosedRLO("2:3")
      ),
      ("control-split.txt", [UInt8](repeating: 0x61, count: chunk - 1) + rlo + [0x0A], unclosedRLO("1:\(chunk)")),
      (
        "letter-split.txt", [UInt8](repeating: 0x61, count: chunk - 1) + Array("\u{5D0}\n".utf8) + rlo,
        unclosedRLO("2:1")
      ),
      (
        "many-lines.txt",
        Array(String(repeating: String(repeating: "b", count: 99) + "\n", count: 3000).utf8)
          + Array("\u{5D0} \u{2069} end".utf8), ["3001:4 bidi.unmatched"]
      ),
    ]
    for (name, bytes, expected) in cases {
      try scratch.write(name, bytes)
      let result = try check([name], in: scratch.url)
      XCTAssertEqual(result.status, 1, name)
      XCTAssertEqual(parse(result).map { "\($0.line):\($0.column) \($0.code)" }, expected, name)
    }
  }

  func testBidiControlsInPathsAreEscapedInTextAndKeptInJSON() throws {
    let scratch = try HazardScratch()
    try scratch.write("dir/evil\u{202E}txt.c", "x \u{2069}\n")
    let text = try check(["dir"], in: scratch.url)
    XCTAssertEqual(parse(text).map(\.path), ["dir/evil\\u{202E}txt.c"])
    let json = try JSONValue(decoding: [UInt8](try check(["--format", "json", "dir"], in: scratch.url).output))
    XCTAssertEqual(json["findings"]?[0]?["path"], "dir/evil\u{202E}txt.c")
  }

  func testReportLinesHoldNoBidiControls() throws {
    // `check` escapes bidi controls in paths so that they cannot reorder the
    // report itself, and the visual order quoted in each message names the
    // controls it keeps (`<RLI>`) instead of holding them: an unclosed RLI
    // there would display the rest of the report line right to left.
    let lines = try check(["hazards"]).lines
    XCTAssertEqual(lines.count, HazardCorpus.findingCount)
    let live = lines.filter { $0.unicodeScalars.contains(where: TestControls.isControl) }
    XCTAssertEqual(
      live.count, 0,
      "\(live.count) of \(lines.count) report lines hold bidi controls, e.g. \(live.first.map { $0.unicodeScalars.map { TestControls.isControl($0) ? "<U+\(String($0.value, radix: 16, uppercase: true))>" : String($0) }.joined() } ?? "")"
    )
  }
}
