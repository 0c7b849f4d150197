import BidiHazards
import Localization
import UnicodeBidi

/// A finding of `bidi-lsp check`, whichever rules found it.
struct CheckFinding {
  /// Zero-based line.
  var line: Int
  /// Zero-based column in UTF-8 bytes.
  var column: Int
  /// The length in UTF-8 bytes (0 for a position, such as a syntax error).
  var length: Int
  var severity: DiagnosticSeverity
  var code: RuleCode
  var message: String
  /// The value's key and variant, for the findings of a localization value.
  var key: String? = nil
  var variant: String? = nil
}

/// What `check` finds in a localization file (Protocol/localization.md): the file
/// decoded by its byte order mark, its values read by the format's reader,
/// the localization findings of the values (`bidi.placeholderDirection`,
/// `bidi.valueDirection`, the hazards of each value paragraph as its own
/// context, `bidi.inIdentifier` for a control in a key) and the syntax
/// error (`bidi.localizationSyntax`); and the whole-line hazard rules on
/// everything that is not a value: keys, comments, metadata, and the lines
/// after a syntax error (which are plain lines). A control is so reported
/// once, by the rules of the place it is in.
enum LocalizationCheck {
  /// The findings of a file's bytes, in document order. `path` gives the
  /// locale (`ar.lproj/`, `values-iw/`…) unless `locale` forces one.
  static func findings(of bytes: [UInt8], format: LocalizationFormat, path: String?, locale: LocaleTag?)
    -> [CheckFinding]
  {
    let decoded = DecodedLocalizationFile(bytes)
    let lines = decoded.text
    let read = LocalizationReader.read(lines, format: format)
    let spelling = SpellingVotes(read.values).spelling(for: format)
    // The file's locale once: a value of its own (an `.xcstrings`
    // localization, an XLIFF target) is the rare case.
    let fileLocale = locale ?? resolveLocale(value: nil, contents: read.contentLocale, path: path, setting: nil)
    let found = LocalizationDiagnostics(spelling: spelling).findings(
      values: read.values, error: read.error, format: format
    ) { value in
      guard locale == nil, let own = value.locale else { return fileLocale }
      return resolveLocale(value: own, contents: read.contentLocale, path: path, setting: nil)
    }
    var result = found.map { finding in
      CheckFinding(
        line: finding.range.start.line, column: finding.range.start.column,
        length: lines.offset(of: finding.range.end) - lines.offset(of: finding.range.start),
        severity: finding.severity, code: finding.code, message: finding.message, key: finding.key,
        variant: finding.variant)
    }
    result += outsideValues(decoded.utf8, lines: lines, values: read.values, error: read.error)
    // Stable: at one place, the value findings before the line rules'.
    return result.enumerated().sorted { a, b in
      (a.element.line, a.element.column, a.offset) < (b.element.line, b.element.column, b.offset)
    }.map(\.element)
  }

  /// The whole-line hazard rules on the text outside values: every value's
  /// source range and every control of a key (reported as
  /// `bidi.inIdentifier` already) blanked, byte for byte, so that columns
  /// stay those of the file. Invalid UTF-8 at the syntax error is that
  /// error (reported once, as `bidi.localizationSyntax`).
  private static func outsideValues(
    _ utf8: [UInt8], lines: LocalizationText, values: [LocalizedValue], error: LocalizationSyntaxError?
  ) -> [CheckFinding] {
    let hasHazard = utf8.withUnsafeBufferPointer { HazardBytes.firstHazard(in: $0) != nil }
    guard hasHazard else { return [] }
    var masked = utf8
    func blank(_ range: SourceRange) {
      let end = lines.offset(of: range.end)
      var k = lines.offset(of: range.start)
      while k < end {
        if masked[k] != 0x0A && masked[k] != 0x0D { masked[k] = 0x20 }
        k += 1
      }
    }
    for value in values {
      blank(value.range)
      for (_, range) in value.controlsInKey { blank(range) }
    }
    let scanner = HazardScanner(language: nil)
    var result: [CheckFinding] = []
    masked.withUnsafeBufferPointer { p in
      for line in 0..<lines.lineCount {
        let bounds = lines.byteRange(ofLine: line)
        let scan = scanner.scanLine(UnsafeBufferPointer(rebasing: p[bounds]), lineNumber: line)
        for diagnostic in scan.diagnostics {
          if diagnostic.code == .invalidUtf8, let error, error.position.line == line,
            error.position.column == diagnostic.range.lowerBound
          {
            continue
          }
          result.append(
            CheckFinding(
              line: line, column: diagnostic.range.lowerBound, length: diagnostic.range.count,
              severity: diagnostic.severity, code: diagnostic.code, message: diagnostic.message))
        }
      }
    }
    return result
  }
}
