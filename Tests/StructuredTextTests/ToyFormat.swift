import StructuredText
import UnicodeBidi

/// A small format written against the `StructuredFormat` interface alone,
/// as a format module writes one (Documentation/Architecture.md,
/// "Structured documents"), to test what Localization does not use: atoms
/// that show their text, markup, blocks, plain regions with a language.
///
/// Each line is an entry (a "block") whose text is the line after a `- `
/// marker (markup: not in the text); a `` `span` `` is an atom that shows
/// its text; the lines between ```` ```lang ```` and ```` ``` ```` are a plain
/// region in that language; `!` alone on a line is a syntax error.
struct ToyFormat: StructuredFormat {
  var name: String { "toy" }
  var displayName: String { "a toy file" }
  var entryNoun: String { "block" }
  var syntaxCode: RuleCode { .localizationSyntax }
  var paragraphRules: [ParagraphRule] { [Self.latinFirst] }

  /// A stand-in for `bidi.blockDirection`: mostly right to left by the
  /// estimate, first strong character Latin.
  static let latinFirst = ParagraphRule(code: .blockDirection) { paragraph, context in
    let estimate = DirectionPolicy(strategy: .estimate)
    guard paragraph.direction(estimate) == .rightToLeft, paragraph.direction() == .leftToRight else { return nil }
    return RuleResult(
      message: "This block renders left to right",
      fixes: [
        Fix(
          title: "Start the block with RLM",
          edits: context.planner.directionEdits(
            .rightToLeft, paragraphs: paragraph.paragraph..<paragraph.paragraph + 1),
          isPreferred: true)
      ])
  }

  /// The phase of `ReaderState` inside a fenced region.
  static let inFence: UInt8 = 1

  func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    while cursor.byte != nil {
      // A boundary at each line start outside a fence: reading resumes there.
      if state.phase == 0, !sink.boundary(cursor, state) { return }
      let line = cursor.line
      let bytes = cursor.bytes.prefix { $0 != 0x0A }
      if bytes.starts(with: Array("```".utf8)) {
        if state.phase == Self.inFence {
          // The region ends: emitted whole, once it is complete.
          sink.items.append(
            .region(PlainRegion(lines: Int(state.frames[0].index)..<line + 1, language: state.frames[0].name)))
          state.phase = 0
          state.frames = []
        } else {
          state.phase = Self.inFence
          state.frames = [.init(kind: 0, name: String(decoding: bytes.dropFirst(3), as: UTF8.self), index: line)]
        }
        cursor.skipLine()
        continue
      }
      if state.phase == Self.inFence {
        cursor.skipLine()
        continue
      }
      if Array(bytes) == [UInt8(ascii: "!")] {
        sink.fail("a lone ! is not a block", at: cursor.position)
        return
      }
      guard !bytes.isEmpty else {
        cursor.skipLine()
        continue
      }
      var builder = TextBuilder(baseLine: line)
      if bytes.starts(with: Array("- ".utf8)) { cursor.advance(by: 2) }
      let start = cursor.position
      while let byte = cursor.byte, byte != 0x0A {
        if byte == UInt8(ascii: "`") {
          // The backticks are markup, the span's content an atom.
          let open = builder.count
          builder.appendLiteral(from: &cursor)
          builder.markup.append(open..<builder.count)
          let content = builder.count
          builder.appendLiteralRun(from: &cursor) { $0 == UInt8(ascii: "`") }
          builder.atoms.append(
            TextAtom(range: content..<builder.count, kind: AtomKind("code"), isNumeric: false, showsText: true))
          if cursor.byte == UInt8(ascii: "`") {
            let close = builder.count
            builder.appendLiteral(from: &cursor)
            builder.markup.append(close..<builder.count)
          }
        } else {
          builder.appendLiteralRun(from: &cursor) { $0 == UInt8(ascii: "`") }
        }
      }
      var entry = builder.value(key: "", start: start, end: cursor.position)
      entry.block = "paragraph"
      entry.paragraphs = [0..<entry.text.utf8.count]
      sink.add(entry)
      cursor.skipLine()
    }
  }
}
