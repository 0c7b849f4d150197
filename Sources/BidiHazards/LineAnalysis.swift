import UnicodeBidi

/// The controls of one line: `list[range]`, their offsets less `base` the
/// line's (a list of several lines' controls, or the line's own with
/// `range` all of it and `base` 0).
struct LineControls {
  let list: BidiControlList
  let range: Range<Int>
  let base: Int

  init(_ list: BidiControlList, range: Range<Int>? = nil, base: Int = 0) {
    self.list = list
    self.range = range ?? 0..<list.count
    self.base = base
  }
}

/// The pairing analysis of one line with controls.
struct LineAnalysis {
  enum Context {
    case line
    case code
    case comment(Segment)
    case string(Segment)
    /// The code of an interpolation in a string literal (`\(…)`, `${…}`).
    case interpolation(Segment)
  }

  /// The open scopes of one context: indices into `openers`, at
  /// `scopes[start..<start + count]`. Contexts nest and only the innermost
  /// takes controls, so each context's scopes follow those of the context
  /// around it in the one buffer, the line's own context first.
  struct PairingStack {
    var start: Int
    var count = 0
    var isolates = 0

    /// The stack of a context starting after the scopes of `outer`.
    init(after outer: PairingStack) {
      start = outer.start &+ outer.count
    }

    init(start: Int) {
      self.start = start
    }
  }

  /// 32 bytes, written once per opener: the pairing loop's main store.
  struct Opener {
    var offset: Int
    /// The control's code point (`BidiControlList`'s).
    var codePoint: UInt32
    /// The index in `segments` of the segment whose context it is in, or
    /// -1 for the line's own context (`lineContext`). (An index keeps an
    /// opener small.)
    var segmentIndex: Int32
    /// The index of its closers in `closings`, or -1 when it is closed on
    /// the line (0 for every opener left open when closings are not
    /// recorded). (An index keeps an opener a plain value: a line may hold
    /// many.)
    var closing = -1
    /// The offset of the PDF that closes it, or -1 (a PDF is 3 bytes).
    var pairedCloserOffset = -1

    init(offset: Int, codePoint: UInt32, segment: Int) {
      self.offset = offset
      self.codePoint = codePoint
      self.segmentIndex = Int32(truncatingIfNeeded: segment)
    }

    var control: BidiControl { BidiControl.known(codePoint) }
    var segment: Int { Int(segmentIndex) }
    var pairedCloser: Range<Int>? { pairedCloserOffset < 0 ? nil : pairedCloserOffset..<(pairedCloserOffset &+ 3) }
  }

  let line: UnsafeBufferPointer<UInt8>
  let lineNumber: Int
  let severities: HazardSeverities
  let hasLanguage: Bool
  /// `HazardScanner.recordsClosings`.
  let recordsClosings: Bool
  /// The segments of the line (`run`'s).
  var segments: [Segment]
  /// The openers, in order (`openerCount` of them), and the scopes of the
  /// contexts (`PairingStack`): room for one per control of the line,
  /// given by the caller (`HazardScanner.LineBuffers`).
  let openers: UnsafeMutablePointer<Opener>
  var openerCount: Int
  let scopes: UnsafeMutablePointer<Int>
  /// Where the openers left open would be closed (see `Opener.closing`).
  var closings: [ClosingInsertion]
  var diagnostics: [HazardDiagnostic]
  /// Hazards past the scanner's per-line limit, counted without being made.
  var omitted: Int
  let limit: Int

  /// `openers` and `scopes` have room for one item per control of the line;
  /// the diagnostics are appended to `diagnostics`.
  init(
    line: UnsafeBufferPointer<UInt8>, lineNumber: Int, scanner: HazardScanner, hasLanguage: Bool,
    openers: UnsafeMutablePointer<Opener>, scopes: UnsafeMutablePointer<Int>, diagnostics: [HazardDiagnostic]
  ) {
    self.openers = openers
    self.scopes = scopes
    self.diagnostics = diagnostics
    self.line = line
    self.lineNumber = lineNumber
    self.severities = scanner.severities
    self.hasLanguage = hasLanguage
    self.recordsClosings = scanner.recordsClosings
    self.limit = scanner.maximumDiagnosticsPerLine ?? .max
    // (Every property set here, none by a default value: see
    // `HazardDiagnostic.init`.)
    segments = []
    openerCount = 0
    closings = []
    omitted = 0
  }

