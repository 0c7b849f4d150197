import Localization
import StructuredText
import UnicodeBidi

/// The findings of one value by the findings engine, as the daemon and
/// `check` find them, in a right-to-left locale unless told otherwise.
func valueFindings(
  _ value: TextEntry, spelling: MarkSpelling = .literal, localeIsRightToLeft: Bool = true,
  format: LocalizationFormat = .strings
) -> [Finding] {
  FindingsEngine(format: format, spelling: spelling).findings(
    in: value, locale: localeIsRightToLeft ? LocaleTag("ar") : LocaleTag("en"))
}

/// Every finding of a whole text by the findings engine.
/// `sources`: the entries' sources from the source locale's file.
func documentFindings(
  _ lines: some DocumentLines, format: LocalizationFormat, spelling: MarkSpelling = .literal,
  sources: SourceCatalog? = nil, locale: (TextEntry) -> LocaleTag?
) -> [Finding] {
  let index = StructuredIndex(lines, format: format)
  return FindingsEngine(format: format, spelling: spelling).findings(
    in: lines, index: index, sources: sources, locale: locale)
}
