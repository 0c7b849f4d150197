import UnicodeBidi

/// A document's text as a persistent balanced tree of lines.
///
/// Leaves hold blocks of complete lines (bytes contiguous, terminators kept, so
/// the text reads back byte for byte); internal nodes hold the summed
/// `TextMetrics` of their lines. Finding a line, measuring a prefix and
/// editing cost O(log n) plus the size of the lines touched. `LineTree` is a
/// value: copying it is O(1) and shares every node, and an edit copies only
/// the path it changes, so snapshots are free.
///
/// Lines are split at `\n`, `\r\n` and `\r`, as LSP does; `lineCount` is the
/// number of line terminators plus one. Positions are LSP positions in a
/// `PositionEncoding`; see `Line` for how offsets inside a character and past
/// a line's end are treated.
///
/// The tree also caches a per-line `Analysis` and per-node summaries of it
/// (see `LineAnalysis` and the `analysis(ofLine:)` family).
package struct LineTree<Analysis: LineAnalysis>: Sendable {
  typealias Node = LineTreeNode<Analysis>

  /// Node sizes (see `LineTreeTuning`).
  package typealias Tuning = LineTreeTuning

  var root: Node
  package let tuning: Tuning

  /// The longest line, in bytes, a document may hold.
  package static var maximumLineLength: Int { LeafPacker.maximumLineLength - 1 }

  /// An empty document: one empty line.
  package init() {
    self.init(root: Self.emptyRoot(), tuning: .standard)
  }

  /// The document holding `text`.
  package init(_ text: String) throws(DocumentError) {
    try self.init(text, tuning: .standard)
  }

  /// The document holding the UTF-8 bytes `utf8`, validated and built in
  /// one linear pass (throws `invalidUTF8` if they are not UTF-8).
  package init(utf8: UnsafeBufferPointer<UInt8>) throws(DocumentError) {
    try self.init(utf8: utf8, tuning: .standard)
  }

  /// The document holding `utf8`, which the caller vouches is well-formed
  /// UTF-8 (a string jansson decoded, which it has validated): built in one
  /// pass that only counts, 32 bytes at a time (`WellFormedLineScan`).
  package init(wellFormedUTF8 utf8: UnsafeBufferPointer<UInt8>) throws(DocumentError) {
    try self.init(utf8: utf8, wellFormed: true, tuning: .standard)
  }

  package init(_ text: String, tuning: Tuning) throws(DocumentError) {
    var text = text
    let built = text.withUTF8 { bytes -> Result<LineTree, DocumentError> in
      do throws(DocumentError) {
        // A Swift string is well-formed UTF-8.
        return .success(try LineTree(utf8: bytes, wellFormed: true, tuning: tuning))
      } catch {
        return .failure(error)
      }
    }
    self = try built.get()
  }

  package init(utf8: UnsafeBufferPointer<UInt8>, tuning: Tuning) throws(DocumentError) {
    try self.init(utf8: utf8, wellFormed: false, tuning: tuning)
  }

  package init(utf8: UnsafeBufferPointer<UInt8>, wellFormed: Bool, tuning: Tuning) throws(DocumentError) {
    let leaves = try LeafBuild.nodes(utf8, wellFormed: wellFormed, tuning: tuning, of: Analysis.self)
    let root = Node.build(leaves: leaves, maxChildren: tuning.maxChildren)
    self.init(root: root ?? Self.emptyRoot(), tuning: tuning)
  }

  init(root: Node, tuning: Tuning) {
    self.root = root
    self.tuning = tuning
  }

  static func emptyRoot() -> Node {
    Node(leaf: LeafText(bytes: [], records: [LineRecord(start: 0, utf16: 0, scalars: 0)]))
  }

  // MARK: Sizes

  /// The number of lines: line terminators plus one.
  package var lineCount: Int { root.metrics.lineCount }

  /// Sizes of the whole document.
  package var metrics: TextMetrics { root.metrics }

  /// The document's size in bytes.
  package var utf8Count: Int { root.metrics.utf8Count }

  /// Sizes of the lines before `line` (`0...lineCount`), in O(log n):
  /// `metrics(upTo: l).utf8Count` is the byte offset where line `l` starts.
  package func metrics(upTo line: Int) throws(DocumentError) -> TextMetrics {
    guard line >= 0 && line <= lineCount else {
      throw .lineRangeOutOfBounds(lower: line, upper: line, lineCount: lineCount)
    }
    if line == lineCount { return root.metrics }
    var node = root
    var remaining = line
    var sum = TextMetrics.zero
    while node.height > 0 {
      let (index, first) = node.child(containing: remaining)
      for child in node.children[..<index] { sum += child.metrics }
      remaining -= first
      node = node.children[index]
    }
    sum += node.leaf.metrics(ofFirst: remaining)
    return sum
  }

  // MARK: Lines

  /// The leaf holding `line` (which must be in `0..<lineCount`) and the number
  /// of lines before it.
  func leaf(containing line: Int) -> (node: Node, firstLine: Int) {
    var node = root
    var first = 0
    while node.height > 0 {
      let (index, before) = node.child(containing: line - first)
      first += before
      node = node.children[index]
    }
    return (node, first)
  }

  /// Line `index` (zero-based).
  package func line(_ index: Int) throws(DocumentError) -> Line {
    guard index >= 0 && index < lineCount else { throw .lineOutOfRange(line: index, lineCount: lineCount) }
    let (node, first) = leaf(containing: index)
    return node.leaf.line(index - first)
  }

  /// Calls `body` with each line of `lines` (clamped to the document) in
  /// order, walking leaf by leaf.
  package func forEachLine<E: Error>(
    in lines: Range<Int>, _ body: (_ index: Int, _ line: Line) throws(E) -> Void
  ) throws(E) {
    let lower = max(0, lines.lowerBound)
    let upper = min(lineCount, lines.upperBound)
    guard lower < upper else { return }
    try Self.forEachLine(root, first: 0, lower, upper, body)
  }

  private static func forEachLine<E: Error>(
    _ node: Node, first: Int, _ lower: Int, _ upper: Int, _ body: (Int, Line) throws(E) -> Void
  ) throws(E) {
    if node.height == 0 {
      for j in max(0, lower - first)..<min(node.lineCount, upper - first) {
        try body(first + j, node.leaf.line(j))
      }
      return
    }
    var start = first
    for child in node.children {
      let end = start + child.lineCount
      if end > lower && start < upper { try forEachLine(child, first: start, lower, upper, body) }
      if end >= upper { return }
      start = end
    }
  }

  /// Calls `body` with the document's bytes, in order, one leaf at a time.
  package func forEachChunk<E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
    try Self.forEachChunk(root, body)
  }

  private static func forEachChunk<E: Error>(
    _ node: Node, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Void
  ) throws(E) {
    if node.height == 0 {
      try node.leaf.bytes.withUnsafeBufferPointer { (bytes) throws(E) in try body(bytes) }
      return
    }
    for child in node.children { try forEachChunk(child, body) }
  }

  /// The whole text as UTF-8 bytes (a copy, O(n)).
  package var utf8Bytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8Count)
    forEachChunk { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// The whole text (a copy, O(n)).
  package var text: String {
    String(unsafeUninitializedCapacity: utf8Count) { buffer in
      var offset = 0
      forEachChunk { chunk in
        _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + chunk.count)]).initialize(from: chunk)
        offset += chunk.count
      }
      return offset
    }
  }

  // MARK: Positions

  /// The line and byte offset `position` designates. A `character` past the
  /// line's end is clamped to the end (terminator excluded); one inside a
  /// multi-unit character snaps to that character's start. Throws for a
  /// negative line or character and for a line at or past `lineCount`.
  package func resolve(_ position: LSPPosition, in encoding: PositionEncoding) throws(DocumentError) -> SourcePosition {
    guard position.line >= 0 && position.character >= 0 else { throw .negativePosition(position) }
    let line = try line(position.line)
    return SourcePosition(line: position.line, column: line.utf8Offset(ofCharacter: position.character, in: encoding))
  }

  /// The LSP position of `point` in `encoding` (its offset clamped to the
  /// line and snapped to a character's start, as in `resolve`).
  package func position(of point: SourcePosition, in encoding: PositionEncoding) throws(DocumentError) -> LSPPosition {
    guard point.line >= 0 else { throw .negativePosition(LSPPosition(line: point.line, character: point.column)) }
    let line = try line(point.line)
    return LSPPosition(line: point.line, character: line.character(atUTF8Offset: point.column, in: encoding))
  }
}

/// Node sizes of a `LineTree`. The defaults suit documents of any size; tests
/// use tiny values to exercise deep trees.
package struct LineTreeTuning: Hashable, Sendable {
  /// Leaves are packed up to this many bytes (a longer line gets its own leaf).
  package var maxLeafBytes: Int
  /// Internal nodes hold at most this many children, and at least half as many.
  package var maxChildren: Int

  /// A new document of at least this many bytes is split into lines and
  /// packed on two threads (`LeafBuild`).
  package var parallelBuildBytes: Int

  package init(maxLeafBytes: Int, maxChildren: Int, parallelBuildBytes: Int = 4 << 20) {
    self.maxLeafBytes = max(1, maxLeafBytes)
    self.maxChildren = max(4, maxChildren)
    self.parallelBuildBytes = max(2, parallelBuildBytes)
  }

  package static let standard = LineTreeTuning(maxLeafBytes: 8192, maxChildren: 16)
}
