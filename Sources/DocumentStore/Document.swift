import UnicodeBidi

/// One LSP content change (`TextDocumentContentChangeEvent`): `text` replaces
/// `range`, or the whole document when `range` is nil.
public struct ContentChange: Hashable, Sendable {
  public var range: TextRange?
  public var text: String

  public init(range: TextRange?, text: String) {
    self.range = range
    self.text = text
  }

  /// A change that replaces the whole document.
  public static func full(_ text: String) -> ContentChange { ContentChange(range: nil, text: text) }
}

/// An open document: its identity, version and text. A value: copying it is
/// an O(1) snapshot that later changes to the original never affect.
public struct Document: Sendable {
  /// The per-line analysis documents cache (see `LineAnalysis`).
  public typealias Analysis = BidiLineAnalysis
  /// The text of a document.
  public typealias Text = LineTree<Analysis>

  public let uri: String
  public let languageId: String
  /// The version of the last `didOpen` or `didChange` applied.
  public private(set) var version: Int
  /// The text. Mutating it directly is meant for filling analysis caches;
  /// edits go through `apply(_:version:encoding:)`.
  public var text: Text

  public init(uri: String, languageId: String, version: Int, text: Text) {
    self.uri = uri
    self.languageId = languageId
    self.version = version
    self.text = text
  }

  /// Applies `changes` in order, all or nothing: if one fails, throws
  /// `DocumentError.contentChange(index:_)` and the document is unchanged.
  /// On success the document takes `version`.
  public mutating func apply(_ changes: [ContentChange], version: Int, encoding: PositionEncoding)
    throws(DocumentError)
  {
    var edited = text
    for (index, change) in changes.enumerated() {
      do {
        if let range = change.range {
          try edited.replace(range, with: change.text, in: encoding)
        } else {
          try edited.replaceAll(with: change.text)
        }
      } catch {
        throw .contentChange(index: index, error)
      }
    }
    text = edited
    self.version = version
  }
}
