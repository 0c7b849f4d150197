import BidiTestSupport
import Foundation
import JSONRPC
import UnicodeBidi
import XCTest

/// `textDocument/publishDiagnostics` (specification, "textDocument/publishDiagnostics"):
/// the hazard corpus against its manifest in each position encoding,
/// versions and full sets after edits, bursts, didClose, and the
/// `diagnostics` settings.
final class HazardDiagnosticsTests: XCTestCase {
  typealias Finding = HazardCorpus.Finding

  // MARK: The corpus

  func testCorpusManifestCountsAndPositions() throws {
    let hazards = try HazardCorpus.files("hazards")
    let clean = try HazardCorpus.files("clean")
    let expected = try HazardCorpus.expected()
    XCTAssertEqual(hazards.count, HazardCorpus.hazardFileCount)
    XCTAssertEqual(clean.count, HazardCorpus.cleanFileCount)
    XCTAssertEqual(expected.count, HazardCorpus.findingCount)
    XCTAssertEqual(Set(expected.map(\.path)), Set(hazards), "every hazard file has findings")
    // Every manifest position is a bidi control.
    for finding in expected {
      let text = TestText(try HazardCorpus.text(finding.path))
      let scalar = text.scalar(line: finding.line - 1, utf8Offset: finding.column - 1)
      XCTAssertTrue(scalar.map(TestControls.isControl) ?? false, "\(finding) is not at a bidi control")
    }
  }

  func testCorpusDiagnosticsInUTF16() throws {
    try checkCorpus(encoding: .utf16, languageIds: true)
  }

  func testCorpusDiagnosticsInUTF8() throws {
    try checkCorpus(encoding: .utf8, languageIds: true)
  }

  func testCorpusDiagnosticsInUTF32() throws {
    try checkCorpus(encoding: .utf32, languageIds: true)
  }

  func testCorpusWithPlaintextLanguageIdFallsBackToTheExtension() throws {
    // languageId "plaintext" is unknown as a source language: the daemon
    // takes the language from the URI's file extension.
    try checkCorpus(encoding: .utf16, languageIds: false)
  }

  /// Opens every corpus file and compares the diagnostics with the manifest:
  /// code, start and end (the control itself) in `encoding`, default
  /// severity, source; clean files get an empty set.
  func checkCorpus(encoding: PositionEncoding, languageIds: Bool) throws {
    let session = try TestSession(.bidiLSP, encoding: encoding)
    XCTAssertEqual(session.encoding, encoding)
    var found: [Finding] = []
    var publishes = 0
    var cleanDiagnostics = 0
    for path in try HazardCorpus.allFiles() {
      let source = try HazardCorpus.text(path)
      let text = TestText(source)
      let uri = "file:///corpus/\(path)"
      let languageId = languageIds ? HazardCorpus.languageId(path) : "plaintext"
      try session.open(uri, languageId: languageId, text: source, version: 7)
      let params = try session.publish(uri)
      publishes += 1
      XCTAssertEqual(params["version"], 7, path)
      let diagnostics = params["diagnostics"]?.arrayValue ?? []
      if path.hasPrefix("clean/") {
        XCTAssertEqual(diagnostics, [], path)
        cleanDiagnostics += diagnostics.count
        continue
      }
      for diagnostic in diagnostics {
        let line = diagnostic.startLine
        let character = diagnostic.startCharacter
        guard line >= 0, line < text.lineCount else {
          XCTFail("\(path): diagnostic on a line that does not exist: \(diagnostic)")
          continue
        }
        let column = text.utf8Offset(line: line, character: character, in: encoding) + 1
        let code = diagnostic.diagnosticCode
        found.append(Finding(path: path, line: line + 1, column: column, code: code))
        // The range is exactly the control: one character, on one line.
        guard let scalar = text.scalar(line: line, character: character, in: encoding) else {
          XCTFail("\(path):\(line + 1): no character at \(character)")
          continue
        }
        XCTAssertTrue(TestControls.isControl(scalar), "\(path):\(line + 1):\(column) \(code)")
        XCTAssertEqual(diagnostic["range"]?["end"]?["line"]?.intValue, line, "\(path):\(line + 1)")
        XCTAssertEqual(
          diagnostic["range"]?["end"]?["character"]?.intValue, character + encoding.units(of: scalar),
          "\(path):\(line + 1):\(column) range end")
        XCTAssertEqual(diagnostic["severity"]?.intValue, HazardCorpus.defaultSeverity(code), "\(path) \(code)")
        XCTAssertEqual(diagnostic["source"], "bidi-lsp")
      }
    }
    let expected = try HazardCorpus.expected()
    XCTAssertEqual(publishes, HazardCorpus.hazardFileCount + HazardCorpus.cleanFileCount)
    XCTAssertEqual(cleanDiagnostics, 0)
    XCTAssertEqual(Set(expected).subtracting(found).sorted(), [], "expected but not published")
    XCTAssertEqual(Set(found).subtracting(expected).sorted(), [], "published but not expected")
    XCTAssertEqual(found.count, HazardCorpus.findingCount, "no duplicates")
  }

