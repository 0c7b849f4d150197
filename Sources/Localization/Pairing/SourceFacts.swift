import StructuredText
import UnicodeBidi

/// The sources a String Catalog holds for its translations: its
/// `sourceLanguage` and the values of that language, kept as document
/// facts (a key's localizations are in any order, the source's often
/// after the others). A translation's source is the source-language value
/// of its key and variant, else of its key (not for a substitution's
/// variant, whose `%arg` the plain value does not have), else the key
/// itself, which is the source string of an extracted key.
enum SourceFacts {
  static let languageKind = "sourceLanguage"
  static let valueKind = "sourceValue"

  static func language(_ tag: String, line: Int) -> DocumentFact {
    DocumentFact(kind: languageKind, key: "", name: "", value: tag, line: line)
  }

  static func value(_ entry: TextEntry, line: Int) -> DocumentFact {
    DocumentFact(kind: valueKind, key: entry.key, name: entry.variant ?? "", value: entry.text, line: line)
  }

  /// Gives each translation (a value not of the source language, not
  /// empty) its source tokens.
  static func apply(_ facts: [DocumentFact], to entries: inout [TextEntry]) {
    var language: String?
    var sources: [String: String] = [:]
    for fact in facts {
      if fact.kind == languageKind {
        language = fact.value
      } else if fact.kind == valueKind {
        sources[fact.key + "\u{4}" + fact.name] = fact.value
      }
    }
    guard let language else { return }
    for index in entries.indices {
      let entry = entries[index]
      guard entry.locale != language, !entry.text.isEmpty, !entry.isBranch else { continue }
      let variant = entry.variant ?? ""
      var source = sources[entry.key + "\u{4}" + variant]
      if source == nil, !variant.contains("substitution:") {
        source = sources[entry.key + "\u{4}"] ?? entry.key
      }
      guard let source else { continue }
      entries[index].sourceTokens = SourceNormalization.tokens(ofSource: source, rules: .of(.xcstrings))
    }
  }
}
