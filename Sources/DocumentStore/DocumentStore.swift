import UnicodeBidi

/// The open documents, by URI, as `textDocument/didOpen`, `didChange` and
/// `didClose` maintain them. Every operation that throws leaves the store
/// exactly as it was.
package struct DocumentStore: Sendable {
  private var documents: [String: Document] = [:]

  package init() {}

  /// The number of open documents.
  package var count: Int { documents.count }

  /// The URIs of the open documents, in no particular order.
  package var uris: [String] { Array(documents.keys) }

  /// A snapshot of the document at `uri`, or nil if it is not open. O(1).
  package subscript(uri: String) -> Document? { documents[uri] }

  /// A snapshot of the document at `uri`. O(1).
  package func document(_ uri: String) throws(DocumentError) -> Document {
    guard let document = documents[uri] else { throw .unknownDocument(uri: uri) }
    return document
  }

  /// Opens a document (`didOpen`). Throws if it is already open or `text` cannot be stored.
  package mutating func open(uri: String, languageId: String, version: Int, text: String) throws(DocumentError) {
    guard documents[uri] == nil else { throw .alreadyOpen(uri: uri) }
    let tree = try Document.Text(text)
    documents[uri] = Document(uri: uri, languageId: languageId, version: version, text: tree)
  }

  /// Opens a document from UTF-8 bytes, validated (throws `invalidUTF8`
  /// if they are not UTF-8).
  package mutating func open(uri: String, languageId: String, version: Int, utf8 text: UnsafeBufferPointer<UInt8>)
    throws(DocumentError)
  {
    guard documents[uri] == nil else { throw .alreadyOpen(uri: uri) }
    let tree = try Document.Text(utf8: text)
    documents[uri] = Document(uri: uri, languageId: languageId, version: version, text: tree)
  }

  /// Opens a document from UTF-8 bytes that the caller vouches are
  /// well-formed (a `didOpen` text as jansson decoded and validated it, read
  /// straight from jansson's buffer): no `String` and no second validation.
  package mutating func open(
    uri: String, languageId: String, version: Int, wellFormedUTF8 text: UnsafeBufferPointer<UInt8>
  ) throws(DocumentError) {
    guard documents[uri] == nil else { throw .alreadyOpen(uri: uri) }
    let tree = try Document.Text(wellFormedUTF8: text)
    documents[uri] = Document(uri: uri, languageId: languageId, version: version, text: tree)
  }

  /// Applies a `didChange`: `changes` in order, all or nothing; answers the
  /// line change each made (see `Document.apply`).
  @discardableResult
  package mutating func change(uri: String, version: Int, changes: [ContentChange], encoding: PositionEncoding)
    throws(DocumentError) -> [LineChange]
  {
    guard let index = documents.index(forKey: uri) else { throw .unknownDocument(uri: uri) }
    return try documents.values[index].apply(changes, version: version, encoding: encoding)
  }

  /// Closes a document (`didClose`).
  package mutating func close(uri: String) throws(DocumentError) {
    guard documents.removeValue(forKey: uri) != nil else { throw .unknownDocument(uri: uri) }
  }

  /// Calls `body` with in-place access to the stored document at `uri`, so that
  /// analysis caches it fills are kept. Throws `unknownDocument` if it is not
  /// open, or what `body` throws.
  package mutating func withDocument<R>(_ uri: String, _ body: (inout Document) throws -> R) throws -> R {
    guard let index = documents.index(forKey: uri) else { throw DocumentError.unknownDocument(uri: uri) }
    return try body(&documents.values[index])
  }
}