  func testLanguageIdWinsOverTheExtensionAndUnknownIdsFallBackToIt() throws {
    let session = try TestSession(.bidiLSP)
    let path = "hazards/early-return.py"
    let source = try HazardCorpus.text(path)
    let expected = try HazardCorpus.expected().filter { $0.path == path }
    XCTAssertEqual(expected.count, 5)
    func findings(_ diagnostics: [JSONValue]) -> [String] {
      let text = TestText(source)
      return diagnostics.map { d in
        let column = text.utf8Offset(line: d.startLine, character: d.startCharacter, in: .utf16) + 1
        return "\(d.startLine + 1):\(column) \(d.diagnosticCode)"
      }.sorted()
    }
    let manifest = expected.map { "\($0.line):\($0.column) \($0.code)" }.sorted()
    // languageId python on a .txt URI: Python rules.
    XCTAssertEqual(
      findings(try session.openAndDiagnose("file:///a/early-return.txt", languageId: "python", text: source)), manifest)
    // An unknown languageId on a .py URI: the extension decides.
    XCTAssertEqual(
      findings(try session.openAndDiagnose("file:///b/early-return.py", languageId: "cobol", text: source)), manifest)
    // Neither: whole-line rules only (no comment, string or identifier codes).
    let plain = try session.openAndDiagnose("untitled:early-return", languageId: "plaintext", text: source)
    XCTAssertFalse(plain.isEmpty)
    XCTAssertNotEqual(findings(plain), manifest)
    for diagnostic in plain {
      XCTAssertTrue(
        ["bidi.unpaired", "bidi.unmatched", "bidi.override"].contains(diagnostic.diagnosticCode), "\(diagnostic)")
    }
  }

  func testMessagesNameTheCodePointAndTheVisualOrder() throws {
    let session = try TestSession(.bidiLSP)
    var checked = 0
    var unquoted = 0
    for path in try HazardCorpus.files("hazards") {
      let source = try HazardCorpus.text(path)
      let text = TestText(source)
      let uri = "file:///corpus/\(path)"
      let diagnostics = try session.openAndDiagnose(uri, languageId: HazardCorpus.languageId(path), text: source)
      // A line whose findings are all unmatched closers is not quoted
      // (they change no level); any other finding quotes it in each.
      let quotedLines = Set(diagnostics.filter { $0.diagnosticCode != "bidi.unmatched" }.map(\.startLine))
      for diagnostic in diagnostics {
        let line = diagnostic.startLine
        let message = diagnostic["message"]?.stringValue ?? ""
        guard let scalar = text.scalar(line: line, character: diagnostic.startCharacter, in: .utf16),
          let name = TestControls.displayName(scalar)
        else {
          XCTFail("\(path): no control under \(diagnostic)")
          continue
        }
        XCTAssertTrue(message.hasPrefix(name), "\(path):\(line + 1): \(message)")
        checked += 1
        guard quotedLines.contains(line) else {
          XCTAssertFalse(message.contains("The line displays as"), "\(path):\(line + 1): \(message)")
          XCTAssertNil(diagnostic["data"]?["visualOrder"]?.stringValue, "\(path):\(line + 1)")
          unquoted += 1
          continue
        }
        // The line as displayed: UAX #9 with the default paragraph level,
        // the controls it keeps written by name.
        let visual = TestControls.named(try session.visualText(uri, line: line, options: ["fallback": "ltr"]))
        XCTAssertTrue(
          message.hasSuffix("The line displays as: \u{201C}\(visual)\u{201D}"), "\(path):\(line + 1): \(message)")
        XCTAssertEqual(diagnostic["data"]?["visualOrder"]?.stringValue, visual, "\(path):\(line + 1)")
      }
    }
    XCTAssertEqual(checked, HazardCorpus.findingCount)
    // Both kinds of line occur in the corpus.
    XCTAssertGreaterThan(unquoted, 0)
    XCTAssertGreaterThan(checked, unquoted)
  }

