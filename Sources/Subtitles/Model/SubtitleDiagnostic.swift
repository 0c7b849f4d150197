import UnicodeBidi

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

  package var position: SourcePosition
  package var severity: Severity
  package var message: String

  package init(position: SourcePosition, severity: Severity, message: String) {
    self.position = position
    self.severity = severity
    self.message = message
  }

  package var description: String { "\(position) \(severity.rawValue): \(message)" }
}
