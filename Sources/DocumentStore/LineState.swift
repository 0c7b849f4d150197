/// A value a client of `LineTree` keeps beside each line: the state of a
/// resumable scanner at the start of the line (with what scanning the line
/// found), so that after an edit only the lines it touched are scanned again.
///
/// The tree keeps at most one state per line, of one `LineState` type per
/// tree (storing a state of another type replaces the leaf's states). An edit
/// that replaces lines `a..<b` by `k` lines leaves line `a`'s state on the new
/// line `a`, marked *stale* (the state at a line's start depends only on the
/// lines before it, so it still holds; what the line's scan found does not),
/// removes the states of the other `k - 1` new lines, and keeps every other
/// line's state as it was. A scanner resumes at the first line without a
/// fresh state (`firstLineWithoutFreshState(from:)`) and goes on past the edit
/// until the state it arrives with equals the fresh state stored at a line's
/// start: from there on nothing changed.
package protocol LineState: Sendable {
  /// Whether the line counts as flagged: the tree counts flagged lines in its
  /// nodes, so that `nextFlaggedLine(from:)` finds them in O(log n) (lines
  /// with diagnostics, lines where an entry starts…).
  var isFlagged: Bool { get }

  /// The state most lines hold, if there is one (for the hazard scan: code
  /// at the line's start, nothing found): the tree keeps a line that holds
  /// it in one byte, and only the other lines' states in full.
  static var common: Self? { get }
  /// Whether this state is `common` (a quick test, asked of each state stored).
  var isCommon: Bool { get }
}

extension LineState {
  package static var common: Self? { nil }
  package var isCommon: Bool { false }
}

/// A line's stored state and whether it is stale (see `LineState`).
package struct StoredLineState<State: LineState>: Sendable {
  package var state: State
  /// True once an edit touched the line: the state at its start holds, the
  /// rest waits for a rescan.
  package var isStale: Bool

  package init(_ state: State, isStale: Bool = false) {
    self.state = state
    self.isStale = isStale
  }
}

/// The states of one leaf's lines, type-erased so that `LineTree` need not
/// know the client's type.
protocol LineStateColumn: Sendable {
  /// The number of slots: the leaf's line count.
  var slotCount: Int { get }
  /// Lines with a fresh state.
  var freshCount: Int { get }
  /// Lines with a flagged state (fresh or stale).
  var flaggedCount: Int { get }
  /// Whether line `j` has a fresh state.
  func isFresh(_ j: Int) -> Bool
  /// Whether line `j` has a flagged state.
  func isFlagged(_ j: Int) -> Bool

  /// Fills the states of the new leaves of an edit (see `StateCarry`).
  static func carry<Analysis>(_ carry: StateCarry<Analysis>)
}

/// What an edit keeps of the line states of the leaves it rebuilds: the
/// first `keptBefore` lines of `prefix` and the last `keptAfter` of `suffix`
/// are unchanged; the line after the first ones is the first touched line,
/// whose state becomes stale. The new `leaves` hold, in order, the kept
/// lines before, the lines of the edit, and the kept lines after.
struct StateCarry<Analysis: LineAnalysis> {
  var prefix: [LineTreeNode<Analysis>]
  var keptBefore: Int
  var suffix: [LineTreeNode<Analysis>]
  var keptAfter: Int
  var leaves: [LineTreeNode<Analysis>]
}

/// The bits of `LineStates.kinds`.
private enum Kind {
  static let present: UInt8 = 1
  static let stale: UInt8 = 2
  static let flagged: UInt8 = 4
  /// The state is in `held` (else it is `State.common`).
  static let held: UInt8 = 8
}

/// The states of one leaf: a byte a line (whether it has a state, stale or
/// fresh, flagged or not, common or not), and the states that are not
/// `State.common` with their lines, in order. A leaf of short lines that
/// all hold the common state costs a byte a line.
struct LineStates<State: LineState>: LineStateColumn {
  private var kinds: [UInt8]
  /// The lines whose state is not the common one, increasing, and their states.
  private var held: [HeldState] = []
  /// `State.common`, asked once.
  private let common = State.common
  private let hasCommon = State.common != nil
  private(set) var freshCount = 0
  private(set) var flaggedCount = 0

  private struct HeldState {
    var line: Int32
    var state: State
  }

  init(lineCount: Int) {
    kinds = Array(repeating: 0, count: lineCount)
  }

  var slotCount: Int { kinds.count }
  func isFresh(_ j: Int) -> Bool { kinds[j] & (Kind.present | Kind.stale) == Kind.present }
  func isFlagged(_ j: Int) -> Bool { kinds[j] & Kind.flagged != 0 }
  /// Whether no line has a state.
  var isEmpty: Bool { !kinds.contains { $0 != 0 } }

  // `subscript` and `set` are inlined so that an unspecialised caller (the
  // tree's generic state walk, called from another module) looks the types
  // they use up once per leaf, not on every line.

