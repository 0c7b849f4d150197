/// The sources of a translation file's entries found in another file, the
/// one of the source locale beside it (`en.lproj/X.strings` for
/// `ar.lproj/X.strings`; which file is the format module's
/// `SourcePairing`): each source entry's tokens by its pairing key
/// (`StructuredFormat.pairingKey`). The daemon and `check` build it the
/// same way from the same file, so that they find the same mismatches.
package struct SourceCatalog: Sendable {
  private var tokens: [String: SourceTokens] = [:]

  /// The catalog of a source document's entries (read by `format`); the
  /// first entry of a pairing key wins.
  package init(entries: [TextEntry], format: any StructuredFormat) {
    tokens.reserveCapacity(entries.count)
    for entry in entries {
      let key = format.pairingKey(of: entry)
      guard tokens[key] == nil else { continue }
      tokens[key] = entry.atoms.isEmpty && entry.markup.isEmpty ? .empty : format.sourceTokens(of: entry)
    }
  }

  /// The catalog of a source document's text.
  package init(_ lines: some DocumentLines, format: any StructuredFormat) {
    self.init(entries: WholeRead(lines, format: format).entries, format: format)
  }

  /// How many entries it pairs by.
  package var count: Int { tokens.count }

  /// The source tokens of the translation `entry` of a document of
  /// `format`: those of the source entry with its pairing key; nil when
  /// the source has no such entry.
  package func tokens(for entry: TextEntry, format: any StructuredFormat) -> SourceTokens? {
    tokens.isEmpty ? nil : tokens[format.pairingKey(of: entry)]
  }
}
