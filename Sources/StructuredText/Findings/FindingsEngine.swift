import BidiHazards
import BidiMarks
import UnicodeBidi

/// The one implementation of a structured document's findings, used by the
/// daemon (per entry, as an edit re-reads entries) and by `check` (per
/// file): both give the same findings for the same text.
///
/// - In each entry: a bidi control in its identifier (key, link
///   destination) is `bidi.inIdentifier` (no fix); each paragraph gets the
///   format's `paragraphRules` and §5's hazard rules with the paragraph as
///   its own context (a control left open at its end is `bidi.unpaired`).
/// - The first syntax error is the format's syntax code.
/// - Outside the entries (keys, comments, delimiters, metadata, markers,
///   the lines after a syntax error): §5's line rules on each line with
///   the entries' source blanked, so that a control is reported once, by
///   the rules of the place it is in; a plain region's lines with the
///   rules of its language (a fenced code block's).
package struct FindingsEngine: Sendable {
  package let format: any StructuredFormat
  /// How marks are written in the document (the fixes' edits).
  package let spelling: MarkSpelling
  package let rules: RuleSettings
  /// The format's paragraph rules that are on, with their severities.
  private let paragraphRules: [(rule: ParagraphRule, severity: DiagnosticSeverity)]
  private let keys: Bool
  private let mismatchSeverity: DiagnosticSeverity?

  package init(format: any StructuredFormat, spelling: MarkSpelling, rules: RuleSettings = .default) {
    self.format = format
    self.spelling = spelling
    self.rules = rules
    paragraphRules = format.paragraphRules.compactMap { rule in rules.severity(for: rule.code).map { (rule, $0) } }
    keys = format.entriesHaveKeys
    mismatchSeverity = rules.severity(for: .placeholderMismatch)
  }

  // MARK: Entries

  /// The findings of one entry, paragraph by paragraph; `locale` is the
  /// locale that applies to it; `source` its source from another file (a
  /// `SourceCatalog`'s), when there is one. The comparison with its source
  /// (`bidi.placeholderMismatch`, over the entry's range) comes first.
  package func findings(in entry: TextEntry, locale: LocaleTag?, source: SourceTokens? = nil) -> [Finding] {
    var found: [Finding] = []
    let key = keys ? entry.key : nil
    let variant = keys ? entry.variant : nil
    if let source = entry.sourceTokens ?? source, let message = mismatch(entry, source) {
      found.append(
        Finding(
          code: .placeholderMismatch, severity: mismatchSeverity!, range: entry.range, message: message, key: key,
          variant: variant))
    }
    if let severity = rules.severity(for: .inIdentifier) {
      for (control, range) in entry.controlsInIdentifier {
        found.append(
          Finding(
            code: .inIdentifier, severity: severity, range: range,
            message: format.identifierControlMessage(control, in: entry),
            key: key, variant: variant))
      }
    }
    let planner = EntryPlanner(entry, spelling: spelling)
    let context = RuleContext(planner: planner, locale: locale)
    for paragraph in entry.paragraphs.indices {
      let analysis = ParagraphAnalysis(entry, paragraph: paragraph)
      for (rule, severity) in paragraphRules {
        guard let result = rule.check(analysis, context) else { continue }
        found.append(
          Finding(
            code: rule.code, severity: severity, range: analysis.range, message: result.message, fixes: result.fixes,
            key: key, variant: variant))
      }
      found += hazards(analysis, planner, key: key, variant: variant)
    }
    return found
  }

  /// The message of `bidi.placeholderMismatch` for an entry and its
  /// source, if the rule is on and they differ. Cheap when neither side
  /// has a placeholder or markup (most values): nothing is built.
  private func mismatch(_ entry: TextEntry, _ source: SourceTokens) -> String? {
    guard mismatchSeverity != nil, !entry.text.isEmpty else { return nil }
    if source.isEmpty && entry.atoms.isEmpty && entry.markup.isEmpty { return nil }
    return SourceComparison.mismatch(
      translation: format.sourceTokens(of: entry), source: source,
      isPluralBranch: entry.variant.map(Self.isPluralBranch) ?? false)
  }

  /// Whether a variant names a plural branch (`plural:one`, an ICU branch
  /// under one, `plural:one/…`): its bytes searched, not its characters.
  private static func isPluralBranch(_ variant: String) -> Bool {
    let word = Array("plural:".utf8)
    let bytes = Array(variant.utf8)
    guard bytes.count >= word.count else { return false }
    for start in 0...(bytes.count - word.count) where bytes[start..<start + word.count].elementsEqual(word) {
      return true
    }
    return false
  }

  /// The hazards of a paragraph, its content one context.
  private func hazards(_ analysis: ParagraphAnalysis, _ planner: EntryPlanner, key: String?, variant: String?)
    -> [Finding]
  {
    let projection = analysis.written
    guard projection.scalars.contains(where: { BidiControl(scalar: $0) != nil }) else { return [] }
    let scan = HazardScanner(language: nil, settings: rules).scanLine(projection.utf8, lineNumber: 0)
    let noun = format.entryNoun
    var found: [Finding] = []
    for diagnostic in scan.diagnostics {
      let scalars =
        projection.index(ofUTF8: diagnostic.range.lowerBound)..<projection.index(ofUTF8: diagnostic.range.upperBound)
      let range = analysis.entry.sourceRange(ofDecoded: projection.decodedRange(scalars))
      var message = diagnostic.message
      for (line, entryWords) in [("the end of the line", "the end of the \(noun)"), ("its line", "the \(noun)")] {
        message = message.replacingAll(line, with: entryWords)
      }
      if diagnostic.code == .unpaired, let leak = format.unpairedLeak { message += ", and \(leak)" }
      let fixes = diagnostic.fixes.map { fix in
        Fix(
          title: fix.title.replacingAll("on its line", with: "in the \(noun)"),
          edits: planner.map(
            fix.edits.map { MarkEdit(start: $0.range.lowerBound, end: $0.range.upperBound, newText: $0.newText) },
            projection), isPreferred: fix.isPreferred)
      }
      found.append(
        Finding(
          code: diagnostic.code, severity: diagnostic.severity, range: range, message: message, fixes: fixes,
          key: key, variant: variant))
    }
    return found
  }

  /// Appends the findings of `decided` from index `next` on that come
  /// before entry `entry`, with their rules' severities (none when the rule
  /// is off); moves `next` past them.
  private func decided(
    _ decided: [(before: Int, finding: Finding)], before entry: Int, from next: inout Int, into found: inout [Finding]
  ) {
    while next < decided.count, decided[next].before <= entry {
      var finding = decided[next].finding
      next += 1
      guard let severity = paragraphRules.first(where: { $0.rule.code == finding.code })?.severity else { continue }
      finding.severity = severity
      found.append(finding)
    }
  }

  // MARK: The syntax error

  /// The finding of a syntax error.
  package func finding(for error: SyntaxError) -> Finding? {
    guard let severity = rules.severity(for: format.syntaxCode) else { return nil }
    return Finding(
      code: format.syntaxCode, severity: severity, range: SourceRange(at: error.position),
      message:
        "This file stops being readable as \(format.displayName) here: \(error.message). The lines after it are read as plain text"
    )
  }

  // MARK: Outside the entries

  /// The findings of line `line` (`bytes`, its content) outside the
  /// entries: §5's line rules (no language) over the line with the source
  /// of `entries` (those touching the line) and their identifiers' controls
  /// blanked, byte for byte, so that columns stay the file's. A line with
  /// no entry on it is scanned as it is.
  package func outsideFindings(line: Int, _ bytes: UnsafeBufferPointer<UInt8>, entries: [TextEntry]) -> [Finding] {
    guard HazardBytes.firstHazard(in: bytes) != nil else { return [] }
    var masked = Array(bytes)
    func blank(_ range: SourceRange) {
      guard range.start.line <= line, range.end.line >= line else { return }
      let start = range.start.line == line ? min(range.start.column, masked.count) : 0
      let end = range.end.line == line ? min(range.end.column, masked.count) : masked.count
      for k in start..<max(start, end) { masked[k] = 0x20 }
    }
    for entry in entries {
      blank(entry.range)
      for (_, range) in entry.controlsInIdentifier { blank(range) }
    }
    let scan = masked.withUnsafeBufferPointer {
      HazardScanner(language: nil, settings: rules).scanLine($0, lineNumber: line)
    }
    return scan.diagnostics.map { Self.finding($0, line: line) }
  }

  /// The findings of a plain region's lines, with §5's rules for its
  /// language (the tokenizer's state carried from line to line).
  package func regionFindings(_ region: PlainRegion, in lines: some DocumentLines) -> [Finding] {
    // Only the lines up to the last one holding a hazard byte can have a
    // finding (`HazardBytes`): the tokenizer runs up to there. A whole text
    // has its hazard lines found already, by the same scan.
    var last: Int?
    if let text = lines as? TextLines {
      last = text.hazards.lastLine(in: region.lines.clamped(to: 0..<lines.lineCount))
    } else {
      for line in region.lines.reversed() where line < lines.lineCount {
        if lines.withUTF8(ofLine: line, { HazardBytes.firstHazard(in: $0) != nil }) {
          last = line
          break
        }
      }
    }
    guard let last else { return [] }
    var scanner = HazardScanner(language: region.language.flatMap(SourceLanguage.init(languageId:)), settings: rules)
    scanner.readsUTF16Conversion = lines.isUTF16Conversion
    var state = LexerState.initial
    var found: [Finding] = []
    for line in region.lines where line <= last {
      let scan = lines.withUTF8(ofLine: line) { scanner.scanLine($0, lineNumber: line, state: state) }
      state = scan.endState
      found += scan.diagnostics.map { Self.finding($0, line: line) }
    }
    return found
  }

  /// A hazard of a line scan as a finding, its fixes on that line.
  static func finding(_ diagnostic: HazardDiagnostic, line: Int) -> Finding {
    Finding(
      code: diagnostic.code, severity: diagnostic.severity, range: SourceRange(line: line, diagnostic.range),
      message: diagnostic.message,
      fixes: diagnostic.fixes.map { fix in
        Fix(
          title: fix.title,
          edits: fix.edits.map { SourceEdit(range: SourceRange(line: $0.line, $0.range), newText: $0.newText) },
          isPreferred: fix.isPreferred)
      })
  }

  // MARK: A whole document

  /// Every finding of a document read whole (`check`; the daemon's, which
  /// it keeps incrementally, are the same): the entries' in order, the
  /// syntax error's, the lines outside the entries (those holding a bidi
  /// control), the regions'; sorted by position, an entry's before the line
  /// rules' at one place. `locale` gives the locale of each entry.
  package func findings(
    in lines: some DocumentLines, index: StructuredIndex, sources: SourceCatalog? = nil,
    locale: (TextEntry) -> LocaleTag?
  ) -> [Finding] {
    findings(
      in: lines,
      read: WholeRead(
        entries: index.entries, regions: index.regions(touching: 0..<index.lineCount),
        error: index.error, contentLocale: index.contentLocale, spelling: index.spelling), sources: sources,
      locale: locale)
  }

  /// `findings(in:index:locale:)` over a document read whole without an
  /// index (`WholeRead`, what `check` reads), the findings its reader
  /// decided (`WholeRead.decided`) where their entries' would be.
  /// `sources`: the entries' sources in the source locale's file, when
  /// paired with one. `runner`: the entries' findings in parts run at
  /// once, kept in order.
  package func findings(
    in lines: some DocumentLines, read: WholeRead, sources: SourceCatalog? = nil, runner: PartRunner = .serial,
    locale: (TextEntry) -> LocaleTag?
  ) -> [Finding] {
    var found: [Finding] = []
    found.reserveCapacity(read.decided.count)
    let parts = runner.parts(read.entries.count)
    if parts.count == 1 {
      var next = 0
      for (k, entry) in read.entries.enumerated() {
        decided(read.decided, before: k, from: &next, into: &found)
        found += findings(in: entry, locale: locale(entry), source: sources?.tokens(for: entry, format: format))
      }
      decided(read.decided, before: read.entries.count, from: &next, into: &found)
    } else {
      let entries = read.entries
      let inputs = entries.map { (locale: locale($0), source: sources?.tokens(for: $0, format: format)) }
      let engine = self
      let decided = read.decided
      let results = runner.map(parts) { range in
        var found: [Finding] = []
        // The decided findings before this part's entries (and after the
        // last entry, in the last part).
        var next = decided.firstIndex { $0.before >= range.lowerBound } ?? decided.count
        for k in range {
          engine.decided(decided, before: k, from: &next, into: &found)
          found += engine.findings(in: entries[k], locale: inputs[k].locale, source: inputs[k].source)
        }
        if range.upperBound == entries.count {
          engine.decided(decided, before: entries.count, from: &next, into: &found)
        }
        return found
      }
      for part in results { found += part }
    }
    if let error = read.error, let finding = finding(for: error) { found.append(finding) }
    let entryCount = found.count
    // The lines holding a bidi control outside a region, then the entries
    // touching each of them (one pass over the entries).
    var nextRegion = 0
    // Whether `line` is outside every region (asked in ascending order).
    func isOutside(_ line: Int) -> Bool {
      while nextRegion < read.regions.count, read.regions[nextRegion].lines.upperBound <= line { nextRegion += 1 }
      return !(nextRegion < read.regions.count && read.regions[nextRegion].lines.contains(line))
    }
    var hazardLines: [Int] = []
    if let text = lines as? TextLines {
      // The text's hazard lines (one scan, shared with the reader), checked
      // against the regions.
      for hazard in text.hazards.lines where isOutside(hazard.line) { hazardLines.append(hazard.line) }
    } else {
      for line in 0..<lines.lineCount
      where isOutside(line) && lines.withUTF8(ofLine: line, { HazardBytes.firstHazard(in: $0) != nil }) {
        hazardLines.append(line)
      }
    }
    var touching: [Int: [TextEntry]] = [:]
    if !hazardLines.isEmpty {
      let wanted = Set(hazardLines)
      for entry in read.entries {
        for line in entry.firstLine...max(entry.firstLine, entry.range.end.line) where wanted.contains(line) {
          touching[line, default: []].append(entry)
        }
      }
    }
    for line in hazardLines {
      let outside = lines.withUTF8(ofLine: line) { outsideFindings(line: line, $0, entries: touching[line] ?? []) }
      // Bytes that are not UTF-8 at the syntax error are that error.
      found += outside.filter { $0.code != .invalidUtf8 || $0.range.start != read.error?.position }
    }
    for region in read.regions { found += regionFindings(region, in: lines) }
    // Stable: at one place, an entry's finding before the line rules'.
    // Findings already in that order (a document with no bidi control
    // outside its entries and no region finding) are returned as they are,
    // not copied through a sort.
    if Self.startsInOrder(found) { return found }
    return found.enumerated().sorted { a, b in
      let first = (a.offset < entryCount ? 0 : 1, a.offset)
      let second = (b.offset < entryCount ? 0 : 1, b.offset)
      return a.element.range.start != b.element.range.start
        ? a.element.range.start < b.element.range.start : first < second
    }.map(\.element)
  }

  /// Whether no finding of `found` starts before the one before it: then
  /// the sort above leaves `found` as it is (at one start it keeps the
  /// findings' order, an entry's before the line rules' as they came).
  static func startsInOrder(_ found: [Finding]) -> Bool {
    var index = 1
    while index < found.count {
      if found[index].range.start < found[index - 1].range.start { return false }
      index += 1
    }
    return true
  }
}
