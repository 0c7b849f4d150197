import BidiHazards
import UnicodeBidi

/// Everything a reader needs to go on reading from an entry boundary at the
/// start of a line: small, and equal exactly when reading from there gives
/// the same result (an edit re-reads only the entries it touches). What the
/// fields mean is the format's: a reader of nested containers keeps one
/// frame per open container, a line-based reader needs only `phase`.
package struct ReaderState: Hashable, Sendable {
  /// One open container: a JSON object or array, an XML element, a block
  /// quote or list item.
  package struct Frame: Hashable, Sendable {
    /// The format's role of the container (for JSON, 0 for an object and
    /// 1 for an array).
    package var kind: UInt8
    /// The JSON member key, the XML element's name.
    package var name: String
    /// The array index, or a count the format keeps.
    package var index: Int = 0
    /// A fact the format keeps with the container (an XLIFF unit's id, an
    /// `.xcstrings` substitution's format specifier).
    package var note: String = ""

    package init(kind: UInt8, name: String, index: Int = 0, note: String = "") {
      self.kind = kind
      self.name = name
      self.index = index
      self.note = note
    }
  }

  /// The reader's phase (what it expects next), by format.
  package var phase: UInt8 = 0
  package var frames: [Frame] = []
  /// Facts of the enclosing context (an XLIFF file's target language).
  package var notes: [String] = []
  /// The tokens of the source text read last (an XLIFF unit's or Qt
  /// message's `<source>`), for the translations after it.
  package var sourceTokens: SourceTokens?

  package init() {}
}

