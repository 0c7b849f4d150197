import StructuredText

/// The subtitle readers' entry point.
package enum SubtitleReader {
  /// Reads a whole document, or (from a checkpoint of an earlier read of
  /// the same text above it) the rest of it from there: then cue indexes
  /// go on from the checkpoint's, and `headerLanguage` is nil (the header is
  /// above). Never fails: what does not fit the format is a diagnostic.
  /// Linear in the length of the text.
  /// `shouldStop`, asked at each checkpoint after the first one read,
  /// stops the reading there when it says so (the document then holds
  /// what comes before that checkpoint, and the checkpoint).
  package static func read(
    _ lines: some DocumentLines, format: SubtitleFormat, from checkpoint: SubtitleCheckpoint? = nil,
    stoppingWhere shouldStop: ((SubtitleCheckpoint) -> Bool)? = nil
  ) -> SubtitleDocument {
    switch format {
    case .subRip: SubRipReader.read(lines, from: checkpoint, stoppingWhere: shouldStop)
    case .webVTT: WebVTTReader.read(lines, from: checkpoint, stoppingWhere: shouldStop)
    }
  }

  /// Reads a text held in memory.
  package static func read(_ text: String, format: SubtitleFormat) -> SubtitleDocument {
    read(TextLines(text), format: format)
  }
}
