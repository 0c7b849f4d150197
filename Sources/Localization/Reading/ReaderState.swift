import UnicodeBidi

/// Everything a reader needs to go on reading from an entry boundary at the
/// start of a line: small, and equal exactly when reading from there gives
/// the same result (Protocol/localization.md: an edit re-reads only the entries it
/// touches).
package struct ReaderState: Hashable, Sendable {
  /// One open container: a JSON object or array, an XML element.
  struct Frame: Hashable, Sendable {
    /// For JSON, 0 for an object and 1 for an array; for XML, the
    /// format's role of the element.
    var kind: UInt8
    /// The JSON member key, or the XML element's name.
    var name: String
    /// The array index, or a count the format keeps.
    var index: Int = 0
    /// A fact the format keeps with the container (an XLIFF unit's id, an
    /// `.xcstrings` substitution's format specifier).
    var note: String = ""
  }

  /// The reader's phase (what it expects next), by format.
  var phase: UInt8 = 0
  var frames: [Frame] = []
  /// Facts of the enclosing context (an XLIFF file's target language).
  var notes: [String] = []

  package init() {}
}

/// Where readers put what they find, and how a re-read is told to stop.
struct ReadSink {
  var items: [LocalizationItem] = []
  /// The entry boundaries at line starts passed, with the state there.
  var checkpoints: [(line: Int, state: ReaderState)] = []
  var error: LocalizationSyntaxError?
  /// Asked at each boundary after the first: true stops the read there
  /// (the index's "the state equals the old one past the edit").
  var shouldStop: ((Int, ReaderState) -> Bool)?
  private(set) var stopped = false
  private var lastLine = -1

  init(shouldStop: ((Int, ReaderState) -> Bool)? = nil) {
    self.shouldStop = shouldStop
  }

  /// Records an entry boundary when the cursor is at the start of a line;
  /// returns false when reading must stop.
  mutating func boundary(_ cursor: Cursor, _ state: ReaderState) -> Bool {
    guard cursor.column == 0 else { return !stopped }
    return boundary(line: cursor.line, state)
  }

  /// Records an entry boundary at the start of line `line`.
  mutating func boundary(line: Int, _ state: ReaderState) -> Bool {
    guard line > lastLine else { return !stopped }
    lastLine = line
    if let shouldStop, !checkpoints.isEmpty, shouldStop(line, state) {
      stopped = true
      checkpoints.append((line, state))
      return false
    }
    checkpoints.append((line, state))
    return true
  }

  /// Ends a read that stopped at `cursor`: when the reader met the end of
  /// the readable text at a byte that is not UTF-8, that byte is the error
  /// (whatever the reader said about the end it met), and a value reaching
  /// it is dropped; the values before it stay.
  mutating func finish(at cursor: Cursor) {
    guard let invalid = cursor.invalidText, cursor.isAtEnd, !stopped else { return }
    error = LocalizationSyntaxError(
      position: invalid,
      message: "byte 0x\(String(cursor.invalidByte, radix: 16, uppercase: true)) is not UTF-8 text"
        + " (a localization file is UTF-8, or UTF-16 with a byte order mark)")
    items.removeAll { item in
      guard case .value(let value) = item else { return false }
      return value.range.end >= invalid
    }
  }

  mutating func fail(_ message: String, at position: SourcePosition) {
    if error == nil { error = LocalizationSyntaxError(position: position, message: message) }
  }

  mutating func add(_ value: LocalizedValue, rules: PlaceholderRules) {
    for finished in ValueFinisher.finish(value, rules: rules) { items.append(.value(finished)) }
  }
}

/// A reader of one format: reads from a cursor in a state until the
/// document ends, it meets a syntax error (`sink.fail`), or the sink says
/// stop at a boundary.
protocol FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink)
}

extension LocalizationFormat {
  var reader: any FormatReader.Type {
    switch self {
    case .strings: StringsReader.self
    case .po: POReader.self
    case .properties: PropertiesReader.self
    case .arb: ARBReader.self
    case .i18next: I18nextReader.self
    case .xcstrings: XCStringsReader.self
    case .stringsdict: StringsDictReader.self
    case .xliff: XLIFFReader.self
    case .resx: ResXReader.self
    case .android: AndroidReader.self
    }
  }
}
