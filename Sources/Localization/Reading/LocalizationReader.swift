/// What reading a whole document gives.
package struct LocalizationReadResult: Sendable {
  /// The values, in document order (an ICU message's branches right after
  /// it), ARB metadata types applied.
  package var values: [LocalizedValue]
  /// The first syntax error, if the file stops being its format.
  package var error: LocalizationSyntaxError?
  /// The locale the contents name, if they name one.
  package var contentLocale: String?
  /// Everything found, facts included, in order.
  package var items: [LocalizationItem]
}

/// Reads localization documents.
package enum LocalizationReader {
  /// Reads a whole document of a format.
  package static func read(_ lines: some LocalizationLines, format: LocalizationFormat) -> LocalizationReadResult {
    var sink = ReadSink()
    var cursor = Cursor(lines)
    var state = ReaderState()
    format.reader.read(&cursor, &state, &sink)
    sink.finish(at: cursor)
    return result(items: sink.items, error: sink.error)
  }

  /// Reads a whole text of a format.
  package static func read(_ text: String, format: LocalizationFormat) -> LocalizationReadResult {
    read(LocalizationText(text), format: format)
  }

  static func result(items: [LocalizationItem], error: LocalizationSyntaxError?) -> LocalizationReadResult {
    var types = ArgumentTypes()
    var locale: String?
    for item in items {
      switch item {
      case .value: break
      case .locale(let tag, _): if locale == nil { locale = tag }
      case .argumentType(let key, let name, let type, _): types.add(key: key, name: name, type: type)
      }
    }
    let values = items.compactMap { item -> LocalizedValue? in
      guard case .value(let value) = item else { return nil }
      return types.apply(to: value)
    }
    return LocalizationReadResult(values: values, error: error, contentLocale: locale, items: items)
  }
}

/// ARB placeholder types by key and name: `int`, `num` and `double` make a
/// placeholder numeric.
struct ArgumentTypes: Sendable {
  private var numeric: [String: Set<String>] = [:]
  private(set) var isEmpty = true

  mutating func add(key: String, name: String, type: String) {
    isEmpty = false
    if type == "int" || type == "num" || type == "double" || type == "integer" {
      numeric[key, default: []].insert(name)
    }
  }

  func apply(to value: LocalizedValue) -> LocalizedValue {
    guard !isEmpty, let names = numeric[value.key] else { return value }
    var copy = value
    for index in copy.placeholders.indices {
      if let name = copy.placeholders[index].name, names.contains(name),
        copy.placeholders[index].kind == .braces
      {
        copy.placeholders[index].isNumeric = true
      }
    }
    return copy
  }
}
