/// A part of a line that is not plain code: a comment, a string literal, the
/// code of an interpolation inside a literal, or an identifier that contains
/// bidi controls.
///
/// A line's segments nest (an interpolation lies inside its literal, and
/// literals, comments and identifiers inside an interpolation) and come in
/// pre-order: by start, each before the segments it holds.
struct Segment: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case comment
    case string
    case interpolation
    case identifier
  }

  var kind: Kind
  /// Byte offsets of the segment within the line.
  var start: Int
  var end: Int
  /// Where closers go to close a control before the segment ends: before
  /// `*/`, before the closing quote or bracket, or at the end of the line.
  var contentEnd: Int
  /// Whether the comment or literal ends on this line (false if it goes on
  /// to the next line).
  var endsOnLine: Bool
}

enum ASCII {
  static let tab: UInt8 = 0x09
  static let space: UInt8 = 0x20
  static let bang: UInt8 = 0x21
  static let quote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let dollar: UInt8 = 0x24
  static let percent: UInt8 = 0x25
  static let apostrophe: UInt8 = 0x27
  static let openParen: UInt8 = 0x28
  static let closeParen: UInt8 = 0x29
  static let star: UInt8 = 0x2A
  static let minus: UInt8 = 0x2D
  static let slash: UInt8 = 0x2F
  static let colon: UInt8 = 0x3A
  static let less: UInt8 = 0x3C
  static let equals: UInt8 = 0x3D
  static let greater: UInt8 = 0x3E
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let caret: UInt8 = 0x5E
  static let underscore: UInt8 = 0x5F
  static let backtick: UInt8 = 0x60
  static let openBrace: UInt8 = 0x7B
  static let bar: UInt8 = 0x7C
  static let closeBrace: UInt8 = 0x7D
  static let tilde: UInt8 = 0x7E
}

