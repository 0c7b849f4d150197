import BidiHazards
import BidiProtocol
import DocumentStore
import Localization
import UnicodeBidi

/// The lines of a stored document as the localization readers see them.
/// Readers go through lines in order: they are fetched from the line tree a
/// leaf-sized run at a time (`forEachLine`), not one tree descent per line.
struct DocumentLines: LocalizationLines {
  let text: Document.Text
  private let cache = Cache()

  init(text: Document.Text) {
    self.text = text
  }

  private final class Cache {
    var first = 0
    var lines: [Line] = []
  }

  /// Lines fetched per run.
  private static let run = 256

  var lineCount: Int { text.lineCount }

  func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    if line < cache.first || line >= cache.first + cache.lines.count {
      cache.first = line
      cache.lines.removeAll(keepingCapacity: true)
      text.forEachLine(in: line..<line + Self.run) { _, stored in cache.lines.append(stored) }
    }
    guard line >= cache.first && line < cache.first + cache.lines.count else {
      return try body(UnsafeBufferPointer(start: nil, count: 0))
    }
    return try cache.lines[line - cache.first].withUTF8 { try body($0) }
  }
}

/// What the server keeps for an open localization document (Protocol/localization.md):
/// its format, its values index (fed every change), and the findings of its
/// values, kept per value and updated only where an edit re-read entries.
struct LocalizationDocument {
  let format: LocalizationFormat
  /// The document's URI: the locale's path.
  let path: String
  var index: LocalizationIndex
  /// The findings of each value that has some, in document order, at the
  /// value's first line; nil until first needed (and after anything that
  /// changes every value's findings: settings, locale, mark spelling).
  var findings: [ValueFindings]?
  /// What the findings were computed with.
  var findingsBasis: FindingsBasis?
  /// Findings being computed a slice at a time (`computeFindings`): those
  /// of the values before `nextLine`, with what they are computed with.
  var partialFindings: (basis: FindingsBasis, computed: [ValueFindings], nextLine: Int)?

  struct ValueFindings {
    var line: Int
    var findings: [LocalizationFinding]
  }

  /// What every value's findings depend on besides the value itself.
  struct FindingsBasis: Equatable {
    var spelling: MarkSpelling
    var fileLocale: LocaleTag?
  }

  /// The locale of values whose own contents name none: the file's contents,
  /// its path, else the `locale` setting.
  func fileLocale(setting: String?) -> LocaleTag? {
    resolveLocale(value: nil, contents: index.contentLocale, path: path, setting: setting)
  }

  /// The locale that applies to `value`.
  func locale(of value: LocalizedValue, fileLocale: LocaleTag?) -> LocaleTag? {
    if let own = value.locale, let tag = LocaleTag(own) { return tag }
    return fileLocale
  }

  /// The first line answered as a plain line: the syntax error's line (or
  /// the line after it, when a value read before the error reaches it);
  /// `Int.max` when the file reads to its end.
  var plainLinesStart: Int {
    guard let error = index.error else { return Int.max }
    let line = error.position.line
    return index.values(touching: line..<line + 1).isEmpty ? line : line + 1
  }

  /// Applies the line changes of one `didChange` (each numbered after the
  /// ones before it) as one edit of the index.
  mutating func apply(_ changes: [LineChange], text: Document.Text) {
    guard let combined = LineChange.combined(changes) else { return }
    let lines = DocumentLines(text: text)
    index.edit(lines, replacing: combined.oldLines, newLineCount: combined.newLineCount)
    // Findings half computed start again: their lines moved.
    partialFindings = nil
    guard var kept = findings else { return }
    let window = index.lastRead
    let delta = window.new.upperBound - window.old.upperBound
    let first = kept.firstIndex { $0.line >= window.old.lowerBound } ?? kept.count
    let last = kept[first...].firstIndex { $0.line >= window.old.upperBound } ?? kept.count
    var replaced: [ValueFindings] = []
    if let basis = findingsBasis, !window.new.isEmpty {
      let diagnostics = Self.diagnostics(basis: basis, severity: severity)
      let readTo = min(window.new.upperBound, text.lineCount)
      for value in index.values(touching: window.new.lowerBound..<max(readTo, window.new.lowerBound))
      where value.firstLine >= window.new.lowerBound {
        let found = diagnostics.findings(
          in: value, localeIsRightToLeft: locale(of: value, fileLocale: basis.fileLocale)?.isRightToLeft ?? false)
        if !found.isEmpty { replaced.append(ValueFindings(line: value.firstLine, findings: found)) }
      }
    }
    if delta != 0 {
      for index in last..<kept.count {
        kept[index].line += delta
        kept[index].findings = kept[index].findings.map { $0.shifted(by: delta) }
      }
    }
    kept.replaceSubrange(first..<last, with: replaced)
    findings = kept
  }

