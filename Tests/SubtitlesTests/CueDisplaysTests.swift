import BidiTestSupport
import StructuredText
import UnicodeBidi
import XCTest

@testable import Subtitles

/// `bidi.cueDirection` compares a cue line's two displays written into one
/// buffer (`CueDisplays`) and skips lines it knows display the same both
/// ways (`CueDisplays.sameBothWays`): both must agree with the general path,
/// `ParagraphAnalysis.filledVisualText(direction:)`, on generated cue lines.
final class CueDisplaysTests: XCTestCase {
  /// Pieces of cue lines: Arabic (with harakat), Hebrew, Latin, digits
  /// (European and Arabic-Indic), punctuation and brackets, marks,
  /// isolates and embeddings, markup.
  static let pieces = [
    "مرحبا", "بك", "هل", "مَرْحَباً", "بخير؟", "שלום", "עולם", "ספר", "John", "file", "React", "2012", "03:05",
    "٣٤٥", "1.5", "42%", "$10", " ", " ", " ", "!", ".", "?", "؟", "،", "...", "\"", "(", ")", "«", "»", "-", "♪",
    ",", "\u{200F}", "\u{200E}", "\u{061C}", "\u{2067}", "\u{2069}", "\u{202B}", "\u{202C}", "\u{034F}", "\t",
    "<i>", "</i>", "{\\an8}", "<b>",
  ]

  /// The analysis of `line` as the only line of a SubRip cue, nil when its text is empty.
  func analysis(_ line: String) -> ParagraphAnalysis? {
    let text = "1\n00:00:01,000 --> 00:00:02,000\n" + line + "\n"
    let document = SubtitleReader.read(text, format: .subRip)
    guard let decoded = document.lines.first, !decoded.text.isEmpty else { return nil }
    let entry = SubtitleFormat.subRip.entry(decoded, lines: TextLines(text))
    return ParagraphAnalysis(entry, paragraph: 0)
  }

  func testTheDisplaysAreTheVisualTextsOfTheGeneralPath() {
    var generator = SeededGenerator(seed: 44)
    var counts = (lines: 0, differ: 0, same: 0, known: 0)
    for round in 0..<4000 {
      var pieces = generator.elements(of: Self.pieces, lengths: 1...9)
      // Lines that `sameBothWays` can decide: right-to-left letters at both ends.
      if round % 4 == 0 { pieces = ["هل"] + pieces.filter { !$0.hasPrefix("<") && !$0.hasPrefix("{") } + ["بك"] }
      let line = pieces.joined()
      guard let analysis = analysis(line) else { continue }
      counts.lines += 1
      let leftToRight = analysis.filledVisualText(direction: .leftToRight)
      let rightToLeft = analysis.filledVisualText(direction: .rightToLeft)
      let scalars = analysis.filled.scalars
      let displays = CueDisplays(scalars)
      let (written, differ) = ((displays.text(.leftToRight), displays.text(.rightToLeft)), displays.differ)
      XCTAssertEqual(written.0, leftToRight, line)
      XCTAssertEqual(written.1, rightToLeft, line)
      XCTAssertEqual(differ, leftToRight != rightToLeft, line)
      if differ { counts.differ += 1 } else { counts.same += 1 }
      if CueDisplays.sameBothWays(scalars) {
        counts.known += 1
        XCTAssertEqual(leftToRight, rightToLeft, line)
      }
    }
    // Every case is met often.
    XCTAssertGreaterThan(counts.differ, 1000)
    XCTAssertGreaterThan(counts.same, 200)
    XCTAssertGreaterThan(counts.known, 200)
  }

  /// A line that displays the same both ways raises no finding; one that
  /// does not is quoted as the general path quotes it: whole, or by its
  /// first display line and "…" when it is longer than
  /// `quotedCharacterLimit` characters.
  func testTheRuleQuotesTheDisplay() {
    let long = Array(repeating: "مرحبا", count: 45).joined(separator: " ") + "!"
    let text = "1\n00:00:01,000 --> 00:00:02,000\nمرحبا بك\nمرحبا!\n<i>שלום, עולם.</i>\n" + long + "\n"
    let lines = TextLines(text)
    let read = WholeRead(lines, format: SubtitleFormat.subRip)
    let found = FindingsEngine(format: SubtitleFormat.subRip, spelling: read.spelling).findings(in: lines, read: read) {
      _ in nil
    }
    XCTAssertEqual(found.map(\.range.start.line), [3, 4, 5])
    guard found.count == 3 else { return }
    XCTAssertEqual(
      found[0].message,
      "A player that lays this line out left to right shows \u{201C}ابحرم!\u{201D}. Start and end it with RLM")
    XCTAssertEqual(
      found[1].message,
      "A player that lays this line out left to right shows \u{201C}םלוע ,םולש.\u{201D}. Start and end it with RLM")
    let entry = SubtitleFormat.subRip.entry(SubtitleReader.read(text, format: .subRip).lines[3], lines: lines)
    let quoted = ParagraphAnalysis(entry, paragraph: 0).quotedVisualText(direction: .leftToRight)
    XCTAssertTrue(quoted.hasSuffix("\u{2026}"))
    XCTAssertEqual(
      found[2].message,
      "A player that lays this line out left to right shows \u{201C}\(quoted)\u{201D}. Start and end it with RLM")
  }
}
