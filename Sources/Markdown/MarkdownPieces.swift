/// A block's pieces (`MarkdownBlock.pieces`), in order: the first held in
/// the value itself, the others (a block of more than one line) in an
/// array. Most blocks are one line (a heading, a table cell, a short
/// paragraph): they hold no array, so reading a document allocates none for
/// them.
package struct MarkdownPieces: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
  CustomStringConvertible
{
  /// The first piece; nil only when there is none (then `rest` is empty).
  private var head: MarkdownPiece?
  private var rest: [MarkdownPiece]

  /// No piece.
  package init() {
    head = nil
    rest = []
  }

  /// One piece.
  package init(_ piece: MarkdownPiece) {
    head = piece
    rest = []
  }

  /// The pieces of `pieces`, copied (an array only for those after the first).
  /// (An array's, as the reader gives them, not through the generic
  /// collection's `first` and `dropFirst`.)
  package init(_ pieces: [MarkdownPiece]) {
    switch pieces.count {
    case 0: (head, rest) = (nil, [])
    case 1: (head, rest) = (pieces[0], [])
    default: (head, rest) = (pieces[0], Array(pieces[1...]))
    }
  }

  /// The pieces of `pieces`, copied (an array only for those after the first).
  package init(_ pieces: some Collection<MarkdownPiece>) {
    head = pieces.first
    rest = pieces.count > 1 ? Array(pieces.dropFirst()) : []
  }

  package init(arrayLiteral pieces: MarkdownPiece...) { self.init(pieces) }

  package var startIndex: Int { 0 }
  package var endIndex: Int { head == nil ? 0 : rest.count + 1 }

  package subscript(index: Int) -> MarkdownPiece {
    index == 0 ? head! : rest[index - 1]
  }

  // The common questions answered from the fields (the collection's
  // defaults go through its indices).
  package var first: MarkdownPiece? { head }
  package var last: MarkdownPiece? { rest.last ?? head }
  package var count: Int { endIndex }
  package var isEmpty: Bool { head == nil }

  package var description: String { Array(self).description }
}