@inline(__always)
func isASCIIIdentifierByte(_ b: UInt8) -> Bool {
  (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == ASCII.underscore
    || b == ASCII.dollar
}

@inline(__always)
func isASCIILetterOrUnderscore(_ b: UInt8) -> Bool {
  (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == ASCII.underscore
}

/// Whether a non-ASCII scalar can be part of an identifier: letters, marks
/// and digits of any script. Without Unicode tables this is approximate: it
/// rejects spaces, punctuation and symbols of the common blocks.
func isIdentifierScalar(_ value: UInt32) -> Bool {
  switch value {
  case 0x85, 0xA0...0xA9, 0xAB...0xB4, 0xB6...0xB9, 0xBB...0xBF, 0xD7, 0xF7: return false
  case 0x037E, 0x0387, 0x055A...0x055F, 0x0589, 0x058A, 0x05BE, 0x05C0, 0x05C3, 0x05C6, 0x05F3, 0x05F4: return false
  case 0x0600...0x060F, 0x061B...0x061F, 0x066A...0x066D, 0x06D4: return false
  case 0x1680, 0x2000...0x203E, 0x2041...0x2053, 0x2055...0x206F: return false
  case 0x2190...0x2BFF, 0x3000...0x3003, 0x3008...0x3011, 0xFE10...0xFE19, 0xFE30...0xFE4F, 0xFEFF: return false
  case 0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFFF9...0xFFFD: return false
  default: return value >= 0x80
  }
}

/// A lightweight tokenizer: finds the comments, string literals and
/// identifiers of a line, continuing from the state the previous line left.
/// One pass over the line, no backtracking beyond a delimiter's length.
struct Lexer {
  let syntax: Syntax

  /// Lexes `line` starting in `state`, leaves the state at the line's end in
  /// `state`, and (when `record` is true) appends the line's segments to
  /// `segments`, in pre-order.
  func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexerState, segments: inout [Segment], record: Bool) {
    var run = LineRun(line: line, syntax: syntax, record: record)
    run.lex(state: &state)
    if record { segments += run.segments }
  }
}

/// The work of lexing one line.
struct LineRun {
  let p: UnsafeBufferPointer<UInt8>
  let n: Int
  let syntax: Syntax
  let record: Bool
  var segments: [Segment] = []
  /// The innermost interpolation the lexer is in; the ones around it are
  /// in the state's `frames` (kept apart: a line whose interpolations open
  /// and close on it allocates nothing for them).
  var frame: InterpolationFrame?
  /// Here-documents announced on the line: their bodies follow it.
  var hereDocuments: [HereDocument] = []
  /// The last significant code byte (0 at the line start), for the
  /// JavaScript regex-or-division guess.
  var lastSignificant: UInt8 = 0
  var lastWordAllowsRegex = false

  /// Interpolations nest at most this deep; deeper, an opener is text.
  static let maximumFrames = 32
  /// Here-document words longer than this are not recognized.
  static let maximumHereDocumentWord = 128

  init(line: UnsafeBufferPointer<UInt8>, syntax: Syntax, record: Bool) {
    self.p = line
    self.n = line.count
    self.syntax = syntax
    self.record = record
  }

  // MARK: Segments

  /// Adds a segment that holds nothing (a comment, an identifier).
  mutating func add(_ kind: Segment.Kind, _ start: Int, _ end: Int, contentEnd: Int, endsOnLine: Bool) {
    guard record else { return }
    segments.append(Segment(kind: kind, start: start, end: end, contentEnd: contentEnd, endsOnLine: endsOnLine))
  }

  /// Opens a segment that may hold others (a literal, an interpolation);
  /// `close` sets its end. Returns its index, or -1 when not recording.
  mutating func open(_ kind: Segment.Kind, _ start: Int) -> Int {
    guard record else { return -1 }
    segments.append(Segment(kind: kind, start: start, end: n, contentEnd: n, endsOnLine: false))
    return segments.count - 1
  }

  mutating func close(_ index: Int, end: Int, contentEnd: Int, endsOnLine: Bool) {
    guard index >= 0 else { return }
    segments[index].end = end
    segments[index].contentEnd = contentEnd
    segments[index].endsOnLine = endsOnLine
  }

  func at(_ i: Int) -> UInt8 {
    i < n ? p[i] : 0
  }

  // MARK: Lines

  mutating func lex(state: inout LexerState) {
    // The literals and interpolations the line starts in.
    if !state.frames.isEmpty {
      for k in state.frames.indices {
        state.frames[k].stringSegment = Int32(open(.string, 0))
        state.frames[k].interpolationSegment = Int32(open(.interpolation, 0))
      }
      frame = state.frames.removeLast()
    }
    var i = 0
    switch state.mode {
    case .code:
      break
    case .blockComment(let depth):
      i = blockComment(from: 0, start: 0, depth: depth, state: &state)
    case .rubyBlockComment:
      let ends = startsWithDirective("=end")
      add(.comment, 0, n, contentEnd: n, endsOnLine: ends)
      if ends { state.mode = .code }
      return
    case .hereDocuments(let documents):
      guard let document = documents.first else {
        state.mode = .code
        break
      }
      if isTerminator(of: document) {
        // The terminator line holds nothing but the word.
        state.mode = documents.count == 1 ? .code : .hereDocuments(Array(documents.dropFirst()))
      } else {
        add(.string, 0, n, contentEnd: n, endsOnLine: false)
      }
      return
    case .string(let delimiter):
      i = string(from: 0, segment: open(.string, 0), delimiter, state: &state)
    }
    code(from: i, state: &state)
    endLine(state: &state)
  }

  /// Closes what the line leaves open; a literal that cannot span lines
  /// ends here with everything inside it.
  mutating func endLine(state: inout LexerState) {
    if let frame {
      state.frames.append(frame)
      self.frame = nil
    }
    for k in state.frames.indices.reversed() {
      close(Int(state.frames[k].interpolationSegment), end: n, contentEnd: n, endsOnLine: false)
      close(
        Int(state.frames[k].stringSegment), end: n, contentEnd: n, endsOnLine: !state.frames[k].delimiter.multiline)
      state.frames[k].stringSegment = -1
      state.frames[k].interpolationSegment = -1
    }
    if let k = state.frames.firstIndex(where: { !$0.delimiter.multiline }) {
      state.frames.removeSubrange(k...)
      state.mode = .code
    }
    // Here-documents announced on the line start on the next one (not if
    // the line ends inside a literal or comment).
    if case .code = state.mode, state.frames.isEmpty, !hereDocuments.isEmpty {
      state.mode = .hereDocuments(hereDocuments)
    }
  }

  /// Whether the line starts with `word` followed by a space or its end.
  func startsWithDirective(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard n >= count else { return false }
    for k in 0..<count where p[k] != word.utf8Start[k] { return false }
    return n == count || p[count] == ASCII.space || p[count] == ASCII.tab || p[count] == 0x0D
  }

  /// Whether the line ends a here-document: its word alone on the line
  /// (after tabs or spaces, when it may be indented).
  func isTerminator(of document: HereDocument) -> Bool {
    var k = 0
    if document.indented {
      while k < n, p[k] == ASCII.tab || (!document.tabsOnly && p[k] == ASCII.space) { k += 1 }
    }
    return n - k == document.word.count && matches(document.word, at: k)
  }
}
