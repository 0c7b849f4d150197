import StructuredText
import UnicodeBidi

/// What a reader builds as it goes: the document, and its cue and line
/// bookkeeping. Shared by `SubRipReader` and `WebVTTReader`.
struct SubtitleReaderState<Lines: DocumentLines> {
  var document: SubtitleDocument
  let lines: Lines
  /// How many bytes of line 0 a byte order mark takes (0 or 3).
  let bomLength: Int
  var markSpellings = (character: 0, named: 0, numeric: 0)
  /// How many cues come before the first line read (from a checkpoint).
  let cueBase: Int
  /// How many of `document.cues` `checkFinishedCue` has seen.
  private var checkedCues = 0
  /// Asked at each checkpoint after the first of this read: true stops the
  /// reading there (an index re-reading after an edit has met the old state).
  var shouldStop: ((SubtitleCheckpoint) -> Bool)?
  /// Whether `shouldStop` stopped the reading.
  private(set) var stopped = false

  init(_ lines: Lines, format: SubtitleFormat, cueBase: Int) {
    self.lines = lines
    self.cueBase = cueBase
    document = SubtitleDocument(format: format)
    bomLength =
      lines.withUTF8(ofLine: 0) { $0.count >= 3 && $0[0] == 0xEF && $0[1] == 0xBB && $0[2] == 0xBF } ? 3 : 0
  }

  var lineCount: Int { lines.lineCount }

  /// Records a checkpoint (a line from which reading can resume).
  mutating func addCheckpoint(_ checkpoint: SubtitleCheckpoint) {
    document.checkpoints.append(checkpoint)
    if document.checkpoints.count > 1, let shouldStop, shouldStop(checkpoint) { stopped = true }
  }

  /// The 1-based index the next cue gets.
  var nextCueIndex: Int { cueBase + document.cues.count + 1 }

  /// Calls `body` with line `line`'s bytes (after the byte order mark on
  /// line 0) and the column they start at.
  func withLine<R>(_ line: Int, _ body: (UnsafeBufferPointer<UInt8>, Int) -> R) -> R {
    let skip = line == 0 ? bomLength : 0
    return lines.withUTF8(ofLine: line) { body(UnsafeBufferPointer(rebasing: $0[skip...]), skip) }
  }

  func isEmpty(_ line: Int) -> Bool { withLine(line) { bytes, _ in bytes.isEmpty } }

  mutating func report(_ severity: DiagnosticSeverity, _ line: Int, column: Int? = nil, _ message: String) {
    let column = column ?? (line == 0 ? bomLength : 0)
    document.diagnostics.append(
      SubtitleDiagnostic(position: SourcePosition(line: line, column: column), severity: severity, message: message))
  }

  /// Adds line `line` as a text line of the last cue.
  mutating func addTextLine(_ line: Int) {
    let cue = nextCueIndex - 1
    let format = document.format
    let (decoded, problems, spellings) = withLine(line) { bytes, base in
      CueTextDecoder.line(bytes, base: base, format: format, cue: cue, line: line)
    }
    for problem in problems {
      report(.warning, line, column: problem.column, problem.message)
    }
    markSpellings.character += spellings.0
    markSpellings.named += spellings.1
    markSpellings.numeric += spellings.2
    document.lines.append(decoded)
    // From a checkpoint inside an open cue, its first lines are the text
    // of the cue before the checkpoint, which this read does not hold.
    if !document.cues.isEmpty { document.cues[document.cues.count - 1].textLines.append(line) }
  }

  /// Reports a cue that no player shows: no text, or an end not after its start.
  mutating func checkFinishedCue() {
    guard checkedCues < document.cues.count, let cue = document.cues.last else { return }
    checkedCues = document.cues.count
    if cue.textLines.isEmpty {
      report(.warning, cue.timingLine, "cue \(cue.index) has no text: players show nothing for it")
    }
    if cue.end <= cue.start {
      report(.error, cue.timingLine, "cue \(cue.index) does not end after it starts: players never show it")
    }
  }

  /// The document, with its mark spelling decided by majority.
  mutating func finish() -> SubtitleDocument {
    checkFinishedCue()
    // Stable: a cue's own findings come after those of the lines it holds.
    document.diagnostics = document.diagnostics.enumerated().sorted {
      ($0.element.position, $0.offset) < ($1.element.position, $1.offset)
    }.map(\.element)
    let (character, named, numeric) = markSpellings
    if document.format == .webVTT, named + numeric > character {
      document.markSpelling = named >= numeric ? .namedReference : .numericReference
    }
    return document
  }
}
