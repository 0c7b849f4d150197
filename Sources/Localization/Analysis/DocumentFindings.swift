/// The findings of a whole localization document.
extension LocalizationDiagnostics {
  /// Every finding of a document: each value's, `valueDirection` where the
  /// locale that applies to the value (`locale`) is right to left, and the
  /// syntax error's, in document order.
  package func findings(
    values: [LocalizedValue], error: LocalizationSyntaxError?, format: LocalizationFormat,
    locale: (LocalizedValue) -> LocaleTag?
  ) -> [LocalizationFinding] {
    var found: [LocalizationFinding] = []
    for value in values {
      found += findings(in: value, localeIsRightToLeft: locale(value)?.isRightToLeft ?? false)
    }
    if let error, let finding = finding(for: error, format: format) { found.append(finding) }
    return found
  }
}