  /// The severity of each code (nil: off), set by the server from the settings.
  var severity: @Sendable (RuleCode) -> DiagnosticSeverity? = { $0.defaultSeverity }

  static func diagnostics(
    basis: FindingsBasis, severity: @escaping @Sendable (RuleCode) -> DiagnosticSeverity?
  ) -> LocalizationDiagnostics {
    LocalizationDiagnostics(spelling: basis.spelling, severity: severity)
  }

  /// Lines of values whose findings are computed between two looks at the clock.
  static let findingsStep = 256

  /// Computes the findings that are missing or stale, going on from where
  /// the last call stopped, until `stop()` says so between two steps;
  /// true once every value's findings are computed. The index must be
  /// read through (`index.isComplete`).
  mutating func computeFindings(localeSetting: String?, until stop: () -> Bool = { false }) -> Bool {
    let basis = FindingsBasis(spelling: index.spelling, fileLocale: fileLocale(setting: localeSetting))
    if findings != nil && findingsBasis == basis { return true }
    var partial = partialFindings.flatMap { $0.basis == basis ? $0 : nil } ?? (basis: basis, computed: [], nextLine: 0)
    let diagnostics = Self.diagnostics(basis: basis, severity: severity)
    while partial.nextLine < index.lineCount {
      let step = partial.nextLine..<partial.nextLine + Self.findingsStep
      for value in index.values(touching: step) where value.firstLine >= step.lowerBound {
        let found = diagnostics.findings(
          in: value, localeIsRightToLeft: locale(of: value, fileLocale: basis.fileLocale)?.isRightToLeft ?? false)
        if !found.isEmpty { partial.computed.append(ValueFindings(line: value.firstLine, findings: found)) }
      }
      partial.nextLine = step.upperBound
      if partial.nextLine < index.lineCount && stop() {
        partialFindings = partial
        return false
      }
    }
    findings = partial.computed
    findingsBasis = basis
    partialFindings = nil
    return true
  }

  /// Every finding of the document, computing what is missing or stale.
  mutating func allFindings(localeSetting: String?) -> [LocalizationFinding] {
    _ = computeFindings(localeSetting: localeSetting)
    let basis = findingsBasis!
    var result = findings!.flatMap(\.findings)
    if let error = index.error,
      let finding = Self.diagnostics(basis: basis, severity: severity).finding(for: error, format: format)
    {
      result.append(finding)
    }
    return result
  }
}

extension LineChange {
  /// The changes of one `didChange`, each numbered after the ones before,
  /// as one change of the lines before them all (nil for none).
  static func combined(_ changes: [LineChange]) -> LineChange? {
    guard let first = changes.first else { return nil }
    // The changed region in the current numbering, and how many lines the
    // document has gained so far (lines after the region moved by that).
    var start = first.oldLines.lowerBound
    var end = first.newLines.upperBound
    var delta = first.newLineCount - first.oldLines.count
    for change in changes.dropFirst() {
      let lower = min(start, change.oldLines.lowerBound)
      let upper = max(end, change.oldLines.upperBound)
      let changeDelta = change.newLineCount - change.oldLines.count
      start = lower
      end = upper + changeDelta
      delta += changeDelta
    }
    return LineChange(oldLines: start..<(end - delta), newLineCount: end - start)
  }
}

extension LocalizationFinding {
  /// The finding moved `lines` lines down (its fixes too).
  func shifted(by lines: Int) -> LocalizationFinding {
    var copy = self
    copy.range = range.shifted(by: lines)
    copy.fixes = fixes.map { fix in
      var moved = fix
      moved.edits = fix.edits.map { SourceEdit(range: $0.range.shifted(by: lines), newText: $0.newText) }
      return moved
    }
    return copy
  }
}
