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
  /// A human-readable message naming the character and its effect.
  package var message: String
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
}

extension HazardDiagnostic {
  // (Outside the struct, so that it keeps its memberwise initializer, and
  // delegating to it: a diagnostic made by assigning each property was
  // built on the stack, copied into the array and destroyed.)
  package init(
    code: RuleCode, severity: DiagnosticSeverity, line: Int, range: Range<Int>,
    control: BidiControl?, message: String, closing: ClosingInsertion? = nil,
    pairedCloser: Range<Int>? = nil
  ) {
    self.init(
      code: code, severity: severity, line: line, range: range, control: control, message: message,
      closing: closing, pairedCloser: pairedCloser, isInIdentifier: false, visualOrder: nil)
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
