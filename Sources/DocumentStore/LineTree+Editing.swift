import UnicodeBidi

extension LineTree {
  /// Replaces the text in `range` (LSP positions in `encoding`) by `text`.
  ///
  /// Positions are resolved as in `resolve(_:in:)`. Throws, changing nothing,
  /// for a negative position, a line at or past `lineCount`, a start after
  /// the end, or a line that would grow past `maximumLineLength`. Costs
  /// O(log n) plus the size of the leaves holding the edited lines: the
  /// lines the edit touches are re-split from their bytes (so a change that
  /// splits or joins a `\r\n` comes out as splitting the whole text would),
  /// and every other line keeps its bytes, its cached analysis and its
  /// state (see `LineState`). Returns the lines it replaced.
  @discardableResult
  package mutating func replace(_ range: LSPRange, with text: String, in encoding: PositionEncoding)
    throws(DocumentError) -> LineChange
  {
    var text = text
    let result = text.withUTF8 { bytes -> Result<LineChange, DocumentError> in
      do throws(DocumentError) {
        return .success(try replace(range, withUTF8: bytes, in: encoding))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Replaces the text in `range` by the UTF-8 bytes `text`, which must be
  /// well-formed (else `invalidUTF8`, and nothing changes).
  @discardableResult
  package mutating func replace(
    _ range: LSPRange, withUTF8 text: UnsafeBufferPointer<UInt8>, in encoding: PositionEncoding
  ) throws(DocumentError) -> LineChange {
    let start = try resolve(range.start, in: encoding)
    let end = try resolve(range.end, in: encoding)
    guard range.start <= range.end else { throw .invertedRange(range) }
    return try replace(from: start, to: end, withUTF8: text)
  }

  /// Replaces the whole text.
  @discardableResult
  package mutating func replaceAll(with text: String) throws(DocumentError) -> LineChange {
    let old = lineCount
    self = try LineTree(text, tuning: tuning)
    return LineChange(oldLines: 0..<old, newLineCount: lineCount)
  }

  /// Replaces the whole text by the UTF-8 bytes `text`.
  @discardableResult
  package mutating func replaceAll(withUTF8 text: UnsafeBufferPointer<UInt8>) throws(DocumentError) -> LineChange {
    let old = lineCount
    self = try LineTree(utf8: text, tuning: tuning)
    return LineChange(oldLines: 0..<old, newLineCount: lineCount)
  }

  /// Replaces the bytes from `start` to `end` (resolved points, `start <= end`).
  ///
  /// The edit rebuilds a *region* of whole leaves: from the leaf holding the
  /// first touched line to the leaf holding the last. The new bytes of the
  /// region (its leaves' bytes before `start`, `text`, its leaves' bytes after
  /// `end`) are re-split and packed into new leaves, which replace the old
  /// ones by splitting and concatenating the tree at leaf boundaries. The
  /// region starts one line earlier when the new text begins with `\n` right
  /// after a line ending in a lone `\r`: the two join into one `\r\n`. The
  /// region always ends with the last touched line's own terminator, so the
  /// line after it is never affected. A small region takes in a neighbouring
  /// leaf, so leaves stay reasonably full.
  ///
  /// The lines of the region that are not kept are the ones the edit
  /// touched: they make the `LineChange` it returns.
  mutating func replace(from start: SourcePosition, to end: SourcePosition, withUTF8 text: UnsafeBufferPointer<UInt8>)
    throws(DocumentError) -> LineChange
  {
    let lineCount = self.lineCount
    let (startLeaf, startLeafFirst) = leaf(containing: start.line)
    let cut = startLeaf.leaf.bounds(of: start.line - startLeafFirst).lowerBound + start.column
    let (endLeaf, endLeafFirst) = leaf(containing: end.line)
    let resume = endLeaf.leaf.bounds(of: end.line - endLeafFirst).lowerBound + end.column

    // The first byte after the previous line's terminator, once edited.
    let firstNewByte: UInt8? =
      start.column > 0
      ? nil : (text.first ?? (resume < endLeaf.leaf.bytes.count ? endLeaf.leaf.bytes[resume] : nil))
    var joinsPreviousLine = false
    if firstNewByte == 0x0A && start.line > 0 {
      joinsPreviousLine = try line(start.line - 1).terminator == .cr
    }

    // An edit inside one line that inserts no line break keeps that line one
    // line: its counts follow from the bytes removed and inserted alone, so a
    // long line is not scanned again.
    var editedLineCounts: (utf16: Int, scalars: Int)?
    if start.line == end.line && !joinsPreviousLine {
      let inserted: UTF8LineScan
      do {
        inserted = try UTF8Decoder.scanLine(text, from: 0)
      } catch {
        throw .invalidUTF8
      }
      if inserted.contentEnd == text.count {
        let old = startLeaf.leaf.line(start.line - startLeafFirst)
        let newLength = old.utf8Count - (end.column - start.column) + text.count
        if newLength >= LeafPacker.maximumLineLength { throw .lineTooLong(utf8Count: newLength) }
        // The removed bytes are well-formed content of one line.
        let removed = old.withUTF8 { bytes in
          (try? UTF8Decoder.scanLine(UnsafeBufferPointer(rebasing: bytes[start.column..<end.column]), from: 0))
            ?? UTF8LineScan(contentEnd: 0, utf16Count: 0, scalarCount: 0)
        }
        editedLineCounts = (
          old.utf16Count - removed.utf16Count + inserted.utf16Count,
          old.utf32Count - removed.scalarCount + inserted.scalarCount
        )
      }
    }

    // The region: its lines are [regionStart, regionEnd); the first
    // `keptBefore` and the last `keptAfter` of them are not touched.
    var prefixLeaves = [startLeaf]
    var prefix = [startLeaf.leaf.bytes[..<cut]]
    var regionStart = startLeafFirst
    var keptBefore = start.line - startLeafFirst
    if joinsPreviousLine {
      keptBefore -= 1
      if keptBefore < 0 {
        let (previous, previousFirst) = leaf(containing: start.line - 1)
        prefixLeaves.insert(previous, at: 0)
        prefix.insert(previous.leaf.bytes[...], at: 0)
        regionStart = previousFirst
        keptBefore = previous.lineCount - 1
      }
    }
    var suffixLeaves = [endLeaf]
    var suffix = [endLeaf.leaf.bytes[resume...]]
    var regionEnd = endLeafFirst + endLeaf.lineCount
    var keptAfter = regionEnd - 1 - end.line

    let size = prefix.reduce(0) { $0 + $1.count } + text.count + suffix.reduce(0) { $0 + $1.count }
    if size < tuning.maxLeafBytes / 4 {
      if regionStart > 0 {
        let (previous, previousFirst) = leaf(containing: regionStart - 1)
        prefixLeaves.insert(previous, at: 0)
        prefix.insert(previous.leaf.bytes[...], at: 0)
        regionStart = previousFirst
        keptBefore += previous.lineCount
      } else if regionEnd < lineCount {
        let (next, _) = leaf(containing: regionEnd)
        suffixLeaves.append(next)
        suffix.append(next.leaf.bytes[...])
        regionEnd += next.lineCount
        keptAfter += next.lineCount
      }
    }

    let before = Self.knownLines(of: prefixLeaves, first: keptBefore)
    let after = Self.knownLines(of: suffixLeaves, last: keptAfter)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(prefix.reduce(0) { $0 + $1.count } + text.count + suffix.reduce(0) { $0 + $1.count })
    for piece in prefix { bytes.append(contentsOf: piece) }
    bytes.append(contentsOf: text)
    for piece in suffix { bytes.append(contentsOf: piece) }
    let endsDocument = regionEnd == lineCount
    let maxLeafBytes = tuning.maxLeafBytes
    let packed = bytes.withUnsafeBufferPointer { region -> Result<[LeafText], DocumentError> in
      // Only the touched lines are scanned; the others keep their records.
      var packer = LeafPacker(region, maxLeafBytes: maxLeafBytes)
      var offset = 0
      for line in before {
        packer.addLine(start: offset, end: offset + line.length, utf16: line.utf16, scalars: line.scalars)
        offset += line.length
      }
      let touchedEnd = region.count - after.reduce(0) { $0 + $1.length }
      if let counts = editedLineCounts {
        packer.addLine(start: offset, end: touchedEnd, utf16: counts.utf16, scalars: counts.scalars)
      } else {
        do throws(DocumentError) {
          try packer.scan(offset..<touchedEnd, endsDocument: endsDocument && after.isEmpty)
        } catch {
          return .failure(error)
        }
      }
      offset = touchedEnd
      for line in after {
        packer.addLine(start: offset, end: offset + line.length, utf16: line.utf16, scalars: line.scalars)
        offset += line.length
      }
      return .success(packer.finish())
    }
    let leaves = try packed.get().map(Node.init(leaf:))

    Self.carryAnalyses(
      into: leaves,
      first: Self.cachedAnalyses(of: prefixLeaves, first: keptBefore),
      last: Self.cachedAnalyses(of: suffixLeaves, last: keptAfter))
    if let column = (prefixLeaves + suffixLeaves).lazy.compactMap(\.states).first {
      type(of: column).carry(
        StateCarry(
          prefix: prefixLeaves, keptBefore: keptBefore, suffix: suffixLeaves, keptAfter: keptAfter, leaves: leaves))
    }
    let newLines = leaves.reduce(0) { $0 + $1.lineCount }
    let change = LineChange(
      oldLines: (regionStart + keptBefore)..<(regionEnd - keptAfter), newLineCount: newLines - keptBefore - keptAfter)

    // Common case: one leaf rewritten as one leaf. Copy the path to it (or
    // mutate it in place when this tree owns it) and fix the metrics on the way.
    if leaves.count == 1 && prefixLeaves.count == 1 && suffixLeaves.count == 1 && startLeaf === endLeaf {
      Self.replaceLeaf(&root, containing: regionStart, with: leaves[0])
      return change
    }

    let maxChildren = tuning.maxChildren
    let (left, rest) = Node.split(root, at: regionStart, maxChildren: maxChildren)
    let right = rest.flatMap { Node.split($0, at: regionEnd - regionStart, maxChildren: maxChildren).1 }
    let middle = Node.build(leaves: leaves, maxChildren: maxChildren)
    var newRoot =
      Node.concat(Node.concat(left, middle, maxChildren: maxChildren), right, maxChildren: maxChildren)
      ?? Self.emptyRoot()
    while newRoot.height > 0 && newRoot.children.count == 1 { newRoot = newRoot.children[0] }
    root = newRoot
    return change
  }

  /// Replaces the leaf holding `line` by `leaf`, copying shared nodes on the
  /// path and dropping their cached summaries.
  private static func replaceLeaf(_ node: inout Node, containing line: Int, with leaf: Node) {
    if node.height == 0 {
      node = leaf
      return
    }
    Node.makeUnique(&node)
    let (index, first) = node.child(containing: line)
    let old = node.children[index]
    let (oldMetrics, oldFresh, oldFlagged) = (old.metrics, old.freshStates, old.flaggedStates)
    replaceLeaf(&node.children[index], containing: line - first, with: leaf)
    let new = node.children[index]
    node.metrics = node.metrics - oldMetrics + new.metrics
    node.freshStates += new.freshStates - oldFresh
    node.flaggedStates += new.flaggedStates - oldFlagged
    node.summary = nil
  }

  /// Length (terminator included) and counts of a line an edit keeps as it is.
  private struct KnownLine {
    var length: Int
    var utf16: Int
    var scalars: Int
  }

  private static func knownLines(of leaf: Node, _ range: Range<Int>) -> [KnownLine] {
    range.map { j in
      let record = leaf.leaf.records[j]
      return KnownLine(length: leaf.leaf.bounds(of: j).count, utf16: Int(record.utf16), scalars: Int(record.scalars))
    }
  }

  /// The first `count` lines of `leaves`.
  private static func knownLines(of leaves: [Node], first count: Int) -> [KnownLine] {
    var result: [KnownLine] = []
    for leaf in leaves where result.count < count {
      result += knownLines(of: leaf, 0..<min(count - result.count, leaf.lineCount))
    }
    return result
  }

  /// The last `count` lines of `leaves`.
  private static func knownLines(of leaves: [Node], last count: Int) -> [KnownLine] {
    var result: [KnownLine] = []
    for leaf in leaves.reversed() where result.count < count {
      let take = min(count - result.count, leaf.lineCount)
      result.insert(contentsOf: knownLines(of: leaf, (leaf.lineCount - take)..<leaf.lineCount), at: 0)
    }
    return result
  }

  /// The cached analyses of the first `count` lines of `leaves`, or nil if none is cached.
  private static func cachedAnalyses(of leaves: [Node], first count: Int) -> [Analysis?]? {
    guard count > 0, leaves.contains(where: { $0.analyses != nil }) else { return nil }
    var result: [Analysis?] = []
    for leaf in leaves where result.count < count {
      let take = min(count - result.count, leaf.lineCount)
      result += cachedAnalyses(of: leaf, 0..<take)
    }
    return result
  }

  /// The cached analyses of the last `count` lines of `leaves`, or nil if none is cached.
  private static func cachedAnalyses(of leaves: [Node], last count: Int) -> [Analysis?]? {
    guard count > 0, leaves.contains(where: { $0.analyses != nil }) else { return nil }
    var result: [Analysis?] = []
    for leaf in leaves.reversed() where result.count < count {
      let take = min(count - result.count, leaf.lineCount)
      result.insert(contentsOf: cachedAnalyses(of: leaf, (leaf.lineCount - take)..<leaf.lineCount), at: 0)
    }
    return result
  }

  private static func cachedAnalyses(of leaf: Node, _ lines: Range<Int>) -> [Analysis?] {
    guard let column = leaf.analyses else { return Array(repeating: nil, count: lines.count) }
    return lines.map { column[$0, utf8Count: leaf.leaf.contentLength(of: $0)] }
  }

  /// Puts `first` into the first lines of the new `leaves` and `last` into
  /// their last lines: those lines are byte-for-byte the ones they came from.
  private static func carryAnalyses(into leaves: [Node], first: [Analysis?]?, last: [Analysis?]?) {
    guard first != nil || last != nil else { return }
    let total = leaves.reduce(0) { $0 + $1.lineCount }
    let firstCount = first?.count ?? 0
    let lastCount = last?.count ?? 0
    guard firstCount + lastCount <= total else { return }
    var line = 0
    for leaf in leaves {
      for j in 0..<leaf.lineCount {
        var cached: Analysis?
        if let first, line < firstCount {
          cached = first[line]
        } else if let last, line >= total - lastCount {
          cached = last[line - (total - lastCount)]
        }
        if let cached {
          if leaf.analyses == nil { leaf.analyses = Analysis.Column(lineCount: leaf.lineCount) }
          leaf.analyses!.store(cached, at: j)
        }
        line += 1
      }
    }
  }
}
