import BidiHazards
import BidiMarks
import UnicodeBidi

/// A quick fix: edits of the document, all inside one value.
package struct LocalizationFix: Hashable, Sendable {
  package var title: String
  package var edits: [SourceEdit]
  package var isPreferred: Bool
}

/// A diagnostic of a localization document.
package struct LocalizationFinding: Hashable, Sendable {
  package var code: RuleCode
  package var severity: DiagnosticSeverity
  package var range: SourceRange
  package var message: String
  package var fixes: [LocalizationFix]
  /// The value's key (nil for a syntax error).
  package var key: String?
  package var variant: String?
}

/// Finds the localization diagnostics of values.
package struct LocalizationDiagnostics: Sendable {
  /// How marks are written in the document.
  package var spelling: MarkSpelling
  /// The severity of a code, or nil when it is off.
  package var severity: @Sendable (RuleCode) -> DiagnosticSeverity?

  package init(
    spelling: MarkSpelling,
    severity: @escaping @Sendable (RuleCode) -> DiagnosticSeverity? = { $0.defaultSeverity }
  ) {
    self.spelling = spelling
    self.severity = severity
  }

  /// The findings of one value, paragraph by paragraph: the direction
  /// findings (`valueDirection` only when `localeIsRightToLeft`), the
  /// hazards of each paragraph as its own context, and the bidi controls of
  /// its key (`bidi.inIdentifier`, no fix: a key is the code's lookup key).
  package func findings(in value: LocalizedValue, localeIsRightToLeft: Bool) -> [LocalizationFinding] {
    var found: [LocalizationFinding] = []
    let planner = ValuePlanner(value, spelling: spelling)
    func add(_ code: RuleCode, _ range: SourceRange, _ message: String, _ fixes: [LocalizationFix]) {
      guard let severity = severity(code) else { return }
      found.append(
        LocalizationFinding(
          code: code, severity: severity, range: range, message: message, fixes: fixes, key: value.key,
          variant: value.variant))
    }
    if let severity = severity(.inIdentifier) {
      for (control, range) in value.controlsInKey {
        found.append(
          LocalizationFinding(
            code: .inIdentifier, severity: severity, range: range,
            message:
              "\(control.displayName) in the key \u{201C}\(value.key)\u{201D}: the key looks like one without it but is a different key",
            fixes: [], key: value.key, variant: value.variant))
      }
    }
    for paragraph in value.paragraphs.indices {
      let analysis = ValueParagraphAnalysis(value, paragraph: paragraph)
      let range = analysis.range
      let rtlLetters = analysis.hasRightToLeftLetters
      let written = analysis.direction(.firstStrong).direction
      let filled = analysis.direction(.firstStrong, filled: true).direction
      // Planned only for a finding: most paragraphs have none.
      func rlm() -> LocalizationFix {
        LocalizationFix(
          title: "Start the value with RLM (U+200F RIGHT-TO-LEFT MARK)",
          edits: planner.directionEdits(.rightToLeft, paragraphs: paragraph..<paragraph + 1), isPreferred: true)
      }
      if rtlLetters, written == .rightToLeft, filled == .leftToRight {
        let isolate = LocalizationFix(
          title: "Isolate the placeholders (FSI … PDI)",
          edits: planner.placeholderEdits(style: .isolate, paragraphs: paragraph..<paragraph + 1), isPreferred: false)
        add(
          .placeholderDirection, range,
          "This value is right to left as written but left to right once its placeholders are filled: it displays as \u{201C}\(analysis.filledVisualText())\u{201D}. Start it with RLM, or isolate its placeholders",
          [rlm(), isolate])
      } else if localeIsRightToLeft, rtlLetters, written == .leftToRight {
        add(
          .valueDirection, range,
          "This right-to-left translation starts with a left-to-right character, so it displays left to right: \u{201C}\(analysis.filledVisualText())\u{201D}. Start it with RLM",
          [rlm()])
      }
      found += hazards(analysis, planner)
    }
    return found
  }

  /// The hazards of a paragraph (its content as one context).
  private func hazards(_ analysis: ValueParagraphAnalysis, _ planner: ValuePlanner) -> [LocalizationFinding] {
    let projection = analysis.written
    guard projection.scalars.contains(where: { BidiControl(scalar: $0) != nil }) else { return [] }
    var settings = RuleSettings()
    for code in RuleCode.allCases { settings[code] = severity(code).map { .severity($0) } ?? .off }
    let bytes = projection.utf8
    let scan = HazardScanner(language: nil, settings: settings).scanLine(bytes, lineNumber: 0)
    var found: [LocalizationFinding] = []
    for diagnostic in scan.diagnostics {
      let code = diagnostic.code
      let scalars =
        projection.index(
          ofUTF8: diagnostic.range.lowerBound)..<projection.index(
          ofUTF8: diagnostic.range.upperBound)
      let range = analysis.value.sourceRange(ofDecoded: projection.decodedRange(scalars))
      var message = diagnostic.message
      for (line, valueWords) in [("the end of the line", "the end of the value"), ("its line", "the value")] {
        message = message.replacingAll(line, with: valueWords)
      }
      if code == .unpaired { message += ", and into the text the application puts after it" }
      let fixes = diagnostic.fixes.map { fix in
        LocalizationFix(
          title: fix.title.replacingAll("on its line", with: "in the value"),
          edits: planner.map(
            fix.edits.map { MarkEdit(start: $0.range.lowerBound, end: $0.range.upperBound, newText: $0.newText) },
            projection), isPreferred: fix.isPreferred)
      }
      found.append(
        LocalizationFinding(
          code: code, severity: diagnostic.severity, range: range, message: message, fixes: fixes,
          key: analysis.value.key, variant: analysis.value.variant))
    }
    return found
  }

  /// The finding of a syntax error.
  package func finding(for error: LocalizationSyntaxError, format: LocalizationFormat) -> LocalizationFinding? {
    guard let severity = severity(.localizationSyntax) else { return nil }
    return LocalizationFinding(
      code: .localizationSyntax, severity: severity, range: SourceRange(at: error.position),
      message:
        "This file stops being readable as \(format.displayName) here: \(error.message). The lines after it are read as plain text",
      fixes: [], key: nil, variant: nil)
  }
}

extension LocalizationFormat {
  /// The format's name in messages.
  package var displayName: String {
    switch self {
    case .strings: "an Apple .strings file"
    case .stringsdict: "an Apple .stringsdict property list"
    case .xcstrings: "an Apple String Catalog"
    case .po: "a gettext PO file"
    case .xliff: "XLIFF"
    case .arb: "a Flutter ARB file"
    case .i18next: "i18next JSON"
    case .properties: "a Java .properties file"
    case .resx: "a .NET .resx file"
    case .android: "Android string resources"
    }
  }
}

extension String {
  /// Every occurrence of `target` replaced (no Foundation).
  func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
