import BidiTestSupport
import Foundation
import Markdown
import StructuredText
import UnicodeBidi
import XCTest

@testable import MarkdownFormat

/// `check`'s lane for blocks without findings (`MarkdownEntries
/// .verdict`, with `MarkdownInlineRenderer.textSkeleton` for the
/// common inline markup) against the full path: on generated documents of
/// right-to-left and Latin words in links, references (defined and not),
/// code spans with and without their trimmed spaces, emphasis, images,
/// autolinks, entities, escapes and controls, inside quotes, lists and
/// tables, the findings of the read that leaves blocks out are those of the
/// read that keeps every block; and the skeleton's direction facts are the
/// rendered text's.
final class MarkdownFindingsLaneTests: XCTestCase {
  static let rightToLeft = ["مرحبا", "العالم", "الحزمة", "שלום", "ספר", "کتاب", "يثبّت", "٣٤"]
  static let leftToRight = ["Apple", "Pay", "npm", "install", "React", "v1.2", "42", "é"]
  /// Markup around a word (`%`), and near misses of each form the skeleton
  /// reads.
  static let forms = [
    "*%*", "**%**", "_%_", "~~%~~", "`%`", "` % `", "``%``", "`` `%` ``", "`  %  `", "` `", "`%", "%`x",
    "[%](https://example.com/1)", "[%](/u \"title\")", "[%](<a b>)", "[%]( /u )", "[%](a(b)c)", "[%]()",
    "![%](/img.png)", "[%][ref1]", "[%][Ref1]", "[%][nope]", "[%][]", "[ref1][]", "[ref1]", "[%]", "[% [x](/y)]",
    "[%`a`](/u)", "[`%`](/u)", "[%](/u)`", "`[%](/u)`", "[%\nx](/u)", "%](/u)", "[%", "<https://a.b>", "<b>%</b>",
    "&amp;", "&#1576;", "&rlm;", "\\*%", "\\[%](/u)", "www.a.com/%", "https://a.b/`%` x", "a@b.co", "%\u{200F}",
    "[%](/u\u{200F})", "\u{2029}%", "%\u{85}", "`%\0`", "%\0",
  ]
  static let prefixes = ["", "", "", "# ", "> ", "- ", "1. ", "| ", "> - ", "  "]
  static let extras = [
    "", "", "", "[ref1]: /target", "[Ref2]: /t2 \"t\"", "| a | b |\n|---|---|", "```\ncode\n```", "- [ ] x",
  ]

  static func word(_ random: inout SeededGenerator, rtlShare: Int) -> String {
    Int.random(in: 0..<10, using: &random) < rtlShare
      ? rightToLeft.randomElement(using: &random)! : leftToRight.randomElement(using: &random)!
  }