  func testPositionsCountAstralCharactersInEachEncoding() throws {
    // Line 0: RLO in code (unpaired and override), LRI in a comment
    // (inComment); line 2: a PDI with nothing to close. Emoji before each,
    // CR LF line ends.
    let source = "😀😀 \u{202E} /* 😀 \u{2066} */\r\nint a;\r\n😀 \u{2069};\r\n"
    let expected: [PositionEncoding: [String]] = [
      .utf16: ["0:5-6 bidi.unpaired", "0:5-6 bidi.override", "0:13-14 bidi.inComment", "2:3-4 bidi.unmatched"],
      .utf8: ["0:9-12 bidi.unpaired", "0:9-12 bidi.override", "0:21-24 bidi.inComment", "2:5-8 bidi.unmatched"],
      .utf32: ["0:3-4 bidi.unpaired", "0:3-4 bidi.override", "0:10-11 bidi.inComment", "2:2-3 bidi.unmatched"],
    ]
    for encoding in PositionEncoding.allCases {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      let diagnostics = try session.openAndDiagnose("file:///astral.c", languageId: "c", text: source)
      let got = diagnostics.map { d in
        "\(d.startLine):\(d.startCharacter)-\(d["range"]?["end"]?["character"]?.intValue ?? -1) \(d.diagnosticCode)"
      }
      XCTAssertEqual(got, expected[encoding], encoding.rawValue)
    }
  }

  // MARK: Versions and full sets

  func testAnEditPublishesTheNewVersionWithTheFullSet() throws {
    let session = try TestSession(.bidiLSP)
    let path = "hazards/notes.txt"
    let source = try HazardCorpus.text(path)
    let uri = "file:///corpus/\(path)"
    let before = try session.openAndDiagnose(uri, languageId: "plaintext", text: source)
    XCTAssertEqual(before.count, 9)
    // Line 2 (index 1), "Unclosed override: RLO abc": the RLO is unpaired
    // and an override, two diagnostics of one range. Delete the RLO.
    let line2 = before.filter { $0.startLine == 1 }
    XCTAssertEqual(line2.map(\.diagnosticCode), ["bidi.unpaired", "bidi.override"])
    let rlo = try XCTUnwrap(line2.first)
    XCTAssertEqual(line2.last?["range"], rlo["range"])
    let version = try session.change(uri, [["range": rlo["range"] ?? .null, "text": ""]])
    XCTAssertEqual(version, 2)
    let after = try session.diagnostics(uri, version: version)
    XCTAssertEqual(after.count, 7)
    XCTAssertFalse(after.contains { $0.startLine == 1 }, "both diagnostics of the fixed hazard are gone")
    XCTAssertEqual(after, before.filter { $0.startLine != 1 }, "the others stay, unchanged")
    // Put it back with an insertion: the full set again, version 3.
    let start = rlo["range"]?["start"] ?? .null
    let back = try session.change(uri, [["range": ["start": start, "end": start], "text": "\u{202E}"]])
    XCTAssertEqual(try session.diagnostics(uri, version: back), before)
  }

