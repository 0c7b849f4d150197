import UnicodeBidi

/// One bidi hazard found on a line.
///
/// Positions are zero-based; `range` counts UTF-8 bytes from the start of the
/// line (see `LineUnits` in UnicodeBidi to convert to UTF-16 or UTF-32 units).
package struct HazardDiagnostic: Sendable, Hashable {
  /// The rule that reported it.
  package var code: RuleCode
  /// The configured severity of that rule.
  package var severity: DiagnosticSeverity
  /// Zero-based line number.
  package var line: Int
  /// UTF-8 byte offsets of the offending character (or invalid bytes).
  package var range: Range<Int>
  /// The offending control; nil for `bidi.invalidUtf8`.
  package var control: BidiControl?
  /// The message as one of the rules' sentences for `control`, or nil when
  /// `storedMessage` holds it. (A diagnostic is made and dropped for each
  /// finding: a `String` held in each cost a retain and a release, both
  /// atomic, for every finding `bidi-lsp check` writes, which writes the
  /// sentence's bytes, `HazardMessage.utf8`.)
  package private(set) var sentence: HazardMessage?
  /// The message when `sentence` is nil, else "".
  private var storedMessage: String
  /// For an opener that is not closed: where closers would go, and which.
  package var closing: ClosingInsertion?
  /// For an override closed by a PDF: that PDF's byte range.
  package var pairedCloser: Range<Int>?
  /// Whether the control stands inside an identifier (where no embedding
  /// can replace it: any control there is wrong).
  package var isInIdentifier: Bool
  /// The line in visual order, from the scanner's renderer, for lines up to
  /// `HazardScanner.visualOrderInMessageLimit` bytes (nil for longer lines
  /// or without a renderer). Shared by the diagnostics of a line, and also
  /// at the end of their `message`.
  package var visualOrder: String?

  /// A human-readable message naming the character and its effect.
  package var message: String {
    get {
      guard let sentence, let control else { return storedMessage }
      return sentence.text(control)
    }
    set {
      storedMessage = newValue
      sentence = nil
    }
  }

  // Equal and hashed by `message`, however it is held (two sentences of
  // one control are the same text only when they are the same sentence).
  package static func == (a: HazardDiagnostic, b: HazardDiagnostic) -> Bool {
    guard
      a.code == b.code && a.severity == b.severity && a.line == b.line && a.range == b.range
        && a.control == b.control && a.closing == b.closing && a.pairedCloser == b.pairedCloser
        && a.isInIdentifier == b.isInIdentifier && a.visualOrder == b.visualOrder
    else { return false }
    if let first = a.sentence, let second = b.sentence { return first == second }
    return a.message == b.message
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(severity)
    hasher.combine(line)
    hasher.combine(range)
    hasher.combine(control)
    hasher.combine(message)
    hasher.combine(closing)
    hasher.combine(pairedCloser)
    hasher.combine(isInIdentifier)
    hasher.combine(visualOrder)
  }
}

extension HazardDiagnostic {
  // (Outside the struct, so that it keeps its memberwise initializer, and
  // delegating to it: a diagnostic made by assigning each property was
  // built on the stack, copied into the array and destroyed.)
  package init(
    code: RuleCode, severity: DiagnosticSeverity, line: Int, range: Range<Int>, control: BidiControl?,
    message: String, closing: ClosingInsertion? = nil, pairedCloser: Range<Int>? = nil,
    isInIdentifier: Bool = false, visualOrder: String? = nil
  ) {
    self.init(
      code: code, severity: severity, line: line, range: range, control: control, sentence: nil,
      storedMessage: message, closing: closing, pairedCloser: pairedCloser, isInIdentifier: isInIdentifier,
      visualOrder: visualOrder)
  }

  /// A diagnostic whose message is `sentence` for `control`.
  init(
    code: RuleCode, severity: DiagnosticSeverity, line: Int, range: Range<Int>, control: BidiControl,
    sentence: HazardMessage, closing: ClosingInsertion? = nil, pairedCloser: Range<Int>? = nil,
    isInIdentifier: Bool = false
  ) {
    self.init(
      code: code, severity: severity, line: line, range: range, control: control, sentence: sentence,
      storedMessage: "", closing: closing, pairedCloser: pairedCloser, isInIdentifier: isInIdentifier,
      visualOrder: nil)
  }
}

/// Where to insert closers so that an opener is closed on its own line, and
/// the closers to insert there (in order): a PDI for each isolate, a PDF for
/// each embedding or override, from the innermost open scope out to the
/// opener itself.
package struct ClosingInsertion: Sendable, Hashable {
  /// UTF-8 byte offset in the line: the end of the opener's context (before
  /// the end of its comment or string literal, before a trailing comment, or
  /// the end of the line).
  package var offset: Int
  /// The closers, innermost first. (A slice: the openers of one context
  /// share one array, so a line with many open controls stays linear.)
  package var closers: ArraySlice<BidiControl>
  /// Whether a space must go before the closers (they would otherwise
  /// stick to an identifier).
  package var spaceBefore: Bool
  /// Whether a space must go after the closers.
  package var spaceAfter: Bool

  package init(
    offset: Int, closers: ArraySlice<BidiControl>, spaceBefore: Bool = false, spaceAfter: Bool = false
  ) {
    self.offset = offset
    self.closers = closers
    self.spaceBefore = spaceBefore
    self.spaceAfter = spaceAfter
  }

  /// The UTF-8 text to insert.
  package var text: [UInt8] {
    var bytes: [UInt8] = spaceBefore ? [0x20] : []
    for closer in closers { bytes += closer.utf8 }
    if spaceAfter { bytes.append(0x20) }
    return bytes
  }
}
