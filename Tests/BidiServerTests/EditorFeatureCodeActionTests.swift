import BidiTestSupport
import Foundation
import JSONRPC
import UnicodeBidi
import XCTest

/// `textDocument/codeAction` (specification, "textDocument/codeAction"): each quick
/// fix of the corpus applied removes its diagnostic, both "fix all" actions
/// leave no hazard, `context.only` filters kinds, and the insertMarks
/// refactorings equal `bidi/insertMarks`.
final class EditorFeatureCodeActionTests: XCTestCase {
  /// Applies a WorkspaceEdit's TextEdits to the shadow copy and sends them as
  /// incremental changes; checks that the daemon's text equals the shadow
  /// copy and returns the next publish.
  func apply(_ action: JSONValue, to text: TestText, uri: String, _ session: TestSession) throws -> (
    TestText, [JSONValue]
  ) {
    let changes = action["edit"]?["changes"]
    XCTAssertEqual(changes?.objectValue?.keys, [uri], "edits only this document: \(action)")
    let edits = changes?[uri]?.arrayValue ?? []
    XCTAssertFalse(edits.isEmpty, "\(action["title"] ?? "")")
    let edited = try text.applying(edits, in: session.encoding)
    let version = try session.change(uri, TestText.contentChanges(for: edits))
    let diagnostics = try session.diagnostics(uri, version: version)
    XCTAssertEqual(try session.text(uri), edited.text, "\(action["title"] ?? "")")
    return (edited, diagnostics)
  }

  /// Puts the original text back and checks its diagnostics are back too.
  func restore(_ uri: String, _ text: TestText, _ diagnostics: [JSONValue], _ session: TestSession) throws {
    let version = try session.replaceText(uri, with: text.text)
    XCTAssertEqual(try session.diagnostics(uri, version: version), diagnostics, "restored \(uri)")
  }

  func testEveryQuickFixOfTheCorpusRemovesItsDiagnostic() throws {
    let session = try TestSession(.bidiLSP)
    var diagnosticCount = 0
    var fixCount = 0
    var expectedFixCount = 0
    for path in try HazardCorpus.files("hazards") {
      let text = TestText(try HazardCorpus.text(path))
      let uri = "file:///corpus/\(path)"
      let original = try session.openAndDiagnose(uri, languageId: HazardCorpus.languageId(path), text: text.text)
      for diagnostic in original {
        diagnosticCount += 1
        let line = diagnostic.startLine
        let code = diagnostic.diagnosticCode
        let where_ = "\(path):\(line + 1) \(code)"
        let control = try XCTUnwrap(text.scalar(line: line, character: diagnostic.startCharacter, in: .utf16))
        let actions = try session.codeActions(
          uri, range: diagnostic["range"] ?? .null, only: ["quickfix"], diagnostics: [diagnostic])
        let fixes = actions.filter { $0["diagnostics"]?.arrayValue?.contains(diagnostic) ?? false }
        XCTAssertTrue(actions.allSatisfy { $0["kind"] == "quickfix" }, where_)
        // Remove always; close for an opener left open (through its
        // `unpaired`, `inComment` or `inString` diagnostic, an override's
        // too); for the `override` diagnostic, no close, but replace the
        // override by an embedding (closing it on its line when it is not
        // closed), except inside an identifier, where any control is wrong.
        let closable =
          TestControls.isOpener(control) && ["bidi.unpaired", "bidi.inComment", "bidi.inString"].contains(code)
        let inIdentifier = original.contains {
          $0["range"] == diagnostic["range"] && $0.diagnosticCode == "bidi.inIdentifier"
        }
        let replaceable = code == "bidi.override" && !inIdentifier
        let expected = ["Remove"] + (closable ? ["Close"] : []) + (replaceable ? ["Replace"] : [])
        let offered = fixes.map { $0["title"]?.stringValue?.split(separator: " ").first.map(String.init) ?? "" }
        expectedFixCount += expected.count
        XCTAssertEqual(offered.sorted(), expected.sorted(), "\(where_): \(fixes.map { $0["title"] ?? "" })")
        XCTAssertEqual(fixes.filter { $0["isPreferred"] == true }.count, 1, "\(where_): one preferred fix")
        for fix in fixes {
          fixCount += 1
          let title = fix["title"]?.stringValue ?? ""
          for edit in fix["edit"]?["changes"]?[uri]?.arrayValue ?? [] {
            XCTAssertEqual(edit.startLine, line, "\(where_): \(title) edits the diagnostic's line only")
          }
          let (_, after) = try apply(fix, to: text, uri: uri, session)
          if title.hasPrefix("Remove") {
            // The character is gone: one fewer finding of this code for this
            // code point on the line.
            func same(_ list: [JSONValue]) -> Int {
              list.filter {
                $0.startLine == line && $0.diagnosticCode == code
                  && $0["message"]?.stringValue?.hasPrefix(TestControls.displayName(control) ?? "?") ?? false
              }.count
            }
            XCTAssertLessThan(same(after), same(original), "\(where_): \(title)")
          } else {
            // Closed or replaced in place: nothing is left at the range but
            // the override diagnostic of an override that was only closed
            // (a replaced one is an embedding, closed).
            let left = after.filter { $0["range"] == diagnostic["range"] }.map(\.diagnosticCode)
            let isOverride = control == "\u{202D}" || control == "\u{202E}"
            XCTAssertEqual(left, title.hasPrefix("Close") && isOverride ? ["bidi.override"] : [], "\(where_): \(title)")
          }
          XCTAssertLessThanOrEqual(after.count, original.count, "\(where_): \(title) adds no hazard")
          try restore(uri, text, original, session)
        }
      }
    }
    XCTAssertEqual(diagnosticCount, HazardCorpus.findingCount)
    XCTAssertEqual(fixCount, expectedFixCount)
    XCTAssertGreaterThan(fixCount, HazardCorpus.findingCount)
  }

