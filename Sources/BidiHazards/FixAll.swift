import UnicodeBidi

/// How "fix all" repairs a document.
package enum FixAllStrategy: Sendable, Hashable {
  /// Remove every offending control (and the PDF of each removed override).
  case remove
  /// Close every unclosed opener where its context ends, turn overrides into
  /// embeddings, and remove unmatched closers and controls in identifiers.
  case close
}

/// One pass of fix-all: the edits that repair every diagnostic of a set (any
/// number of lines), by `strategy`. Edits on one line never overlap; apply
/// them with `HazardTextEdit.apply(_:to:)` line by line.
///
/// One pass can expose a hazard: a control that splits a delimiter (`*RLO/`)
/// keeps a comment or literal open, and removing it closes the comment, so
/// that a mark further on becomes `bidi.inIdentifier`. For a whole document,
/// use `HazardLineCache.fixAllEdits(strategy:line:)` or
/// `HazardScanner.fixAllEdits(document:strategy:)`, which rescan and repeat.
package func fixAllEdits(for diagnostics: [HazardDiagnostic], strategy: FixAllStrategy) -> [HazardTextEdit] {
  var edits: [HazardTextEdit] = []
  // A character can carry several diagnostics (an unclosed override is also
  // `bidi.override`): the first edit of a character wins, so that edits
  // never overlap. Diagnostics come in scan order, `inIdentifier` first.
  var edited = Set<HazardLocation>()
  // Per line and offset, the longest closing insertion closes every
  // shorter one at the same place (they are suffixes of one stack).
  var closings: [HazardLocation: HazardDiagnostic] = [:]
  func edit(_ line: Int, _ range: Range<Int>, _ newText: String) {
    if edited.insert(HazardLocation(line: line, offset: range.lowerBound)).inserted {
      edits.append(HazardTextEdit(line: line, range: range, newText: newText))
    }
  }
  for diagnostic in diagnostics {
    switch strategy {
    case .remove:
      if diagnostic.control == nil {
        edits += diagnostic.fixes[0].edits
        continue
      }
      edit(diagnostic.line, diagnostic.range, "")
      if let paired = diagnostic.pairedCloser { edit(diagnostic.line, paired, "") }
    case .close:
      guard let control = diagnostic.control else {
        edits += diagnostic.fixes[0].edits
        continue
      }
      if let closing = diagnostic.closing {
        let key = HazardLocation(line: diagnostic.line, offset: closing.offset)
        let known = closings[key]?.closing?.closers.count ?? -1
        if closing.closers.count > known { closings[key] = diagnostic }
        if let embedding = control.embeddingForOverride {
          edit(diagnostic.line, diagnostic.range, embedding.string)
        }
      } else if diagnostic.code == .override, let embedding = control.embeddingForOverride {
        edit(diagnostic.line, diagnostic.range, embedding.string)
      } else {
        edit(diagnostic.line, diagnostic.range, "")
        if let paired = diagnostic.pairedCloser { edit(diagnostic.line, paired, "") }
      }
    }
  }
  for key in closings.keys.sorted(by: { ($0.line, $0.offset) < ($1.line, $1.offset) }) {
    if let diagnostic = closings[key], let closing = diagnostic.closing {
      edits.append(diagnostic.closingEdit(closing))
    }
  }
  return edits.sorted { ($0.line, $0.range.lowerBound) < ($1.line, $1.range.lowerBound) }
}

struct HazardLocation: Hashable {
  var line: Int
  var offset: Int
}

// MARK: Fix-all that converges

extension HazardScanner {
  /// Fix-all for a whole document (split into lines at `\n`, `\r\n` and
  /// `\r`): edits after which a rescan finds no hazard (see
  /// `HazardLineCache.fixAllEdits(strategy:line:)`).
  package func fixAllEdits(document text: some Collection<UInt8>, strategy: FixAllStrategy) -> [HazardTextEdit] {
    var quiet = self
    quiet.renderer = nil  // messages are not shown
    var lines: [[UInt8]] = []
    var startStates: [LexerState] = []
    var diagnostics: [HazardDiagnostic] = []
    var state = LexerState.initial
    forEachLine(of: text) { number, line in
      startStates.append(state)
      lines.append(Array(line))
      let scan = quiet.scanLine(line, lineNumber: number, state: state)
      diagnostics += scan.diagnostics
      state = scan.endState
    }
    var fixAll = ConvergingFixAll(scanner: self, lineCount: startStates.count) { startStates[$0] }
    return fixAll.edits(for: diagnostics, strategy: strategy, line: { lines[$0] })
  }
}

/// Fix-all repeated until a rescan of what it changed finds no hazard.
struct ConvergingFixAll {
  /// Passes with the chosen strategy; if hazards remain, passes that remove
  /// them follow, up to `maximumPasses` in all. Should hazards still remain
  /// (a long chain of delimiters split by controls, each exposing the next),
  /// every bidi control of the document is removed: a bound on the work.
  static let strategyPasses = 3
  static let maximumPasses = 8

  /// What fix-all did to one line.
  struct LineFix {
    var original: [UInt8]
    var current: [UInt8]
    /// Edits of `original` that give `current`.
    var edits: [HazardTextEdit] = []
    /// Whether `edits` only remove bytes (then offsets in `current` map
    /// back to `original` simply).
    var removalsOnly = true
  }

  var scanner: HazardScanner
  let lineCount: Int
  /// The start state of each line before the edits.
  let startState: (Int) -> LexerState
  var fixes: [Int: LineFix] = [:]
  /// Start states that the edits changed.
  var states: [Int: LexerState] = [:]

