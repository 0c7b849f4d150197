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
  package var settings: HazardSettings
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
  private let lexer: Lexer?

  /// Lines up to this many bytes get their visual order in each message.
  package static let visualOrderInMessageLimit = 400

  package init(language: SourceLanguage?, settings: HazardSettings = .default, renderer: VisualOrderRenderer? = nil) {
    self.language = language
    self.settings = settings
    self.renderer = renderer
    self.lexer = language.map { Lexer(syntax: Syntax($0)) }
  }

  /// Scans one line (its UTF-8 bytes without the terminator), starting in
  /// `state` (the previous line's `endState`; `.initial` for line 0).
  package func scanLine(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, state: LexerState = .initial) -> LineScan {
    var (scan, showsVisualOrder) = scanLineFindings(line, lineNumber: lineNumber, state: state)
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

  /// `scanLine` without the visual order in the messages, and whether
  /// `scanLine` would add it (the line has a diagnostic, is well-formed and
  /// at most `visualOrderInMessageLimit` bytes long): for `bidi-lsp check`,
  /// which writes it from bytes itself.
  package func scanLineFindings(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, state: LexerState = .initial)
    -> (scan: LineScan, showsVisualOrder: Bool)
  {
    var controls: [(offset: Int, control: BidiControl)] = []
    var invalid: [Range<Int>] = []
    var i = 0
    let n = line.count
    while i < n {
      // Only controls and ill-formed sequences matter here.
      i = BidiControl.appendControls(in: line, from: i, to: &controls)
      guard i < n else { break }
      let decoded = UTF8Decoder.decode(line, at: i)
      if let last = invalid.last, last.upperBound == i {
        invalid[invalid.count - 1] = last.lowerBound..<(i + decoded.length)
      } else {
        invalid.append(i..<(i + decoded.length))
      }
      i += decoded.length
    }
    var endState = state
    var segments: [Segment] = []
    lexer?.lex(line, state: &endState, segments: &segments, record: !controls.isEmpty)
    if invalid.isEmpty
      && (controls.isEmpty || (segments.isEmpty && checksBalancedLinesFirst && Self.isBalanced(controls)))
    {
      return (LineScan(diagnostics: [], endState: endState), false)
    }
    var analysis = LineAnalysis(line: line, lineNumber: lineNumber, scanner: self, hasLanguage: lexer != nil)
    analysis.run(controls: controls, segments: segments)
    var diagnostics = analysis.diagnostics
    var omitted = analysis.omitted
    let limit = maximumDiagnosticsPerLine ?? .max
    if let severity = settings.severity(for: .invalidUtf8) {
      for range in invalid {
        guard diagnostics.count < limit else {
          omitted += 1
          continue
        }
        diagnostics.append(
          HazardDiagnostic(
            code: .invalidUtf8, severity: severity, line: lineNumber, range: range, control: nil,
            message: invalidMessage(line, range)))
      }
    }
    diagnostics.sort { $0.range.lowerBound < $1.range.lowerBound }
    let showsVisualOrder = !diagnostics.isEmpty && invalid.isEmpty && line.count <= Self.visualOrderInMessageLimit
    return (LineScan(diagnostics: diagnostics, endState: endState, omitted: omitted), showsVisualOrder)
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

  private func invalidMessage(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    let shown = line[range].prefix(8).map { "0x" + String(hex4(UInt32($0)).suffix(2)) }
    let more = range.count > 8 ? " …" : ""
    return "invalid UTF-8 (bytes \(shown.joined(separator: " "))\(more)): the text cannot be shown reliably"
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

/// The pairing analysis of one line with controls.
private struct LineAnalysis {
  enum Context {
    case line
    case code
    case comment(Segment)
    case string(Segment)
    /// The code of an interpolation in a string literal (`\(…)`, `${…}`).
    case interpolation(Segment)
  }

  /// The open scopes of one context (indices into `openers`).
  struct PairingStack {
    var entries: [Int] = []
    var isolates = 0
  }

  struct Opener {
    var offset: Int
    var control: BidiControl
    /// The index of its closers in `closings`, or -1 when it is closed on
    /// the line. (An index keeps an opener a plain value: a line may hold
    /// many.)
    var closing = -1
    var pairedCloser: Range<Int>?
    var context: Context
  }

  let line: UnsafeBufferPointer<UInt8>
  let lineNumber: Int
  let scanner: HazardScanner
  let hasLanguage: Bool
  var openers: [Opener] = []
  /// Where the openers left open would be closed (see `Opener.closing`).
  var closings: [ClosingInsertion] = []
  var diagnostics: [HazardDiagnostic] = []
  /// Hazards past the scanner's per-line limit, counted without being made.
  var omitted = 0
  let limit: Int

  init(line: UnsafeBufferPointer<UInt8>, lineNumber: Int, scanner: HazardScanner, hasLanguage: Bool) {
    self.line = line
    self.lineNumber = lineNumber
    self.scanner = scanner
    self.hasLanguage = hasLanguage
    self.limit = scanner.maximumDiagnosticsPerLine ?? .max
  }

  /// Whether the limit is reached: the hazards of the enabled codes among
  /// `code` and `other` are then counted instead of made.
  mutating func isFull(counting code: HazardCode?, _ other: HazardCode? = nil) -> Bool {
    guard diagnostics.count >= limit else { return false }
    if let code, settings.severity(for: code) != nil { omitted += 1 }
    if let other, settings.severity(for: other) != nil { omitted += 1 }
    return true
  }

  var settings: HazardSettings { scanner.settings }

  mutating func run(controls: [(offset: Int, control: BidiControl)], segments: [Segment]) {
    // One allocation, not a doubling copy per growth: a line may hold
    // 100,000 openers.
    openers.reserveCapacity(controls.count)
    var codeStack = PairingStack()
    codeStack.entries.reserveCapacity(min(controls.count, 64))
    // The innermost segment around the current control with the open scopes
    // of its context, and the segments around it (segments nest and come in
    // pre-order; nesting is rare, so the innermost is kept apart).
    var current: (segment: Int, stack: PairingStack)? = nil
    var enclosing: [(segment: Int, stack: PairingStack)] = []
    var next = 0
    for (offset, control) in controls {
      while let top = current, segments[top.segment].end <= offset {
        var stack = top.stack
        finish(&stack, context: context(of: segments[top.segment]), at: segments[top.segment].contentEnd)
        current = enclosing.popLast()
      }
      while next < segments.count, segments[next].start <= offset {
        if segments[next].end > offset {
          if let top = current { enclosing.append(top) }
          current = (next, PairingStack())
        }
        next += 1
      }
      guard let top = current else {
        process(control, at: offset, stack: &codeStack, context: hasLanguage ? .code : .line)
        continue
      }
      let segment = segments[top.segment]
      if segment.kind == .identifier {
        reportInIdentifier(control, at: offset)
        continue
      }
      process(control, at: offset, stack: &current!.stack, context: context(of: segment))
    }
    while let top = current {
      var stack = top.stack
      finish(&stack, context: context(of: segments[top.segment]), at: segments[top.segment].contentEnd)
      current = enclosing.popLast()
    }
    finish(&codeStack, context: hasLanguage ? .code : .line, at: codeEnd(segments))
    // Only an opener left open or an override is reported: most are closed.
    for k in openers.indices where openers[k].closing >= 0 || openers[k].control.isOverride {
      report(openers[k])
    }
  }

  func context(of segment: Segment) -> Context {
    switch segment.kind {
    case .comment: .comment(segment)
    case .interpolation: .interpolation(segment)
    case .string, .identifier: .string(segment)
    }
  }

  /// Where the code of the line ends: before a comment or literal that runs
  /// on to the end of the line (a line comment, a literal continued on the
  /// next line), else at the end of the line.
  func codeEnd(_ segments: [Segment]) -> Int {
    // The last segment outside all others.
    var last: Segment? = nil
    for segment in segments where segment.kind != .identifier {
      if let current = last, segment.start < current.end { continue }  // inside it
      last = segment
    }
    if let last, last.end == line.count, last.contentEnd == line.count || !last.endsOnLine {
      return last.start
    }
    return line.count
  }

  mutating func process(_ control: BidiControl, at offset: Int, stack: inout PairingStack, context: Context) {
    if control.isOpener {
      stack.entries.append(openers.count)
      if control.isIsolateOpener { stack.isolates += 1 }
      openers.append(Opener(offset: offset, control: control, context: context))
      return
    }
    let range = offset..<(offset + control.utf8Count)
    if control == .pdf {
      if let top = stack.entries.last, openers[top].control.isEmbeddingOrOverride {
        stack.entries.removeLast()
        openers[top].pairedCloser = range
      } else {
        reportUnmatched(control, range, isolateOpen: !stack.entries.isEmpty)
      }
    } else if control == .pdi {
      // Searching only when an isolate is open keeps this linear: every
      // entry passed over is popped.
      var index = stack.isolates > 0 ? stack.entries.count - 1 : -1
      while index >= 0 && !openers[stack.entries[index]].control.isIsolateOpener { index -= 1 }
      if index >= 0 {
        stack.isolates -= 1
        // (Usually one or two: a loop, not the generic `removeLast(_:)`.)
        while stack.entries.count > index { stack.entries.removeLast() }
      } else {
        reportUnmatched(control, range, isolateOpen: false)
      }
    }
  }

  /// Records, for each opener left on `stack`, the closers that would close
  /// it at `offset`.
  mutating func finish(_ stack: inout PairingStack, context: Context, at offset: Int) {
    guard !stack.entries.isEmpty else { return }
    // Closers inserted in code must not stick to an identifier.
    let code: Bool
    switch context {
    case .code, .interpolation: code = true
    case .line, .comment, .string: code = false
    }
    let spaceBefore = code && offset > 0 && sticksToIdentifier(before: offset)
    let spaceAfter = code && offset < line.count && sticksToIdentifier(after: offset)
    // Innermost first; the opener at depth k needs the first n - k closers.
    let closers = stack.entries.reversed().map { openers[$0].control.isIsolateOpener ? BidiControl.pdi : .pdf }
    for (k, index) in stack.entries.reversed().enumerated() {
      openers[index].closing = closings.count
      closings.append(
        ClosingInsertion(offset: offset, closers: closers[0...k], spaceBefore: spaceBefore, spaceAfter: spaceAfter))
    }
    stack = PairingStack()
  }

  func sticksToIdentifier(before offset: Int) -> Bool {
    // Step back over one scalar.
    sticksToIdentifier(after: UTF8Decoder.sequenceStart(line, containing: offset - 1))
  }

  func sticksToIdentifier(after offset: Int) -> Bool {
    if BidiControl.decode(line, at: offset) != nil { return true }
    let b = line[offset]
    if b < 0x80 { return isASCIIIdentifierByte(b) }
    let decoded = UTF8Decoder.decode(line, at: offset)
    return decoded.isValid && isIdentifierScalar(decoded.value)
  }

  mutating func report(_ opener: Opener) {
    let control = opener.control
    let range = opener.offset..<(opener.offset + control.utf8Count)
    if diagnostics.count >= limit {
      var pairing: HazardCode?
      if opener.closing >= 0 {
        switch opener.context {
        case .line, .code: pairing = .unpaired
        case .comment: pairing = .inComment
        case .interpolation, .string: pairing = .inString
        }
      }
      _ = isFull(counting: pairing, control.isOverride ? .override : nil)
      return
    }
    let closing = opener.closing >= 0 ? closings[opener.closing] : nil
    if let closing {
      let code: HazardCode
      let message: String
      switch opener.context {
      case .line:
        code = .unpaired
        message = HazardMessage.unclosedOnLine.text(control)
      case .code:
        code = .unpaired
        message = HazardMessage.unclosedInCode.text(control)
      case .comment(let segment):
        code = .inComment
        message =
          segment.endsOnLine && segment.contentEnd < line.count
          ? HazardMessage.commentCrossed.text(control) : HazardMessage.unclosedInComment.text(control)
      case .interpolation:
        code = .inString
        message = HazardMessage.interpolationCrossed.text(control)
      case .string(let segment):
        code = .inString
        message =
          segment.endsOnLine && segment.contentEnd < line.count
          ? HazardMessage.stringCrossed.text(control) : HazardMessage.unclosedInString.text(control)
      }
      if let severity = settings.severity(for: code) {
        diagnostics.append(
          HazardDiagnostic(
            code: code, severity: severity, line: lineNumber, range: range, control: control, message: message,
            closing: closing))
      }
    }
    // Any override is `bidi.override`, whatever else it is (Protocol/specification.md,
    // “`textDocument/publishDiagnostics`”).
    if control.isOverride, let severity = settings.severity(for: .override) {
      let closed = closing == nil
      let message: HazardMessage =
        closed ? (opener.pairedCloser == nil ? .overrideUntilIsolateEnd : .overrideUntilPDF) : .overrideToLineEnd
      diagnostics.append(
        HazardDiagnostic(
          code: .override, severity: severity, line: lineNumber, range: range, control: control,
          message: message.text(control), closing: closing, pairedCloser: opener.pairedCloser))
    }
  }

  mutating func reportUnmatched(_ control: BidiControl, _ range: Range<Int>, isolateOpen: Bool) {
    guard !isFull(counting: .unmatched), let severity = settings.severity(for: .unmatched) else { return }
    let message =
      control == .pdf
      ? (isolateOpen ? HazardMessage.pdfInsideIsolate : .pdfUnmatched).text(control)
      : HazardMessage.pdiUnmatched.text(control)
    diagnostics.append(
      HazardDiagnostic(
        code: .unmatched, severity: severity, line: lineNumber, range: range, control: control, message: message))
  }

  mutating func reportInIdentifier(_ control: BidiControl, at offset: Int) {
    guard !isFull(counting: .inIdentifier, control.isOverride ? .override : nil) else { return }
    let range = offset..<(offset + control.utf8Count)
    if let severity = settings.severity(for: .inIdentifier) {
      let message = HazardMessage.inIdentifier.text(control)
      diagnostics.append(
        HazardDiagnostic(
          code: .inIdentifier, severity: severity, line: lineNumber, range: range, control: control, message: message))
    }
    if control.isOverride, let severity = settings.severity(for: .override) {
      var diagnostic = HazardDiagnostic(
        code: .override, severity: severity, line: lineNumber, range: range, control: control,
        message: HazardMessage.overrideInIdentifier.text(control))
      diagnostic.isInIdentifier = true
      diagnostics.append(diagnostic)
    }
  }
}