  func testQuickFixesWithAstralCharactersInEachEncoding() throws {
    // Emoji before and between the controls: the fixes' positions must be
    // in the negotiated encoding.
    let source = "😀 \u{202E}😀 x 😀\u{2067} y\n😀 \u{2069} 😀\n"
    var applied = 0
    for encoding in PositionEncoding.allCases {
      let session = try TestSession(.bidiLSP, encoding: encoding)
      let uri = "file:///astral.txt"
      let text = TestText(source)
      let original = try session.openAndDiagnose(uri, languageId: "plaintext", text: source)
      // The RLO is unpaired and an override; the RLI unpaired; the PDI unmatched.
      XCTAssertEqual(
        original.map(\.diagnosticCode), ["bidi.unpaired", "bidi.override", "bidi.unpaired", "bidi.unmatched"],
        encoding.rawValue)
      XCTAssertEqual(original[0]["range"], original[1]["range"])
      for diagnostic in original {
        let fixes = try session.codeActions(
          uri, range: diagnostic["range"] ?? .null, only: ["quickfix"], diagnostics: [diagnostic]
        )
        .filter { $0["diagnostics"]?.arrayValue?.contains(diagnostic) ?? false }
        XCTAssertEqual(
          fixes.count, diagnostic.diagnosticCode == "bidi.unmatched" ? 1 : 2, "\(encoding.rawValue) \(diagnostic)")
        for fix in fixes {
          let title = fix["title"]?.stringValue ?? ""
          let (edited, after) = try apply(fix, to: text, uri: uri, session)
          XCTAssertEqual(after.map(\.diagnosticCode), Self.astralCodesLeft[title], "\(encoding.rawValue) \(title)")
          XCTAssertFalse(
            after.contains { $0["range"] == diagnostic["range"] && $0.diagnosticCode == diagnostic.diagnosticCode },
            "\(encoding.rawValue) \(title)")
          // Nothing but bidi controls was inserted or removed.
          let strip = { (t: String) in String(t.unicodeScalars.filter { !TestControls.isControl($0) }) }
          XCTAssertEqual(strip(edited.text), strip(source))
          applied += 1
          try restore(uri, text, original, session)
        }
      }
    }
    XCTAssertEqual(applied, 3 * 7)
  }