  func testAnEditThatOpensAStringRescansTheLinesAfterIt() throws {
    let session = try TestSession(.bidiLSP)
    let path = "hazards/early-return.py"
    let source = try HazardCorpus.text(path)
    let uri = "file:///corpus/\(path)"
    let before = try session.openAndDiagnose(uri, languageId: "python", text: source)
    XCTAssertEqual(
      before.map(\.diagnosticCode),
      ["bidi.inString", "bidi.inString", "bidi.override", "bidi.inIdentifier", "bidi.inComment"])
    // A triple quote at the start of line 7 opens a string that runs to the
    // end of the file: the RLM after `label` is now inside it (legitimate),
    // and the FSI of the last comment is now in a string; the RLO of line 13
    // is still in a string and still an override.
    let opened = try session.change(uri, [["range": lspRange(6, 0, 6, 0), "text": "\"\"\""]])
    let after = try session.diagnostics(uri, version: opened)
    let edited = try session.text(uri)
    XCTAssertEqual(after, try session.freshDiagnostics(of: edited, languageId: "python", like: uri))
    XCTAssertEqual(after.map(\.diagnosticCode), ["bidi.inString", "bidi.inString", "bidi.override", "bidi.inString"])
    XCTAssertEqual(after.last?.startLine, 18)
    // Removing it restores the first set.
    let closed = try session.change(uri, [["range": lspRange(6, 0, 6, 3), "text": ""]])
    XCTAssertEqual(try session.diagnostics(uri, version: closed), before)
  }