  static func document(_ random: inout SeededGenerator) -> String {
    var out: [String] = []
    for _ in 0..<Int.random(in: 1...10, using: &random) {
      if Int.random(in: 0..<6, using: &random) == 0 {
        out.append(extras.randomElement(using: &random)!)
        continue
      }
      // A block mostly of one direction or the other, often starting with
      // the other one (the finding) or not.
      let share = Int.random(in: 0...10, using: &random)
      var lines: [String] = []
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        var line = lines.isEmpty ? prefixes.randomElement(using: &random)! : ""
        for index in 0..<Int.random(in: 1...9, using: &random) {
          if index > 0 { line += Int.random(in: 0..<8, using: &random) == 0 ? "  " : " " }
          let word = Self.word(&random, rtlShare: share)
          if Int.random(in: 0..<4, using: &random) == 0 {
            line += forms.randomElement(using: &random)!.replacingOccurrences(of: "%", with: word)
          } else {
            line += word
          }
        }
        if Int.random(in: 0..<10, using: &random) == 0 { line += "  " }
        lines.append(line)
      }
      out.append(lines.joined(separator: "\n"))
      out.append("")
    }
    return out.joined(separator: "\n")
  }

  /// The findings of `check`'s read (blocks left out) are those of the
  /// read that keeps them all, in order, with their messages and fixes.
  func testLaneGivesTheFindingsOfTheFullPath() {
    var random = SeededGenerator(seed: 2_027)
    var leftOut = 0
    var kept = 0
    var findings = 0
    var decided = 0
    for _ in 0..<3_000 {
      let text = Self.document(&random)
      let lines = TextLines(text)
      let format = MarkdownFormat()
      let whole = WholeRead(lines, format: format)
      let short = WholeRead(lines, format: format, findingsOnly: true)
      leftOut += whole.entries.count - short.entries.count - short.decided.count
      kept += short.entries.count
      decided += short.decided.count
      let engine = FindingsEngine(format: format, spelling: whole.spelling)
      let expected = engine.findings(in: lines, read: whole) { _ in nil }
      findings += expected.count
      XCTAssertEqual(engine.findings(in: lines, read: short) { _ in nil }, expected, text.debugDescription)
    }
    print("lane: \(leftOut) blocks left out, \(kept) kept, \(decided) decided, \(findings) findings")
    // Both sides of the lane taken often: the comparison means something.
    XCTAssertGreaterThan(leftOut, 5_000)
    XCTAssertGreaterThan(kept, 3_000)
    XCTAssertGreaterThan(findings, 3_000)
    // Many findings decided without an entry (`ReadItem.finding`).
    XCTAssertGreaterThan(decided, 1_000)
  }

  /// Every block the skeleton reads: its direction facts (first strong
  /// character, words by direction, letters of each direction) are those
  /// of the rendered text, and it is the rendered text when it says so
  /// (`readSkeleton`: the lane keeps it for a decided finding's message
  /// instead of rendering the block again); it reads most blocks with
  /// markup and refuses many (the near misses), and says it is the
  /// rendered text for many and not for many.
  func testSkeletonHasTheRenderedTextsFacts() {
    var random = SeededGenerator(seed: 2_712)
    var read = 0
    var refused = 0
    var isRendered = 0
    for round in 0..<6_000 {
      let text = round % 4 == 3 ? RandomDocumentTests.document(&random) : Self.document(&random)
      let source = MarkdownSource(text)
      let blocks = MarkdownReader().read(source, startsDocument: true)
      let renderer = MarkdownInlineRenderer(source: source, definitions: blocks.definitions)
      for block in blocks.blocks where block.kind.hasInlineContent {
        guard let (skeleton, rendersAs, _) = renderer.readSkeleton(block) else {
          refused += 1
          continue
        }
        read += 1
        let rendered = renderer.render(block).text
        if rendersAs {
          isRendered += 1
          XCTAssertEqual(
            String(decoding: skeleton, as: UTF8.self), String(decoding: rendered, as: UTF8.self),
            "\(text.debugDescription) block \(block.lines)")
          XCTAssertEqual(skeleton, renderer.renderedText(block), "\(text.debugDescription) block \(block.lines)")
        }
        let expected = Self.facts(rendered)
        let got = Self.facts(skeleton)
        XCTAssertEqual(got.firstStrong, expected.firstStrong, "\(text.debugDescription) block \(block.lines)")
        XCTAssertEqual(got.rtlWords, expected.rtlWords, "\(text.debugDescription) block \(block.lines)")
        XCTAssertEqual(got.ltrWords, expected.ltrWords, "\(text.debugDescription) block \(block.lines)")
        XCTAssertEqual(got.hasRTL, expected.hasRTL, "\(text.debugDescription) block \(block.lines)")
        XCTAssertEqual(got.hasLTR, expected.hasLTR, "\(text.debugDescription) block \(block.lines)")
      }
    }
    print("skeleton: \(read) blocks read (\(isRendered) as the rendered text), \(refused) refused")
    XCTAssertGreaterThan(read, 10_000)
    XCTAssertGreaterThan(refused, 10_000)
    XCTAssertGreaterThan(isRendered, 5_000)
    XCTAssertGreaterThan(read - isRendered, 5_000)
  }

  static func facts(_ utf8: [UInt8]) -> DirectionFacts {
    DirectionFacts(scalars: String(decoding: utf8, as: UTF8.self).unicodeScalars.map(\.value))
  }

  /// The forms the skeleton reads, one by one: a link's destination and a
  /// defined reference's label are not text, an undefined one's is, a code
  /// span's single spaces are trimmed.
  /// (And whether the skeleton is the rendered text: one line, trimmed,
  /// no emphasis or image.)
  func testSkeletonForms() {
    let cases: [(String, String?, Bool)] = [
      ("a [b](https://x.y/z) c", "a b c", true),
      ("a [b][ref] c\n\n[ref]: /u", "a b c", true),
      ("a [b][] c\n\n[b]: /u", "a b c", true),
      ("a [b] c\n\n[b]: /u", "a b c", true),
      ("a [b] c\n\n[ref]: /u", "a [b] c", true),
      ("a [b][nope] c\n\n[ref]: /u", "a [b][nope] c", true),
      ("a [b][nope] c\n\n[b]: /u", "a [b][nope] c", true),
      ("x` a `y", "xay", true),
      ("x`  a  `y", "x a y", true),
      ("x` `y", "x y", true),
      ("a `*b*` c", "a *b* c", true),
      // cmark's backtick memo: the unclosed ``` scanned to the end, so the
      // second single backtick run (the last seen before it) opens nothing.
      ("```x `a` b`c` d", "```x a b`c` d", true),
      ("x `a` b`c` d", "x a bc d", true),
      ("**b** `c`\nd", "**b** c d", false),
      ("a *b* c", "a *b* c", false),
      ("a [*b*](/u) c", "a *b* c", false),
      ("a [b_c] c", "a [b_c] c", false),
      ("a ![b](/u) c", "a !b c", false),
      ("a b\nc", "a b c", false),
      ("a b  \nc", "a b   c", false),
      ("a [b](/u \"t\")", nil, false),
      ("a &amp; b", nil, false),
      ("a www.x.com b", nil, false),
      ("a [b [c](/d)](/e)", nil, false),
      // A NUL is U+FFFD when rendered, in a code span too.
      ("a `b\0` c", nil, false),
    ]
    for (text, expected, isRendered) in cases {
      let source = MarkdownSource(text)
      let blocks = MarkdownReader().read(source, startsDocument: true)
      let renderer = MarkdownInlineRenderer(source: source, definitions: blocks.definitions)
      let block = blocks.blocks.first { $0.kind.hasInlineContent }!
      let skeleton = renderer.readSkeleton(block)
      XCTAssertEqual(skeleton.map { String(decoding: $0.text, as: UTF8.self) }, expected, text)
      XCTAssertEqual(skeleton?.isRendered ?? false, isRendered, text)
      if isRendered { XCTAssertEqual(skeleton?.text, renderer.renderedText(block), text) }
    }
  }

  /// An empty document (a zero-byte file) has no block and no finding, in
  /// both reads; it trapped before (the reader doubled its stretch until
  /// the length overflowed).
  func testEmptyDocument() {
    for text in ["", "\n", " "] {
      let lines = TextLines(text)
      for findingsOnly in [false, true] {
        let read = WholeRead(lines, format: MarkdownFormat(), findingsOnly: findingsOnly)
        XCTAssertEqual(read.entries.count, 0, text.debugDescription)
        XCTAssertNil(read.error, text.debugDescription)
      }
    }
  }

  /// A whole text's source built from its lines (`MarkdownFormat.source`,
  /// shared bytes and line bounds) is the one `MarkdownSource` splits, on
  /// texts with and without a final line feed, empty lines and blank ones.
  func testSourceFromTheLinesIsTheSplitOne() {
    var random = SeededGenerator(seed: 90)
    let pieces = ["", "a", "مرحبا", " ", "\n", "\n\n", "# x", "\t"]
    for _ in 0..<2_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...8, using: &random) { text += pieces.randomElement(using: &random)! }
      let lines = TextLines(text)
      let (built, hazards) = MarkdownFormat.source(lines, 0..<lines.lineCount)
      let split = MarkdownSource(text)
      let scanned = HazardLines(split.bytes, lineStarts: split.lineStarts)
      XCTAssertEqual(hazards?.lines, scanned.lines, text.debugDescription)
      XCTAssertEqual(built.bytes, split.bytes, text.debugDescription)
      XCTAssertEqual(built.lineStarts, split.lineStarts, text.debugDescription)
      XCTAssertEqual(built.lineEnds, split.lineEnds, text.debugDescription)
    }
  }

  /// `Cursor.isUTF8` (the C scan past controls) against `UTF8Decoder`'s
  /// validation, on byte strings of letters, controls, truncated and stray
  /// continuation bytes, overlong forms and surrogates.
  func testLineValidationAgreesWithTheDecoder() {
    let pieces: [[UInt8]] = [
      Array("abc".utf8), Array("مرحبا".utf8), Array("\u{200F}".utf8), Array("\u{061C}".utf8), Array("\u{2067}".utf8),
      Array("€".utf8), Array("😀".utf8), [0xD8], [0xE2, 0x80], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
      [0xF4, 0x90, 0x80, 0x80],
      [0xFF],
    ]
    var random = SeededGenerator(seed: 91)
    var invalid = 0
    for _ in 0..<5_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...12, using: &random) {
        let piece = pieces.randomElement(using: &random)!
        bytes += piece.count < 4 && piece.first! >= 0x80 && Int.random(in: 0..<2, using: &random) == 0 ? [0x61] : piece
      }
      let expected = Cursor.firstInvalidByte(bytes) == nil
      if !expected { invalid += 1 }
      XCTAssertEqual(bytes.withUnsafeBufferPointer { Cursor.isUTF8($0) }, expected, "\(bytes)")
    }
    XCTAssertGreaterThan(invalid, 1_000)
  }

  /// `WordFactsFeed` (the scanner fed only the characters that change its
  /// facts) gives `DirectionFacts(scalars:)`'s facts, offsets included, on
  /// sequences of letters of both directions, marks, digits, neutrals,
  /// white space, isolates, embeddings and marks.
  func testFeedGivesTheFacts() {
    let scalars: [UInt32] = [
      0x61, 0x42, 0x627, 0x5D0, 0x651, 0x30, 0x663, 0x21, 0x2D, 0x20, 0x20, 0x09, 0xA0, 0x2028, 0x2029, 0x0A, 0x2066,
      0x2067, 0x2068, 0x2069, 0x202A, 0x202B, 0x202C, 0x200E, 0x200F, 0x61C, 0xFFFC, 0x1C,
    ]
    var random = SeededGenerator(seed: 92)
    var withWords = 0
    for _ in 0..<20_000 {
      let text = (0..<Int.random(in: 0...16, using: &random)).map { _ in scalars.randomElement(using: &random)! }
      let expected = DirectionFacts(scalars: text)
      if expected.rtlWords > 0 && expected.ltrWords > 0 { withWords += 1 }
      XCTAssertEqual(WordFactsFeed.facts(text), expected, "\(text)")
    }
    XCTAssertGreaterThan(withWords, 2_000)
  }
}

