import StructuredText
import UnicodeBidi

/// A cue line written for players that lay every line out left to right:
/// its punctuation moved by hand to the other end, so that such a player
/// shows it where a right-to-left reader looks for it (`."لأولمبياد 2012 في "لندن`,
/// `.הוא הציל את חיינו`, `هل يمثل؟ -`), a subtitling habit
/// (Tests/SubtitlesTests/Corpus/real/SOURCES.txt). A player that takes the
/// direction from the text (WebVTT in a browser) shows that punctuation at
/// the start, and a mark at the start does not help: it moves the
/// punctuation to the start in every player. The fix moves it back (the run
/// at each end goes to the other end, reversed, brackets mirrored) and puts
/// RLM at the start and, after punctuation moved to the end, at the end, as
/// the rule's fix leaves every other line: then every player shows it
/// where it belongs.
///
/// Recognised when the line's first strong character is right to left and
/// either its leading run of punctuation and spaces holds sentence
/// punctuation (`.` `!` `?` `,` `،` `:` `;` `…`) while its trailing run
/// holds none and its text does not end with Arabic punctuation that is a
/// letter to the bidi algorithm (`؟` `؛` `۔`, class AL, which stay at the
/// end: `...البرجر النباتي؟` is a continuation, not moved), or its trailing
/// run ends with one dialogue dash (`-`, not `--`) and no sentence
/// punctuation while its leading run has no dash, or its opening `"` went to
/// the end (`openingQuoteMoved`). Both runs must be only such punctuation, quotes, brackets, dashes,
/// `♪` and spaces, each written as it reads (no markup, no reference).
struct HandReversedLine {
  /// The leading and trailing runs, as scalar offsets in the written projection.
  let leading: Range<Int>
  let trailing: Range<Int>
  let scalars: [UInt32]