/// Where readers put what they find (entries, facts, plain regions, the
/// syntax error) and the entry boundaries they pass, and how a re-read is
/// told to stop.
package struct ReadSink {
  package var items: [ReadItem] = []
  /// The entry boundaries at line starts passed, with the state there.
  package var checkpoints: [(line: Int, state: ReaderState)] = []
  /// Whether `checkpoints` are kept (an index's read); a whole read
  /// (`WholeRead`), which cannot stop, keeps none.
  package var keepsCheckpoints = true
  /// Whether the findings a reader decides (`ReadItem.finding`) need their
  /// quick fixes: `check` writes them only in SARIF.
  package var needsFixes = true
  package var error: SyntaxError?
  /// The keys of the document's facts an index knew before this read, with
  /// how many facts have each (empty for a first read): a reader whose
  /// entries depend on facts elsewhere reads them with these.
  package var factKeys: [String: Int] = [:]
  /// Set by a read for findings alone (`check`): a reader may leave out an
  /// entry that can raise no finding (no right-to-left letter, no bidi
  /// control, none in its identifier, no source to compare with, and no
  /// hazard byte on its lines, so the line rules need not blank it); and
  /// one whose only finding is a paragraph rule's may be given as that
  /// finding (`ReadItem.finding`), on the same conditions but the rule's.
  package var findingsOnly = false
  /// How a reader may split its work into parts run at once (a reader
  /// that does keeps its items in the order one thread gives).
  package var runner = PartRunner.serial
  /// Asked at each boundary after the first: true stops the read there
  /// (the index's "the state equals the old one past the edit").
  var shouldStop: ((Int, ReaderState) -> Bool)?
  package private(set) var stopped = false
  private var lastLine = -1

  package init(shouldStop: ((Int, ReaderState) -> Bool)? = nil) {
    self.shouldStop = shouldStop
  }

  /// Whether the read may stop before the end (a whole read does not),
  /// and whether it would stop at a boundary at a line in a state, when it
  /// is not the first boundary of the read: for a reader that reads ahead
  /// of what it hands the sink (it stops reading there, and records the
  /// boundary when it gets to it).
  package var mayStop: Bool { shouldStop != nil }

  /// See `mayStop`.
  package var stopCondition: (Int, ReaderState) -> Bool {
    shouldStop ?? { _, _ in false }
  }

  /// Records an entry boundary when the cursor is at the start of a line;
  /// returns false when reading must stop.
  package mutating func boundary(_ cursor: Cursor, _ state: ReaderState) -> Bool {
    guard cursor.column == 0 else { return !stopped }
    return boundary(line: cursor.line, state)
  }

  /// Records an entry boundary at the start of line `line`.
  package mutating func boundary(line: Int, _ state: ReaderState) -> Bool {
    guard line > lastLine else { return !stopped }
    lastLine = line
    if shouldStop == nil && !keepsCheckpoints { return true }
    if let shouldStop, !checkpoints.isEmpty, shouldStop(line, state) {
      stopped = true
      checkpoints.append((line, state))
      return false
    }
    checkpoints.append((line, state))
    return true
  }

  /// Ends a read that stopped at `cursor`: when the reader met the end of
  /// the readable text at a byte that is not UTF-8, that byte is the error
  /// (whatever the reader said about the end it met), and a value reaching
  /// it (or the finding decided for one, `ReadItem.finding`, whose range is
  /// the value's) is dropped; the values before it stay.
  package mutating func finish(at cursor: Cursor) {
    guard let invalid = cursor.invalidText, cursor.isAtEnd, !stopped else { return }
    error = Self.invalidTextError(cursor.lines, at: invalid)
    items.removeAll { item in
      switch item {
      case .entry(let entry): entry.range.end >= invalid
      case .finding(let finding): finding.range.end >= invalid
      default: false
      }
    }
  }

  /// The error of a text that stops being UTF-8 at `position` (a byte
  /// that is not UTF-8; of a UTF-16 file's conversion, the defect that it
  /// stands for): its message names the byte and, when the text
  /// from there on looks written in a legacy encoding, the command that
  /// converts it. (So it depends on the lines after the error too: an edit
  /// there makes it again, `StructuredIndex.edit`.)
  package static func invalidTextError(_ lines: any DocumentLines, at position: SourcePosition) -> SyntaxError {
    if lines.isUTF16Conversion {
      // An unpaired surrogate (three bytes) or the odd last byte (one).
      let defect = lines.withUTF8(ofLine: position.line) { bytes in
        Array(bytes[position.column..<min(bytes.count, position.column + (bytes[position.column] == 0xED ? 3 : 1))])
      }
      return SyntaxError(
        position: position, message: "\(UTF16Conversion.describe(defect)) is not UTF-16 text", isInvalidText: true)
    }
    let byte = lines.withUTF8(ofLine: position.line) { $0[position.column] }
    return SyntaxError(
      position: position,
      message: "byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8 text"
        + " (a text file is UTF-8, or UTF-16 with a byte order mark)"
        + LegacyEncoding.hint(sample(lines, from: position)),
      isInvalidText: true)
  }

  /// Up to 4 KB of the text from `position` on, across lines: what
  /// `LegacyEncoding` tells an encoding from.
  private static func sample(_ lines: any DocumentLines, from position: SourcePosition) -> [UInt8] {
    var sample: [UInt8] = []
    var line = position.line
    var column = position.column
    while line < lines.lineCount, sample.count < 4096 {
      lines.withUTF8(ofLine: line) { bytes in
        sample += bytes[min(column, bytes.count)..<min(bytes.count, column + 4096 - sample.count)]
      }
      sample.append(0x0A)
      line += 1
      column = 0
    }
    return sample
  }

  /// Records the syntax error at `position`, unless one is recorded:
  /// reading stops there (the reader returns).
  package mutating func fail(_ message: String, at position: SourcePosition) {
    if error == nil { error = SyntaxError(position: position, message: message) }
  }

  /// Adds an entry as it is (a format that completes its entries, finding
  /// atoms and paragraphs, does so before).
  package mutating func add(_ entry: consuming TextEntry) {
    items.append(.entry(entry))
  }
}

/// A reader of one format: reads from a cursor in a state until the
/// document ends, it meets a syntax error (`sink.fail`), or the sink says
/// stop at a boundary. It records a boundary (`sink.boundary`) at the start
/// of each line where reading can resume from the state alone.
package protocol FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink)
}
