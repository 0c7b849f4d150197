/// A cue: its timing and where its parts are. Its text lines are the
/// document's `lines` whose `cue` is its `index`.
package struct SubtitleCue: Hashable, Sendable {
  /// Its 1-based index in the file (counting every cue whose timing line parses).
  package var index: Int
  /// The zero-based line of its SubRip number or WebVTT identifier, when it has one.
  package var headerLine: Int?
  /// The SubRip cue number as written (nil when it has none).
  package var number: Int?
  /// The WebVTT cue identifier (nil when it has none).
  package var identifier: String?
  /// The zero-based line of its timing line.
  package var timingLine: Int
  /// Its start and end in milliseconds.
  package var start: Int
  package var end: Int
  /// The WebVTT cue settings after the end time (`line:0 align:start`), as written.
  package var settings: String
  /// The zero-based lines of its text, in order (a SubRip cue may skip
  /// blank lines: see `SubRipReader`).
  package var textLines: [Int]

  /// The first line of the cue (its number or identifier, else its timing line).
  package var firstLine: Int { headerLine ?? timingLine }
}

/// Where reading can restart: the first line of a block (SubRip: of a cue)
/// that follows an empty line, with what the reader knew there. Reading
/// from it gives the cues, lines, diagnostics and checkpoints of a full read
/// from that line on.
package struct SubtitleCheckpoint: Hashable, Sendable {
  /// The zero-based line the block starts on.
  package var line: Int
  /// How many cues come before it.
  package var cuesBefore: Int
  /// The number of the cue before it (SubRip), for the numbering checks.
  package var previousNumber: Int?
  /// Whether a cue came before it (WebVTT: `STYLE` and `REGION` blocks are
  /// read only before the first cue).
  package var seenCue: Bool
  /// Whether the cue before it is still open (SubRip): text after the empty
  /// line that starts no cue is that cue's text, as in a whole read.
  package var openCue: Bool

  package init(line: Int, cuesBefore: Int, previousNumber: Int?, seenCue: Bool, openCue: Bool = false) {
    self.line = line
    self.cuesBefore = cuesBefore
    self.previousNumber = previousNumber
    self.seenCue = seenCue
    self.openCue = openCue
  }
}

/// How a file writes the bidi marks it holds, so that an inserted one
/// looks like the others.
package enum SubtitleMarkSpelling: String, Hashable, Sendable {
  /// U+200E / U+200F themselves (SubRip always; WebVTT by default).
  case character
  /// `&lrm;` / `&rlm;` (WebVTT).
  case namedReference
  /// `&#x200E;` / `&#x200F;` (WebVTT; also for files that write `&#8207;`).
  case numericReference
}

/// A subtitle file as a reader sees it.
package struct SubtitleDocument: Hashable, Sendable {
  package var format: SubtitleFormat
  /// The cues, in order.
  package var cues: [SubtitleCue] = []
  /// Every line of cue text, in order: the document's paragraphs.
  package var lines: [SubtitleLine] = []
  /// What the reader found wrong, in order of position.
  package var diagnostics: [SubtitleDiagnostic] = []
  /// Where reading can restart, in order.
  package var checkpoints: [SubtitleCheckpoint] = []
  /// The value of a WebVTT `Language:` header line (`ar`, `he-IL`), as written.
  package var headerLanguage: String?
  /// How the file writes bidi marks (from those in its cue text; `character` when it has none).
  package var markSpelling: SubtitleMarkSpelling = .character

  package init(format: SubtitleFormat) {
    self.format = format
  }
}
