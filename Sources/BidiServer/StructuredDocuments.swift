import BidiHazards
import DocumentFormats
import DocumentStore
import StructuredText
import UnicodeBidi

/// The lines of a stored document as the structured readers see them.
/// Readers go through lines in order: they are fetched from the line tree a
/// leaf-sized run at a time (`forEachLine`), not one tree descent per line.
struct StoredLines: DocumentLines {
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

/// What the server keeps for an open structured document (contract §7,
/// §8): its format, its index (fed every change), and its findings, kept
/// by the line they belong to and updated only where an edit re-read
/// entries. The findings are the `FindingsEngine`'s, the engine `check`
/// runs: each entry's (at its first line), the line rules outside the
/// entries on each line an entry touches (at that line), each region's (at
/// its first line). The lines no entry or region touches get the line
/// rules from the hazard line cache, which scans every line the same way
/// (no language): the publish takes those lines from it.
struct StructuredDocument {
  let format: any StructuredFormat
  /// The document's URI: the locale's path.
  let path: String
  var index: StructuredIndex
  /// The findings that have some, by their anchor line (`FindingsStore`:
  /// an edit replaces the groups it read again and moves the others a
  /// block at a time); nil until first needed (and after anything that
  /// changes them all: settings, locale, mark spelling).
  var findings: FindingsStore?
  /// What the findings were computed with.
  var findingsBasis: FindingsBasis?
  /// Findings being computed a slice at a time (`computeFindings`): those
  /// anchored before `nextLine`, with what they are computed with.
  var partialFindings: (basis: FindingsBasis, computed: [AnchoredFindings], nextLine: Int)?
  /// The rules, set by the server from the settings.
  var rules = RuleSettings.default
  /// Whether the document can raise no finding: every line, when it was
  /// opened and each time an edit wrote it, held nothing a finding could
  /// come from (`StructuredFormat.mayRaiseFindings`: a Markdown document
  /// with no right-to-left letter and no bidi control, as most English
  /// documentation). Its publish then reads nothing; an edit that writes
  /// such a character ends it for as long as the document is open.
  var isQuiet = false
  /// The file of the source locale its entries are compared with, and its
  /// catalog (`SourcePairing`), when there is one.
  var sourcePath: String?
  var sources: SourceCatalog?
  /// Whether the source changed since `sources` was read.
  var sourcesStale = false

  /// Findings that belong to one line (stored relative to it).
  typealias AnchoredFindings = FindingsStore.Group

  /// What every finding depends on besides the text.
  struct FindingsBasis: Equatable {
    var spelling: MarkSpelling
    var fileLocale: LocaleTag?
    var rules: RuleSettings
  }

  init(format: any StructuredFormat, path: String, index: StructuredIndex) {
    self.format = format
    self.path = path
    self.index = index
  }

  /// The locale of entries whose own contents name none: the file's
  /// contents, its path, else the `locale` setting.
  func fileLocale(setting: String?) -> LocaleTag? {
    resolveLocale(
      value: nil, contents: index.contentLocale, path: path, setting: setting, naming: format.pathNaming)
  }

  /// The locale that applies to `entry`.
  func locale(of entry: TextEntry, fileLocale: LocaleTag?) -> LocaleTag? {
    if let own = entry.locale, let tag = LocaleTag(own) { return tag }
    return fileLocale
  }

  /// The first line answered as a plain line: the syntax error's line (or
  /// the line after it, when an entry read before the error reaches it);
  /// `Int.max` when the file reads to its end.
  var plainLinesStart: Int {
    guard let error = index.error else { return Int.max }
    let line = error.position.line
    return index.entries(touching: line..<line + 1).isEmpty ? line : line + 1
  }

  /// Whether line `line` gets its findings from the line cache: no entry
  /// and no region touches it.
  func isFreeLine(_ line: Int) -> Bool {
    index.entries(touching: line..<line + 1).isEmpty && index.regions(touching: line..<line + 1).isEmpty
  }

  /// Whether any of `range`'s lines may raise a finding (`format
  /// .mayRaiseFindings`, line by line: nothing it looks for spans lines).
  func mayRaiseFindings(_ lines: StoredLines, _ range: Range<Int>) -> Bool {
    range.contains { line in lines.withUTF8(ofLine: line) { format.mayRaiseFindings($0) } }
  }

