import BidiMarks
import XCTest

final class PlaceholderGrammarTests: XCTestCase {
  /// The placeholders the planner finds, as the strings they cover.
  private func found(_ text: String) -> [String] {
    let bytes = Array(text.utf8)
    return MarkPlanner(text).placeholders().map {
      String(decoding: bytes[$0.range], as: UTF8.self)
    }
  }

  func testPrintfForms() {
    XCTAssertEqual(found("%@ and %d and %s"), ["%@", "%d", "%s"])
    XCTAssertEqual(
      found(
        "%1$@ %2$d %.2f %lld %hhd %5.1Lf %-08.3e %'d %+i %#x %*d %.*f %zu %td %jd %qd %ls %C %S %p %a %A %O %X %o %u %G %g %E %F %c"
      ),
      [
        "%1$@", "%2$d", "%.2f", "%lld", "%hhd", "%5.1Lf", "%-08.3e", "%'d", "%+i", "%#x", "%*d", "%.*f", "%zu", "%td",
        "%jd", "%qd", "%ls", "%C", "%S", "%p", "%a", "%A", "%O", "%X", "%o", "%u", "%G", "%g", "%E", "%F", "%c",
      ])
    XCTAssertEqual(found("%.f"), ["%.f"])
  }

  func testDoublePercentIsNeverAPlaceholder() {
    XCTAssertEqual(found("100%%"), [])
    XCTAssertEqual(found("%%d"), [])
    XCTAssertEqual(found("%%%d"), ["%d"])
    XCTAssertEqual(found("%%%%@"), [])
    XCTAssertEqual(found("%% %@"), ["%@"])
  }

  func testPercentInProseIsText() {
    XCTAssertEqual(found("50% off"), [])
    XCTAssertEqual(found("100 % de réduction"), [])
    XCTAssertEqual(found("20% extra, 5% in"), [])
    XCTAssertEqual(found("% d items"), ["% d"])
    XCTAssertEqual(found("%"), [])
    XCTAssertEqual(found("%1$"), [])
    XCTAssertEqual(found("%k %y"), [])
    XCTAssertEqual(found("%dpx"), ["%d"])
  }

  func testSwiftInterpolation() {
    XCTAssertEqual(found("\\(count) items"), ["\\(count)"])
    XCTAssertEqual(found("\\(f(a, g(b))) x"), ["\\(f(a, g(b)))"])
    XCTAssertEqual(found("\\(unclosed"), [])
    XCTAssertEqual(found("\\\\(escaped)"), [])
    XCTAssertEqual(found("\\\\\\(x)"), ["\\(x)"])
    XCTAssertEqual(found("\\(a) \\(b)"), ["\\(a)", "\\(b)"])
    XCTAssertEqual(found("\\(%d)"), ["\\(%d)"])
  }

  func testBraceForms() {
    XCTAssertEqual(found("{0} {1} {name} {user_id}"), ["{0}", "{1}", "{name}", "{user_id}"])
    XCTAssertEqual(found("${name} ${user.name}"), ["${name}", "${user.name}"])
    XCTAssertEqual(found("{{name}} {{ user.first }}"), ["{{name}}", "{{ user.first }}"])
    XCTAssertEqual(
      found("{0:N2} {0,-8} {1,8:C} {price:.2f} {0:yyyy-MM-dd HH:mm}"),
      ["{0:N2}", "{0,-8}", "{1,8:C}", "{price:.2f}", "{0:yyyy-MM-dd HH:mm}"])
    XCTAssertEqual(found("{} { 0 } {0, number} {0:} {-1} {1a} {a.} {"), [])
    XCTAssertEqual(found("{{0}}"), ["{0}"])
    XCTAssertEqual(found("{{{name}}}"), ["{{name}}"])
    XCTAssertEqual(found("$name ${ name}"), [])
  }

  func testKindsAndOffsets() {
    let text = "سعر %@ و \\(n) و {0} و ${a} و {{b}}"
    let planner = MarkPlanner(text)
    XCTAssertEqual(
      planner.placeholders().map(\.kind),
      [.printf, .swiftInterpolation, .braces, .dollarBraces, .doubleBraces])
    let first = planner.placeholders()[0]
    XCTAssertEqual(first.range, 7..<9)
  }

  func testPlaceholdersDoNotCrossParagraphs() {
    XCTAssertEqual(found("\\(a\u{2029}b)"), [])
    XCTAssertEqual(found("{0\u{2029}}"), [])
  }

  func testRangeSelectsWholePlaceholders() {
    let planner = MarkPlanner("%@ %d %s")
    XCTAssertEqual(planner.placeholders(in: 2..<6).map(\.range), [3..<5])
    XCTAssertEqual(planner.placeholders(in: 1..<8).map(\.range), [3..<5, 6..<8])
  }
}