  /// The codes left by each quick fix of the astral line, by title: the RLO
  /// removed takes both its diagnostics; closed (the PDI PDF it needs close
  /// the RLI after it too), it stays an override; replaced by an RLE and
  /// closed, only the PDI of the next line is left.
  static let astralCodesLeft: [String: [String]] = [
    "Remove the RLO (U+202E RIGHT-TO-LEFT OVERRIDE)": ["bidi.unpaired", "bidi.unmatched"],
    "Close the RLO on its line (insert PDI PDF)": ["bidi.override", "bidi.unmatched"],
    "Replace RLO by RLE and close it on its line": ["bidi.unmatched"],
    "Remove the RLI (U+2067 RIGHT-TO-LEFT ISOLATE)": ["bidi.unpaired", "bidi.override", "bidi.unmatched"],
    "Close the RLI on its line (insert PDI)": ["bidi.unpaired", "bidi.override", "bidi.unmatched"],
    "Remove the PDI (U+2069 POP DIRECTIONAL ISOLATE)": ["bidi.unpaired", "bidi.override", "bidi.unpaired"],
  ]

  func testAnOverrideClosedByAPDIIsOfferedAReplacement() throws {
    // The specification, "textDocument/codeAction": every override outside an identifier gets a quick fix
    // that replaces it by the embedding of the same direction (closing it on
    // its line when it is not closed). An RLO closed on its line by the PDI
    // of the isolate around it (as on line 8 of hazards/notes.txt) is
    // offered "Remove" only: the replacement comes only for an override
    // closed by a PDF or left open. Fix-all "close" does replace it.
    let session = try TestSession(.bidiLSP)
    let uri = "file:///override-in-isolate.txt"
    let source = "x \u{2067} \u{202E}abc\u{2069} y\n"
    let replaced = "x \u{2067} \u{202B}abc\u{2069} y\n"
    let text = TestText(source)
    let original = try session.openAndDiagnose(uri, languageId: "plaintext", text: source)
    XCTAssertEqual(original.map(\.diagnosticCode), ["bidi.override"])
    let diagnostic = try XCTUnwrap(original.first)
    // Fix-all "close the controls" turns it into an RLE, closed by the PDI.
    let fixAll = try session.codeActions(uri, range: lspRange(0, 0, 0, 0), only: ["source.fixAll.bidi"])
    let closeAll = try XCTUnwrap(
      fixAll.first { $0["title"]?.stringValue?.hasSuffix("close the controls on their lines") ?? false })
    let (closed, afterAll) = try apply(closeAll, to: text, uri: uri, session)
    XCTAssertEqual(closed.text, replaced)
    XCTAssertEqual(afterAll, [])
    try restore(uri, text, original, session)
    // The quick fixes of the diagnostic: remove, and replace by an RLE.
    let fixes = try session.codeActions(
      uri, range: diagnostic["range"] ?? .null, only: ["quickfix"], diagnostics: [diagnostic]
    )
    .filter { $0["diagnostics"]?.arrayValue?.contains(diagnostic) ?? false }
    let titles = fixes.compactMap { $0["title"]?.stringValue }
    XCTAssertEqual(titles.count, 2, "\(titles)")
    let replace = fixes.first { $0["title"]?.stringValue?.hasPrefix("Replace RLO by RLE") ?? false }
    XCTAssertNotNil(replace, "no replacement among \(titles)")
    if let replace {
      let (edited, after) = try apply(replace, to: text, uri: uri, session)
      XCTAssertEqual(edited.text, replaced)
      XCTAssertEqual(after, [])
    }
  }

