import UnicodeBidi

/// One LSP content change (`TextDocumentContentChangeEvent`): `text` replaces
/// `range`, or the whole document when `range` is nil.
package struct ContentChange: Hashable, Sendable {
  package var range: LSPRange?
  package var text: String

  package init(range: LSPRange?, text: String) {
    self.range = range
    self.text = text
  }

  /// A change that replaces the whole document.
  package static func full(_ text: String) -> ContentChange { ContentChange(range: nil, text: text) }
}

/// An open document: its identity, version and text. A value: copying it is
/// an O(1) snapshot that later changes to the original never affect.
package struct Document: Sendable {
  /// The per-line analysis documents cache (see `LineAnalysis`).
  package typealias Analysis = BidiLineAnalysis
  /// The text of a document.
  package typealias Text = LineTree<Analysis>

  package let uri: String
  package let languageId: String
  /// The version of the last `didOpen` or `didChange` applied.
  package private(set) var version: Int
  /// The text. Mutating it directly is meant for filling analysis caches;
  /// edits go through `apply(_:version:encoding:)`.
  package var text: Text

  package init(uri: String, languageId: String, version: Int, text: Text) {
    self.uri = uri
    self.languageId = languageId
    self.version = version
    self.text = text
  }

  /// Applies `changes` in order, all or nothing: if one fails, throws
  /// `DocumentError.contentChange(index:_)` and the document is unchanged.
  /// On success the document takes `version`, and the answer is the line
  /// change each change made, in order (each numbered after the ones before).
  @discardableResult
  package mutating func apply(_ changes: [ContentChange], version: Int, encoding: PositionEncoding)
    throws(DocumentError) -> [LineChange]
  {
    var lineChanges: [LineChange] = []
    lineChanges.reserveCapacity(changes.count)
    // A failed change must leave the text as it was: edit a copy (O(1); the
    // edits copy only the paths they change).
    var edited = text
    for (index, change) in changes.enumerated() {
      do throws(DocumentError) {
        if let range = change.range {
          lineChanges.append(try edited.replace(range, with: change.text, in: encoding))
        } else {
          lineChanges.append(try edited.replaceAll(with: change.text))
        }
      } catch {
        throw .contentChange(index: index, error)
      }
    }
    text = edited
    self.version = version
    return lineChanges
  }
}