  /// `.` `!` `?` `,` `،` `:` `;` `…`.
  static func isSentencePunctuation(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x2E, 0x21, 0x3F, 0x2C, 0x60C, 0x3A, 0x3B, 0x2026: true
    default: false
    }
  }
  /// `؟` `؛` `۔`: class AL, they stay at the end.
  static func isArabicEnd(_ scalar: UInt32) -> Bool { scalar == 0x61F || scalar == 0x61B || scalar == 0x6D4 }
  static let mirrored: [UInt32: UInt32] = [
    0x28: 0x29, 0x29: 0x28, 0x5B: 0x5D, 0x5D: 0x5B, 0x7B: 0x7D, 0x7D: 0x7B, 0xAB: 0xBB, 0xBB: 0xAB,
  ]
  /// Sentence punctuation, spaces, quotes, brackets, dashes, `♪`.
  static func isMovable(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x20, 0x22, 0x27, 0x2D, 0x2013, 0x2014, 0x28, 0x29, 0x5B, 0x5D, 0xAB, 0xBB, 0x201C, 0x201D, 0x266A, 0x266B:
      true
    default: isSentencePunctuation(scalar)
    }
  }

  init?(_ analysis: ParagraphAnalysis) {
    let scalars = analysis.written.scalars
    guard analysis.facts().firstStrong == .rightToLeft else { return nil }
    func neutral(_ scalar: UInt32) -> Bool {
      switch BidiClass(scalar) {
      case .ON, .CS, .WS, .ES, .ET: return true
      default: return false
      }
    }
    var start = 0
    while start < scalars.count, neutral(scalars[start]) { start += 1 }
    var end = scalars.count
    while end > start, neutral(scalars[end - 1]) { end -= 1 }
    guard start < end else { return nil }
    let leading = scalars[0..<start]
    let trailing = scalars[end...]
    guard leading.allSatisfy(Self.isMovable), trailing.allSatisfy(Self.isMovable) else { return nil }
    let punctuationMoved =
      leading.contains(where: Self.isSentencePunctuation)
      && !trailing.contains(where: Self.isSentencePunctuation) && !Self.isArabicEnd(scalars[end - 1])
    let dash = trailing.reversed().drop { $0 == 0x20 }
    let dashMoved =
      dash.first == 0x2D && dash.dropFirst().first != 0x2D && !leading.contains(0x2D)
      && !trailing.contains(where: Self.isSentencePunctuation)
    guard punctuationMoved || dashMoved || Self.openingQuoteMoved(scalars, leading, trailing) else { return nil }
    self.leading = 0..<start
    self.trailing = end..<scalars.count
    self.scalars = scalars
  }

  /// Whether the line's opening `"` was moved to its end
  /// (`شينهوا" تمثل قاعدة"`, for `"شينهوا" تمثل قاعدة`): nothing before
  /// the first letter, the trailing run one `"` (and spaces), an even
  /// number of `"` in the line, and none of them opening a quotation (after
  /// the start or a space, before a character that is not a space). A line
  /// that continues a quotation (`بالعالم" ثم "ذهب"`) opens one, so it
  /// stays as it is.
  static func openingQuoteMoved(_ scalars: [UInt32], _ leading: ArraySlice<UInt32>, _ trailing: ArraySlice<UInt32>)
    -> Bool
  {
    guard leading.isEmpty, trailing.filter({ $0 != 0x20 }) == [0x22] else { return false }
    var quotes = 0
    for (offset, scalar) in scalars.enumerated() where scalar == 0x22 {
      quotes += 1
      let afterSpace = offset == 0 || scalars[offset - 1] == 0x20
      let beforeText = offset + 1 < scalars.count && scalars[offset + 1] != 0x20
      if afterSpace && beforeText { return false }
    }
    return quotes % 2 == 0
  }

  /// A run as it goes to the other end: reversed, brackets mirrored.
  func moved(_ run: Range<Int>) -> String {
    var text = ""
    for scalar in scalars[run].reversed() {
      text.unicodeScalars.append(Unicode.Scalar(Self.mirrored[scalar] ?? scalar) ?? " ")
    }
    return text
  }

  /// The run as written (for the fix's title).
  func written(_ run: Range<Int>) -> String {
    var text = ""
    for scalar in scalars[run] { text.unicodeScalars.append(Unicode.Scalar(scalar) ?? " ") }
    return text
  }

  /// Whether the moved leading run puts visible punctuation at the end,
  /// which then needs RLM after it.
  var endsWithMark: Bool { scalars[leading].contains { $0 != 0x20 } }

  /// The edits: the leading run becomes RLM and the trailing run moved; the
  /// trailing run becomes the leading run moved, and RLM after it when it
  /// is visible. Nil when a run is not
  /// written as it reads (markup or a reference inside it or around it).
  func edits(_ analysis: ParagraphAnalysis, _ context: RuleContext) -> [SourceEdit]? {
    let entry = analysis.entry
    let ranges = analysis.written.ranges
    let rlm = context.planner.spelling.spell("\u{200F}")
    func source(_ run: Range<Int>) -> SourceRange? {
      guard let first = ranges[run].first, let last = ranges[run].last else { return nil }
      let decoded = first.lowerBound..<last.upperBound
      let parts = entry.sourceRanges(ofDecoded: decoded)
      guard parts.count == 1, let part = parts.first, part.start.line == part.end.line,
        part.end.column - part.start.column == decoded.count
      else { return nil }
      return part
    }
    var edits: [SourceEdit] = []
    if leading.isEmpty {
      guard let first = ranges.first else { return nil }
      let position = entry.insertionPoint(atDecoded: first.lowerBound)
      edits.append(SourceEdit(range: SourceRange(at: position), newText: rlm + moved(trailing)))
    } else {
      guard let range = source(leading) else { return nil }
      edits.append(SourceEdit(range: range, newText: rlm + moved(trailing)))
    }
    let atEnd = moved(leading) + (endsWithMark ? rlm : "")
    if !trailing.isEmpty {
      guard let range = source(trailing) else { return nil }
      edits.append(SourceEdit(range: range, newText: atEnd))
    } else if !leading.isEmpty {
      guard let last = ranges.last else { return nil }
      let end = entry.sourceRange(ofDecoded: last).end
      edits.append(SourceEdit(range: SourceRange(at: end), newText: atEnd))
    }
    return edits
  }
}

extension HandReversedLine {
  /// "Move “.\"” to the end and put RLM at both ends of the line".
  var title: String {
    var moves: [String] = []
    if !leading.isEmpty { moves.append("\u{201C}\(written(leading))\u{201D} to the end") }
    if !trailing.isEmpty { moves.append("\u{201C}\(written(trailing))\u{201D} to the start") }
    let marks =
      endsWithMark
      ? "put RLM (U+200F RIGHT-TO-LEFT MARK) at both ends of the line"
      : "start the line with RLM (U+200F RIGHT-TO-LEFT MARK)"
    return "Move " + moves.joined(separator: " and ") + ", and " + marks
  }
}
