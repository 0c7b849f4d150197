import UnicodeBidi

/// A quick fix: edits of the document.
package struct Fix: Hashable, Sendable {
  package var title: String
  package var edits: [SourceEdit]
  package var isPreferred: Bool

  package init(title: String, edits: [SourceEdit], isPreferred: Bool) {
    self.title = title
    self.edits = edits
    self.isPreferred = isPreferred
  }
}

/// A diagnostic of a structured document, in document coordinates (lines
/// and UTF-8 columns), as the daemon publishes it and `check` prints it.
package struct Finding: Hashable, Sendable {
  package var code: RuleCode
  package var severity: DiagnosticSeverity
  package var range: SourceRange
  package var message: String
  package var fixes: [Fix]
  /// The entry's key and variant, for a finding of an entry in a format
  /// with keys (nil otherwise, and for the syntax error).
  package var key: String?
  package var variant: String?

  package init(
    code: RuleCode, severity: DiagnosticSeverity, range: SourceRange, message: String, fixes: [Fix] = [],
    key: String? = nil, variant: String? = nil
  ) {
    self.code = code
    self.severity = severity
    self.range = range
    self.message = message
    self.fixes = fixes
    self.key = key
    self.variant = variant
  }

  /// The finding moved `lines` lines down (its fixes too); itself, not
  /// copied, for no lines.
  package func shifted(by lines: Int) -> Finding {
    if lines == 0 { return self }
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

/// A rule of a format, run by the findings engine on each paragraph of
/// each entry (`StructuredFormat.paragraphRules`): it looks at the
/// paragraph's analysis and, when it applies, says why and how to fix it.
/// The engine adds the code, the configured severity (and skips a rule
/// that is off), the paragraph's range and the entry's key.
package struct ParagraphRule: Sendable {
  package var code: RuleCode
  package var check: @Sendable (_ paragraph: ParagraphAnalysis, _ context: RuleContext) -> RuleResult?

  package init(
    code: RuleCode, check: @escaping @Sendable (_ paragraph: ParagraphAnalysis, _ context: RuleContext) -> RuleResult?
  ) {
    self.code = code
    self.check = check
  }
}

/// What a paragraph rule knows besides the paragraph.
package struct RuleContext: Sendable {
  /// The planner of the paragraph's entry (the fixes' edits).
  package var planner: EntryPlanner
  /// The locale that applies to the entry, when known.
  package var locale: LocaleTag?

  /// Whether the entry's locale is written right to left.
  package var localeIsRightToLeft: Bool { locale?.isRightToLeft ?? false }
}

/// A rule's finding on a paragraph: its message and fixes.
package struct RuleResult: Sendable {
  package var message: String
  package var fixes: [Fix]

  package init(message: String, fixes: [Fix]) {
    self.message = message
    self.fixes = fixes
  }
}