  /// Analyzes a line (`openers` and `scopes` with room for one item per
  /// control), appending its diagnostics to `diagnostics`; returns the
  /// number of hazards omitted past the scanner's limit. A line without
  /// segments may go on from `HazardScanner.balancedPrefix` (`resume`:
  /// its `end` and its open scopes).
  static func run(
    line: UnsafeBufferPointer<UInt8>, lineNumber: Int, scanner: HazardScanner,
    controls: LineControls, segments: [Segment], openers: UnsafeMutablePointer<Opener>,
    scopes: UnsafeMutablePointer<Int>, diagnostics: inout [HazardDiagnostic],
    resume: (end: Int, open: UnsafeBufferPointer<Int>)? = nil
  ) -> Int {
    var analysis = LineAnalysis(
      line: line, lineNumber: lineNumber, scanner: scanner, hasLanguage: scanner.language != nil, openers: openers,
      scopes: scopes, diagnostics: [])
    // The array moved in and out, so that appending copies nothing.
    swap(&diagnostics, &analysis.diagnostics)
    if let resume {
      assert(segments.isEmpty, "a line with segments goes on from no prefix")
      analysis.runInOneContext(controls, from: resume.end, open: resume.open)
    } else {
      analysis.run(controls: controls, segments: segments)
    }
    swap(&diagnostics, &analysis.diagnostics)
    return analysis.omitted
  }

  /// Whether the limit is reached: the hazards of the enabled codes among
  /// `code` and `other` are then counted instead of made.
  mutating func isFull(counting code: RuleCode?, _ other: RuleCode? = nil) -> Bool {
    guard diagnostics.count >= limit else { return false }
    if let code, severities.severity(for: code) != nil { omitted += 1 }
    if let other, severities.severity(for: other) != nil { omitted += 1 }
    return true
  }

  /// The context of the code of the line, outside every segment.
  var lineContext: Context { hasLanguage ? .code : .line }

  mutating func run(controls given: LineControls, segments: [Segment]) {
    if segments.isEmpty {
      runInOneContext(given)
      return
    }
    precondition(given.range == 0..<given.list.count && given.base == 0, "a line with segments has its own list")
    let controls = given.list
    self.segments = segments
    var codeStack = PairingStack(start: 0)
    // The innermost segment around the current control with the open scopes
    // of its context, and the segments around it (segments nest and come in
    // pre-order; nesting is rare, so the innermost is kept apart).
    var current: (segment: Int, stack: PairingStack)? = nil
    var enclosing: [(segment: Int, stack: PairingStack)] = []
    var next = 0
    for k in 0..<controls.count {
      let offset = controls.offsets[k]
      let codePoint = controls.codePoints[k]
      while let top = current, segments[top.segment].end <= offset {
        var stack = top.stack
        finish(&stack, context: context(of: segments[top.segment]), at: segments[top.segment].contentEnd)
        current = enclosing.popLast()
      }
      while next < segments.count, segments[next].start <= offset {
        if segments[next].end > offset {
          let stack = PairingStack(after: current?.stack ?? codeStack)
          if let top = current { enclosing.append(top) }
          current = (next, stack)
        }
        next += 1
      }
      guard let top = current else {
        process(codePoint, at: offset, stack: &codeStack, segment: -1)
        continue
      }
      let segment = segments[top.segment]
      if segment.kind == .identifier {
        reportInIdentifier(BidiControl.known(codePoint), at: offset)
        continue
      }
      process(codePoint, at: offset, stack: &current!.stack, segment: top.segment)
    }
    while let top = current {
      var stack = top.stack
      finish(&stack, context: context(of: segments[top.segment]), at: segments[top.segment].contentEnd)
      current = enclosing.popLast()
    }
    finish(&codeStack, context: lineContext, at: codeEnd(segments))
    reportOpeners()
  }

  /// `run` for a line without segments (plain text, or code without
  /// comments and literals): every control in the line's own context, in
  /// a loop of its own (the segments' bookkeeping kept the stack out of
  /// registers). It goes on from control `start`, the scopes `open` (as
  /// `HazardScanner.balancedPrefix` leaves them) open: the controls before
  /// `start` gave no hazard, and the openers they closed are not reported.
  mutating func runInOneContext(
    _ given: LineControls, from start: Int = 0, open: UnsafeBufferPointer<Int> = .init(start: nil, count: 0)
  ) {
    var stack = PairingStack(start: 0)
    // The loop's state in locals (`pair` writes only through the pointers),
    // and no call in it: the closers that close nothing are kept
    // (`offset << 2 | kind`) and reported after it, in order.
    var made = openerCount
    let openers = self.openers
    let scopes = self.scopes
    let controls = given.list
    let first = given.range.lowerBound
    let count = given.range.count
    let base = given.base
    for entry in open {
      let j = first &+ entry >> 1
      scopes[stack.count] = made
      stack.count &+= 1
      if entry & 1 != 0 { stack.isolates &+= 1 }
      openers[made] = Opener(offset: controls.offsets[j] &- base, codePoint: controls.codePoints[j], segment: -1)
      made &+= 1
    }
    withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { kept in
      var unmatched = 0
      controls.offsets.withUnsafeBufferPointer { offsets in
        controls.codePoints.withUnsafeBufferPointer { codePoints in
          let offsets = UnsafeBufferPointer(rebasing: offsets[first..<(first &+ count)])
          let codePoints = UnsafeBufferPointer(rebasing: codePoints[first..<(first &+ count)])
          var k = start
          while k < count {
            let offset = offsets[k] &- base
            let found = Self.pair(
              codePoints[k], at: offset, stack: &stack, segment: -1, openers: openers, scopes: scopes, made: &made)
            if found != .none {
              kept[unmatched] = offset &<< 2 | found.rawValue
              unmatched &+= 1
            }
            k &+= 1
          }
        }
      }
      for j in 0..<unmatched {
        reportUnmatched(Unmatched(rawValue: kept[j] & 3) ?? .pdf, at: kept[j] >> 2)
      }
    }
    openerCount = made
    finish(&stack, context: lineContext, at: line.count)
    reportOpeners()
  }

