/// A node of a `LineTree`: a leaf holding a block of complete lines, or an
/// internal node holding children of equal height. Every node carries the
/// summed `TextMetrics` of its lines, and optionally the lazily computed
/// analysis of each line (leaves) and the summary of its lines.
///
/// Nodes are shared between tree values. A node is mutated only while it is
/// uniquely referenced (`isKnownUniquelyReferenced`); otherwise it is copied
/// first, which is what makes the class safe to send between threads.
final class LineTreeNode<Analysis: LineAnalysis>: @unchecked Sendable {
  typealias Node = LineTreeNode<Analysis>

  /// 0 for a leaf; all children of a node have height `height - 1`.
  let height: Int
  var metrics: TextMetrics
  /// The children of an internal node (empty for a leaf).
  var children: [Node]
  /// The lines of a leaf (empty for an internal node).
  var leaf: LeafText
  /// A leaf's cached analyses: nil until one of its lines is analysed.
  var analyses: Analysis.Column?
  /// The cached summary of all the node's lines.
  var summary: Analysis.Summary?
  /// A leaf's line states (see `LineState`), of the one type its tree keeps.
  private(set) var states: (any LineStateColumn)?
  /// Lines below this node with a fresh state, and with a flagged one.
  var freshStates = 0
  var flaggedStates = 0

  init(leaf: LeafText) {
    height = 0
    metrics = leaf.metrics()
    children = []
    self.leaf = leaf
    analyses = nil
    summary = nil
  }

  init(height: Int, children: [Node]) {
    self.height = height
    var metrics = TextMetrics.zero
    for child in children { metrics += child.metrics }
    self.metrics = metrics
    self.children = children
    leaf = .empty
    analyses = nil
    summary = nil
    for child in children {
      freshStates += child.freshStates
      flaggedStates += child.flaggedStates
    }
  }

  init(copying other: Node) {
    height = other.height
    metrics = other.metrics
    children = other.children
    leaf = other.leaf
    analyses = other.analyses
    summary = other.summary
    states = other.states
    freshStates = other.freshStates
    flaggedStates = other.flaggedStates
  }

  /// Sets a leaf's states and its counts.
  func setStates(_ column: (any LineStateColumn)?) {
    states = column
    freshStates = column?.freshCount ?? 0
    flaggedStates = column?.flaggedCount ?? 0
  }

  var lineCount: Int { metrics.lineCount }

  /// Replaces `node` by a copy unless it is uniquely referenced.
  @inline(__always)
  static func makeUnique(_ node: inout Node) {
    if !isKnownUniquelyReferenced(&node) { node = Node(copying: node) }
  }

  /// The index of the child holding `line` (clamped to the last child) and
  /// the number of lines before that child.
  @inline(__always)
  func child(containing line: Int) -> (index: Int, firstLine: Int) {
    var index = 0
    var first = 0
    while index < children.count - 1 && line >= first + children[index].lineCount {
      first += children[index].lineCount
      index += 1
    }
    return (index, first)
  }
}

// MARK: - Shape: bulk building, splitting, concatenating

/// Operations that keep the tree a B-tree: all leaves at the same depth, each
/// internal node with at most `maxChildren` children and, unless it is the
/// root, at least `maxChildren / 2`. A tree's root may hold fewer; every
/// function here takes and returns such trees. Leaves are never merged or
/// split here (a leaf is always a valid child, whatever its size).
extension LineTreeNode {
  @inline(__always)
  static func isValidChild(_ node: Node, maxChildren: Int) -> Bool {
    node.height == 0 || node.children.count >= maxChildren / 2
  }

  /// A tree over `leaves` built level by level, each level's nodes filled evenly.
  static func build(leaves: [Node], maxChildren: Int) -> Node? {
    var level = leaves
    var height = 0
    while level.count > 1 {
      height += 1
      let groups = (level.count + maxChildren - 1) / maxChildren
      var next: [Node] = []
      next.reserveCapacity(groups)
      var start = 0
      for group in 1...groups {
        let end = level.count * group / groups
        next.append(Node(height: height, children: Array(level[start..<end])))
        start = end
      }
      level = next
    }
    return level.first
  }

