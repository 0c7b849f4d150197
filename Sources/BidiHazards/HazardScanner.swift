import UnicodeBidi

/// Gives the visual order of a line (its UTF-8 bytes, without the line
/// terminator) as displayed text, or nil if it cannot. The server plugs in
/// the UAX #9 implementation; messages then say how the line displays.
package typealias VisualOrderRenderer = @Sendable (_ line: UnsafeBufferPointer<UInt8>) -> String?

/// The result of scanning one line.
package struct LineScan: Sendable, Hashable {
  /// The line's hazards, ordered by position.
  package var diagnostics: [HazardDiagnostic]
  /// The tokenizer state at the start of the next line.
  package var endState: LexerState
  /// Hazards found beyond `HazardScanner.maximumDiagnosticsPerLine`:
  /// counted, not made.
  package var omitted = 0

  package init(diagnostics: [HazardDiagnostic], endState: LexerState, omitted: Int = 0) {
    self.diagnostics = diagnostics
    self.endState = endState
    self.omitted = omitted
  }
}

/// Finds bidi hazards (Trojan Source, CVE-2021-42574) line by line.
///
/// Rules (Protocol/specification.md, “`textDocument/publishDiagnostics`”, after GCC's `-Wbidi-chars=unpaired`): per context,
/// the openers LRE, RLE, LRO, RLO, LRI, RLI and FSI form a stack; PDF closes
/// the innermost open embedding or override only if no isolate is open
/// inside it; PDI closes the innermost open isolate and everything opened
/// after it. An opener still open when its context ends is reported; a
/// closer with nothing to close is `bidi.unmatched`; an override is
/// `bidi.override`.
///
/// Contexts: without a language, the whole line is one context and an open
/// opener is `bidi.unpaired`. With a language, each comment and each string
/// literal (its part on this line) is a context of its own, whose openers
/// must be closed before it ends (`bidi.inComment`, `bidi.inString`), even
/// if a closer follows later on the line, as in GCC; the code of the line is
/// one more context (`bidi.unpaired`). The code of an interpolation (`\(…)`,
/// `${…}`, `#{…}`, an f-string's `{…}`, `$(…)` in shell quotes) is a context
/// too, whose openers must close before it ends (`bidi.inString`); the
/// literal's own parts around it stay one context, so `FSI \(name) PDI` is
/// balanced. A closer cannot close an opener of another context. Controls
/// inside identifiers, marks included, are `bidi.inIdentifier` and take no
/// part in pairing.
///
/// Each character gets the first enabled rule of `inIdentifier`, then the
/// pairing rule of its context (`unpaired`, `inComment`, `inString`, or
/// `unmatched` for a closer); every LRO and RLO is also `bidi.override`. So
/// an unclosed RLO in a comment is `bidi.inComment` and `bidi.override`.
/// Marks (LRM, RLM, ALM) outside identifiers, and balanced embeddings and
/// isolates, are never reported.
package struct HazardScanner: Sendable {
  /// The language, or nil for plain text (whole-line rules only).
  package let language: SourceLanguage?
  /// Which rules report, and how severely.
  package var settings: RuleSettings {
    didSet { severities = HazardSeverities(settings) }
  }
  /// `settings`' severities of the rules a line's scan reports.
  private(set) var severities: HazardSeverities
  /// Gives a line's visual order for messages; nil leaves it out.
  package var renderer: VisualOrderRenderer?
  /// At most this many diagnostics are made per line (the first the scan
  /// finds); the others are only counted (`LineScan.omitted`). Nil: all
  /// (`bidi-lsp check`). The pairing rules still see every control.
  package var maximumDiagnosticsPerLine: Int?
  /// Whether a line whose controls stand in one context is first checked
  /// for balance (`isBalanced`), skipping the pairing analysis of the
  /// balanced ones. Tests turn it off to compare the two.
  package var checksBalancedLinesFirst = true
  /// Whether the diagnostics of openers left open carry their `closing`
  /// (where closers would go, for fixes). `bidi-lsp check` turns it off
  /// where it writes no fixes; the diagnostics are otherwise the same.
  package var recordsClosings = true
  /// Whether the text is a UTF-16 file's conversion (`DecodedFile`), whose
  /// ill-formed bytes stand for unpaired surrogates and an odd last byte:
  /// the messages of `bidi.invalidUtf8` then name those
  /// (`UTF16Conversion`).
  package var readsUTF16Conversion = false
  private let lexer: Lexer?

  /// Lines up to this many bytes get their visual order in each message
  /// (unless their findings are all `bidi.unmatched`).
  package static let visualOrderInMessageLimit = 400

  package init(language: SourceLanguage?, settings: RuleSettings = .default, renderer: VisualOrderRenderer? = nil) {
    self.language = language
    self.settings = settings
    self.severities = HazardSeverities(settings)
    self.renderer = renderer
    self.lexer = language.map { Lexer(syntax: Syntax($0)) }
  }

  /// Scans one line (its UTF-8 bytes without the terminator), starting in
  /// `state` (the previous line's `endState`; `.initial` for line 0).
  package func scanLine(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, state: LexerState = .initial) -> LineScan {
    var buffers = LineBuffers()
    var endState = state
    let (omitted, showsVisualOrder) = scanLineFindings(
      line, lineNumber: lineNumber, state: &endState, buffers: &buffers)
    var scan = LineScan(diagnostics: buffers.diagnostics, endState: endState, omitted: omitted)
    // The visual order goes with the diagnostics of lines up to the limit
    // only: every diagnostic carries it, so on a long line with many
    // hazards it would make the answer grow with their product.
    if showsVisualOrder, let renderer, let visual = renderer(line) {
      let note = Self.visualOrderNote(visual)
      for k in scan.diagnostics.indices {
        scan.diagnostics[k].visualOrder = visual
        if !scan.diagnostics[k].message.hasSuffix(".") { scan.diagnostics[k].message += "." }
        scan.diagnostics[k].message += note
      }
    }
    return scan
  }

  /// What ends each message of a line given its visual order `visual`
  /// (after a full stop): `" The line displays as: “visual”"`.
  package static func visualOrderNote(_ visual: String) -> String {
    visualOrderNoteStart + visual + visualOrderNoteEnd
  }

  /// The text of `visualOrderNote` before and after the visual order.
  package static let visualOrderNoteStart = " The line displays as: \u{201C}"
  package static let visualOrderNoteEnd = "\u{201D}"

  /// The working storage of a line's scan, kept by a caller that scans
  /// many lines (`bidi-lsp check`) so that a line allocates only what it
  /// finds. Between two scans, only `diagnostics` means something.
  package struct LineBuffers {
    var controls = BidiControlList()
    var segments: [Segment] = []
    /// Room for `LineAnalysis`'s openers and scopes: at least one per
    /// control of the line (placeholders beyond).
    var openers: [LineAnalysis.Opener] = []
    var scopes: [Int] = []
    /// Room for `balancedPrefix`'s open scopes: at least one per control.
    var open: [Int] = []
    /// The diagnostics of the line last scanned (`scanLineFindings`), in
    /// storage reused by the next line's.
    package var diagnostics: [HazardDiagnostic] = []

    package init() {}

    /// Whether the line last scanned with these buffers holds a bidi control.
    package var heldControls: Bool { !controls.isEmpty }
  }

  /// `scanLine` without the visual order in the messages, in place, for
  /// `bidi-lsp check` (which writes the visual order from bytes itself):
  /// `state` becomes the line's end state, `buffers.diagnostics` holds the
  /// line's diagnostics (until the next scan). Returns the count of those
  /// omitted past the limit and whether `scanLine` would add the visual
  /// order (the line has a diagnostic other than `bidi.unmatched`, is
  /// well-formed and at most `visualOrderInMessageLimit` bytes long). (In place, a line costs no
  /// copy of the state and no `LineScan` to make and destroy.)
  package func scanLineFindings(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, state: inout LexerState, buffers: inout LineBuffers
  ) -> (omitted: Int, showsVisualOrder: Bool) {
    buffers.controls.removeAll()
    // (Not on an empty array: that would allocate an empty one each line.
    // The diagnostics removed from the end one by one: `removeAll` went
    // through the generic `replaceSubrange`, twice the cost.)
    while !buffers.diagnostics.isEmpty { buffers.diagnostics.removeLast() }
    if !buffers.segments.isEmpty { buffers.segments.removeAll(keepingCapacity: true) }
    // The ill-formed runs, as their bounds: lower, upper, lower, upper….
    // (`[Int]`: the first `[Range<Int>]` of a run cost 0.11 M instructions
    // to find its type's metadata.)
    var invalid: [Int] = []
    var i = 0
    let n = line.count
    while i < n {
      // Only controls and ill-formed sequences matter here.
      i = BidiControl.appendControls(in: line, from: i, to: &buffers.controls)
      guard i < n else { break }
      let decoded = UTF8Decoder.decode(line, at: i)
      if invalid.last == i {
        invalid[invalid.count - 1] = i + decoded.length
      } else {
        invalid.append(i)
        invalid.append(i + decoded.length)
      }
      i += decoded.length
    }
    lexer?.lex(line, state: &state, segments: &buffers.segments, record: !buffers.controls.isEmpty)
    if invalid.isEmpty && buffers.controls.isEmpty { return (0, false) }
    // A line whose controls stand in one context is paired as far as it
    // gives no hazard (`balancedPrefix`); most lines are balanced, and the
    // analysis of the others goes on from there.
    var prefix: (end: Int, depth: Int)? = nil
    var open: [Int] = []
    swap(&open, &buffers.open)
    defer { swap(&open, &buffers.open) }
    if invalid.isEmpty && buffers.segments.isEmpty && checksBalancedLinesFirst {
      let found = buffers.controls.codePoints.withUnsafeBufferPointer {
        Self.balancedPrefix(UnsafeBufferPointer(rebasing: $0[..<buffers.controls.count]), growing: &open)
      }
      if found.end == buffers.controls.count && found.depth == 0 { return (0, false) }
      prefix = found
    }
    return analyzeLine(
      line, lineNumber: lineNumber, controls: LineControls(buffers.controls), buffers: &buffers, open: open,
      prefix: prefix, invalid: invalid)
  }

  /// `scanLineFindings` of a well-formed line of plain text (no language)
  /// whose controls are `found[range]`, their offsets less `base` the
  /// line's: those of a search of several lines at once (`bidi-lsp
  /// check`'s plain text), so that a line costs no search of its own. A
  /// balanced line is paired on `found`'s code points, the others
  /// analysed in `found` too (`buffers.controls` is left empty, and
  /// `heldControls` tells nothing: the caller has `range`).
  package func scanLineFindings(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, buffers: inout LineBuffers, controls found: BidiControlList,
    in range: Range<Int>, base: Int
  ) -> (omitted: Int, showsVisualOrder: Bool) {
    precondition(lexer == nil, "controls found ahead are for plain text")
    buffers.controls.removeAll()
    while !buffers.diagnostics.isEmpty { buffers.diagnostics.removeLast() }
    // (Left by a file in a language scanned with the same buffers before.)
    if !buffers.segments.isEmpty { buffers.segments.removeAll(keepingCapacity: true) }
    if range.isEmpty { return (0, false) }
    var prefix: (end: Int, depth: Int)? = nil
    var open: [Int] = []
    swap(&open, &buffers.open)
    defer { swap(&open, &buffers.open) }
    if checksBalancedLinesFirst {
      let found = found.codePoints.withUnsafeBufferPointer {
        Self.balancedPrefix(UnsafeBufferPointer(rebasing: $0[range]), growing: &open)
      }
      if found.end == range.count && found.depth == 0 { return (0, false) }
      prefix = found
    }
    return analyzeLine(
      line, lineNumber: lineNumber, controls: LineControls(found, range: range, base: base), buffers: &buffers,
      open: open, prefix: prefix, invalid: [])
  }

  /// `balancedPrefix` of `codePoints` in `open`'s storage, grown to one
  /// entry per control. (Named apart: `&open` alone would also pass the
  /// array's storage as it is to the pointer overload.)
  private static func balancedPrefix(_ codePoints: UnsafeBufferPointer<UInt32>, growing open: inout [Int]) -> (
    end: Int, depth: Int
  ) {
    if open.count < codePoints.count { open.append(contentsOf: repeatElement(0, count: codePoints.count - open.count)) }
    return open.withUnsafeMutableBufferPointer { balancedPrefix(codePoints, open: $0.baseAddress!) }
  }

  /// The pairing analysis of a line with controls (`controls`) or
  /// ill-formed runs (`invalid`'s bounds), going on from `prefix` (in
  /// `open`) when `balancedPrefix` gave one: the line's diagnostics, in
  /// order, in `buffers.diagnostics`.
  private func analyzeLine(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, controls: LineControls, buffers: inout LineBuffers,
    open: [Int], prefix: (end: Int, depth: Int)?, invalid: [Int]
  ) -> (omitted: Int, showsVisualOrder: Bool) {
    // The analysis works in the buffers' storage, taken out of them for it
    // (one allocation, not a doubling copy per growth: a line may hold
    // 100,000 openers), and appends to their diagnostics array.
    let room = max(1, controls.range.count)
    var openers: [LineAnalysis.Opener] = []
    var scopes: [Int] = []
    var diagnostics: [HazardDiagnostic] = []
    swap(&openers, &buffers.openers)
    swap(&scopes, &buffers.scopes)
    swap(&diagnostics, &buffers.diagnostics)
    defer { swap(&diagnostics, &buffers.diagnostics) }
    if openers.count < room {
      openers.append(
        contentsOf: repeatElement(
          LineAnalysis.Opener(offset: 0, codePoint: 0, segment: -1), count: room - openers.count))
      scopes.append(contentsOf: repeatElement(0, count: room - scopes.count))
    }
    var omitted = analyze(
      line, lineNumber: lineNumber, controls: controls, segments: buffers.segments, openers: &openers,
      scopes: &scopes, open: open, resume: prefix, diagnostics: &diagnostics)
    swap(&openers, &buffers.openers)
    swap(&scopes, &buffers.scopes)
    let limit = maximumDiagnosticsPerLine ?? .max
    if let severity = severities.severity(for: .invalidUtf8) {
      for k in stride(from: 0, to: invalid.count, by: 2) {
        guard diagnostics.count < limit else {
          omitted += 1
          continue
        }
        let range = invalid[k]..<invalid[k + 1]
        diagnostics.append(
          HazardDiagnostic(
            code: .invalidUtf8, severity: severity, line: lineNumber, range: range, control: nil,
            message: invalidMessage(line, range, hinted: k == 0)))
      }
    }
    // Most lines' diagnostics come in order already (one or two of them):
    // checked first, since sorting copies each diagnostic it moves.
    if !Self.isInOrder(diagnostics) { diagnostics.sort { $0.range.lowerBound < $1.range.lowerBound } }
    // The visual order shows what a control does to the line. A closer
    // with nothing to close changes no level (UAX #9 X6a, X7), so a line
    // whose findings are all `bidi.unmatched` gets none.
    let showsVisualOrder =
      invalid.isEmpty && line.count <= Self.visualOrderInMessageLimit && Self.holdsAReorderingFinding(diagnostics)
    return (omitted, showsVisualOrder)
  }

  /// Whether some finding of `diagnostics` is not `bidi.unmatched`. (Read
  /// in place: `contains` copied each diagnostic to its closure.)
  static func holdsAReorderingFinding(_ diagnostics: [HazardDiagnostic]) -> Bool {
    diagnostics.withUnsafeBufferPointer { d in
      for k in d.indices {
        if case .unmatched = d[k].code { continue }
        return true
      }
      return false
    }
  }

  /// `LineAnalysis.run` in the storage of `openers` and `scopes` (`open`
  /// and `resume`: `balancedPrefix`'s), returning the hazards omitted.
  /// (The lists come as arguments: read from the buffers in the closures,
  /// they were retained and released on each line.)
  @inline(never)
  private func analyze(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, controls: LineControls, segments: [Segment],
    openers: inout [LineAnalysis.Opener], scopes: inout [Int], open: [Int], resume: (end: Int, depth: Int)?,
    diagnostics: inout [HazardDiagnostic]
  ) -> Int {
    openers.withUnsafeMutableBufferPointer { openers in
      scopes.withUnsafeMutableBufferPointer { scopes in
        open.withUnsafeBufferPointer { open in
          LineAnalysis.run(
            line: line, lineNumber: lineNumber, scanner: self, controls: controls, segments: segments,
            openers: openers.baseAddress!, scopes: scopes.baseAddress!, diagnostics: &diagnostics,
            resume: resume.map { ($0.end, UnsafeBufferPointer(rebasing: open[..<$0.depth])) })
        }
      }
    }
  }

  /// Whether `diagnostics` are ordered by position (as `sort` leaves them).
  static func isInOrder(_ diagnostics: [HazardDiagnostic]) -> Bool {
    diagnostics.withUnsafeBufferPointer { d in
      var k = 1
      while k < d.count {
        if d[k].range.lowerBound < d[k - 1].range.lowerBound { return false }
        k += 1
      }
      return true
    }
  }

  /// Scans one line given as any collection of UTF-8 bytes.
  package func scanLine(_ line: some Collection<UInt8>, lineNumber: Int, state: LexerState = .initial) -> LineScan {
    if let scan = line.withContiguousStorageIfAvailable({ scanLine($0, lineNumber: lineNumber, state: state) }) {
      return scan
    }
    return Array(line).withUnsafeBufferPointer { scanLine($0, lineNumber: lineNumber, state: state) }
  }

  /// Scans a whole document, split into lines at `\n`, `\r\n` and `\r`.
  package func scanDocument(_ text: some Collection<UInt8>) -> [HazardDiagnostic] {
    var result: [HazardDiagnostic] = []
    var state = LexerState.initial
    forEachLine(of: text) { number, line in
      let scan = scanLine(line, lineNumber: number, state: state)
      result += scan.diagnostics
      state = scan.endState
    }
    return result
  }

  /// Scans a whole document.
  package func scanDocument(_ text: String) -> [HazardDiagnostic] {
    scanDocument(text.utf8)
  }

  /// The message of the ill-formed bytes at `range` (of a UTF-16 file's
  /// conversion: what they stand for); the line's first (`hinted`) names
  /// the legacy encoding the rest of the line looks
  /// written in, with the command that converts the file.
  private func invalidMessage(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, hinted: Bool) -> String {
    if readsUTF16Conversion {
      return "\(UTF16Conversion.describe(line[range])): the text cannot be shown reliably"
    }
    // (A loop, not `map` and `joined`: the generic `joined` cost 0.12 M
    // instructions of type lookups on a run's first ill-formed line.)
    var shown = ""
    for k in range.prefix(8) {
      if k > range.lowerBound { shown += " " }
      shown += "0x" + String(hex4(UInt32(line[k])).suffix(2))
    }
    let more = range.count > 8 ? " …" : ""
    let hint = hinted ? LegacyEncoding.hint(line[range.lowerBound...]) : ""
    return "invalid UTF-8 (bytes \(shown)\(more)): the text cannot be shown reliably\(hint)"
  }
}

/// Calls `body` with each line (zero-based number, bytes without the
/// terminator) of `text`, split at `\n`, `\r\n` and `\r`. A text ending
/// with a terminator has an empty last line, as in LSP.
package func forEachLine(
  of text: some Collection<UInt8>, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
) rethrows {
  func split(_ p: UnsafeBufferPointer<UInt8>) throws {
    var number = 0
    var start = 0
    var i = 0
    while i < p.count {
      let b = p[i]
      if b == 0x0A || b == 0x0D {
        try body(number, UnsafeBufferPointer(rebasing: p[start..<i]))
        number += 1
        i += (b == 0x0D && i + 1 < p.count && p[i + 1] == 0x0A) ? 2 : 1
        start = i
        continue
      }
      i += 1
    }
    try body(number, UnsafeBufferPointer(rebasing: p[start..<p.count]))
  }
  if let done = try text.withContiguousStorageIfAvailable({ try split($0) }) {
    return done
  }
  try Array(text).withUnsafeBufferPointer { try split($0) }
}
