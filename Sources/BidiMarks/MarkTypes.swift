import UnicodeBidi

/// One replacement in a line, in UTF-8 byte offsets from the start of the
/// line: the bytes `start..<end` become `newText`.
///
/// A plan is a list of edits sorted by `start`, never overlapping, always on
/// scalar boundaries, meant to be applied simultaneously (as the TextEdits of
/// one LSP `WorkspaceEdit` are). Two insertions are never planned at the same
/// offset: they are merged into one edit.
package struct MarkEdit: Hashable, Sendable, CustomStringConvertible {
  /// The first byte replaced (zero-based).
  package var start: Int
  /// The byte after the last one replaced; `start` for an insertion.
  package var end: Int
  /// The replacement text.
  package var newText: String

  package init(start: Int, end: Int, newText: String) {
    self.start = start
    self.end = end
    self.newText = newText
  }

  /// The bytes replaced.
  package var range: Range<Int> { start..<end }

  package var description: String { "\(start)..<\(end) → \"\(newText.escapingNonASCII)\"" }
}

extension BidiDirection {
  /// U+200E LEFT-TO-RIGHT MARK or U+200F RIGHT-TO-LEFT MARK.
  var mark: Unicode.Scalar { self == .leftToRight ? Controls.lrm : Controls.rlm }

  /// U+2066 LEFT-TO-RIGHT ISOLATE or U+2067 RIGHT-TO-LEFT ISOLATE.
  var isolateInitiator: Unicode.Scalar { self == .leftToRight ? Controls.lri : Controls.rli }
}

extension DirectionChoice {
  /// The isolate initiator mode `isolate` writes for this choice: U+2068
  /// FIRST STRONG ISOLATE (the content's own first strong character
  /// decides), U+2066 LEFT-TO-RIGHT ISOLATE or U+2067 RIGHT-TO-LEFT ISOLATE.
  package var isolateInitiator: Unicode.Scalar {
    switch self {
    case .auto: Controls.fsi
    case .leftToRight: Controls.lri
    case .rightToLeft: Controls.rli
    }
  }
}

/// How mode `placeholders` protects a placeholder (`style`: `"isolate"` or `"marks"`).
package enum PlaceholderStyle: String, Sendable, Hashable, CaseIterable {
  /// Wrap it in U+2068 FSI … U+2069 PDI.
  case isolate
  /// Put the mark of its paragraph's direction (LRM or RLM) right after it.
  case marks
}

/// Which bidi controls mode `strip` removes (`only`: `"all"` or `"unpaired"`).
package enum StripScope: String, Sendable, Hashable, CaseIterable {
  /// Every bidi control: U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069.
  case all
  /// Embeddings, overrides and isolates not closed on their line, and closers
  /// with no opener, paired as GCC's `-Wbidi-chars=unpaired` pairs them.
  case unpaired
}

/// Why a request cannot be planned.
package enum MarkError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The range reaches outside the line (`utf8Count` is its length).
  case rangeOutOfBounds(Range<Int>, utf8Count: Int)
  /// An end of the range falls inside a UTF-8 sequence.
  case notOnScalarBoundary(Int)
  /// The range contains a paragraph separator (Bidi_Class B), so no single
  /// isolate can hold it.
  case rangeSpansParagraphs(Range<Int>)
  /// The range holds an isolate initiator or PDI with no partner inside it,
  /// or an embedding or override whose partner (PDF or opener) lies outside
  /// it: a new isolate around it would pair with the wrong control or change
  /// the text around it.
  case rangeSplitsPair(Range<Int>)

  package var description: String {
    switch self {
    case .rangeOutOfBounds(let range, let count):
      "range \(range) is outside the line (\(count) UTF-8 bytes)"
    case .notOnScalarBoundary(let offset):
      "offset \(offset) is inside a character"
    case .rangeSpansParagraphs(let range):
      "range \(range) contains a paragraph separator"
    case .rangeSplitsPair(let range):
      "range \(range) contains a bidi control whose partner is outside it"
    }
  }
}

/// The controls this module reads and writes, as scalars: UnicodeBidi's
/// `BidiControl` is the one list of bidi controls.
enum Controls {
  static let lrm = BidiControl.lrm.scalar
  static let rlm = BidiControl.rlm.scalar
  static let lri = BidiControl.lri.scalar
  static let rli = BidiControl.rli.scalar
  static let fsi = BidiControl.fsi.scalar
  static let pdi = BidiControl.pdi.scalar

  /// True for the characters mode `strip` with `only: all` removes: every
  /// `BidiControl`.
  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    BidiControl(scalar: scalar.value) != nil
  }

  /// True for LRM, RLM and ALM.
  static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    BidiControl(scalar: scalar.value)?.isMark ?? false
  }
}
