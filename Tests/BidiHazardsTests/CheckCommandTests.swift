import BidiCommands
import BidiHazards
import Foundation
import XCTest

/// `bidi-lsp check`: output formats, exit codes, directories, odd files.
final class CheckCommandTests: XCTestCase {
  func write(_ bytes: [UInt8], to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  func write(_ marked: String, to url: URL) throws {
    try write(Array(MarkedText(marked).text.utf8), to: url)
  }

  func testHazardCorpusIsFlaggedInTextFormat() throws {
    let hazards = corpusURL.appendingPathComponent("hazards").path
    let result = check([hazards])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr, "")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 92)
    // path:line:column: severity: message [code]
    var found: [String] = []
    for line in lines {
      let parts = line.split(separator: ":", maxSplits: 4).map(String.init)
      XCTAssertEqual(parts.count, 5, line)
      XCTAssertTrue(parts[3] == " error" || parts[3] == " warning", line)
      let code = try XCTUnwrap(parts[4].split(separator: "[").last).dropLast()
      XCTAssertTrue(parts[4].hasSuffix("]"), line)
      let relative = parts[0].replacingOccurrences(of: corpusURL.path + "/", with: "")
      found.append("\(relative):\(parts[1]):\(parts[2]) \(code)")
    }
    XCTAssertEqual(found.sorted(), try CorpusTests.expectedFindings().map(\.description))
    // Files come in sorted order, findings in line order.
    XCTAssertTrue(lines[0].hasPrefix(hazards + "/TextBlock.java:6:33: error: U+202E RIGHT-TO-LEFT OVERRIDE"), lines[0])
    XCTAssertTrue(
      lines.last!.hasPrefix(
        hazards + "/stretched-template.js:10:17: error: U+200E LEFT-TO-RIGHT MARK inside an identifier"))
  }

  func testCleanCorpusPasses() {
    let result = check([corpusURL.appendingPathComponent("clean").path])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(result.stderr, "")
  }

  func testJSONFormat() throws {
    let result = check(["--format", "json", corpusURL.path])
    XCTAssertEqual(result.status, 1)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
    XCTAssertEqual(findings.count, 92)
    XCTAssertEqual(object["findingCount"] as? Int, 92)
    XCTAssertEqual(object["filesChecked"] as? Int, 27)  // 14 + 12 + expected.txt
    XCTAssertEqual(object["skipped"] as? [String], [])
    XCTAssertEqual((object["errors"] as? [Any])?.count, 0)
    let first = findings[0]
    XCTAssertEqual(first["path"] as? String, corpusURL.path + "/hazards/TextBlock.java")
    XCTAssertEqual(first["line"] as? Int, 6)
    XCTAssertEqual(first["column"] as? Int, 33)
    XCTAssertEqual(first["length"] as? Int, 3)
    XCTAssertEqual(first["severity"] as? String, "error")
    XCTAssertEqual(first["code"] as? String, "bidi.inString")
    XCTAssertTrue((first["message"] as? String)?.hasPrefix("U+202E RIGHT-TO-LEFT OVERRIDE") == true)
    let clean = check(["--format=json", corpusURL.appendingPathComponent("clean").path])
    XCTAssertEqual(clean.status, 0)
    let cleanObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as? [String: Any])
    XCTAssertEqual((cleanObject["findings"] as? [Any])?.count, 0)
  }

  func testJSONOutputEscapesControlsAndNonASCII() throws {
    // A file whose name holds quotes, a backslash, U+2028 and an RLO, with a
    // hazard: no control, line separator or bidi control reaches the raw
    // output, and the JSON reads back to the very name.
    let dir = try temporaryDirectory(self)
    let name = "q\"b\\s\u{2028}\u{202E}é\u{1F600}שלום\u{7F}.c"
    let file = dir.appendingPathComponent(name)
    try write("/* ⟦RLI⟧ */", to: file)
    let result = check(["--format", "json", file.path])
    XCTAssertEqual(result.status, 1)
    XCTAssertFalse(
      result.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value > 0x7F }, result.stdout)
    XCTAssertTrue(result.stdout.contains("\\u202E") || result.stdout.contains("\\u202e"), result.stdout)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
    XCTAssertEqual(findings.first?["path"] as? String, file.path)
    XCTAssertEqual(findings.count, 1)
  }

  func testMissingFileIsAnIOErrorButOtherFilesAreStillChecked() throws {
    let dir = try temporaryDirectory(self)
    let file = dir.appendingPathComponent("a.c")
    try write("/* ⟦RLI⟧ */", to: file)
    let missing = dir.appendingPathComponent("missing.c").path
    let result = check([missing, file.path])
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.stderr.contains(missing + ": No such file or directory"), result.stderr)
    XCTAssertEqual(result.stdout.split(separator: "\n").count, 1)
    XCTAssertTrue(result.stdout.hasPrefix(file.path + ":1:4: error: "), result.stdout)
    let json = check(["--format", "json", missing])
    XCTAssertEqual(json.status, 2)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let errors = try XCTUnwrap(object["errors"] as? [[String: String]])
    XCTAssertEqual(errors.first?["path"], missing)
  }

  func testUsageErrors() {
    XCTAssertEqual(check([]).status, 2)
    XCTAssertEqual(check(["--bogus", "x"]).status, 2)
    XCTAssertEqual(check(["--format", "xml", "x"]).status, 2)
    XCTAssertEqual(check(["--format"]).status, 2)
    XCTAssertEqual(check(["--language", "cobol", "x"]).status, 2)
    let usage = check(["--nope"])
    XCTAssertTrue(usage.stderr.contains("unknown option '--nope'"))
    XCTAssertTrue(usage.stderr.contains("usage: bidi-lsp check"))
    let help = check(["--help"])
    XCTAssertEqual(help.status, 0)
    XCTAssertTrue(help.stdout.hasPrefix("usage: bidi-lsp check"))
  }

  func testCleanFileExitsZero() throws {
    let dir = try temporaryDirectory(self)
    let file = dir.appendingPathComponent("ok.py")
    try write("s = 'שלום⟦RLM⟧'  # ⟦LRI⟧ok⟦PDI⟧\n", to: file)
    let result = check([file.path])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stdout, "")
  }

  func testDirectoriesAreWalkedInSortedOrderSkippingVersionControl() throws {
    let dir = try temporaryDirectory(self)
    try write("x ⟦RLI⟧", to: dir.appendingPathComponent("b/z.txt"))
    try write("x ⟦RLI⟧", to: dir.appendingPathComponent("b/a.txt"))
    try write("x ⟦RLI⟧", to: dir.appendingPathComponent("a.txt"))
    try write("x ⟦RLI⟧", to: dir.appendingPathComponent(".git/config"))
    try write("x ⟦RLI⟧", to: dir.appendingPathComponent("sub/.hg/store"))
    try write("x ⟦RLI⟧", to: dir.appendingPathComponent(".hidden.txt"))
    try FileManager.default.createSymbolicLink(
      at: dir.appendingPathComponent("loop"), withDestinationURL: dir)
    try FileManager.default.createSymbolicLink(
      at: dir.appendingPathComponent("link.txt"), withDestinationURL: dir.appendingPathComponent("a.txt"))
    let result = check([dir.path + "/"])
    XCTAssertEqual(result.status, 1)
    let paths = result.stdout.split(separator: "\n").map { String($0.prefix(while: { $0 != ":" })) }
    let root = dir.path + "/"
    XCTAssertEqual(
      paths, [root + ".hidden.txt", root + "a.txt", root + "b/a.txt", root + "b/z.txt", root + "link.txt"])
  }

  func testBinaryFilesAreSkipped() throws {
    let dir = try temporaryDirectory(self)
    var binary = Array(MarkedText("x ⟦RLI⟧\n").text.utf8)
    binary.append(0)
    try write(binary, to: dir.appendingPathComponent("blob.bin"))
    // A NUL after the first 8 KiB does not make a file binary.
    var late = Array(repeating: UInt8(ascii: "a"), count: 9000)
    late += Array(MarkedText("\n⟦RLI⟧\n").text.utf8)
    late.append(0)
    try write(late, to: dir.appendingPathComponent("late.txt"))
    let result = check([dir.path])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stdout.split(separator: "\n").count, 1)
    XCTAssertTrue(result.stdout.hasPrefix(dir.path + "/late.txt:2:1: error:"), result.stdout)
    let json = check(["--format", "json", dir.appendingPathComponent("blob.bin").path])
    XCTAssertEqual(json.status, 0)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(object["skipped"] as? [String], [dir.appendingPathComponent("blob.bin").path])
    XCTAssertEqual(object["filesChecked"] as? Int, 0)
  }

  /// A file that starts with a UTF-16 byte order mark (C# or PowerShell
  /// saved as "Unicode") is not binary: it is checked as its UTF-8
  /// conversion, with the findings, lines and columns of that conversion.
  func testUTF16FilesAreDecodedAndChecked() throws {
    let dir = try temporaryDirectory(self)
    var source = "// header ⟦RLO⟧ comment\nvar s = \"abc ⟦RLI⟧ def\";\n"
    // Past the 8 KiB probe and the read blocks, Arabic and an astral character.
    for k in 0..<4_000 { source += "var v\(k) = \"مرحبا 😀 \(k)\"; // ⟦RLI⟧ x\n" }
    source += "/* ⟦RLO⟧ end */\n"
    let text = MarkedText(source).text
    try write(Array(text.utf8), to: dir.appendingPathComponent("u8.cs"))
    let units = Array(text.utf16)
    let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
    let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    try write(little, to: dir.appendingPathComponent("le.cs"))
    try write(big, to: dir.appendingPathComponent("be.cs"))
    let expected = check([dir.appendingPathComponent("u8.cs").path])
    XCTAssertEqual(expected.status, 1)
    XCTAssertGreaterThan(expected.stdout.split(separator: "\n").count, 4_000)
    for (name, jobs) in [("le.cs", "1"), ("be.cs", "1"), ("le.cs", "2"), ("be.cs", "2")] {
      let result = check(["--jobs", jobs, dir.appendingPathComponent(name).path])
      XCTAssertEqual(result.status, 1, name)
      XCTAssertEqual(result.stdout.replacingOccurrences(of: "/" + name + ":", with: "/u8.cs:"), expected.stdout, name)
    }
    let json = check(["--format", "json", dir.appendingPathComponent("le.cs").path])
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(object["skipped"] as? [String], [])
    XCTAssertEqual(object["filesChecked"] as? Int, 1)
    // An unpaired surrogate is invalid text at its place, named as the
    // file has it (not as the bytes of the conversion); the rest is checked.
    let lone: [UInt16] = Array("a ".utf16) + [0xD800] + Array(" b\n".utf16) + Array(MarkedText("⟦RLI⟧\n").text.utf16)
    let loneBytes: [UInt8] = [0xFF, 0xFE] + lone.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
    try write(loneBytes, to: dir.appendingPathComponent("lone.txt"))
    let lines = check([dir.appendingPathComponent("lone.txt").path]).stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2, "\(lines)")
    XCTAssertTrue(
      lines.first?.hasPrefix(
        dir.path + "/lone.txt:1:3: warning: an unpaired UTF-16 surrogate (0xD800): the text cannot be shown reliably"
      ) == true, "\(lines)")
    XCTAssertTrue(lines.last?.hasPrefix(dir.path + "/lone.txt:2:1: error:") == true, "\(lines)")
  }

  func testUTF16DefectsAreNamedAsTheFileHasThem() throws {
    let dir = try temporaryDirectory(self)
    // Big endian, in C# (the tokenizing scan): a low surrogate alone, two
    // high ones in a row, and an odd last byte.
    let units: [UInt16] = Array("var a = 1; // x ".utf16) + [0xDC01] + Array("\nb ".utf16) + [0xD83D, 0xD83D] + [0x0A]
    let bytes: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] } + [0x41]
    try write(bytes, to: dir.appendingPathComponent("odd.cs"))
    for jobs in ["1", "2"] {
      let result = check(["--jobs", jobs, dir.appendingPathComponent("odd.cs").path])
      XCTAssertEqual(result.status, 1)
      let lines = result.stdout.split(separator: "\n").map { String($0.dropFirst(dir.path.count + 1)) }
      XCTAssertEqual(
        lines,
        [
          "odd.cs:1:17: warning: an unpaired UTF-16 surrogate (0xDC01): the text cannot be shown reliably [bidi.invalidUtf8]",
          "odd.cs:2:3: warning: unpaired UTF-16 surrogates (0xD83D 0xD83D): the text cannot be shown reliably [bidi.invalidUtf8]",
          "odd.cs:3:1: warning: an odd last byte (UTF-16 is read two bytes at a time): the text cannot be shown reliably [bidi.invalidUtf8]",
        ], jobs)
    }
    // The same bytes in a UTF-8 file are bytes that are not UTF-8.
    try write(Array("x ".utf8) + [0xED, 0xA0, 0x80, 0xFF], to: dir.appendingPathComponent("u8.txt"))
    XCTAssertTrue(
      check([dir.appendingPathComponent("u8.txt").path]).stdout.contains(
        "1:3: warning: invalid UTF-8 (bytes 0xED 0xA0 0x80 0xFF)"))
  }

  func testInvalidUTF8IsAFindingAndTheRestIsChecked() throws {
    let dir = try temporaryDirectory(self)
    var bytes = Array("ok\nbad ".utf8) + [0xC3, 0x28] + Array(" here\n".utf8)
    bytes += Array(MarkedText("/* ⟦RLI⟧ */\n").text.utf8)
    try write(bytes, to: dir.appendingPathComponent("mixed.c"))
    let result = check([dir.appendingPathComponent("mixed.c").path])
    XCTAssertEqual(result.status, 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2)
    XCTAssertTrue(lines[0].hasPrefix(dir.path + "/mixed.c:2:5: warning: invalid UTF-8 (bytes 0xC3)"), lines[0])
    XCTAssertTrue(lines[0].hasSuffix("[bidi.invalidUtf8]"))
    XCTAssertTrue(lines[1].hasPrefix(dir.path + "/mixed.c:3:4: error: "), lines[1])
    XCTAssertTrue(lines[1].hasSuffix("[bidi.inComment]"))
    // Invalid UTF-8 alone counts as a finding.
    try write([0x80], to: dir.appendingPathComponent("only.txt"))
    XCTAssertEqual(check([dir.appendingPathComponent("only.txt").path]).status, 1)
  }

  func testLargeFilesAreStreamedWithLinesAcrossChunkBoundaries() throws {
    let dir = try temporaryDirectory(self)
    var bytes: [UInt8] = []
    // Put a CR LF exactly across a read boundary (1 MiB: the reads of a
    // line longer than a block double, ending at multiples of the block).
    let filler = Array(repeating: UInt8(ascii: "a"), count: (1 << 20) - 1)
    bytes += filler + [0x0D, 0x0A]  // line 1
    var lineCount = 1
    while bytes.count < 3_000_000 {
      bytes += Array("line with text שלום \u{2067}ok\u{2069}\r\n".utf8)
      lineCount += 1
    }
    bytes += Array(repeating: UInt8(ascii: "b"), count: 200_000)  // a line longer than a chunk
    bytes += Array("\u{2067}\r".utf8)  // lone CR ends it
    lineCount += 1
    bytes += Array("tail \u{2069}".utf8)
    lineCount += 1
    try write(bytes, to: dir.appendingPathComponent("big.txt"))
    let result = check([dir.appendingPathComponent("big.txt").path])
    XCTAssertEqual(result.status, 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2)
    XCTAssertTrue(lines[0].hasPrefix(dir.path + "/big.txt:\(lineCount - 1):200001: error:"), lines[0])
    XCTAssertTrue(lines[1].hasPrefix(dir.path + "/big.txt:\(lineCount):6: warning:"), lines[1])
  }

  func testLanguageComesFromNameShebangOrOption() throws {
    let dir = try temporaryDirectory(self)
    try write("#!/bin/sh\necho hi # ⟦RLI⟧\n", to: dir.appendingPathComponent("script"))
    let shebang = check([dir.appendingPathComponent("script").path])
    XCTAssertTrue(shebang.stdout.hasSuffix("[bidi.inComment]\n"), shebang.stdout)
    let plain = check(["--language", "plaintext", dir.appendingPathComponent("script").path])
    XCTAssertTrue(plain.stdout.hasSuffix("[bidi.unpaired]\n"), plain.stdout)
    let forced = check(["--language=python", dir.appendingPathComponent("script").path])
    XCTAssertTrue(forced.stdout.hasSuffix("[bidi.inComment]\n"), forced.stdout)
  }

  func testRendererAddsVisualOrderToCheckMessages() throws {
    let dir = try temporaryDirectory(self)
    try write("x ⟦RLI⟧ab", to: dir.appendingPathComponent("r.txt"))
    var out = ""
    let status = runCheck(
      arguments: [dir.path], stdout: { out += $0 }, stderr: { _ in }, renderer: { _ in "ba x" })
    XCTAssertEqual(status, 1)
    XCTAssertTrue(out.hasSuffix("The line displays as: \u{201C}ba x\u{201D} [bidi.unpaired]\n"), out)
  }

  func testCheckQuotesNoLineOfOnlyUnmatchedClosers() throws {
    // As the daemon's messages: the same lines quoted, in each format.
    let dir = try temporaryDirectory(self)
    try write("a \u{2069} b\nc \u{202C} d \u{2067}e\n", to: dir.appendingPathComponent("u.txt"))
    for format in ["text", "json"] {
      var out = ""
      _ = runCheck(
        arguments: ["--format", format, dir.path], stdout: { out += $0 }, stderr: { _ in },
        renderer: { _ in "VISUAL" })
      XCTAssertEqual(out.components(separatedBy: "bidi.unmatched").count - 1, 2, out)
      XCTAssertEqual(out.components(separatedBy: "The line displays as").count - 1, 2, out)
      // Line 1's PDI alone is not quoted; line 2's PDF and RLI both are.
      let first = try XCTUnwrap(out.range(of: "has no isolate to close"))
      XCTAssertFalse(out[first.upperBound...].prefix(30).contains("displays"), out)
    }
  }

  func testControlsInPathsAreShownEscapedInText() throws {
    let dir = try temporaryDirectory(self)
    let name = "evil\u{202E}txt.c"
    try write("x ⟦RLI⟧", to: dir.appendingPathComponent(name))
    let result = check([dir.path])
    XCTAssertTrue(result.stdout.hasPrefix(dir.path + "/evil\\u{202E}txt.c:1:3: "), result.stdout)
  }
}