  /// Applies the line changes of one `didChange` (each numbered after the
  /// ones before it) as one edit of the index, and recomputes the findings
  /// anchored in what it read again.
  mutating func apply(_ changes: [LineChange], text: Document.Text) {
    guard let combined = LineChange.combined(changes) else { return }
    let lines = StoredLines(text: text)
    if isQuiet {
      let start = combined.oldLines.lowerBound
      isQuiet = !mayRaiseFindings(lines, start..<min(start + combined.newLineCount, lines.lineCount))
    }
    index.edit(lines, replacing: combined.oldLines, newLineCount: combined.newLineCount)
    // Findings half computed start again: their lines moved.
    partialFindings = nil
    guard findings != nil else { return }
    let window = index.lastRead
    let delta = window.new.upperBound - window.old.upperBound
    var replaced: [AnchoredFindings] = []
    if let basis = findingsBasis, !window.new.isEmpty {
      let readTo = min(window.new.upperBound, text.lineCount)
      replaced = findings(basis, lines, window.new.lowerBound..<max(readTo, window.new.lowerBound))
    }
    // In place: the store's blocks are not copied.
    findings!.replace(lines: window.old, with: replaced, delta: delta)
  }

  /// The findings anchored in `range`: the entries starting there, the
  /// line rules outside entries on the lines there that an entry touches,
  /// the regions starting there; in order of their anchor line.
  private func findings(_ basis: FindingsBasis, _ lines: StoredLines, _ range: Range<Int>) -> [AnchoredFindings] {
    let engine = FindingsEngine(format: format, spelling: basis.spelling, rules: basis.rules)
    var result: [Int: [Finding]] = [:]
    let entries = index.entries(touching: range)
    for entry in entries where entry.firstLine >= range.lowerBound {
      let found = engine.findings(
        in: entry, locale: locale(of: entry, fileLocale: basis.fileLocale),
        source: sources?.tokens(for: entry, format: format))
      if !found.isEmpty { result[entry.firstLine, default: []] += found }
    }
    // The lines an entry touches: those holding a bidi control get the
    // line rules outside the entries touching them.
    var touched: [Int] = []
    for entry in entries {
      let first = max(entry.firstLine, range.lowerBound)
      let last = min(entry.range.end.line, range.upperBound - 1)
      if first <= last { touched += first...last }
    }
    var previous = -1
    for line in touched.sorted() where line != previous {
      previous = line
      let found = lines.withUTF8(ofLine: line) { bytes -> [Finding] in
        guard HazardBytes.firstHazard(in: bytes) != nil else { return [] }
        return engine.outsideFindings(line: line, bytes, entries: entries.filter { $0.range.touches(line: line) })
      }
      if !found.isEmpty { result[line, default: []] += found }
    }
    for region in index.regions(touching: range) where region.lines.lowerBound >= range.lowerBound {
      let found = engine.regionFindings(region, in: lines)
      if !found.isEmpty { result[region.lines.lowerBound, default: []] += found }
    }
    return result.keys.sorted().map { AnchoredFindings(line: $0, findings: result[$0]!) }
  }

  /// Lines whose findings are computed between two looks at the clock.
  static let findingsStep = 256

  /// Computes the findings that are missing or stale, going on from where
  /// the last call stopped, until `stop()` says so between two steps;
  /// true once every line's findings are computed. The index must be read
  /// through (`index.isComplete`).
  mutating func computeFindings(text: Document.Text, localeSetting: String?, until stop: () -> Bool = { false })
    -> Bool
  {
    let basis = FindingsBasis(spelling: index.spelling, fileLocale: fileLocale(setting: localeSetting), rules: rules)
    if findings != nil && findingsBasis == basis { return true }
    var partial = partialFindings.flatMap { $0.basis == basis ? $0 : nil } ?? (basis: basis, computed: [], nextLine: 0)
    let lines = StoredLines(text: text)
    while partial.nextLine < index.lineCount {
      let step = partial.nextLine..<min(partial.nextLine + Self.findingsStep, index.lineCount)
      partial.computed += findings(basis, lines, step)
      partial.nextLine = step.upperBound
      if partial.nextLine < index.lineCount && stop() {
        partialFindings = partial
        return false
      }
    }
    findings = FindingsStore(partial.computed)
    findingsBasis = basis
    partialFindings = nil
    return true
  }

  /// The findings kept for the document by anchor line (shared with the
  /// document, not copied) and the syntax error's, computing what is
  /// missing or stale.
  mutating func keptFindings(text: Document.Text, localeSetting: String?) -> (
    store: FindingsStore, error: Finding?
  ) {
    if isQuiet { return (FindingsStore(), nil) }
    _ = computeFindings(text: text, localeSetting: localeSetting)
    let basis = findingsBasis!
    let engine = FindingsEngine(format: format, spelling: basis.spelling, rules: basis.rules)
    return (findings!, index.error.flatMap { engine.finding(for: $0) })
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
