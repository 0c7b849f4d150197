/// The blocks open while the reader goes down the document (cmark's chain
/// of open last children), bottom to top: the document, then containers
/// (block quotes, lists, list items), then at most one leaf that takes
/// lines (paragraph, code block, HTML block, table). Kept as an array, so
/// that 10,000 nested quotes or lists cost no recursion.
struct ContainerStack {
  enum Kind: Equatable {
    case document
    case blockQuote
    case list(ListData)
    case item(ListData)
    case paragraph
    case fencedCode(fence: UInt8, length: Int, offset: Int)
    case indentedCode
    case html(Int)
    case table(columns: Int)

    /// True for the kinds that take the rest of a line as content.
    var acceptsLines: Bool {
      switch self {
      case .paragraph, .fencedCode, .indentedCode: return true
      default: return false
      }
    }

    var isCode: Bool {
      switch self {
      case .fencedCode, .indentedCode, .html: return true
      default: return false
      }
    }

    var isParagraph: Bool {
      if case .paragraph = self { return true }
      return false
    }

    /// cmark_node_can_contain_type for a block of kind `child`.
    func canContain(_ child: Kind) -> Bool {
      switch self {
      case .document, .blockQuote, .item:
        if case .item = child { return false }
        return true
      case .list:
        if case .item = child { return true }
        return false
      default:
        return false
      }
    }
  }

  struct Node {
    var kind: Kind
    /// How many children it has (an item with none ends at a blank line).
    var children = 0
    var startLine: Int
  }

  /// The open nodes are `nodes[..<count]`. A closed node's slot stays
  /// (the array is not shrunk) and the next push writes over it: closing a
  /// block calls no array removal.
  private var nodes: [Node]
  private(set) var count = 1
  /// The indices (ascending) of the nodes a blank line does not continue
  /// on its own (without enough indentation): so that a blank line under
  /// 10,000 open list items is matched in logarithmic time. Only the top
  /// node changes state, so the list changes only at its end.
  private var blankBreakers: [Int] = []

  init() {
    nodes = [Node(kind: .document, startLine: 0)]
  }

  var top: Int { count - 1 }
  subscript(index: Int) -> Node {
    assert(index < count)
    return nodes[index]
  }

  mutating func push(_ kind: Kind, line: Int) {
    addChildToTop()
    let node = Node(kind: kind, startLine: line)
    if count < nodes.count { nodes[count] = node } else { nodes.append(node) }
    count += 1
    // A new top is not among the breakers yet (`pop` took the old one's).
    if !continuesAtBlankLine(node) { blankBreakers.append(top) }
  }

  /// One more child for the top node: only an item's state at a blank
  /// line depends on its children.
  private mutating func addChildToTop() {
    nodes[top].children += 1
    if case .item = nodes[top].kind { refreshTop() }
  }

  mutating func pop() {
    precondition(count > 1)
    if blankBreakers.last == top { blankBreakers.removeLast() }
    count -= 1
  }

  /// The top node got a child that is complete at once (a heading, a
  /// thematic break).
  mutating func addClosedChild() {
    addChildToTop()
  }

  /// A child of the top node went away (a paragraph that held only
  /// reference definitions).
  mutating func removeChild() {
    nodes[top].children -= 1
    refreshTop()
  }

  mutating func setKind(_ kind: Kind) {
    nodes[top].kind = kind
    refreshTop()
  }

  /// The first node at or after `index` that a blank line does not
  /// continue on its own, or nil.
  func firstBlankBreaker(from index: Int) -> Int? {
    var low = 0
    var high = blankBreakers.count
    while low < high {
      let middle = (low + high) / 2
      if blankBreakers[middle] < index { low = middle + 1 } else { high = middle }
    }
    return low < blankBreakers.count ? blankBreakers[low] : nil
  }

  private mutating func refreshTop() {
    let breaks = !continuesAtBlankLine(nodes[top])
    if blankBreakers.last == top {
      if !breaks { blankBreakers.removeLast() }
    } else if breaks {
      blankBreakers.append(top)
    }
  }

  /// What cmark's check_open_blocks does with a blank line once the line
  /// has no indentation left.
  private func continuesAtBlankLine(_ node: Node) -> Bool {
    switch node.kind {
    case .document, .list, .fencedCode, .indentedCode: return true
    case .item: return node.children > 0
    case .html(let kind): return kind <= 5
    case .blockQuote, .paragraph, .table: return false
    }
  }
}
