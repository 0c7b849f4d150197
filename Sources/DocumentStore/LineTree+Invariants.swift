extension LineTree {
  /// Every broken invariant of the tree, described; empty when the tree is
  /// sound. O(n): for tests and debugging.
  ///
  /// Checked: the B-tree shape (leaves at one depth, child counts within
  /// bounds), every node's metrics, each leaf's line records against its
  /// bytes (UTF-8 validity, counts, no line break inside a line, leaf size),
  /// terminators (every line has one but the last, which has none, and no
  /// `\r` line is followed by a line starting with `\n`), and cache slots.
  package func invariantViolations() -> [String] {
    var problems: [String] = []
    var leaves: [Node] = []
    checkNode(root, depth: 0, isRoot: true, leafDepth: nil, leaves: &leaves, problems: &problems)
    var previous: LineTerminator?
    var lineNumber = 0
    for (leafIndex, leaf) in leaves.enumerated() {
      checkLeaf(leaf, problems: &problems)
      let text = leaf.leaf
      for j in 0..<text.lineCount {
        let line = text.line(j)
        let isLast = leafIndex == leaves.count - 1 && j == text.lineCount - 1
        if isLast != (line.terminator == .none) {
          problems.append("line \(lineNumber) has terminator \(line.terminator) but is\(isLast ? "" : " not") last")
        }
        if previous == .cr && line.utf8Count == 0 && line.terminator == .lf {
          problems.append("line \(lineNumber) is a lone \\n after a line ending in \\r")
        }
        previous = line.terminator
        lineNumber += 1
      }
    }
    if lineNumber != lineCount { problems.append("\(lineNumber) lines found, lineCount says \(lineCount)") }
    return problems
  }

  private func checkNode(
    _ node: Node, depth: Int, isRoot: Bool, leafDepth: Int?, leaves: inout [Node], problems: inout [String]
  ) {
    if node.height == 0 {
      if !node.children.isEmpty { problems.append("a leaf has children") }
      if let leafDepth = leaves.isEmpty ? nil : leafDepth, leafDepth != depth {
        problems.append("leaves at depths \(leafDepth) and \(depth)")
      }
      leaves.append(node)
      return
    }
    let count = node.children.count
    if count > tuning.maxChildren { problems.append("a node has \(count) children, over \(tuning.maxChildren)") }
    if isRoot && count < 2 { problems.append("the root has \(count) children") }
    if !isRoot && count < tuning.maxChildren / 2 {
      problems.append("a node at depth \(depth) has \(count) children, under \(tuning.maxChildren / 2)")
    }
    if node.analyses != nil || node.leaf.lineCount != 0 { problems.append("an internal node holds lines") }
    var sum = TextMetrics.zero
    for child in node.children {
      if child.height != node.height - 1 {
        problems.append("a child of height \(child.height) under a node of height \(node.height)")
      }
      sum += child.metrics
      checkNode(
        child, depth: depth + 1, isRoot: false, leafDepth: depth + node.height, leaves: &leaves,
        problems: &problems)
    }
    if sum != node.metrics { problems.append("node metrics \(node.metrics) differ from its children's \(sum)") }
    let fresh = node.children.reduce(0) { $0 + $1.freshStates }
    let flagged = node.children.reduce(0) { $0 + $1.flaggedStates }
    if node.states != nil { problems.append("an internal node holds line states") }
    if fresh != node.freshStates || flagged != node.flaggedStates {
      problems.append("node state counts \(node.freshStates)/\(node.flaggedStates) differ from its children's")
    }
  }

  private func checkLeaf(_ node: Node, problems: inout [String]) {
    let text = node.leaf
    guard text.lineCount > 0 else {
      problems.append("an empty leaf")
      return
    }
    if text.records[0].start != 0 { problems.append("a leaf's first line starts at \(text.records[0].start)") }
    for j in 1..<text.lineCount where text.records[j].start <= text.records[j - 1].start {
      problems.append("a leaf's line starts are not increasing")
    }
    if let last = text.records.last, Int(last.start) > text.bytes.count {
      problems.append("a leaf's last line starts past its bytes")
      return
    }
    if text.bytes.count > tuning.maxLeafBytes && text.lineCount > 1 {
      problems.append("a leaf of \(text.lineCount) lines has \(text.bytes.count) bytes")
    }
    if let analyses = node.analyses, analyses.lineCount != text.lineCount {
      problems.append("a leaf has \(analyses.lineCount) analysis slots for \(text.lineCount) lines")
    }
    if node.metrics != text.metrics() { problems.append("leaf metrics \(node.metrics) are stale") }
    if let states = node.states, states.slotCount != text.lineCount {
      problems.append("a leaf has \(states.slotCount) state slots for \(text.lineCount) lines")
      return
    }
    let fresh = (0..<text.lineCount).filter { node.states?.isFresh($0) ?? false }.count
    let flagged = (0..<text.lineCount).filter { node.states?.isFlagged($0) ?? false }.count
    if fresh != node.freshStates || flagged != node.flaggedStates {
      problems.append("leaf state counts \(node.freshStates)/\(node.flaggedStates) are not \(fresh)/\(flagged)")
    }
    for j in 0..<text.lineCount {
      let line = text.line(j)
      line.withUTF8 { bytes in
        if bytes.contains(0x0A) || bytes.contains(0x0D) { problems.append("a line holds a line break") }
        guard let content = String(validating: bytes, as: UTF8.self) else {
          problems.append("a line is not valid UTF-8")
          return
        }
        if content.utf16.count != line.utf16Count || content.unicodeScalars.count != line.utf32Count {
          problems.append("line record counts \(line.utf16Count)/\(line.utf32Count) are wrong")
        }
      }
    }
  }
}
