import StructuredText
import UnicodeBidi

/// What reading a whole localization document gives.
package struct LocalizationReadResult: Sendable {
  /// The values, in document order (an ICU message's branches right after
  /// it), ARB metadata types applied.
  package var values: [TextEntry]
  /// The first syntax error, if the file stops being its format.
  package var error: SyntaxError?
  /// The locale the contents name, if they name one.
  package var contentLocale: String?
  /// Everything found, facts included, in order.
  package var items: [ReadItem]
}

/// Reads whole localization documents (for tests, fuzzing and tools; the
/// daemon and `check` keep a `StructuredIndex`, which this reads with).
package enum LocalizationReader {
  /// Reads a whole document of a format.
  package static func read(_ lines: some DocumentLines, format: LocalizationFormat) -> LocalizationReadResult {
    let index = StructuredIndex(lines, format: format)
    return LocalizationReadResult(
      values: index.entries, error: index.error, contentLocale: index.contentLocale, items: index.allItems)
  }

  /// Reads a whole text of a format.
  package static func read(_ text: String, format: LocalizationFormat) -> LocalizationReadResult {
    read(TextLines(text), format: format)
  }
}

extension ReadSink {
  /// Completes a value by the format's placeholder rules (its ICU branches
  /// entries after it) and adds it.
  mutating func add(_ value: consuming TextEntry, rules: PlaceholderRules) {
    ValueFinisher.finish(value, rules: rules) { add($0) }
  }
}

extension ReadItem {
  /// ARB metadata: the type of a placeholder of a key (`@count` →
  /// `placeholders.count.type: "int"`).
  static func argumentType(key: String, name: String, type: String, line: Int) -> ReadItem {
    .fact(DocumentFact(kind: ArgumentTypes.factKind, key: key, name: name, value: type, line: line))
  }
}

/// ARB placeholder types by key and name: `int`, `num` and `double` make a
/// placeholder numeric.
struct ArgumentTypes: Sendable {
  /// The kind of the facts that carry them.
  static let factKind = "argumentType"

  private var numeric: [String: Set<String>] = [:]
  private(set) var isEmpty = true

  init(_ facts: [DocumentFact]) {
    for fact in facts where fact.kind == Self.factKind { add(key: fact.key, name: fact.name, type: fact.value) }
  }

  mutating func add(key: String, name: String, type: String) {
    isEmpty = false
    if type == "int" || type == "num" || type == "double" || type == "integer" {
      numeric[key, default: []].insert(name)
    }
  }

  func apply(to value: TextEntry) -> TextEntry {
    guard !isEmpty, let names = numeric[value.key] else { return value }
    var copy = value
    for index in copy.atoms.indices {
      if let name = copy.atoms[index].name, names.contains(name), copy.atoms[index].kind == .braces {
        copy.atoms[index].isNumeric = true
      }
    }
    return copy
  }
}
