import BidiHazards
import XCTest

/// Literals inside literals (interpolations), Ruby `%` literals and
/// here-documents: each control is judged in the context it really is in.
final class NestedLiteralTests: XCTestCase {
  func testSwiftInterpolationHoldsLiterals() {
    // Without interpolations, `"b` would close the outer literal and the
    // RLO would sit in an identifier.
    assertFindings(#"let s = "a \("b⟦RLO:inString+override⟧c") d""#, .swift)
    assertFindings(#"let s = "a \("b") c" ⟦RLI:unpaired⟧"#, .swift)
    assertFindings(#"let s = "a \(f("(")) ⟦RLI:inString⟧ b""#, .swift)
    assertFindings(##"let s = #"\#("x⟦RLI:inString⟧")"#"##, .swift)
    // A raw string's `\(` is text.
    assertFindings(##"let s = #"\("x⟦RLI⟧⟦PDI⟧"#"##, .swift)
  }

  func testIsolatedInterpolationIsLegitimate() {
    // FSI…PDI around a placeholder: one context across the interpolation.
    assertFindings(#"let s = "مرحبا ⟦FSI⟧\(name)⟦PDI⟧!""#, .swift)
    assertFindings("t = `שלום ⟦FSI⟧${name}⟦PDI⟧`", .javascript)
    assertFindings(#"s = "שלום ⟦FSI⟧#{name}⟦PDI⟧""#, .ruby)
    assertFindings(#"s = f"שלום ⟦FSI⟧{name}⟦PDI⟧""#, .python)
    assertFindings(#"echo "שלום ⟦FSI⟧$(whoami)⟦PDI⟧""#, .shell)
  }

  func testOpenerInInterpolationMustCloseBeforeItEnds() {
    assertFindings(#"let s = "\(a ⟦RLI:inString⟧ + b) c""#, .swift)
    assertFindings(#"let s = "\(a ⟦RLI⟧+⟦PDI⟧ b) c""#, .swift)
    // A closer in the literal cannot close an opener of the interpolation.
    assertFindings(#"let s = "\(a ⟦RLI:inString⟧) ⟦PDI:unmatched⟧""#, .swift)
  }

  func testInterpolationsSpanLinesInMultilineLiterals() {
    assertFindings("let s = \"\"\"\n  \\(f(\n    \"x ⟦RLI:inString⟧\"))\n  \"\"\" ; y ⟦RLI:unpaired⟧", .swift)
    assertFindings("t = `a ${\n  f(`b ⟦RLO:inString+override⟧`)\n} c`; d ⟦RLI:unpaired⟧", .javascript)
    assertFindings("s = f\"\"\"{\n  \", \".join([\"a ⟦RLI:inString⟧\"])\n}\"\"\"; x ⟦RLI:unpaired⟧", .python)
    // A one-line literal left open ends with its line, interpolation and all.
    assertFindings("let s = \"\\(x\ny ⟦RLI:unpaired⟧", .swift)
  }

  func testJavaScriptTemplatesNest() {
    assertFindings("t = `a ${`b ⟦RLO:inString+override⟧`} c`; d ⟦RLI:unpaired⟧", .javascript)
    assertFindings(#"t = `${ {a: "}"}.a } ⟦RLI:inString⟧`;"#, .typescript)
    assertFindings("t = `\\${`; x ⟦RLI:unpaired⟧", .javascript)
  }

  func testRubyInterpolation() {
    assertFindings(#"s = "a #{"b ⟦RLO:inString+override⟧"} c""#, .ruby)
    assertFindings(#"s = 'a #{"b' ⟦RLI:unpaired⟧"#, .ruby)
  }

  func testShellCommandSubstitutionInQuotes() {
    assertFindings(#"x="$(echo "a ⟦RLI:inString⟧")""#, .shell)
    assertFindings(#"x="${y:-"d ⟦RLI:inString⟧"}" ; z ⟦PDI:unmatched⟧"#, .shell)
    assertFindings(#"x="$((1 + (2))) ⟦LRE:inString⟧""#, .shell)
  }

  func testPythonFStrings() {
    // Python 3.12 allows the same quotes inside a field.
    assertFindings(#"s = f"{d["k ⟦RLI:inString⟧"]}""#, .python)
    // `#` in a format spec is a flag, not a comment; `{{` is a brace.
    assertFindings(#"s = f"{x:#x} ⟦RLI:inString⟧""#, .python)
    assertFindings(#"s = f"{{not a field ⟦RLI:inString⟧}}""#, .python)
    assertFindings("s = f'{x!r:>{width}}' ⟦RLI:unpaired⟧", .python)
    assertFindings(#"s = f"{x:'^10}" ⟦RLI:unpaired⟧"#, .python)
    assertFindings(#"s = rf"\d{n}" ⟦RLI:unpaired⟧"#, .python)
    // Not an f-string: braces are text.
    assertFindings(#"s = "{" ⟦RLI:unpaired⟧"#, .python)
  }

  func testRubyPercentLiteralsNest() {
    // Without nesting, the literal would end at `(b)`'s parenthesis and the
    // PDI would close the RLI.
    assertFindings("x = %q(a (b) ⟦RLI:inString⟧ c) ⟦PDI:unmatched⟧", .ruby)
    assertFindings(#"x = %Q[x #{"]"} ⟦LRI:inString⟧]"#, .ruby)
    assertFindings("x = %w{a {b} ⟦RLE:inString⟧}", .ruby)
    assertFindings("puts %(a ⟦RLI:inString⟧)", .ruby)
    assertFindings("x = %|a ⟦RLI:inString⟧|", .ruby)
    assertFindings("list = %w[\n  one ⟦RLI:inString⟧\n] ; x ⟦RLI:unpaired⟧", .ruby)
    // Modulo.
    assertFindings("x = a % (b) ⟦RLI:unpaired⟧", .ruby)
    assertFindings("y = a%(b) ⟦RLI:unpaired⟧", .ruby)
    assertFindings(#"z = "%s" %[x] ⟦RLI:unpaired⟧"#, .ruby)
    assertFindings("n = 10 %2 ⟦RLI:unpaired⟧", .ruby)
  }

  func testShellHereDocuments() {
    assertFindings("cat <<EOF\ndon't ⟦RLI:inString⟧\nEOF\necho ⟦RLI:unpaired⟧", .shell)
    assertFindings("cat <<'EOF' | grep x ⟦RLI:unpaired⟧\n\"a ⟦RLI:inString⟧\n  EOF\nEOF\nx ⟦RLI:unpaired⟧", .shell)
    assertFindings("cat <<-\"END\"\n\t# a ⟦RLI:inString⟧\n\tEND\nx ⟦RLI:unpaired⟧", .shell)
    // Two here-documents: their bodies follow one another.
    assertFindings("cat <<A <<B\na ⟦RLI:inString⟧\nA\nb ⟦LRI:inString⟧\nB\nc ⟦RLI:unpaired⟧", .shell)
    // A here-string and a shift are no here-documents.
    assertFindings("cat <<< word\ny ⟦RLI:unpaired⟧", .shell)
    assertFindings("echo $((1<<2)) ⟦RLI:unpaired⟧\nz ⟦RLI:unpaired⟧", .shell)
  }

  func testRubyHereDocuments() {
    assertFindings("text = <<~EOS\n  it's ⟦RLI:inString⟧ \"here\"\n  EOS\nx ⟦RLI:unpaired⟧", .ruby)
    assertFindings("text = <<-'EOS'\n  #{a ⟦RLI:inString⟧\n    EOS\nx ⟦RLI:unpaired⟧", .ruby)
    // `<<EOS` ends only at a terminator in the first column.
    assertFindings("text = <<EOS\n  EOS ⟦RLI:inString⟧\n  EOS\nEOS\nx ⟦RLI:unpaired⟧", .ruby)
    // The rest of the opening line is code.
    assertFindings("foo(<<~A, \"b ⟦RLI:inString⟧\") ⟦RLI:unpaired⟧\n  body ⟦LRI:inString⟧\nA", .ruby)
    // Shifts.
    assertFindings("x = 1 << 2 ⟦RLI:unpaired⟧\ny ⟦RLI:unpaired⟧", .ruby)
    assertFindings("class << self ⟦RLI:unpaired⟧\ny ⟦RLI:unpaired⟧", .ruby)
    assertFindings("a<<B ⟦RLI:unpaired⟧\ny ⟦RLI:unpaired⟧", .ruby)
  }

  func testHereDocumentStateIsExposed() {
    let scanner = HazardScanner(language: .shell)
    let first = scanner.scanLine(Array("cat <<EOF".utf8), lineNumber: 0)
    XCTAssertTrue(first.endState.isInString)
    let body = scanner.scanLine(Array("text".utf8), lineNumber: 1, state: first.endState)
    XCTAssertEqual(body.endState, first.endState)
    let end = scanner.scanLine(Array("EOF".utf8), lineNumber: 2, state: body.endState)
    XCTAssertEqual(end.endState, .initial)
  }

  func testDeepNestingStaysBounded() {
    // Thousands of nested interpolations on one line: lexed in one pass,
    // nested no deeper than a fixed bound, and the line still checked.
    let line = String(repeating: #""\("#, count: 5_000) + "x \u{2067}"
    let scanner = HazardScanner(language: .swift)
    let scan = scanner.scanLine(Array(line.utf8), lineNumber: 0)
    XCTAssertEqual(scan.diagnostics.map(\.code), [.inString])
    // The literals are one-line: the next line starts in code.
    XCTAssertEqual(scan.endState, .initial)
  }
}
