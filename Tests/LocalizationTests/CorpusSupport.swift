import BidiHazards
import BidiMarks
import BidiTestSupport
import Foundation
import StructuredText
import UnicodeBidi

@testable import Localization

/// The localization corpus (`Corpus/`, files written for these tests) and
/// its manifest (`Corpus/manifest.tsv`): per file, every value (key,
/// variant, locale, direction of each paragraph as written and filled,
/// decoded text) and every finding (code, 1-based line and UTF-8 column).
enum Corpus {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
  static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/l10n-check/l10n_check.py")

  /// Every corpus file (relative paths, sorted), the manifest excluded.
  static func paths() throws -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    var found: [String] = []
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
      if !isDirectory.boolValue && path != "manifest.tsv" { found.append(path) }
    }
    return found.sorted()
  }

  /// A corpus file read by the library.
  struct File {
    var path: String
    var bytes: [UInt8]
    var decoded: DecodedFile
    var format: LocalizationFormat
    var read: LocalizationReadResult

    init(_ path: String) throws {
      self.path = path
      bytes = Array(try Data(contentsOf: Corpus.root.appendingPathComponent(path)))
      decoded = DecodedFile(bytes)
      guard let format = LocalizationFormat.detect(languageId: nil, path: path, contents: bytes) else {
        throw CorpusError.notLocalization(path)
      }
      self.format = format
      read = LocalizationReader.read(decoded.text, format: format)
    }

    var text: TextLines { decoded.text }

    func locale(of value: TextEntry) -> LocaleTag? {
      resolveLocale(value: value.locale, contents: read.contentLocale, path: path, setting: nil)
    }

    var spelling: MarkSpelling { format.spelling(SpellingVotes(read.values)) }

    /// The catalog of the file of the source locale (`en`) beside it, as
    /// the daemon and `check` pair (`SourcePairing`).
    var sources: SourceCatalog? {
      SourcePairing.catalog(
        for: Corpus.root.appendingPathComponent(path).path, format: format,
        sourceLocale: SourcePairing.defaultSourceLocale)?.catalog
    }

    /// Every finding, as the daemon and `check` give them.
    var findings: [Finding] {
      documentFindings(text, format: format, spelling: spelling, sources: sources, locale: locale(of:))
    }

    /// The manifest lines this file gives.
    var manifestLines: [String] {
      var lines = ["file\t\(path)"]
      for value in read.values {
        var written: [String] = []
        var filled: [String] = []
        for paragraph in value.paragraphs.indices {
          let analysis = ParagraphAnalysis(value, paragraph: paragraph)
          written.append(Corpus.name(analysis.direction()))
          filled.append(Corpus.name(analysis.direction(filled: true)))
        }
        lines.append(
          [
            "value", Corpus.escape(value.key), value.variant ?? "-", locale(of: value)?.description ?? "-",
            written.joined(separator: ","), filled.joined(separator: ","), Corpus.escape(value.text),
          ].joined(separator: "\t"))
      }
      for finding in findings {
        lines.append(
          "finding\t\(finding.code.rawValue)\t\(finding.range.start.line + 1):\(finding.range.start.column + 1)")
      }
      return lines
    }
  }

  enum CorpusError: Error { case notLocalization(String), malformedManifest(String) }

  static func name(_ direction: BidiDirection?) -> String {
    switch direction {
    case .leftToRight: "ltr"
    case .rightToLeft: "rtl"
    case nil: "none"
    }
  }

  /// The manifest, file by file: its lines after each `file` line.
  static func manifest() throws -> [(path: String, lines: [String])] {
    let text = try String(contentsOf: root.appendingPathComponent("manifest.tsv"), encoding: .utf8)
    var result: [(path: String, lines: [String])] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
      if line.hasPrefix("file\t") {
        result.append((String(line.dropFirst(5)), [String(line)]))
      } else if result.isEmpty {
        throw CorpusError.malformedManifest(String(line))
      } else {
        result[result.count - 1].lines.append(String(line))
      }
    }
    return result
  }

  /// Text on one line of the manifest (`ManifestText`, BidiTestSupport).
  static func escape(_ text: String) -> String { ManifestText.escape(text) }
  static func unescape(_ text: Substring) -> String { ManifestText.unescape(text) }

  /// Removes every bidi control (the set of `bidi/insertMarks` mode `strip`, Protocol/specification.md).
  static func withoutControls(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars where BidiControl(scalar: scalar.value) == nil {
      result.unicodeScalars.append(scalar)
    }
    return result
  }
}