  func testBothFixAllActionsLeaveEachHazardFileClean() throws {
    // In UTF-8 positions, for a change from the quick-fix test.
    let session = try TestSession(.bidiLSP, encoding: .utf8)
    var applied = 0
    for path in try HazardCorpus.files("hazards") {
      let text = TestText(try HazardCorpus.text(path))
      let uri = "file:///corpus/\(path)"
      let original = try session.openAndDiagnose(uri, languageId: HazardCorpus.languageId(path), text: text.text)
      XCTAssertFalse(original.isEmpty, path)
      let actions = try session.codeActions(uri, range: lspRange(0, 0, 0, 0), only: ["source.fixAll"])
      XCTAssertEqual(actions.count, 2, path)
      XCTAssertEqual(Set(actions.compactMap { $0["title"]?.stringValue }).count, 2, path)
      for action in actions {
        XCTAssertEqual(action["kind"], "source.fixAll.bidi")
        // One edit per character, even for a character with two diagnostics
        // (an override that is also unpaired, in a comment, string or identifier).
        let replaced = (action["edit"]?["changes"]?[uri]?.arrayValue ?? []).filter {
          $0["range"]?["start"] != $0["range"]?["end"]
        }
        XCTAssertEqual(
          Set(replaced.compactMap { $0["range"]?["start"] }).count, replaced.count, "\(path): \(action["title"] ?? "")")
        let (edited, after) = try apply(action, to: text, uri: uri, session)
        XCTAssertEqual(after, [], "\(path): \(action["title"] ?? "") left hazards")
        XCTAssertNotEqual(edited.text, text.text)
        applied += 1
        try restore(uri, text, original, session)
      }
    }
    XCTAssertEqual(applied, 2 * HazardCorpus.hazardFileCount)
  }

  func testNoFixIsOfferedForACleanFile() throws {
    let session = try TestSession(.bidiLSP)
    var checked = 0
    for path in try HazardCorpus.files("clean") {
      let text = TestText(try HazardCorpus.text(path))
      let uri = "file:///corpus/\(path)"
      XCTAssertEqual(try session.openAndDiagnose(uri, languageId: HazardCorpus.languageId(path), text: text.text), [])
      let whole = lspRange(0, 0, text.lineCount - 1, 0)
      XCTAssertEqual(try session.codeActions(uri, range: whole, only: ["quickfix", "source.fixAll"]), [], path)
      checked += 1
    }
    XCTAssertEqual(checked, HazardCorpus.cleanFileCount)
  }

  /// A document with hazards (a balanced RLO, an unmatched PDF) and
  /// right-to-left text, for the kind filters and the refactorings; its
  /// markers: the Hebrew word (1️⃣…2️⃣), before and after the RLO (3️⃣, 4️⃣),
  /// after the unmatched PDF (5️⃣).
  static let marked = TestText(
    marked: "1️⃣\u{5E9}\u{5DC}\u{5D5}\u{5DD}2️⃣ %s world {0} 3️⃣\u{202E}4️⃣abc\u{202C}\u{202C}5️⃣\n"
      + "Hello \u{5E2}\u{5D5}\u{5DC}\u{5DD} %d\n")
  static let mixed = marked.text