  /// Line `j`'s state, if it has one.
  subscript(j: Int) -> StoredLineState<State>? {
    @inline(__always) get {
      let kind = kinds[j]
      guard kind & Kind.present != 0 else { return nil }
      let stale = kind & Kind.stale != 0
      if kind & Kind.held != 0 { return StoredLineState(held[heldIndex(j)].state, isStale: stale) }
      return common.map { StoredLineState($0, isStale: stale) }
    }
  }

  /// The index in `held` of line `j`, or of the first line after it.
  @inline(__always)
  private func heldIndex(_ j: Int) -> Int {
    var (low, high) = (0, held.count)
    // Scans go line by line: the last entry is the likeliest.
    if high > 0 && held[high - 1].line < j { return high }
    while low < high {
      let middle = (low + high) / 2
      if held[middle].line < j { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Stores `slot` (nil removes the state) for line `j`, keeping the counts.
  @inline(__always)
  mutating func set(_ j: Int, _ slot: StoredLineState<State>?) {
    let old = kinds[j]
    if old & Kind.present != 0 {
      if old & Kind.stale == 0 { freshCount -= 1 }
      if old & Kind.flagged != 0 { flaggedCount -= 1 }
    }
    let wasHeld = old & Kind.held != 0
    guard let slot else {
      if wasHeld { held.remove(at: heldIndex(j)) }
      kinds[j] = 0
      return
    }
    var kind = Kind.present
    if slot.isStale { kind |= Kind.stale } else { freshCount += 1 }
    if slot.state.isFlagged {
      kind |= Kind.flagged
      flaggedCount += 1
    }
    if hasCommon && slot.state.isCommon {
      if wasHeld { held.remove(at: heldIndex(j)) }
    } else {
      kind |= Kind.held
      let index = heldIndex(j)
      if wasHeld {
        held[index].state = slot.state
      } else {
        held.insert(HeldState(line: Int32(j), state: slot.state), at: index)
      }
    }
    kinds[j] = kind
  }

  /// The slots of lines `range` of `leaf` (nil where it keeps none of this type).
  static func slots<A>(of leaf: LineTreeNode<A>, _ range: Range<Int>) -> [StoredLineState<State>?] {
    guard let column = leaf.states as? Self else { return Array(repeating: nil, count: range.count) }
    return range.map { column[$0] }
  }

  /// The slots of the lines of `leaves`, in order, from line `from` on, at
  /// most `count` of them.
  static func slots<A>(of leaves: [LineTreeNode<A>], from: Int, count: Int) -> [StoredLineState<State>?] {
    var result: [StoredLineState<State>?] = []
    var first = 0
    for leaf in leaves where result.count < count {
      let end = first + leaf.lineCount
      if end > from {
        let lower = max(from - first, 0)
        let upper = min(leaf.lineCount, lower + count - result.count)
        result += slots(of: leaf, lower..<upper)
      }
      first = end
    }
    return result
  }

  static func carry<Analysis>(_ carry: StateCarry<Analysis>) {
    let before = slots(of: carry.prefix, from: 0, count: carry.keptBefore)
    var touched = slots(of: carry.prefix, from: carry.keptBefore, count: 1).first ?? nil
    touched?.isStale = true
    let suffixLines = carry.suffix.reduce(0) { $0 + $1.lineCount }
    let after = slots(of: carry.suffix, from: suffixLines - carry.keptAfter, count: carry.keptAfter)
    let total = carry.leaves.reduce(0) { $0 + $1.lineCount }
    guard carry.keptBefore + carry.keptAfter < total else { return }
    var line = 0
    for leaf in carry.leaves {
      var column = LineStates(lineCount: leaf.lineCount)
      for j in 0..<leaf.lineCount {
        let slot: StoredLineState<State>? =
          line < before.count
          ? before[line]
          : line == carry.keptBefore ? touched : line >= total - after.count ? after[line - (total - after.count)] : nil
        if slot != nil { column.set(j, slot) }
        line += 1
      }
      if !column.isEmpty { leaf.setStates(column) }
    }
  }
}

// MARK: - The tree's state queries

extension LineTree {
  /// The state stored for line `index`, if it holds one of type `State`.
  package func lineState<State: LineState>(ofLine index: Int, as type: State.Type = State.self)
    -> StoredLineState<State>?
  {
    guard index >= 0 && index < lineCount else { return nil }
    let (node, first) = leaf(containing: index)
    return (node.states as? LineStates<State>)?[index - first]
  }

  /// Stores `state` for line `index` (nil removes it), in O(log n).
  package mutating func setLineState<State: LineState>(_ state: StoredLineState<State>?, ofLine index: Int) {
    guard index >= 0 && index < lineCount else { return }
    Self.setState(&root, state, line: index)
  }

  /// Calls `body` with line `index` and the lines after it, in order, each
  /// with its stored state (nil when it has none of type `State`), which
  /// `body` may replace; stops after the last line or when `body` returns
  /// false. One descent per leaf rather than per line, so a scan of many
  /// lines costs O(lines + leaves · log n).
  package mutating func updateLineStates<State: LineState>(
    from index: Int, as type: State.Type = State.self,
    _ body: (_ index: Int, _ line: Line, _ state: inout StoredLineState<State>?) -> Bool
  ) {
    var next = max(index, 0)
    while next < lineCount {
      var goOn = true
      let end = Self.updateLeafStates(&root, from: next, first: 0) {
        (j: Int, line: Line, slot: inout StoredLineState<State>?) in
        goOn = body(j, line, &slot)
        return goOn
      }
      guard goOn else { return }
      next = end
    }
  }

  /// Runs `body` over the lines of the leaf holding line `line` (counted
  /// from `first`), from that line on, and returns the line after the last
  /// one it was called for.
  private static func updateLeafStates<State: LineState>(
    _ node: inout Node, from line: Int, first: Int,
    _ body: (Int, Line, inout StoredLineState<State>?) -> Bool
  ) -> Int {
    Node.makeUnique(&node)
    if node.height == 0 {
      var column = node.states as? LineStates<State> ?? LineStates(lineCount: node.lineCount)
      node.setStates(nil)  // so that the column's array stays uniquely referenced
      var j = line
      while j < node.lineCount {
        var slot = column[j]
        let goOn = body(first + j, node.leaf.line(j), &slot)
        column.set(j, slot)
        j += 1
        if !goOn { break }
      }
      node.setStates(column)
      return first + j
    }
    let (index, before) = node.child(containing: line)
    let (fresh, flagged) = (node.children[index].freshStates, node.children[index].flaggedStates)
    let end = updateLeafStates(&node.children[index], from: line - before, first: first + before, body)
    node.freshStates += node.children[index].freshStates - fresh
    node.flaggedStates += node.children[index].flaggedStates - flagged
    return end
  }

  /// The number of lines with a fresh state: `lineCount` once every line has one.
  package var freshStateCount: Int { root.freshStates }

  /// The first line at or after `index` whose state is stale or missing, or
  /// nil: O(log n), skipping every subtree whose lines are all fresh.
  package func firstLineWithoutFreshState(from index: Int) -> Int? {
    Self.first(root, from: max(index, 0), in: { $0.freshStates < $0.lineCount }) { node, j in
      guard let column = node.states else { return true }
      return !column.isFresh(j)
    }
  }

  /// The first line at or after `index` whose state is flagged, or nil:
  /// O(log n), skipping every subtree without a flagged line.
  package func nextFlaggedLine(from index: Int) -> Int? {
    Self.first(root, from: max(index, 0), in: { $0.flaggedStates > 0 }) { node, j in
      guard let column = node.states else { return false }
      return column.isFlagged(j)
    }
  }

  /// Removes every line's state (the scanner's rules changed).
  package mutating func removeAllLineStates() {
    Self.removeStates(&root)
  }

  // MARK: Recursion

  private static func first(
    _ node: Node, from lower: Int, in candidate: (Node) -> Bool, _ matches: (Node, Int) -> Bool
  ) -> Int? {
    guard lower < node.lineCount, candidate(node) else { return nil }
    if node.height == 0 {
      for j in lower..<node.lineCount where matches(node, j) { return j }
      return nil
    }
    var start = 0
    for child in node.children {
      let end = start + child.lineCount
      if end > lower, let found = first(child, from: max(lower - start, 0), in: candidate, matches) {
        return start + found
      }
      start = end
    }
    return nil
  }

  private static func setState<State: LineState>(_ node: inout Node, _ state: StoredLineState<State>?, line: Int) {
    Node.makeUnique(&node)
    if node.height == 0 {
      var column = node.states as? LineStates<State> ?? LineStates(lineCount: node.lineCount)
      node.setStates(nil)  // so that the column's array stays uniquely referenced
      column.set(line, state)
      node.setStates(column)
      return
    }
    let (index, first) = node.child(containing: line)
    // Read through the array, not a local reference: a reference held
    // across the call would make the child look shared, and every call
    // would copy the whole path.
    let (fresh, flagged) = (node.children[index].freshStates, node.children[index].flaggedStates)
    setState(&node.children[index], state, line: line - first)
    node.freshStates += node.children[index].freshStates - fresh
    node.flaggedStates += node.children[index].flaggedStates - flagged
  }

  private static func removeStates(_ node: inout Node) {
    Node.makeUnique(&node)
    if node.height == 0 {
      node.setStates(nil)
      return
    }
    for i in node.children.indices { removeStates(&node.children[i]) }
    node.freshStates = 0
    node.flaggedStates = 0
  }
}
