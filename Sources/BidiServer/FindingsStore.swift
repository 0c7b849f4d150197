import BidiProtocol
import StructuredText
import UnicodeBidi

/// The findings of a structured document, kept by the line they belong to
/// (their anchor line) so that an edit costs what it changed, not what the
/// document holds (issue 27):
/// - each group stores its findings relative to its own anchor line, and
///   the groups sit in `LineBlocks` (each block relative to its base line):
///   an edit that adds or removes lines replaces the groups it read again
///   and moves every later group by changing one number per block, never a
///   finding at a time;
/// - a request about a range (code actions) looks up the groups anchored
///   from `maximumReach` lines before it to its end, never every finding.
struct FindingsStore {
  /// The findings anchored at one line, stored relative to it.
  struct Group: LineAnchored {
    /// The anchor line.
    var line: Int
    /// The findings, moved `line` lines up (their ranges and fixes' edits
    /// relative to the anchor line).
    var relative: [Finding]
    /// How many lines past the anchor line the last of them ends.
    var reach: Int
    /// How many lines before the anchor line the first of them starts (0
    /// when none starts before it).
    var lead: Int
    /// The findings as last published (wire diagnostics, their lines
    /// relative to the anchor line): a later publish takes them again as
    /// long as the group is not read again (an edit of its lines replaces
    /// the group; their columns depend only on those lines).
    var published: [Diagnostic]?
    /// False for the syntax error's group, which is made afresh for each
    /// publish and kept nowhere.
    var isStored = true

    /// Findings anchored at `line`, in document coordinates.
    init(line: Int, findings: [Finding]) {
      self.line = line
      relative = findings.map { $0.shifted(by: -line) }
      reach = relative.reduce(0) { max($0, $1.range.end.line) }
      lead = relative.reduce(0) { max($0, -$1.range.start.line) }
    }

    var anchorLine: Int { line }
    func moved(by lines: Int) -> Group {
      var copy = self
      copy.line += lines
      return copy
    }

    var count: Int { relative.count }
    /// The findings in document coordinates.
    var findings: [Finding] { relative.map { $0.shifted(by: line) } }
  }

  private var groups: LineBlocks<Group>
  /// The blocks of groups (for `FindingsCursor`).
  var blocks: [LineBlocks<Group>.Block] { groups.blocks }
  /// No group's findings end more than this many lines past its anchor
  /// line (an upper bound: it only grows until the findings are computed
  /// afresh).
  private(set) var maximumReach: Int
  /// No group's findings start more than this many lines before its anchor
  /// line (an upper bound, as `maximumReach`).
  private(set) var maximumLead: Int
  /// How many findings the store holds.
  private(set) var count: Int

  /// The groups, in order of their anchor lines.
  init(_ groups: [Group] = []) {
    self.groups = LineBlocks(groups)
    maximumReach = groups.reduce(0) { max($0, $1.reach) }
    maximumLead = groups.reduce(0) { max($0, $1.lead) }
    count = groups.reduce(0) { $0 + $1.count }
  }

  /// Records the wire diagnostics of the group anchored at `line`, in
  /// document coordinates, for the next publish.
  mutating func setPublished(_ wire: [Diagnostic], line: Int) {
    let relative = wire.map { diagnostic in
      var moved = diagnostic
      moved.range.start.line -= line
      moved.range.end.line -= line
      return moved
    }
    groups.modify(at: line) { $0.published = relative }
  }

  /// Replaces the groups anchored in `lines` (old numbering) by
  /// `replacement` (new numbering) and moves the groups after them by `delta`.
  mutating func replace(lines: Range<Int>, with replacement: [Group], delta: Int) {
    maximumReach = replacement.reduce(maximumReach) { max($0, $1.reach) }
    maximumLead = replacement.reduce(maximumLead) { max($0, $1.lead) }
    let removed = groups.replace(lines: lines, with: replacement, delta: delta)
    count += replacement.reduce(0) { $0 + $1.count } - removed.reduce(0) { $0 + $1.count }
  }

  /// Visits every group in order of its anchor line, stopping when `body`
  /// returns false.
  func forEachGroup(_ body: (Group) -> Bool) {
    for block in groups.blocks {
      for group in block.elements where !body(group.moved(by: block.base)) { return }
    }
  }

  /// The findings whose range touches lines `lines` (document coordinates,
  /// in order of their anchor lines): only the groups anchored from
  /// `maximumReach` lines before the range to `maximumLead` lines after it
  /// are looked at.
  func findings(touching lines: ClosedRange<Int>) -> [Finding] {
    let first = max(lines.lowerBound - maximumReach, 0)
    let last = lines.upperBound >= Int.max / 2 ? Int.max : lines.upperBound + 1 + maximumLead
    var result: [Finding] = []
    for group in groups.elements(in: first..<last) {
      for finding in group.relative
      where finding.range.end.line + group.line >= lines.lowerBound
        && finding.range.start.line + group.line <= lines.upperBound
      {
        result.append(finding.shifted(by: group.line))
      }
    }
    return result
  }

  /// Every finding of rule `code`, in order.
  func findings(code: RuleCode) -> [Finding] {
    var result: [Finding] = []
    forEachGroup { group in
      for finding in group.relative where finding.code == code { result.append(finding.shifted(by: group.line)) }
      return true
    }
    return result
  }

  /// Every finding, in order.
  var all: [Finding] {
    var result: [Finding] = []
    forEachGroup { group in
      result += group.findings
      return true
    }
    return result
  }
}

/// The groups of a `FindingsStore` one at a time in line order, with the
/// syntax error's finding (if any) as a group of its own after the groups
/// anchored on or before its line. What is left once a publish is full is
/// counted at once (`takeRest`), not visited.
struct FindingsCursor {
  private let store: FindingsStore
  private var error: FindingsStore.Group?
  private var block = 0
  private var element = 0
  /// The findings of the groups returned so far.
  private var visited = 0

  init(_ store: FindingsStore, error: Finding?) {
    self.store = store
    self.error = error.map { error in
      var group = FindingsStore.Group(line: error.range.start.line, findings: [error])
      group.isStored = false
      return group
    }
  }

  /// The next group if it is anchored before `line`.
  mutating func next(before line: Int) -> FindingsStore.Group? {
    let blocks = store.blocks
    while block < blocks.count && element >= blocks[block].elements.count {
      block += 1
      element = 0
    }
    let stored = block < blocks.count ? blocks[block].elements[element].moved(by: blocks[block].base) : nil
    if let error, error.line < line, stored.map({ $0.line > error.line }) ?? true {
      self.error = nil
      visited += 1
      return error
    }
    guard let stored, stored.line < line else { return nil }
    element += 1
    visited += stored.count
    return stored
  }

  /// How many findings the groups not returned yet hold (the syntax
  /// error's included); the cursor is at its end afterwards. O(1).
  mutating func takeRest() -> Int {
    let rest = store.count + (error == nil ? 0 : 1) - visited
    error = nil
    block = store.blocks.count
    element = 0
    visited += rest
    return rest
  }
}

extension FindingsStore.Group {
  /// The diagnostics last published for the group, in document coordinates.
  var publishedDiagnostics: [Diagnostic]? {
    published.map { wire in
      wire.map { diagnostic in
        var moved = diagnostic
        moved.range.start.line += line
        moved.range.end.line += line
        return moved
      }
    }
  }
}
