import Localization
import MarkdownFormat
import StructuredText
import Subtitles

/// What a document is, told once from its LSP `languageId` and its path
/// (contract §7, §8), for the daemon and `check` alike: plain text (lines
/// are paragraphs), or a structured document read by its format.
///
/// A format module plugs in here: a case, its languageIds and extensions
/// in `detect`, and its `StructuredFormat` in `structuredFormat`.
package enum DocumentKind: Hashable, Sendable {
  /// Anything else: source code, notes. Every line is a paragraph.
  case plain
  /// A localization file (Protocol/localization.md).
  case localization(LocalizationFormat)
  /// Markdown (`markdown`, `.md`, `.markdown`): rendered blocks (Protocol/markdown.md).
  case markdown
  /// SubRip subtitles (`srt`, `subrip`, `.srt`): `SubtitleFormat.subRip`.
  case subRip
  /// WebVTT subtitles (`webvtt`, `vtt`, `.vtt`): `SubtitleFormat.webVTT`.
  case webVTT

  /// The kind of a document from its LSP `languageId` or, failing that, its
  /// path (a file path or a `file:` URI): a languageId that names a
  /// structured format wins; any other (`json`, `xml`, `plaintext`, empty,
  /// unknown) defers to the path's extension and folders.
  package static func detect(languageId: String?, path: String) -> DocumentKind {
    switch languageId?.lowercased() ?? "" {
    case "markdown": return .markdown
    case "srt", "subrip": return .subRip
    case "webvtt", "vtt": return .webVTT
    default: break
    }
    if let format = LocalizationFormat.detect(languageId: languageId, path: path) { return .localization(format) }
    switch PathComponents(path).fileExtension {
    case "md", "markdown": return .markdown
    case "srt": return .subRip
    case "vtt": return .webVTT
    default: return .plain
    }
  }

  /// As `detect(languageId:path:)`, and where the path alone cannot tell
  /// (`.ts`: Qt Linguist or TypeScript), by the document's first lines.
  package static func detect(languageId: String?, path: String, lines: some DocumentLines) -> DocumentKind {
    let kind = detect(languageId: languageId, path: path)
    guard kind == .plain, let format = LocalizationFormat.detect(languageId: languageId, path: path, lines: lines)
    else { return kind }
    return .localization(format)
  }

  /// As `detect(languageId:path:)`, and where the path alone cannot tell,
  /// by the file's first bytes (`check`).
  package static func detect(languageId: String?, path: String, contents: some Sequence<UInt8>) -> DocumentKind {
    let kind = detect(languageId: languageId, path: path)
    guard kind == .plain, let format = LocalizationFormat.detect(languageId: languageId, path: path, contents: contents)
    else { return kind }
    return .localization(format)
  }

  /// Whether telling the kind of the file at `path` may need its contents
  /// (a `.ts` file: Qt Linguist or TypeScript).
  package static func needsContents(path: String) -> Bool { LocalizationFormat.needsContents(path: path) }

  /// The format that reads the document as entries, or nil when it is
  /// answered as plain lines.
  package var structuredFormat: (any StructuredFormat)? {
    switch self {
    case .localization(let format): format
    case .markdown: MarkdownFormat()
    case .subRip: SubtitleFormat.subRip
    case .webVTT: SubtitleFormat.webVTT
    case .plain: nil
    }
  }

  /// Whether `languageId` names a structured format (for `check --language`).
  package static func isStructuredLanguageId(_ languageId: String) -> Bool {
    detect(languageId: languageId, path: "").structuredFormat != nil
  }
}