  func testContextOnlyFiltersTheKinds() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///mixed.txt"
    XCTAssertEqual(try session.openAndDiagnose(uri, languageId: "plaintext", text: Self.mixed).count, 2)
    let selection = Self.marked.range("1️⃣", "2️⃣", in: .utf16)
    func kinds(_ only: [String]?) throws -> [String] {
      try session.codeActions(uri, range: selection, only: only).map { $0["kind"]?.stringValue ?? "" }
    }
    let all = try kinds(nil)
    let quickfixes = all.filter { $0 == "quickfix" }
    // Fix-all only when asked for by kind.
    XCTAssertEqual(all.filter { $0 == "source.fixAll.bidi" }, [])
    let fixAll = try kinds(["source"])
    let refactorings = all.filter { $0.hasPrefix("refactor.rewrite.bidi.") }
    // Quick fixes are for the diagnostics the range touches: none in the
    // Hebrew word; the RLO (remove, replace) and the unmatched PDF (remove)
    // when the range covers them.
    XCTAssertEqual(quickfixes.count, 0)
    let overHazards = try session.codeActions(
      uri, range: Self.marked.range("3️⃣", "5️⃣", in: .utf16), only: ["quickfix"])
    XCTAssertEqual(overHazards.count, 3)
    XCTAssertEqual(
      try session.codeActions(uri, range: Self.marked.range("4️⃣", "4️⃣", in: .utf16), only: ["quickfix"]).count, 2,
      "an empty range at the RLO's end still touches it (the cursor after it)")
    XCTAssertEqual(fixAll.count, 2)
    XCTAssertEqual(refactorings, ["refactor.rewrite.bidi.direction", "refactor.rewrite.bidi.isolate"])
    XCTAssertEqual(all.count, quickfixes.count + refactorings.count)
    XCTAssertEqual(try kinds(["quickfix"]), quickfixes)
    XCTAssertEqual(try kinds(["source.fixAll"]), fixAll)
    XCTAssertEqual(try kinds(["source"]), fixAll)
    XCTAssertEqual(try kinds(["refactor"]), refactorings)
    XCTAssertEqual(try kinds(["refactor.rewrite"]), refactorings)
    XCTAssertEqual(try kinds(["quickfix", "source.fixAll"]).sorted(), (quickfixes + fixAll).sorted())
    XCTAssertEqual(try kinds(["source.organizeImports"]), [])
    XCTAssertEqual(try kinds(["quickfix.other"]), [])
  }

  func testContextOnlyWithAnActionsOwnKindKeepsIt() throws {
    // LSP: an action matches `only` when its kind equals an entry or is a
    // sub-kind of one, so asking for the very kinds the daemon returns —
    // `source.fixAll.bidi`, as editors do for fix-all-on-save, or
    // `refactor.rewrite.bidi.isolate` — returns those actions.
    let session = try TestSession(.bidiLSP)
    let uri = "file:///mixed.txt"
    XCTAssertEqual(try session.openAndDiagnose(uri, languageId: "plaintext", text: Self.mixed).count, 2)
    let selection = Self.marked.range("1️⃣", "2️⃣", in: .utf16)
    func kinds(_ only: [String]) throws -> [String] {
      try session.codeActions(uri, range: selection, only: only).map { $0["kind"]?.stringValue ?? "" }
    }
    XCTAssertEqual(try kinds(["source.fixAll.bidi"]), ["source.fixAll.bidi", "source.fixAll.bidi"])
    XCTAssertEqual(try kinds(["refactor.rewrite.bidi.isolate"]), ["refactor.rewrite.bidi.isolate"])
    XCTAssertEqual(try kinds(["refactor.rewrite.bidi"]).count, 2)
  }

  func testInsertMarksRefactoringsEqualBidiInsertMarks() throws {
    let session = try TestSession(.bidiLSP)
    let uri = "file:///mixed.txt"
    let text = TestText(Self.mixed)
    let original = try session.openAndDiagnose(uri, languageId: "plaintext", text: text.text)
    let modes: [JSONObject] = [
      ["mode": "direction", "direction": "ltr"],
      ["mode": "direction", "direction": "rtl"],
      ["mode": "isolate"],
      ["mode": "placeholders"],
      ["mode": "placeholders", "style": "marks"],
      ["mode": "runs"],
      ["mode": "strip"],
      ["mode": "strip", "only": "unpaired"],
    ]
    // The modes work inside the selection: a selection of RTL text in line
    // 0 (only its paragraph's direction and the isolate have work), all of
    // line 0, and lines 0 and 1 (isolate needs a one-line range; direction
    // rtl has work only on the LTR line 1).
    let selections = [
      (Self.marked.range("1️⃣", "2️⃣", in: .utf16), ["direction", "isolate"]),
      (
        Self.marked.range("1️⃣", "5️⃣", in: .utf16),
        ["direction", "isolate", "placeholders", "placeholders", "runs", "strip", "strip"]
      ),
      (
        lspRange(0, 0, 2, 0),
        ["direction", "direction", "placeholders", "placeholders", "runs", "strip", "strip"]
      ),
    ]
    var matched = 0
    for (selection, expectedModes) in selections {
      var actions = try session.codeActions(uri, range: selection, only: ["refactor"])
      XCTAssertEqual(actions.count, expectedModes.count, "\(selection)")
      var modesWithEdits: [String] = []
      for options in modes {
        var params = options
        params["textDocument"] = documentID(uri)
        params["range"] = selection
        let response = try session.request("bidi/insertMarks", .object(params))
        guard let edits = response["result"]?["edits"]?.arrayValue, !edits.isEmpty else { continue }
        let mode = options["mode"]?.stringValue ?? ""
        modesWithEdits.append(mode)
        let index = actions.firstIndex {
          $0["kind"] == .string("refactor.rewrite.bidi.\(mode)") && $0["edit"]?["changes"]?[uri]?.arrayValue == edits
        }
        guard let index else {
          XCTFail("no refactoring with the edits of insertMarks \(options) over \(selection)")
          continue
        }
        let action = actions.remove(at: index)
        matched += 1
        // Applied, a refactoring adds no hazard.
        let (_, after) = try apply(action, to: text, uri: uri, session)
        XCTAssertLessThanOrEqual(after.count, original.count, "\(options)")
        try restore(uri, text, original, session)
      }
      XCTAssertEqual(modesWithEdits, expectedModes, "\(selection)")
      XCTAssertEqual(actions.map { $0["title"] ?? "" }, [], "refactorings that insertMarks does not explain")
    }
    XCTAssertEqual(matched, 16)
  }

  func testCodeActionOnTheRangeOfAnUnpairedIsolateOrPDIOffersItsFixes() throws {
    // Editors ask for code actions over the diagnostic's range (the light
    // bulb, "Quick Fix…"), usually without `context.only`. The isolate
    // refactoring cannot apply to a range holding an isolate control whose
    // partner is outside it; it is then left out, and the hazard's own
    // quick fixes still reach the editor.
    let session = try TestSession(.bidiLSP)
    var isolateHazards = 0
    var failed: [String] = []
    for path in try HazardCorpus.files("hazards") {
      let text = TestText(try HazardCorpus.text(path))
      let uri = "file:///corpus/\(path)"
      for diagnostic in try session.openAndDiagnose(uri, languageId: HazardCorpus.languageId(path), text: text.text) {
        let scalar = text.scalar(
          line: diagnostic.startLine, character: diagnostic.startCharacter, in: .utf16)
        guard let scalar, (0x2066...0x2069).contains(scalar.value) else { continue }
        isolateHazards += 1
        let response = try session.request(
          "textDocument/codeAction",
          [
            "textDocument": documentID(uri), "range": diagnostic["range"] ?? .null,
            "context": ["diagnostics": [diagnostic]],
          ])
        let fixes = response["result"]?.arrayValue?.filter { $0["kind"] == "quickfix" } ?? []
        if fixes.isEmpty {
          let error = response["error"]?["code"]?.intValue.map(String.init) ?? "no quick fix"
          failed.append("\(path):\(diagnostic.startLine + 1) \(diagnostic.diagnosticCode): \(error)")
        }
      }
    }
    XCTAssertEqual(isolateHazards, 26)
    XCTAssertEqual(failed, [], "\(failed.count) of \(isolateHazards) requests got no quick fix")
  }

}
