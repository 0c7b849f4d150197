import DocumentStore
import UnicodeBidi

// The fuzz target `document-edits` compiles this file with
// BidiTestSupport's SeededGenerator.swift instead of the module (which
// links XCTest).
#if canImport(BidiTestSupport)
  import BidiTestSupport
#endif

/// The naive model the tree is checked against: the text as plain bytes,
/// split into lines from scratch, with positions converted through Swift's
/// own `String` views.
struct ShadowText {
  var bytes: [UInt8]

  init(_ text: String) { bytes = Array(text.utf8) }

  var text: String { String(decoding: bytes, as: UTF8.self) }

  struct ShadowLine: Equatable {
    var start: Int
    var content: [UInt8]
    var terminator: [UInt8]
    var string: String { String(decoding: content, as: UTF8.self) }
  }

  /// Lines split at `\r\n`, `\r` and `\n`, from scratch.
  var lines: [ShadowLine] {
    var result: [ShadowLine] = []
    var start = 0
    var i = 0
    while i < bytes.count {
      if bytes[i] == 0x0A || bytes[i] == 0x0D {
        let length = bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
        result.append(
          ShadowLine(start: start, content: Array(bytes[start..<i]), terminator: Array(bytes[i..<(i + length)])))
        i += length
        start = i
      } else {
        i += 1
      }
    }
    result.append(ShadowLine(start: start, content: Array(bytes[start...]), terminator: []))
    return result
  }

  /// (unit offset, byte offset) of every scalar start in `content`, and the end.
  static func boundaries(_ content: String, _ encoding: PositionEncoding) -> [(units: Int, bytes: Int)] {
    var result: [(Int, Int)] = []
    var units = 0
    var bytes = 0
    for scalar in content.unicodeScalars {
      result.append((units, bytes))
      switch encoding {
      case .utf8: units += scalar.utf8.count
      case .utf16: units += scalar.utf16.count
      case .utf32: units += 1
      }
      bytes += scalar.utf8.count
    }
    result.append((units, bytes))
    return result
  }

  /// The byte offset of `character`: clamped, snapped back to a scalar start.
  static func utf8Offset(_ boundaries: [(units: Int, bytes: Int)], character: Int) -> Int {
    boundaries.last(where: { $0.units <= character })?.bytes ?? 0
  }

  /// The character offset of byte `offset`, snapped back to a scalar start.
  static func character(_ boundaries: [(units: Int, bytes: Int)], utf8Offset: Int) -> Int {
    boundaries.last(where: { $0.bytes <= utf8Offset })?.units ?? 0
  }

  static func utf8Offset(in content: String, character: Int, _ encoding: PositionEncoding) -> Int {
    utf8Offset(boundaries(content, encoding), character: character)
  }

  /// The absolute byte offset of `position`, or nil if its line is past the end.
  func offset(of position: LSPPosition, _ encoding: PositionEncoding) -> Int? {
    let lines = self.lines
    guard position.line >= 0, position.line < lines.count, position.character >= 0 else { return nil }
    let line = lines[position.line]
    return line.start + Self.utf8Offset(in: line.string, character: position.character, encoding)
  }

  /// Applies an LSP change as naively as possible; false if it is invalid.
  mutating func replace(_ range: LSPRange, with text: String, _ encoding: PositionEncoding) -> Bool {
    guard let start = offset(of: range.start, encoding), let end = offset(of: range.end, encoding),
      range.start <= range.end
    else { return false }
    bytes.replaceSubrange(start..<end, with: Array(text.utf8))
    return true
  }
}

/// Pieces random texts are made of: ASCII, Arabic, Hebrew, astral emoji and
/// letters, combining marks, bidi controls, and every kind of line break.
enum TextPieces {
  static let pieces = [
    "a", "x", "word", " ", "\t", "Hello", "x1", "مرحبا", "العالم", "ש", "שלום", "עולם",
    "😀", "👍🏽", "𝒳", "🇸🇦",
    "e\u{301}", "\u{200F}", "\u{2067}", "\u{2069}", "٣", "\n", "\r", "\r\n", "\n", "\r\n", "\r\r", "\n\r", "x\r",
    "\u{0}", "é", "中文",
  ]

  static func text(pieces count: Int, using rng: inout SeededGenerator) -> String {
    var text = ""
    for _ in 0..<count { text += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
    return text
  }
}

/// A dummy analysis for the cache hooks: does the line contain the letter x,
/// and how many. Counts how many times a line is analysed.
struct LetterX: LineAnalysis {
  struct Summary: Hashable, Sendable {
    var lines = 0
    var linesWithX = 0
    var xCount = 0
  }

  nonisolated(unsafe) static var computed = 0

  let xCount: Int

  init(line: Line) {
    Self.computed += 1
    xCount = line.withUTF8 { $0.reduce(0) { $0 + ($1 == UInt8(ascii: "x") ? 1 : 0) } }
  }

  init(content: [UInt8]) { xCount = content.reduce(0) { $0 + ($1 == UInt8(ascii: "x") ? 1 : 0) } }

  var summary: Summary { Summary(lines: 1, linesWithX: xCount > 0 ? 1 : 0, xCount: xCount) }
  static var emptySummary: Summary { Summary() }
  static func combine(_ a: Summary, _ b: Summary) -> Summary {
    Summary(lines: a.lines + b.lines, linesWithX: a.linesWithX + b.linesWithX, xCount: a.xCount + b.xCount)
  }
}

/// Tiny nodes, so that small texts already make deep trees.
let tinyTuning = LineTreeTuning(maxLeafBytes: 16, maxChildren: 4)