  /// The tree of `children` (of equal height): nil if none, the child itself if one.
  static func tree(of children: ArraySlice<Node>) -> Node? {
    guard let first = children.first else { return nil }
    if children.count == 1 { return first }
    return Node(height: first.height + 1, children: Array(children))
  }

  /// A parent of `children` (valid children of equal height, at most
  /// `2 * maxChildren`), or a parent of two halves if they are too many.
  static func parent(of children: [Node], maxChildren: Int) -> Node {
    let height = children[0].height + 1
    if children.count <= maxChildren { return Node(height: height, children: children) }
    let middle = children.count / 2
    return Node(
      height: height + 1,
      children: [
        Node(height: height, children: Array(children[..<middle])),
        Node(height: height, children: Array(children[middle...])),
      ])
  }

  static func concat(_ a: Node?, _ b: Node?, maxChildren: Int) -> Node? {
    guard let a else { return b }
    guard let b else { return a }
    return concat(a, b, maxChildren: maxChildren)
  }

  /// The lines of `a` followed by those of `b`, in O(|height(a) - height(b)| + 1)
  /// node allocations. The result has the height of the taller one, or one more.
  /// When `b` is a valid child taller than `a`, a result of `b`'s height is
  /// a valid child too (and symmetrically), which the recursion relies on.
  static func concat(_ a: Node, _ b: Node, maxChildren: Int) -> Node {
    if a.height == b.height {
      if isValidChild(a, maxChildren: maxChildren) && isValidChild(b, maxChildren: maxChildren) {
        return Node(height: a.height + 1, children: [a, b])
      }
      return parent(of: a.children + b.children, maxChildren: maxChildren)
    }
    if a.height < b.height {
      if a.height == b.height - 1 && isValidChild(a, maxChildren: maxChildren) {
        return parent(of: [a] + b.children, maxChildren: maxChildren)
      }
      let joined = concat(a, b.children[0], maxChildren: maxChildren)
      let rest = b.children[1...]
      if joined.height < b.height { return parent(of: [joined] + rest, maxChildren: maxChildren) }
      return parent(of: joined.children + rest, maxChildren: maxChildren)
    }
    if b.height == a.height - 1 && isValidChild(b, maxChildren: maxChildren) {
      return parent(of: a.children + [b], maxChildren: maxChildren)
    }
    let joined = concat(a.children[a.children.count - 1], b, maxChildren: maxChildren)
    let rest = a.children[..<(a.children.count - 1)]
    if joined.height < a.height { return parent(of: Array(rest) + [joined], maxChildren: maxChildren) }
    return parent(of: Array(rest) + joined.children, maxChildren: maxChildren)
  }

  /// The lines before `line` and the lines from `line` on. Splitting at the
  /// start of a leaf shares every leaf; elsewhere the leaf is cut in two.
  static func split(_ node: Node, at line: Int, maxChildren: Int) -> (Node?, Node?) {
    if line <= 0 { return (nil, node) }
    if line >= node.lineCount { return (node, nil) }
    if node.height == 0 {
      return (
        Node(leaf: node.leaf.slice(lines: 0..<line)),
        Node(leaf: node.leaf.slice(lines: line..<node.leaf.lineCount))
      )
    }
    let (index, first) = node.child(containing: line)
    if line == first {
      return (tree(of: node.children[..<index]), tree(of: node.children[index...]))
    }
    let (left, right) = split(node.children[index], at: line - first, maxChildren: maxChildren)
    return (
      concat(tree(of: node.children[..<index]), left, maxChildren: maxChildren),
      concat(right, tree(of: node.children[(index + 1)...]), maxChildren: maxChildren)
    )
  }
}
