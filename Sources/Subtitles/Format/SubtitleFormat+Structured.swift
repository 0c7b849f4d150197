import StructuredText
import UnicodeBidi

/// The subtitle formats on the one design of structured documents
/// (Documentation/Architecture.md, "Structured documents"; contract §8):
/// each line of a cue's text is an entry with one paragraph, its text what
/// the player shows (tags, timestamps and SSA override codes left out,
/// WebVTT character references decoded), its map leading back to the
/// source, so that an edit never lands in a cue number, a timing line or a
/// tag. The readers (`SubRipReader`, `WebVTTReader`) do the reading; this
/// turns what they find into the design's items.
extension SubtitleFormat: StructuredFormat {
  package var name: String { self == .subRip ? "srt" : "vtt" }
  package var displayName: String { self == .subRip ? "a SubRip file" : "a WebVTT file" }
  package var entryNoun: String { "cue line" }
  package var syntaxCode: RuleCode { .subtitleSyntax }
  package var paragraphRules: [ParagraphRule] { [SubtitleRules.cueDirection] }
  /// `movie.heb.forced.srt`, `he/episode1.vtt` (contract §8).
  package var pathNaming: PathNaming { .subtitles }

  /// Reads from the cursor's line (the start, or a checkpoint the readers
  /// left: the first line of a block after an empty line) to the end, the
  /// first error a player cannot get past (`sink.fail`: a broken timing
  /// line, a cue that ends before it starts, a WebVTT file without its
  /// header), or the boundary where the index says stop.
  package func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    let lines = cursor.lines
    let start = cursor.line
    let checkpoint = start == 0 ? nil : Self.checkpoint(line: start, state)
    // The reading stops where the index would (it records that boundary
    // below): an edit reads the cues it touches, not the rest of the file.
    // (A whole read never stops: no state made at each checkpoint.)
    let stopCondition = sink.stopCondition
    var stoppedAt: Int?
    let shouldStop: ((SubtitleCheckpoint) -> Bool)? =
      sink.mayStop
      ? {
        guard stopCondition($0.line, Self.state(of: $0)) else { return false }
        stoppedAt = $0.line
        return true
      } : nil
    let document = SubtitleReader.read(
      LinesOfCursor(lines: lines), format: self, from: checkpoint, stoppingWhere: shouldStop)
    let readEnd = stoppedAt.map { $0 + 1 } ?? lines.lineCount
    if start == 0, let language = document.headerLanguage, let tag = LocaleTag(language, naming: .subtitles) {
      sink.items.append(.locale(tag.description, line: 0))
    }
    // Where reading stops: the first byte that is not UTF-8 (the sink's
    // error, as in every format), else the first error players cannot get
    // past; entries on that line and after it are not read.
    let invalidLine = Self.firstLineNotUTF8(lines, start..<max(start, min(readEnd, lines.lineCount)))
    let error = document.diagnostics.first { $0.severity == .error }
    let stop = min(invalidLine ?? Int.max, error?.position.line ?? Int.max)
    var checkpoints = document.checkpoints.filter { $0.line <= stop }[...]
    func passBoundaries(through line: Int) -> Bool {
      while let next = checkpoints.first, next.line <= line {
        checkpoints.removeFirst()
        guard sink.boundary(line: next.line, Self.state(of: next)) else {
          cursor = Cursor(lines, line: next.line)
          return false
        }
      }
      return true
    }
    for line in document.lines where line.line < stop {
      guard passBoundaries(through: line.line) else { return }
      sink.add(entry(line, lines: lines))
    }
    guard passBoundaries(through: stop) else { return }
    if let invalidLine, invalidLine == stop {
      cursor = Cursor(lines, line: invalidLine)  // its bytes end at the invalid one
      cursor.skip(toColumn: Int.max)
    } else if let error {
      cursor = Cursor(lines, line: error.position.line)
      sink.fail(error.message, at: SourcePosition(line: error.position.line, column: error.position.column))
    } else {
      cursor = Cursor(lines, line: lines.lineCount - 1)
      cursor.skip(toColumn: Int.max)
    }
  }

  /// The first of `range`'s lines holding a byte that is not UTF-8: from
  /// the hazard lines of a text in memory (found by the one scan `check`'s
  /// passes share), else validating each line.
  static func firstLineNotUTF8(_ lines: any DocumentLines, _ range: Range<Int>) -> Int? {
    if let text = lines as? TextLines {
      let found = text.hazards.firstLineNotUTF8(from: range.lowerBound, last: range.upperBound)
      return found < range.upperBound ? found : nil
    }
    return range.first { line in
      lines.withUTF8(ofLine: line) { bytes in
        do throws(InvalidUTF8) {
          try UTF8Decoder.validate(bytes)
          return false
        } catch { return true }
      }
    }
  }

  /// Marks are written as the file writes them: a WebVTT file that writes
  /// bidi controls as numeric references gets them (`&#x200F;`); else the
  /// character itself, which both formats read as it is (a named reference
  /// such as `&rlm;` has no spelling in `MarkSpelling`: the character).
  package func spelling(_ votes: SpellingVotes) -> MarkSpelling {
    self == .webVTT ? votes.mostFrequentEscape ?? .literal : .literal
  }

  /// A cue line as an entry: its decoded text, its map (verbatim runs and
  /// references; the markup between them maps to nothing), its cue.
  func entry(_ line: SubtitleLine, lines: any DocumentLines) -> TextEntry {
    let length = line.text.utf8.count
    var entry = TextEntry(
      key: "", text: line.text, map: line.map, content: SourceRange(line: 0, line.columns), firstLine: line.line)
    entry.cue = line.cue
    entry.paragraphs = length == 0 ? [] : [0..<length]
    if self == .webVTT, !line.escapes.isEmpty {
      entry.controlSpelling = lines.withUTF8(ofLine: line.line) { Self.controlSpelling(line.escapes, in: $0) }
    }
    return entry
  }

  /// How the line's character references write bidi controls, if any does:
  /// `&#x200F;` or `&#8207;`.
  static func controlSpelling(_ escapes: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> MarkSpelling? {
    for escape in escapes where escape.upperBound <= bytes.count && escape.count > 3 {
      guard bytes[escape.lowerBound] == UInt8(ascii: "&"), bytes[escape.lowerBound + 1] == UInt8(ascii: "#") else {
        continue
      }
      let hex = bytes[escape.lowerBound + 2] | 0x20 == UInt8(ascii: "x")
      var digits = bytes[(escape.lowerBound + (hex ? 3 : 2))..<escape.upperBound]
      if digits.last == UInt8(ascii: ";") { digits = digits.dropLast() }
      guard let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
        let scalar = Unicode.Scalar(value), BidiControl(scalar: scalar.value) != nil
      else { continue }
      let upper = digits.contains { (0x41...0x46).contains($0) }
      return hex ? .xmlHex(uppercaseHex: upper) : .xmlDecimal
    }
    return nil
  }

  // MARK: Checkpoints as reader states

  /// A readers' checkpoint as the index's state: phase 1, and in the notes
  /// what the reader knew there.
  static func state(of checkpoint: SubtitleCheckpoint) -> ReaderState {
    var state = ReaderState()
    state.phase = 1
    state.notes = [
      String(checkpoint.cuesBefore), checkpoint.previousNumber.map(String.init) ?? "", checkpoint.seenCue ? "1" : "0",
      checkpoint.openCue ? "1" : "0",
    ]
    return state
  }

  static func checkpoint(line: Int, _ state: ReaderState) -> SubtitleCheckpoint? {
    guard state.phase == 1, state.notes.count == 4, let cues = Int(state.notes[0]) else { return nil }
    return SubtitleCheckpoint(
      line: line, cuesBefore: cues, previousNumber: Int(state.notes[1]), seenCue: state.notes[2] == "1",
      openCue: state.notes[3] == "1")
  }
}

/// The index's lines (an existential) as the readers' generic lines.
struct LinesOfCursor: DocumentLines {
  let lines: any DocumentLines
  var lineCount: Int { lines.lineCount }
  func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try lines.withUTF8(ofLine: line, body)
  }
}