  func testABurstOfChangesEndsWithAPublishOfTheFinalText() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///burst.c"
    var text = TestText("int a; /* \u{202E} */\nint b;\n")
    _ = try session.openAndDiagnose(uri, languageId: "c", text: text.text)
    // 40 changes in one write: insert and delete hazards on growing lines.
    var frames: [UInt8] = []
    let changes = 40
    for k in 0..<changes {
      let line = k % 3
      let edit: JSONValue =
        k % 4 == 3
        ? ["range": lspRange(line, 0, line, 1), "newText": ""]
        : ["range": lspRange(line, 0, line, 0), "newText": k % 2 == 0 ? "\u{2069}x" : "/*\u{2066}"]
      text = try text.applying([edit], in: .utf16)
      let notification: JSONValue = [
        "jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": [
          "textDocument": ["uri": .string(uri), "version": JSONValue(k + 2)],
          "contentChanges": [["range": edit["range"] ?? .null, "text": edit["newText"] ?? ""]],
        ],
      ]
      frames += MessageWriter.frame(notification.encoded())
    }
    try session.client.sendRaw(frames)
    let finalVersion = changes + 1
    var versions: [Int] = []
    var last: JSONValue = .null
    while versions.last != finalVersion {
      last = try session.publish(uri)
      versions.append(last["version"]?.intValue ?? -1)
    }
    XCTAssertEqual(versions, versions.sorted(), "publishes never go back in version")
    XCTAssertLessThanOrEqual(versions.count, changes)
    XCTAssertEqual(try session.text(uri), text.text)
    let diagnostics = last["diagnostics"]?.arrayValue ?? []
    XCTAssertFalse(diagnostics.isEmpty)
    XCTAssertEqual(diagnostics, try session.freshDiagnostics(of: text.text, languageId: "c", like: uri))
    XCTAssertFalse(try session.hasPendingPublish(uri), "nothing published after the final version")
  }

  func testDidCloseClearsTheDiagnosticsAndReopeningPublishesAgain() throws {
    let session = try TestSession(.bidiLSP)
    let path = "hazards/access.rb"
    let source = try HazardCorpus.text(path)
    let uri = "file:///corpus/\(path)"
    XCTAssertEqual(try session.openAndDiagnose(uri, languageId: "ruby", text: source).count, 8)
    try session.close(uri)
    let cleared = try session.publish(uri)
    XCTAssertEqual(cleared["diagnostics"], [])
    try session.open(uri, languageId: "ruby", text: source, version: 9)
    XCTAssertEqual(try session.diagnostics(uri, version: 9).count, 8)
  }

  func testNothingStaleIsPublishedAfterAQuickClose() throws {
    // Open, change and close in one write, then reopen clean: the last
    // publish of each document is the right one.
    let session = try TestSession(.bidiLSP)
    let uri = "file:///quick.txt"
    let other = "file:///reopened.txt"
    var frames: [UInt8] = []
    func add(_ method: String, _ params: JSONValue) {
      frames += MessageWriter.frame(
        (["jsonrpc": "2.0", "method": .string(method), "params": params] as JSONValue).encoded())
    }
    add(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": 1, "text": "a \u{202E}b\n"]])
    add(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": 2], "contentChanges": [["text": "c \u{2069}\n"]]])
    add("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
    add(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(other), "languageId": "plaintext", "version": 1, "text": "x \u{202D}\n"]])
    add("textDocument/didClose", ["textDocument": ["uri": .string(other)]])
    add(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(other), "languageId": "plaintext", "version": 5, "text": "clean\n"]])
    try session.client.sendRaw(frames)
    var last: JSONValue = .null
    repeat { last = try session.publish(uri) } while last["diagnostics"] != []
    XCTAssertNil(last["version"]?.intValue.flatMap { $0 > 2 ? $0 : nil })
    repeat { last = try session.publish(other) } while last["version"] != 5
    XCTAssertEqual(last["diagnostics"], [])
    XCTAssertFalse(try session.hasPendingPublish(uri))
    XCTAssertFalse(try session.hasPendingPublish(other))
  }

  func testEditedDocumentsGiveTheDiagnosticsOfAFreshScan() throws {
    // Incremental rescans (only the touched lines, and onwards while the
    // tokenizer state changes) must equal a scan of the whole new text.
    let session = try TestSession(.bidiLSP)
    let pieces = [
      "\u{202E}", "\u{2066}", "\u{2069}", "\u{202C}", "/*", "*/", "\"", "'", "\n", "//", "#", "x", "\r\n",
      "\u{5D0}\u{5D1}", "😀", "`", "\"\"\"", " ",
    ]
    var random = HazardRandom(seed: 0x5EED)
    var compared = 0
    for path in try HazardCorpus.allFiles() {
      let uri = "file:///edited/\(path)"
      let languageId = HazardCorpus.languageId(path)
      var text = TestText(try HazardCorpus.text(path))
      try session.open(uri, languageId: languageId, text: text.text)
      for _ in 0..<6 {
        var changes: [JSONValue] = []
        for _ in 0..<random.next(1...3) {
          let line = random.next(0...(text.lineCount - 1))
          let scalars = Array(text.lines[line])
          let first = random.next(0...scalars.count)
          let start = scalars[..<first].reduce(0) { $0 + UTF16.width($1) }
          var end = position(line, start)
          switch random.next(0...3) {
          case 0 where line + 1 < text.lineCount: end = position(line + 1, 0)
          case 1: end = position(line, start + random.next(0...4))
          default: break
          }
          var insert = ""
          for _ in 0..<random.next(0...3) { insert += pieces[random.next(0...(pieces.count - 1))] }
          let edit: JSONValue = [
            "range": ["start": position(line, start), "end": end], "newText": .string(insert),
          ]
          text = try text.applying([edit], in: .utf16)
          changes.append(["range": edit["range"] ?? .null, "text": .string(insert)])
        }
        let version = try session.change(uri, changes)
        let published = try session.diagnostics(uri, version: version)
        XCTAssertEqual(try session.text(uri), text.text, path)
        XCTAssertEqual(published, try session.freshDiagnostics(of: text.text, languageId: languageId, like: uri), path)
        compared += 1
      }
    }
    XCTAssertEqual(compared, 6 * (HazardCorpus.hazardFileCount + HazardCorpus.cleanFileCount))
  }

  func testALargeDocumentIsPublishedOnceWithTheFullSet() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///large.txt"
    var lines = (0..<60_000).map { "line \($0) \u{5E9}\u{5DC}\u{5D5}\u{5DD} text" }
    lines[0] = "\u{202E} top"
    lines[30_000] = "middle \u{2069}"
    lines[59_999] = "bottom \u{202D}"
    try session.open(uri, languageId: "plaintext", text: lines.joined(separator: "\n"))
    let first = try session.publish(uri)
    XCTAssertEqual(first["version"], 1)
    let diagnostics = first["diagnostics"]?.arrayValue ?? []
    // The unclosed RLO and LRO are each unpaired and an override.
    XCTAssertEqual(diagnostics.map(\.startLine), [0, 0, 30_000, 59_999, 59_999])
    XCTAssertEqual(
      diagnostics.map(\.diagnosticCode),
      ["bidi.unpaired", "bidi.override", "bidi.unmatched", "bidi.unpaired", "bidi.override"])
    XCTAssertFalse(try session.hasPendingPublish(uri), "one publish for the whole scan")
    let fixed = try session.change(uri, [["range": lspRange(30_000, 7, 30_000, 8), "text": ""]])
    XCTAssertEqual(try session.diagnostics(uri, version: fixed).map(\.startLine), [0, 0, 59_999, 59_999])
  }

  // MARK: Settings

  func testInitializationOptionsConfigureTheRules() throws {
    let session = try TestSession(
      .bidiLSP,
      initializationOptions: [
        "bidi": [
          "diagnostics": ["override": false, "unmatched": "hint", "inString": "information", "inComment": "warning"]
        ]
      ])
    let severities = [
      "bidi.unmatched": 4, "bidi.inString": 3, "bidi.inComment": 2, "bidi.unpaired": 1, "bidi.inIdentifier": 1,
    ]
    var found: [Finding] = []
    for path in try HazardCorpus.files("hazards") {
      let source = try HazardCorpus.text(path)
      let text = TestText(source)
      for d in try session.openAndDiagnose(
        "file:///corpus/\(path)", languageId: HazardCorpus.languageId(path), text: source)
      {
        let column = text.utf8Offset(line: d.startLine, character: d.startCharacter, in: .utf16) + 1
        found.append(Finding(path: path, line: d.startLine + 1, column: column, code: d.diagnosticCode))
        XCTAssertEqual(d["severity"]?.intValue, severities[d.diagnosticCode], "\(path) \(d.diagnosticCode)")
      }
    }
    // Turning `override` off drops exactly the `override` findings, one per
    // LRO and RLO of the corpus; the others (an unclosed override's
    // `unpaired`, `inComment`, `inString`, `inIdentifier`) keep their code.
    let expected = try HazardCorpus.expected().filter { $0.code != "bidi.override" }
    XCTAssertEqual(expected.count, HazardCorpus.findingCount - 28)
    var overrides = 0
    for path in try HazardCorpus.files("hazards") {
      overrides += try HazardCorpus.text(path).unicodeScalars.filter { $0 == "\u{202D}" || $0 == "\u{202E}" }.count
    }
    XCTAssertEqual(overrides, 28)
    XCTAssertEqual(found.sorted(), expected)
  }

  func testDidChangeConfigurationTurnsRulesOffOnAndChangesSeverities() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///corpus/hazards/notes.txt"
    let initial = try session.openAndDiagnose(
      uri, languageId: "plaintext", text: try HazardCorpus.text("hazards/notes.txt"))
    XCTAssertEqual(initial.filter { $0.diagnosticCode == "bidi.unmatched" }.count, 3)
    func configure(_ diagnostics: JSONValue) throws -> [JSONValue] {
      try session.client.notify(
        "workspace/didChangeConfiguration", ["settings": ["bidi": ["diagnostics": diagnostics]]])
      // Same text, same version: republished with the full set.
      return try session.diagnostics(uri, version: 1)
    }
    let off = try configure(["unmatched": false])
    XCTAssertEqual(off, initial.filter { $0.diagnosticCode != "bidi.unmatched" })
    let on = try configure(["unmatched": true])
    XCTAssertEqual(on, initial)
    let hint = try configure(["unmatched": "hint"])
    XCTAssertEqual(hint.count, initial.count)
    for (a, b) in zip(hint, initial) {
      XCTAssertEqual(a["range"], b["range"])
      XCTAssertEqual(a["severity"]?.intValue, a.diagnosticCode == "bidi.unmatched" ? 4 : b["severity"]?.intValue)
    }
    // The unclosed RLO of line 2 is unpaired and an override; with
    // `unpaired` off, it is an override only.
    XCTAssertEqual(initial.filter { $0.startLine == 1 }.map(\.diagnosticCode), ["bidi.unpaired", "bidi.override"])
    let unpairedOff = try configure(["unpaired": false, "unmatched": true])
    let line2 = unpairedOff.filter { $0.startLine == 1 }
    XCTAssertEqual(line2.map(\.diagnosticCode), ["bidi.override"])
    XCTAssertEqual(line2.first?["severity"], 2)
    XCTAssertFalse(unpairedOff.contains { $0.diagnosticCode == "bidi.unpaired" })
    XCTAssertEqual(try configure(["unpaired": "error"]), initial)
  }

  func testBadSettingValuesAreWarnedAboutAndChangeNothing() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///corpus/hazards/notes.txt"
    let initial = try session.openAndDiagnose(
      uri, languageId: "plaintext", text: try HazardCorpus.text("hazards/notes.txt"))
    let bad: [(JSONValue, String)] = [
      (["diagnostics": ["override": "sometimes"]], "params.settings.bidi.diagnostics.override"),
      (["diagnostics": ["override": 1]], "params.settings.bidi.diagnostics.override"),
      (["diagnostics": ["override": .null]], "params.settings.bidi.diagnostics.override"),
      (["diagnostics": ["bogus": true]], "params.settings.bidi.diagnostics.bogus"),
      (["diagnostics": "off"], "params.settings.bidi.diagnostics"),
      // One good and one bad value: neither applies.
      (["diagnostics": ["unmatched": "hint", "override": "loud"]], "params.settings.bidi.diagnostics.override"),
      (["diagnostics": ["unmatched": "hint"], "strategy": "sideways"], "params.settings.bidi.strategy"),
    ]
    for (settings, field) in bad {
      try session.client.notify("workspace/didChangeConfiguration", ["settings": ["bidi": settings]])
      let warning = try session.client.waitForNotification("window/logMessage", timeout: TestSession.timeout)
      XCTAssertEqual(warning["params"]?["type"], 2, "\(settings)")
      let message = warning["params"]?["message"]?.stringValue ?? ""
      XCTAssertTrue(message.contains(field), "\(settings): \(message)")
      XCTAssertFalse(try session.hasPendingPublish(uri), "\(settings) changed the diagnostics")
    }
    // A good change still applies, on top of the unchanged settings.
    try session.client.notify(
      "workspace/didChangeConfiguration", ["settings": ["bidi": ["diagnostics": ["inString": "hint"]]]])
    XCTAssertEqual(try session.diagnostics(uri, version: 1), initial, "unmatched stayed a warning")
  }

  func testBadInitializationOptionIsReportedAndIgnored() throws {
    // The specification, "Settings": a bad setting never keeps an editor from starting:
    // initialize succeeds with the defaults, and a window/logMessage warning
    // names the setting.
    let client = try TestServer.bidiLSP.client()
    let accepted = try client.request(
      "initialize", ["capabilities": [:], "initializationOptions": ["bidi": ["diagnostics": ["override": "loud"]]]],
      timeout: TestSession.timeout)
    XCTAssertNotNil(accepted["result"]?["capabilities"], "\(accepted)")
    let warning = try client.waitForNotification("window/logMessage", timeout: TestSession.timeout)
    XCTAssertEqual(warning["params"]?["type"], 2)
    XCTAssertTrue(
      warning["params"]?["message"]?.stringValue?.contains("initializationOptions.bidi.diagnostics.override") ?? false,
      "\(warning)")
    XCTAssertEqual(
      try client.request("initialize", ["capabilities": [:]], timeout: TestSession.timeout)["error"]?["code"], -32600)
  }
}

/// A small deterministic generator (SplitMix64) for reproducible edits.
struct HazardRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func next(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }
}