  /// Reports the openers: only one left open or an override, since most
  /// are closed.
  mutating func reportOpeners() {
    for k in 0..<openerCount where openers[k].closing >= 0 || BidiControl.isOverride(openers[k].codePoint) {
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

  /// The context of `opener`.
  func context(of opener: Opener) -> Context {
    opener.segment < 0 ? lineContext : context(of: segments[opener.segment])
  }

  /// A closer with nothing to close, as `pair` finds it.
  enum Unmatched: Int {
    case none = 0
    /// A PDF with no scope open, or with an embedding or override open
    /// only outside an isolate.
    case pdf
    /// A PDF whose innermost open scope is an isolate.
    case pdfInsideIsolate
    /// A PDI with no isolate open.
    case pdi
  }

  /// Takes the control of code point `codePoint` at `offset` in the context
  /// whose open scopes `stack` holds (by code point: the C scan writes code
  /// points); `made`: the openers so far. Writes only through `openers` and
  /// `scopes`, so that a loop around it keeps its state in registers;
  /// returns what the caller reports of a closer that closes nothing.
  @inline(__always)
  static func pair(
    _ codePoint: UInt32, at offset: Int, stack: inout PairingStack, segment: Int, openers: UnsafeMutablePointer<Opener>,
    scopes: UnsafeMutablePointer<Int>, made: inout Int
  ) -> Unmatched {
    if BidiControl.isOpener(codePoint) {
      scopes[stack.start &+ stack.count] = made
      stack.count &+= 1
      if BidiControl.isIsolateOpener(codePoint) { stack.isolates &+= 1 }
      openers[made] = Opener(offset: offset, codePoint: codePoint, segment: segment)
      made &+= 1
      return .none
    }
    if codePoint == BidiControl.pdf.rawValue {
      // PDF closes the innermost scope only if it is an embedding or override.
      guard stack.count > 0 else { return .pdf }
      let top = scopes[stack.start &+ stack.count &- 1]
      guard BidiControl.isEmbeddingOrOverride(openers[top].codePoint) else { return .pdfInsideIsolate }
      stack.count &-= 1
      openers[top].pairedCloserOffset = offset
    } else if codePoint == BidiControl.pdi.rawValue {
      // PDI closes the innermost isolate and every scope inside it.
      // Searching only when an isolate is open keeps this linear: every
      // entry passed over is popped.
      guard stack.isolates > 0 else { return .pdi }
      var index = stack.count &- 1
      while !BidiControl.isIsolateOpener(openers[scopes[stack.start &+ index]].codePoint) { index &-= 1 }
      stack.isolates &-= 1
      stack.count = index
    }
    return .none
  }

  /// `pair` for the general loop of `run`.
  @inline(__always)
  mutating func process(_ codePoint: UInt32, at offset: Int, stack: inout PairingStack, segment: Int) {
    let unmatched = Self.pair(
      codePoint, at: offset, stack: &stack, segment: segment, openers: openers, scopes: scopes, made: &openerCount)
    if unmatched != .none { reportUnmatched(unmatched, at: offset) }
  }

  /// Records, for each opener left on `stack`, the closers that would close
  /// it at `offset`.
  mutating func finish(_ stack: inout PairingStack, context: Context, at offset: Int) {
    guard stack.count > 0 else { return }
    if !recordsClosings {
      // Each marked as left open, with no insertion recorded.
      for k in 0..<stack.count { openers[scopes[stack.start &+ k]].closing = 0 }
      stack.count = 0
      stack.isolates = 0
      return
    }
    // Closers inserted in code must not stick to an identifier.
    let code: Bool
    switch context {
    case .code, .interpolation: code = true
    case .line, .comment, .string: code = false
    }
    let spaceBefore = code && offset > 0 && sticksToIdentifier(before: offset)
    let spaceAfter = code && offset < line.count && sticksToIdentifier(after: offset)
    // Innermost first; the opener at depth k needs the first n - k closers.
    // (Loops, not closures: a closure would copy the analysis.)
    let innermost = stack.start &+ stack.count &- 1
    var closers: [BidiControl] = []
    closers.reserveCapacity(stack.count)
    for k in 0..<stack.count {
      closers.append(BidiControl.isIsolateOpener(openers[scopes[innermost &- k]].codePoint) ? .pdi : .pdf)
    }
    for k in 0..<stack.count {
      let index = scopes[innermost &- k]
      openers[index].closing = closings.count
      closings.append(
        ClosingInsertion(offset: offset, closers: closers[0...k], spaceBefore: spaceBefore, spaceAfter: spaceAfter))
    }
    stack.count = 0
    stack.isolates = 0
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
      var pairing: RuleCode?
      if opener.closing >= 0 {
        switch context(of: opener) {
        case .line, .code: pairing = .unpaired
        case .comment: pairing = .inComment
        case .interpolation, .string: pairing = .inString
        }
      }
      _ = isFull(counting: pairing, isOverride(control) ? .override : nil)
      return
    }
    let leftOpen = opener.closing >= 0
    let closing = leftOpen && recordsClosings ? closings[opener.closing] : nil
    if leftOpen {
      let code: RuleCode
      let sentence: HazardMessage
      switch context(of: opener) {
      case .line:
        code = .unpaired
        sentence = .unclosedOnLine
      case .code:
        code = .unpaired
        sentence = .unclosedInCode
      case .comment(let segment):
        code = .inComment
        sentence =
          segment.endsOnLine && segment.contentEnd < line.count
          ? .commentCrossed : .unclosedInComment
      case .interpolation:
        code = .inString
        sentence = .interpolationCrossed
      case .string(let segment):
        code = .inString
        sentence =
          segment.endsOnLine && segment.contentEnd < line.count
          ? .stringCrossed : .unclosedInString
      }
      if let severity = severities.severity(for: code) {
        diagnostics.append(
          HazardDiagnostic(
            code: code, severity: severity, line: lineNumber, range: range, control: control, sentence: sentence,
            closing: closing))
      }
    }
    // Any override is `bidi.override`, whatever else it is (Protocol/specification.md,
    // “`textDocument/publishDiagnostics`”).
    if isOverride(control), let severity = severities.severity(for: .override) {
      let closed = !leftOpen
      let sentence: HazardMessage =
        closed ? (opener.pairedCloser == nil ? .overrideUntilIsolateEnd : .overrideUntilPDF) : .overrideToLineEnd
      diagnostics.append(
        HazardDiagnostic(
          code: .override, severity: severity, line: lineNumber, range: range, control: control,
          sentence: sentence, closing: closing, pairedCloser: opener.pairedCloser))
    }
  }

  mutating func reportUnmatched(_ unmatched: Unmatched, at offset: Int) {
    guard !isFull(counting: .unmatched), let severity = severities.severity(for: .unmatched) else { return }
    let control: BidiControl = unmatched == .pdi ? .pdi : .pdf
    let range = offset..<(offset + 3)
    let sentence: HazardMessage
    switch unmatched {
    case .pdfInsideIsolate: sentence = .pdfInsideIsolate
    case .pdi: sentence = .pdiUnmatched
    case .pdf, .none: sentence = .pdfUnmatched
    }
    diagnostics.append(
      HazardDiagnostic(
        code: .unmatched, severity: severity, line: lineNumber, range: range, control: control, sentence: sentence))
  }

  mutating func reportInIdentifier(_ control: BidiControl, at offset: Int) {
    guard !isFull(counting: .inIdentifier, isOverride(control) ? .override : nil) else { return }
    let range = offset..<(offset + control.utf8Count)
    if let severity = severities.severity(for: .inIdentifier) {
      diagnostics.append(
        HazardDiagnostic(
          code: .inIdentifier, severity: severity, line: lineNumber, range: range, control: control,
          sentence: .inIdentifier))
    }
    if isOverride(control), let severity = severities.severity(for: .override) {
      diagnostics.append(
        HazardDiagnostic(
          code: .override, severity: severity, line: lineNumber, range: range, control: control,
          sentence: .overrideInIdentifier, isInIdentifier: true))
    }
  }
}

/// Whether `control` is LRO or RLO (`BidiControl.isOverride`, inlined).
@inline(__always)
func isOverride(_ control: BidiControl) -> Bool {
  switch control {
  case .lro, .rlo: true
  default: false
  }
}
