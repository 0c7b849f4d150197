import BidiHazards
import UnicodeBidi
import XCTest

/// Source-code rules: comments, string literals and identifiers, with the
/// tokenizer's state carried across lines.
final class LanguageRulesTests: XCTestCase {
  func testOpenerInCommentMustCloseBeforeTheCommentEndsEvenIfClosedLaterOnTheLine() {
    assertFindings("/* ⟦RLO:inComment+override⟧ */ x ⟦PDF:unmatched⟧;", .c)
    assertFindings("/* ⟦RLI:inComment⟧ */ return 0; /* ⟦PDI:unmatched⟧ */", .c)
    assertFindings("/* ⟦RLI⟧ok⟦PDI⟧ ⟦RLE⟧ok⟦PDF⟧ */ x;", .c)
  }

  func testOpenerInStringMustCloseBeforeTheLiteralEnds() {
    assertFindings(#"s = "a ⟦RLO:inString+override⟧ b" ⟦PDF:unmatched⟧;"#, .c)
    assertFindings(#"s = "⟦LRI⟧a⟦PDI⟧ ⟦RLM⟧ b";"#, .c)
  }

  func testCodeOpenerCannotBeClosedInsideALiteral() {
    assertFindings(#"x = ⟦RLI:unpaired⟧ "a ⟦PDI:unmatched⟧";"#, .c)
    assertFindings(#"x = ⟦RLI⟧ "a" ⟦PDI⟧;"#, .c)
  }

  func testOverrideInStringIsReportedOnce() {
    assertFindings(#"s = "⟦RLO:override⟧abc⟦PDF⟧";"#, .java)
    assertFindings(#"s = "⟦RLO:inString+override⟧abc";"#, .java)
  }

  func testIdentifierControls() {
    assertFindings("int foo⟦LRM:inIdentifier⟧bar = 1;", .c)
    assertFindings("x = ⟦RLI:inIdentifier⟧foo⟦PDI:inIdentifier⟧;", .c)
    assertFindings("x = ⟦RLI⟧ foo ⟦PDI⟧;", .c)
    assertFindings("مرحبا⟦ALM:inIdentifier⟧ = 1", .python)
    assertFindings("שלום = 1  # a right-to-left identifier is fine", .python)
    assertFindings("let n⟦RLO:inIdentifier+override⟧ame = 1", .swift)
  }

  func testBlockCommentsSpanLines() {
    assertFindings("/* start\n  ⟦RLO:inComment+override⟧ middle\n end */ x ⟦PDF:unmatched⟧", .c)
    assertFindings("x; /* a\n⟦RLI⟧b⟦PDI⟧ */ y ⟦RLI:unpaired⟧", .go)
  }

  func testNestedBlockCommentsInSwiftAndRustOnly() {
    assertFindings("/* a /* b */ ⟦RLI:unpaired⟧ x", .c)
    assertFindings("/* a /* b */ ⟦RLI:inComment⟧ x */", .swift)
    assertFindings("/* a /* b */\n ⟦RLI:inComment⟧ */ x */ y", .rust)
  }

  func testEscapesAndCharacterLiterals() {
    assertFindings(#"s = "a \" ⟦RLI:inString⟧";"#, .c)
    assertFindings(#"c = '"'; ⟦RLI:unpaired⟧"#, .c)
    assertFindings("s = \"abc \\\n⟦RLI:inString⟧ def\"; x", .c)
    assertFindings("c = '\\''; ⟦RLI:unpaired⟧", .java)
  }

  func testPythonStrings() {
    assertFindings("# don't ⟦RLI:inComment⟧", .python)
    assertFindings("s = '''one\n⟦RLO:inString+override⟧ two\n''' ; x ⟦RLI:unpaired⟧", .python)
    assertFindings(#"s = r"a\"⟦RLI:inString⟧""#, .python)
    assertFindings(#"s = f'{x}' ⟦RLI:unpaired⟧"#, .python)
  }

  func testJavaScriptTemplatesAndRegexes() {
    assertFindings("t = `one\n${x} ⟦RLI:inString⟧`; y ⟦PDI:unmatched⟧", .javascript)
    assertFindings(#"const r = /"/; x ⟦RLI:unpaired⟧"#, .javascript)
    assertFindings("a = b / c / d ⟦RLI:unpaired⟧", .typescript)
    assertFindings("return /⟦RLI:inString⟧/", .javascript)
  }

  func testRustStringsAndLifetimes() {
    assertFindings(###"let s = r##"a "# b ⟦RLI:inString⟧"##;"###, .rust)
    assertFindings("fn f<'a>(x: &'a str) ⟦RLI:unpaired⟧", .rust)
    assertFindings(#"let c = '"'; ⟦RLI:unpaired⟧"#, .rust)
    assertFindings("let s = \"one\n⟦RLI:inString⟧\"; x ⟦RLO:unpaired+override⟧", .rust)
    assertFindings(#"let b = b"⟦LRI:inString⟧";"#, .rust)
  }

  func testSwiftStrings() {
    assertFindings(##"let s = #"a " ⟦RLI:inString⟧"#"##, .swift)
    assertFindings(##"let s = #"a \#(x) ⟦RLI:inString⟧"#"##, .swift)
    assertFindings("let s = \"\"\"\n  \"quoted\" ⟦RLI:inString⟧\n  \"\"\" ; x ⟦RLI:unpaired⟧", .swift)
  }

  func testGoRawStrings() {
    assertFindings("s := `a\\` ⟦RLI:unpaired⟧", .go)
    assertFindings("s := `one\ntwo ⟦RLI:inString⟧` + x", .go)
    assertFindings("r := '⟦RLM⟧'", .go)
  }

  func testCppRawStrings() {
    assertFindings("auto s = R\"x(a )\" ⟦RLI:inString⟧ )x\";", .cpp)
    assertFindings("int n = 1'000; ⟦RLI:unpaired⟧", .cpp)
  }

  func testJavaTextBlocks() {
    assertFindings("String s = \"\"\"\n  \"a\" ⟦RLE:inString⟧\n  \"\"\"; x ⟦PDF:unmatched⟧", .java)
  }

  func testShellQuotingAndComments() {
    assertFindings("echo $# ⟦RLI:unpaired⟧", .shell)
    assertFindings("x=1 # c ⟦RLI:inComment⟧", .shell)
    assertFindings(#"echo \"not a string ⟦RLI:unpaired⟧"#, .shell)
    assertFindings(#"echo 'a\' ⟦RLI:unpaired⟧"#, .shell)
    assertFindings(#"echo $'a\' ⟦RLI:inString⟧'"#, .shell)
    assertFindings("echo \"one\n⟦LRI:inString⟧ two\" ⟦PDI:unmatched⟧", .shell)
  }

  func testRubyBlockCommentsAndStrings() {
    assertFindings("=begin\n⟦RLO:inComment+override⟧\n=end\nx ⟦RLI:unpaired⟧", .ruby)
    assertFindings("x = $' ⟦RLI:unpaired⟧", .ruby)
    assertFindings("s = 'it''s' ⟦RLI:unpaired⟧", .ruby)
  }

  func testMarksInRightToLeftLiteralsAndCommentsAreFine() {
    assertFindings("s = \"שלום⟦RLM⟧ (1)\"; // مرحبا⟦ALM⟧ ⟦LRM⟧", .cpp)
    assertFindings("s = 'مرحبا⟦LRM⟧' # שלום⟦RLM⟧", .python)
  }

  func testDisabledRuleFallsBackToOverrideOnly() {
    var settings = RuleSettings()
    settings[.inComment] = .off
    assertFindings("/* ⟦RLO:override⟧ ⟦RLI⟧ */", .c, settings: settings)
    settings[.inIdentifier] = .off
    assertFindings("x⟦RLO:override⟧y ⟦LRM⟧z", .c, settings: settings)
    settings[.override] = .off
    assertFindings("/* ⟦RLO⟧ */ x⟦RLO⟧y", .c, settings: settings)
  }

  func testSeveritiesFollowSettings() {
    var settings = RuleSettings()
    settings[.unpaired] = .severity(.hint)
    settings[.unmatched] = .severity(.error)
    let text = MarkedText("a ⟦RLI:unpaired⟧ ⟦PDF:unmatched⟧ ⟦RLO:override⟧b⟦PDF⟧")
    let diagnostics = HazardScanner(language: nil, settings: settings).scanDocument(text.text)
    XCTAssertEqual(diagnostics.map(\.severity), [.hint, .error, .warning])
    XCTAssertEqual(diagnostics.map(\.severity.lspValue), [4, 1, 2])
  }

  func testLexerStateIsExposedPerLine() {
    let scanner = HazardScanner(language: .c)
    let first = scanner.scanLine(Array("x; /* open".utf8), lineNumber: 0)
    XCTAssertTrue(first.endState.isInComment)
    let second = scanner.scanLine(Array("still */ s = \"a\\".utf8), lineNumber: 1, state: first.endState)
    XCTAssertTrue(second.endState.isInString)
    let third = scanner.scanLine(Array("b\";".utf8), lineNumber: 2, state: second.endState)
    XCTAssertEqual(third.endState, .initial)
  }

  func testLanguageDetection() {
    XCTAssertEqual(SourceLanguage(languageId: "typescriptreact"), .typescript)
    XCTAssertEqual(SourceLanguage(languageId: "shellscript"), .shell)
    XCTAssertEqual(SourceLanguage(languageId: "plaintext"), nil)
    XCTAssertEqual(SourceLanguage(path: "src/main.rs"), .rust)
    XCTAssertEqual(SourceLanguage(path: "a/b/Rakefile"), .ruby)
    XCTAssertEqual(SourceLanguage(path: "x.HPP"), .cpp)
    XCTAssertEqual(SourceLanguage(path: ".gitignore"), nil)
    XCTAssertEqual(SourceLanguage(path: "README"), nil)
    XCTAssertEqual(SourceLanguage(shebang: Array("#!/usr/bin/env python3".utf8)), .python)
    XCTAssertEqual(SourceLanguage(shebang: Array("#!/bin/bash -e".utf8)), .shell)
    XCTAssertEqual(SourceLanguage(shebang: Array("#!/usr/bin/env -S node --flag".utf8)), .javascript)
    XCTAssertEqual(SourceLanguage(shebang: Array("# not a shebang".utf8)), nil)
  }
}