/// `WordFactsFeed.feedText`'s skip over the rest of a word against feeding
/// every character (the reference below: the stops of `feedText`, then
/// `feed` for each scalar).
final class WordFactsFeedTextTests: XCTestCase {
  /// `feedText` without its skip: every scalar decoded, classed and fed.
  static func reference(_ text: String) -> (fed: Bool, facts: DirectionFacts, rightToLeft: Bool) {
    var feed = WordFactsFeed()
    var rightToLeft = false
    for scalar in text.unicodeScalars {
      let value = scalar.value
      let c = BidiClass(value)
      switch c {
      case .L, .R, .AL:
        if value == 0x200E || value == 0x200F || value == 0x61C { return (false, feed.facts, rightToLeft) }
        if c != .L { rightToLeft = true }
      case .B, .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI:
        return (false, feed.facts, rightToLeft)
      default:
        break
      }
      feed.feed(value, c, at: 0)
    }
    return (true, feed.facts, rightToLeft)
  }

  static func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
    var feed = WordFactsFeed()
    var bytes = Array(text.utf8)
    let fed = bytes.withUnsafeMutableBufferPointer { feed.feedText(UnsafeBufferPointer($0)) }
    let expected = reference(text)
    let name = text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    XCTAssertEqual(fed, expected.fed, name, file: file, line: line)
    XCTAssertEqual(feed.facts, expected.facts, name, file: file, line: line)
    XCTAssertEqual(feed.rightToLeftLetter, expected.rightToLeft, name, file: file, line: line)
    // A text with no bidi control, fed as one (the skip not looking for ALM).
    guard !text.unicodeScalars.contains(where: { BidiControl(scalar: $0.value) != nil }) else { return }
    var free = WordFactsFeed()
    let freeFed = bytes.withUnsafeMutableBufferPointer { free.feedText(UnsafeBufferPointer($0), controlFree: true) }
    XCTAssertEqual(freeFed, expected.fed, name, file: file, line: line)
    XCTAssertEqual(free.facts, expected.facts, name, file: file, line: line)
    XCTAssertEqual(free.rightToLeftLetter, expected.rightToLeft, name, file: file, line: line)
  }

  /// Every character up to U+07FF (ASCII, Latin-1, Armenian, Hebrew,
  /// Arabic, NKo…) after a word's right-to-left or left-to-right letter,
  /// followed by a letter of each direction and a space.
  func testEveryTwoByteCharacterInAWord() {
    for value in UInt32(1)...0x7FF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      for word in ["\u{5D0}", "\u{627}", "a", "\u{627}\u{5D0}a"] {
        for after in ["", "a", "\u{5D0}", " a", " \u{627}", "\u{627}a b"] {
          Self.check(word + String(scalar) + after)
        }
      }
    }
  }

  /// `WordFactsFeed.facts` (scalars, offsets kept) skips the same
  /// characters: every scalar up to U+07FF inside words of each direction
  /// against `DirectionFacts(scalars:)`, which feeds each one.
  func testFactsOfScalarsSkipOnlyWhatFeedLeaves() {
    let words: [[UInt32]] = [[0x5D0], [0x627], [0x61], [0x627, 0x5D0, 0x61], [0x20, 0x61]]
    let afters: [[UInt32]] = [[], [0x61], [0x5D0], [0x20, 0x61], [0x20, 0x627], [0x627, 0x61, 0x20, 0x62]]
    for value in UInt32(0)...0x7FF {
      for word in words {
        for after in afters {
          let scalars = word + [value] + after
          XCTAssertEqual(WordFactsFeed.facts(scalars), DirectionFacts(scalars: scalars), "\(scalars)")
        }
      }
    }
  }

  /// Long words (eight bytes and more: the skip's eight-byte steps) of
  /// Hebrew and Arabic letters with one other character at every offset:
  /// ALM, RLM, LRM, an isolate, Armenian, a Hebrew point, an ASCII letter,
  /// digit or punctuation, a space, a three-byte letter, Syriac, NKo.
  func testLongWords() {
    let letters = ["\u{5D0}", "\u{5E9}", "\u{627}", "\u{644}", "\u{6A9}", "\u{6CC}", "\u{698}"]
    let others = [
      "\u{61C}", "\u{200F}", "\u{200E}", "\u{2067}", "\u{531}", "\u{589}", "\u{5B0}", "\u{5BE}", "a", "Z", "7", ".",
      " ", "\u{A0}", "\u{6F0}", "\u{660}", "\u{FB1D}", "\u{710}", "\u{7CA}", "\u{7F6}", "\u{64B}", "\u{600}",
      "\u{D80}", "\u{4E00}",
    ]
    var random = SeededGenerator(seed: 43)
    for other in others {
      for length in 1...12 {
        for position in 0...length {
          var word = (0..<length).map { _ in letters.randomElement(using: &random)! }
          word.insert(other, at: position)
          for prefix in ["", "a", "\u{627}", "x ", "\u{5D0} "] {
            Self.check(prefix + word.joined() + " b")
            Self.check(prefix + word.joined())
          }
        }
      }
    }
  }

  /// Random words of letters of both directions, marks, digits, Armenian,
  /// NKo, ALM, white space and ASCII punctuation.
  func testRandomTexts() {
    let pieces = [
      "مرحبا", "שלום", "يثبّت", "٣٤", "abc", "Z", "42", "é", "\u{589}", "\u{531}", "\u{7CA}", "\u{7F6}", "\u{5BE}",
      "\u{61C}", "\u{600}", "\u{6F0}", "-", "@", "[", "`", "~", "\u{7F}", " ", "  ", "\u{A0}", "\t", "\u{1F}",
      "\u{2067}", "\u{2069}", "\u{200F}", "\u{85}", "\u{3000}", "文",
    ]
    var random = SeededGenerator(seed: 35)
    var mixed = 0
    for _ in 0..<30_000 {
      let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      let facts = Self.reference(text).facts
      if facts.rtlWords > 0 && facts.ltrWords > 0 { mixed += 1 }
      Self.check(text)
    }
    XCTAssertGreaterThan(mixed, 1_000)
  }
}

/// `MarkdownBlockKind.language`'s byte scan of an ASCII info string
/// against the split by characters it stands for.
final class FencedLanguageTests: XCTestCase {
  func testLanguageIsTheFirstWordOfTheInfoString() {
    let pieces = [" ", "\t", "swift", "Python", "c++", "{.js}", "\r", "é", "\u{301}", "x", "`", "  "]
    var random = SeededGenerator(seed: 37)
    var found = 0
    for _ in 0..<5_000 {
      let info = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
      let expected = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
      XCTAssertEqual(MarkdownBlockKind.fencedCode(info: info).language, expected, info.debugDescription)
      if expected != nil { found += 1 }
    }
    XCTAssertGreaterThan(found, 3_000)
  }
}
