/// The two subtitle formats the readers know.
package enum SubtitleFormat: String, Hashable, Sendable, CaseIterable {
  /// SubRip (`.srt`): numbered cues, `00:01:02,500 --> 00:01:04,000`,
  /// `<i>`/`<b>`/`<u>`/`<s>`/`<font …>` tags and SSA override codes `{\an8}`.
  case subRip
  /// WebVTT (`.vtt`): a `WEBVTT` header, cues with optional identifiers and
  /// settings, `NOTE`/`STYLE`/`REGION` blocks, cue tags and HTML character
  /// references.
  case webVTT

  /// The format an editor's `languageId` names (`srt`, `subrip`, `vtt`, `webvtt`).
  package init?(languageId: String) {
    switch languageId.lowercased() {
    case "srt", "subrip": self = .subRip
    case "vtt", "webvtt": self = .webVTT
    default: return nil
    }
  }

  /// The format a path's extension names (`.srt`, `.vtt`, any case).
  package init?(path: String) {
    let name = path.split(separator: "/").last ?? ""
    guard let dot = name.lastIndex(of: ".") else { return nil }
    switch name[name.index(after: dot)...].lowercased() {
    case "srt": self = .subRip
    case "vtt": self = .webVTT
    default: return nil
    }
  }
}
