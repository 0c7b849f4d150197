import BidiTestSupport
import JSONRPC
import XCTest

/// `bidi/alignment` (Protocol/specification.md, "bidi/alignment"): every `textAlignment` in both layouts
/// for ltr and rtl paragraphs, against the table of Protocol/specification.md.
final class BidiRequestsAlignmentTests: XCTestCase {
  /// The specification's table, written out case by case:
  /// (alignment, physical, lastLinePhysical).
  private func expected(_ requested: String, paragraph: String, layout: String) -> (String, String, String?) {
    let natural = paragraph == "ltr" ? "left" : "right"
    switch (requested, layout) {
    case ("natural", _): return (paragraph == layout ? "leading" : "trailing", natural, nil)
    case ("leading", "ltr"): return ("leading", "left", nil)
    case ("leading", _): return ("leading", "right", nil)
    case ("trailing", "ltr"): return ("trailing", "right", nil)
    case ("trailing", _): return ("trailing", "left", nil)
    case ("left", "ltr"): return ("leading", "left", nil)
    case ("left", _): return ("trailing", "left", nil)
    case ("right", "ltr"): return ("trailing", "right", nil)
    case ("right", _): return ("leading", "right", nil)
    case ("center", _): return ("center", "center", nil)
    default: return ("justified", "justified", natural)
    }
  }

  func testEveryAlignmentInBothLayoutsForBothDirections() throws {
    let session = try TestSession(.bidiLSP)
    try session.open(text: "abc שלום\nשלום abc")
    let alignments = ["natural", "leading", "trailing", "left", "right", "center", "justified"]
    var checked = 0
    for layout in ["ltr", "rtl"] {
      for requested in alignments {
        let entries = try session.paragraphs(
          "bidi/alignment", ["textAlignment": .string(requested), "layoutDirection": .string(layout)])
        XCTAssertEqual(entries.count, 2)
        for (entry, paragraph) in zip(entries, ["ltr", "rtl"]) {
          let (alignment, physical, last) = expected(requested, paragraph: paragraph, layout: layout)
          let context = "\(requested) in an \(layout) layout, \(paragraph) paragraph: \(entry)"
          XCTAssertEqual(entry["direction"]?.stringValue, paragraph, context)
          XCTAssertEqual(entry["alignment"]?.stringValue, alignment, context)
          XCTAssertEqual(entry["physical"]?.stringValue, physical, context)
          XCTAssertEqual(entry["lastLinePhysical"]?.stringValue, last, context)
          checked += 1
        }
      }
    }
    XCTAssertEqual(checked, 28)
  }

  func testNaturalIsTheDefaultAndFollowsTheRequestsStrategy() throws {
    let session = try TestSession(.bidiLSP)
    // firstStrong: rtl; estimate: 1 of 3 words, ltr. Then a line with no
    // strong character, which takes the fallback.
    try session.open(text: "שלום abc def\n123")
    let byDefault = try session.paragraphs("bidi/alignment")
    XCTAssertEqual(byDefault.map { $0["alignment"] }, ["trailing", "trailing"])
    XCTAssertEqual(byDefault.map { $0["physical"] }, ["right", "right"])
    XCTAssertEqual(try session.paragraphs("bidi/alignment", ["textAlignment": "natural"]), byDefault)
    let estimated = try session.paragraphs("bidi/alignment", ["strategy": "estimate"])
    XCTAssertEqual(estimated.map { $0["direction"] }, ["ltr", "ltr"])
    XCTAssertEqual(estimated.map { $0["physical"] }, ["left", "left"])
    let fallback = try session.paragraphs("bidi/alignment", ["fallback": "ltr", "range": lspRange(1, 0, 1, 0)])
    XCTAssertEqual(fallback.map { $0["physical"] }, ["left"])
    // Justified text ends on the paragraph's natural side, whatever the layout.
    let justified = try session.paragraphs(
      "bidi/alignment", ["textAlignment": "justified", "layoutDirection": "rtl", "strategy": "estimate"])
    XCTAssertEqual(justified.map { $0["lastLinePhysical"] }, ["left", "left"])
    let blocks = try session.paragraphs("bidi/alignment", ["paragraphs": "block", "textAlignment": "justified"])
    XCTAssertEqual(blocks.map { $0["lastLinePhysical"] }, ["right", "right"])
  }
}
