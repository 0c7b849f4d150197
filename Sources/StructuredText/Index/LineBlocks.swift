/// Something stored at a line, that can be moved to another.
package protocol LineAnchored: Sendable {
  var anchorLine: Int { get }
  func moved(by lines: Int) -> Self
}

extension ReadItem: LineAnchored {
  package var anchorLine: Int { line }
  package func moved(by lines: Int) -> ReadItem { shifted(by: lines) }
}

/// An entry boundary at a line start and the reader's state there.
package struct Checkpoint: LineAnchored, Hashable, Sendable {
  package var line: Int
  package var state: ReaderState
  package var anchorLine: Int { line }
  package func moved(by lines: Int) -> Checkpoint { Checkpoint(line: line + lines, state: state) }
}

/// Elements in line order, kept in blocks of at most `capacity`, each
/// block storing its elements relative to its own base line: an edit that
/// adds or removes lines moves every later element by changing one number
/// per block, never element by element.
package struct LineBlocks<Element: LineAnchored>: Sendable {
  package struct Block: Sendable {
    package var base: Int
    /// Elements moved to base 0.
    package var elements: [Element]
  }

  static var capacity: Int { 256 }
  package private(set) var blocks: [Block] = []

  package init(_ elements: [Element] = []) {
    blocks = Self.chunks(elements)
  }

  private static func chunks(_ elements: [Element]) -> [Block] {
    var result: [Block] = []
    var start = 0
    while start < elements.count {
      let end = min(start + capacity, elements.count)
      let base = elements[start].anchorLine
      result.append(Block(base: base, elements: elements[start..<end].map { $0.moved(by: -base) }))
      start = end
    }
    return result
  }

  package var count: Int { blocks.reduce(0) { $0 + $1.elements.count } }

  /// Every element, in order, at its line.
  package var all: [Element] {
    var result: [Element] = []
    for block in blocks { for element in block.elements { result.append(element.moved(by: block.base)) } }
    return result
  }

  /// The index of the first block whose elements may lie at or after `line`.
  private func blockIndex(from line: Int) -> Int {
    // The last block whose base is below `line` (blocks may share a line
    // at their edge, so an earlier block never holds an element at `line`).
    var low = 0
    var high = blocks.count
    while low < high {
      let middle = (low + high) / 2
      if blocks[middle].base < line { low = middle + 1 } else { high = middle }
    }
    return max(low - 1, 0)
  }

  /// The elements whose line is in `lines`, in order.
  package func elements(in lines: Range<Int>) -> [Element] {
    var result: [Element] = []
    var index = blockIndex(from: lines.lowerBound)
    while index < blocks.count, blocks[index].base < lines.upperBound {
      let block = blocks[index]
      for element in block.elements {
        let line = element.anchorLine + block.base
        if line >= lines.upperBound { break }
        if line >= lines.lowerBound { result.append(element.moved(by: block.base)) }
      }
      index += 1
    }
    return result
  }

  /// The last element whose line is below `line`, if any.
  package func last(before line: Int) -> Element? {
    var index = min(blockIndex(from: line), blocks.count - 1)
    while index >= 0 {
      let block = blocks[index]
      if let found = block.elements.last(where: { $0.anchorLine + block.base < line }) {
        return found.moved(by: block.base)
      }
      index -= 1
    }
    return nil
  }

  /// The elements from the last one at or before `line` on, up to `limit` of them.
  func elements(fromLastAtOrBefore line: Int, while keep: (Element) -> Bool) -> [Element] {
    var result: [Element] = []
    var index = blockIndex(from: line)
    var started = false
    while index < blocks.count {
      let block = blocks[index]
      for element in block.elements {
        let moved = element.moved(by: block.base)
        if !started && moved.anchorLine <= line { continue }
        started = true
        guard keep(moved) else { return result }
        result.append(moved)
      }
      index += 1
    }
    return result
  }

  /// Changes the first element at line `line` in place (its line must
  /// stay); false when there is none.
  @discardableResult
  package mutating func modify(at line: Int, _ body: (inout Element) -> Void) -> Bool {
    var index = blockIndex(from: line)
    while index < blocks.count, blocks[index].base <= line {
      let base = blocks[index].base
      if let found = blocks[index].elements.firstIndex(where: { $0.anchorLine + base == line }) {
        body(&blocks[index].elements[found])
        return true
      }
      index += 1
    }
    return false
  }

  /// Replaces the elements whose line is in `lines` (old numbering) by
  /// `replacement` (new numbering), and moves the elements at or after
  /// `lines.upperBound` by `delta`. Returns the elements removed.
  @discardableResult
  package mutating func replace(lines: Range<Int>, with replacement: [Element], delta: Int) -> [Element] {
    guard !blocks.isEmpty else {
      blocks = Self.chunks(replacement)
      return []
    }
    let first = blockIndex(from: lines.lowerBound)
    // The block holding the first element at or after the range's end.
    var last = first
    while last + 1 < blocks.count, blocks[last + 1].base < lines.upperBound { last += 1 }
    var kept: [Element] = []
    var removed: [Element] = []
    var after: [Element] = []
    for index in first...last {
      let block = blocks[index]
      for element in block.elements {
        let moved = element.moved(by: block.base)
        if moved.anchorLine < lines.lowerBound {
          kept.append(moved)
        } else if moved.anchorLine < lines.upperBound {
          removed.append(moved)
        } else {
          after.append(moved.moved(by: delta))
        }
      }
    }
    let rebuilt = Self.chunks(kept + replacement + after)
    for index in (last + 1)..<blocks.count { blocks[index].base += delta }
    blocks.replaceSubrange(first...last, with: rebuilt)
    return removed
  }
}
