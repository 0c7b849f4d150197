/// A place in a subtitle file: a zero-based line and a UTF-8 byte column
/// within it (a UTF-8 byte order mark on the first line counts: its text
/// starts at column 3).
package struct SubtitlePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
  package var line: Int
  package var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  package static func < (a: SubtitlePosition, b: SubtitlePosition) -> Bool {
    a.line != b.line ? a.line < b.line : a.column < b.column
  }

  package var description: String { "\(line):\(column)" }
}

/// Something a subtitle reader reports about the file, at a position.
package struct SubtitleDiagnostic: Hashable, Sendable, CustomStringConvertible {
  package enum Severity: String, Hashable, Sendable {
    /// Players drop or misread something here: a cue whose timing line does
    /// not parse, a file that is not WebVTT.
    case error
    /// Players differ: the lenient ones (VLC, mpv, ffmpeg, the `srt`
    /// library) read it as this reader does, strict ones do not.
    case warning
    /// No player cares, but the file breaks the format's rules (cue numbers).
    case information
  }

  package var position: SubtitlePosition
  package var severity: Severity
  package var message: String

  package init(position: SubtitlePosition, severity: Severity, message: String) {
    self.position = position
    self.severity = severity
    self.message = message
  }

  package var description: String { "\(position) \(severity.rawValue): \(message)" }
}
