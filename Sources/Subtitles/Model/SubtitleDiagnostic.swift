import UnicodeBidi

/// Something a subtitle reader reports about the file, at a position.
package struct SubtitleDiagnostic: Hashable, Sendable, CustomStringConvertible {
  package var position: SourcePosition
  /// `.error`: players drop or misread something here (a cue whose timing
  /// line does not parse, a file that is not WebVTT). `.warning`: players
  /// differ (the lenient ones — VLC, mpv, ffmpeg, the `srt` library — read
  /// it as this reader does, strict ones do not). `.information`: no player
  /// cares, but the file breaks the format's rules (cue numbers).
  package var severity: DiagnosticSeverity
  package var message: String

  package init(position: SourcePosition, severity: DiagnosticSeverity, message: String) {
    self.position = position
    self.severity = severity
    self.message = message
  }

  package var description: String { "\(position) \(severity.rawValue): \(message)" }
}
