import UnicodeBidi

/// A `TextEntry`'s fields, held in one shared box (`TextEntry.Storage`)
/// that is copied only when a copy is changed: an entry is passed, stored
/// and returned at the cost of one reference count (a read, the findings
/// engine, an analysis and a planner each hold one), not one per field.
extension TextEntry {
  struct Fields: Hashable, Sendable {
    var key: String
    var context: String? = nil
    var variant: String? = nil
    var block: String? = nil
    var cue: Int? = nil
    var isBranch: Bool = false
    var locale: String? = nil
    var text: String
    var atoms: [TextAtom] = []
    var markup: [Range<Int>] = []
    var sealed: [Range<Int>] = []
    var paragraphs: [Range<Int>] = []
    var literalOnly: [Range<Int>] = []
    var characterReferences: [CharacterReference] = []
    var layoutWhiteSpace: [Range<Int>] = []
    var insertionOverrides: [Int: SourcePosition] = [:]
    var source: String? = nil
    var sourceTokens: SourceTokens? = nil
    var firstLine: Int
    var content: SourceRange
    var map: SourceMap
    var identifierControls: [IdentifierControl] = []
    var controlSpelling: MarkSpelling? = nil
    var hasLiteralControl: Bool = false
    var hasNonASCIILiteral: Bool = false
    var factKeys: [String] = []
  }

  /// The box: its fields change only while it is uniquely referenced
  /// (`makeUnique`), so sharing it between threads is safe. They are held
  /// through a pointer, so that a change to one field while another is
  /// read (`entry.text.withUTF8 { … entry.map … }`) is no overlapping
  /// access to one class property (as it is none to one struct).
  final class Storage: @unchecked Sendable {
    let fields: UnsafeMutablePointer<Fields>

    init(_ value: Fields) {
      fields = .allocate(capacity: 1)
      fields.initialize(to: value)
    }

    deinit {
      fields.deinitialize(count: 1)
      fields.deallocate()
    }
  }

  /// Copies the box before a change unless this entry is its only holder.
  @inline(__always)
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields.pointee) }
  }

  package static func == (a: TextEntry, b: TextEntry) -> Bool {
    a.storage === b.storage || a.storage.fields.pointee == b.storage.fields.pointee
  }

  package func hash(into hasher: inout Hasher) {
    storage.fields.pointee.hash(into: &hasher)
  }
}