  init(scanner: HazardScanner, lineCount: Int, startState: @escaping (Int) -> LexerState) {
    self.scanner = scanner
    // Messages are not shown: no need to render lines.
    self.scanner.renderer = nil
    self.lineCount = lineCount
    self.startState = startState
  }

  /// The edits for `diagnostics` (the document's, in order); `line(n)` gives
  /// line `n`'s bytes.
  mutating func edits(
    for diagnostics: [HazardDiagnostic], strategy: FixAllStrategy, line: (Int) -> [UInt8]
  ) -> [HazardTextEdit] {
    var pending = diagnostics
    for pass in 0..<Self.maximumPasses where !pending.isEmpty {
      let edits = fixAllEdits(for: pending, strategy: pass < Self.strategyPasses ? strategy : .remove)
      var dirty: [Int] = []
      var k = 0
      while k < edits.count {
        let number = edits[k].line
        var end = k + 1
        while end < edits.count, edits[end].line == number { end += 1 }
        if number >= 0, number < lineCount {
          var fix =
            fixes[number]
            ?? {
              let bytes = line(number); return LineFix(original: bytes, current: bytes)
            }()
          fix.add(Array(edits[k..<end]))
          fixes[number] = fix
          dirty.append(number)
        }
        k = end
      }
      pending = rescan(dirty, line: line)
    }
    if !pending.isEmpty { return strippingEveryControl(line: line) }
    return fixes.keys.sorted().flatMap { fixes[$0]!.edits }
  }

  /// The last resort: remove every bidi control of the document (and
  /// replace invalid UTF-8 where that is a reported hazard).
  func strippingEveryControl(line: (Int) -> [UInt8]) -> [HazardTextEdit] {
    var edits: [HazardTextEdit] = []
    for n in 0..<lineCount {
      let bytes = line(n)
      for (offset, control) in BidiControl.occurrences(in: bytes) {
        edits.append(HazardTextEdit(line: n, range: offset..<(offset + control.utf8Count), newText: ""))
      }
      for diagnostic in scanner.scanLine(bytes, lineNumber: n).diagnostics where diagnostic.control == nil {
        edits += diagnostic.fixes[0].edits
      }
    }
    return edits.sorted { ($0.line, $0.range.lowerBound) < ($1.line, $1.range.lowerBound) }
  }

  /// Rescans the edited lines `dirty` (ascending), and the lines after each
  /// while the state at their start changes; returns what it finds.
  mutating func rescan(_ dirty: [Int], line: (Int) -> [UInt8]) -> [HazardDiagnostic] {
    var found: [HazardDiagnostic] = []
    var scannedThrough = -1
    for first in dirty where first > scannedThrough {
      var n = first
      while true {
        let bytes = fixes[n]?.current ?? line(n)
        let scan = scanner.scanLine(bytes, lineNumber: n, state: states[n] ?? startState(n))
        found += scan.diagnostics
        let next = n + 1
        guard next < lineCount, scan.endState != states[next] ?? startState(next) else { break }
        states[next] = scan.endState
        n = next
      }
      scannedThrough = n
    }
    return found
  }
}

extension ConvergingFixAll.LineFix {
  /// Applies `edits` (of `current`, on one line) and records them as edits
  /// of `original`.
  mutating func add(_ edits: [HazardTextEdit]) {
    let next = HazardTextEdit.apply(edits, to: current)
    defer { current = next }
    let removals = edits.allSatisfy { $0.newText.isEmpty }
    if self.edits.isEmpty {
      self.edits = edits
      removalsOnly = removals
      return
    }
    if removalsOnly, let mapped = mappedToOriginal(edits) {
      self.edits = (self.edits + mapped).sorted { $0.range.lowerBound < $1.range.lowerBound }
      removalsOnly = removals
      return
    }
    // Otherwise one edit: the part of the line that changed.
    guard let line = edits.first?.line else { return }
    self.edits = changedPart(line: line, from: original, to: next).map { [$0] } ?? []
    removalsOnly = false
  }

  /// `edits` of `current` as edits of `original`, when `self.edits` only
  /// remove bytes; nil if one would straddle a removal.
  func mappedToOriginal(_ edits: [HazardTextEdit]) -> [HazardTextEdit]? {
    let removed = self.edits.map(\.range)  // sorted, disjoint
    var result: [HazardTextEdit] = []
    for edit in edits {
      // The original offset of `current[x]`: after the removals before it.
      var lower = edit.range.lowerBound
      for range in removed {
        if range.lowerBound <= lower { lower += range.count } else { break }
      }
      let upper = lower + edit.range.count
      if removed.contains(where: { $0.lowerBound > lower && $0.lowerBound < upper }) { return nil }
      result.append(HazardTextEdit(line: edit.line, range: lower..<upper, newText: edit.newText))
    }
    return result
  }
}

/// The edit that turns line `from` into `to`: the part between their
/// common prefix and suffix (cut at character boundaries), or nil if equal.
func changedPart(line: Int, from old: [UInt8], to new: [UInt8]) -> HazardTextEdit? {
  guard old != new else { return nil }
  func isContinuation(_ bytes: [UInt8], _ i: Int) -> Bool { i < bytes.count && UTF8Decoder.isContinuation(bytes[i]) }
  var prefix = 0
  while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
  while prefix > 0, isContinuation(old, prefix) || isContinuation(new, prefix) { prefix -= 1 }
  var suffix = 0
  while suffix < old.count - prefix, suffix < new.count - prefix,
    old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
  {
    suffix += 1
  }
  while suffix > 0, isContinuation(old, old.count - suffix) || isContinuation(new, new.count - suffix) { suffix -= 1 }
  return HazardTextEdit(
    line: line, range: prefix..<(old.count - suffix),
    newText: String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self))
}
