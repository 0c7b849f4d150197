import BidiHazards
import JSONRPC
import Localization
import StructuredText
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
  /// Its quick fixes (filled for SARIF output).
  var fixes: [CheckFix] = []
}

/// What `check` finds in a structured document (contract §7, §8): the file
/// decoded by its byte order mark, read whole by its format (`WholeRead`),
/// and its findings from the `FindingsEngine` — the one the daemon
/// publishes from, so that `check` and the editor agree: each
/// entry's (the format's rules, the hazards of each paragraph as its own
/// context, `bidi.inIdentifier` for a control in a key), the syntax error,
/// and the line rules on everything outside the entries (keys, comments,
/// metadata, the lines after a syntax error).
enum StructuredCheck {
  /// A large structured file's parts (its blocks, its entries' findings)
  /// run on `jobs` threads, in parts of at least 2,000 items.
  static func runner(jobs: Int) -> PartRunner {
    guard jobs > 1 else { return .serial }
    return PartRunner(threads: jobs, minimumPart: 2_000) { count, part in
      var started: [JoinableThread] = []
      for k in 1..<count {
        if let thread = startJoinableThread({ part(k) }) { started.append(thread) } else { part(k) }
      }
      part(0)
      for thread in started { thread.join() }
    }
  }

  /// The findings of a file's bytes, in document order. `path` gives the
  /// locale (`ar.lproj/`, `values-iw/`…) unless `locale` forces one.
  /// `sources`: the entries' sources from the source locale's file
  /// (`sourceCatalog`), when paired with one. `withFixes`: the findings'
  /// quick fixes copied (SARIF writes them; text and JSON do not).
  static func findings(
    of bytes: [UInt8], format: any StructuredFormat, path: String?, locale: LocaleTag?,
    sources: SourceCatalog? = nil, runner: PartRunner = .serial, withFixes: Bool = true
  ) -> [CheckFinding] {
    // A document that can raise no finding is not read (a Markdown file
    // with no right-to-left letter and no bidi control).
    guard bytes.withUnsafeBufferPointer({ format.mayRaiseFindings($0) }) else { return [] }
    let decoded = DecodedFile(bytes)
    let lines = decoded.text
    let read = WholeRead(lines, format: format, findingsOnly: true, runner: runner, withFixes: withFixes)
    // The file's locale once: an entry's own (an `.xcstrings` localization,
    // an XLIFF target) is the rare case.
    let naming = format.pathNaming
    let fileLocale =
      locale ?? resolveLocale(value: nil, contents: read.contentLocale, path: path, setting: nil, naming: naming)
    let engine = FindingsEngine(format: format, spelling: read.spelling)
    let found = engine.findings(in: lines, read: read, sources: sources, runner: runner) { entry in
      guard locale == nil, let own = entry.locale else { return fileLocale }
      return resolveLocale(value: own, contents: read.contentLocale, path: path, setting: nil, naming: naming)
    }
    return found.map { finding in
      CheckFinding(
        line: finding.range.start.line, column: finding.range.start.column,
        length: lines.offset(of: finding.range.end) - lines.offset(of: finding.range.start),
        severity: finding.severity, code: finding.code, message: finding.message, key: finding.key,
        variant: finding.variant, fixes: withFixes ? finding.fixes.map(CheckFix.init) : [])
    }
  }

  /// The catalog of the source of the localization file at `path`
  /// (`SourcePairing`, as the daemon pairs), read once per source file
  /// (`cache`, by its path): nil when the format holds its sources, the
  /// file is of the source locale, or no source file is found.
  static func sourceCatalog(
    path: String, format: any StructuredFormat, sourceLocale: String?, cache: inout [String: SourceCatalog]
  ) -> SourceCatalog? {
    guard let sourceLocale, let format = format as? LocalizationFormat else { return nil }
    let found = SourcePairing.catalog(for: path, format: format, sourceLocale: sourceLocale) { cache[$0] }
    if let found { cache[found.path] = found.catalog }
    return found?.catalog
  }
}
