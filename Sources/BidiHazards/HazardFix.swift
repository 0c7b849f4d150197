import UnicodeBidi

/// A text edit within one line: replace the UTF-8 byte range `range` of line
/// `line` (zero-based) with `newText`.
package struct HazardTextEdit: Sendable, Hashable {
  package var line: Int
  package var range: Range<Int>
  package var newText: String

  package init(line: Int, range: Range<Int>, newText: String) {
    self.line = line
    self.range = range
    self.newText = newText
  }

  /// Applies non-overlapping edits of one line to its bytes. Edits are applied
  /// from the end of the line backwards, so their ranges all refer to the
  /// original line; an insertion and a replacement at the same offset keep
  /// the insertion first. Ranges past the end of the line are clamped.
  package static func apply(_ edits: [HazardTextEdit], to line: [UInt8]) -> [UInt8] {
    let ordered = edits.enumerated().sorted { a, b in
      if a.element.range.lowerBound != b.element.range.lowerBound {
        return a.element.range.lowerBound > b.element.range.lowerBound
      }
      // At one offset, apply the later-listed edit first so that the
      // earlier-listed text ends up first; non-empty ranges go first.
      if a.element.range.isEmpty != b.element.range.isEmpty { return !a.element.range.isEmpty }
      return a.offset > b.offset
    }
    var result = line
    for (_, edit) in ordered {
      let lower = min(max(edit.range.lowerBound, 0), result.count)
      let upper = min(max(edit.range.upperBound, lower), result.count)
      result.replaceSubrange(lower..<upper, with: Array(edit.newText.utf8))
    }
    return result
  }
}

/// A quick fix for one diagnostic.
package struct HazardFix: Sendable, Hashable {
  /// What the fix does.
  package enum Kind: Sendable, Hashable {
    /// Removes the offending character (and, for a balanced override, its PDF).
    case remove
    /// Inserts the closers that close an opener on its own line.
    case close
    /// Replaces an override by the embedding of the same direction.
    case replaceOverrideWithEmbedding
  }

  package var kind: Kind
  /// A title for the editor's menu.
  package var title: String
  /// The edits, all on the diagnostic's line.
  package var edits: [HazardTextEdit]
  /// Whether this is the fix to prefer for the diagnostic.
  package var isPreferred: Bool

  package init(kind: Kind, title: String, edits: [HazardTextEdit], isPreferred: Bool) {
    self.kind = kind
    self.title = title
    self.edits = edits
    self.isPreferred = isPreferred
  }
}

extension HazardDiagnostic {
  /// The quick fixes for this diagnostic, preferred first.
  package var fixes: [HazardFix] {
    guard let control else {
      // Invalid UTF-8: replace with U+FFFD.
      return [
        HazardFix(
          kind: .remove, title: "Replace the invalid bytes with U+FFFD REPLACEMENT CHARACTER",
          edits: [HazardTextEdit(line: line, range: range, newText: "\u{FFFD}")], isPreferred: true)
      ]
    }
    var fixes: [HazardFix] = []
    // Closing an override does not make it less of an override: its
    // diagnostic offers removal or replacement (closed) instead.
    if let closing, code != .override {
      let names =
        closing.closers.count <= 4
        ? closing.closers.map(\.shortName).joined(separator: " ") : "\(closing.closers.count) closers"
      fixes.append(
        HazardFix(
          kind: .close, title: "Close the \(control.shortName) on its line (insert \(names))",
          edits: [closingEdit(closing)], isPreferred: code == .unpaired))
    }
    // (Not for an override inside an identifier, where any control is wrong.)
    if code == .override, !isInIdentifier, let embedding = control.embeddingForOverride {
      // An override that is not closed on its line must be closed too, or
      // the embedding would be unpaired in its turn.
      var edits = [HazardTextEdit(line: line, range: range, newText: embedding.string)]
      var title = "Replace \(control.shortName) by \(embedding.shortName) (keep the direction, do not reverse)"
      if let closing {
        edits.append(closingEdit(closing))
        title = "Replace \(control.shortName) by \(embedding.shortName) and close it on its line"
      }
      fixes.append(HazardFix(kind: .replaceOverrideWithEmbedding, title: title, edits: edits, isPreferred: false))
    }
    fixes.insert(
      HazardFix(kind: .remove, title: removalTitle, edits: removalEdits, isPreferred: code != .unpaired),
      at: 0)
    return fixes
  }

  /// The edits that remove the character, and the PDF of a balanced override.
  var removalEdits: [HazardTextEdit] {
    var edits = [HazardTextEdit(line: line, range: range, newText: "")]
    if let pairedCloser { edits.append(HazardTextEdit(line: line, range: pairedCloser, newText: "")) }
    return edits
  }

  private var removalTitle: String {
    guard let control else { return "Remove the invalid bytes" }
    if pairedCloser != nil { return "Remove the \(control.shortName) and its PDF" }
    return "Remove the \(control.shortName) (\(control.displayName))"
  }

  func closingEdit(_ closing: ClosingInsertion) -> HazardTextEdit {
    HazardTextEdit(
      line: line, range: closing.offset..<closing.offset,
      newText: String(decoding: closing.text, as: UTF8.self))
  }
}

extension BidiControl {
  /// The character as a one-scalar string.
  package var string: String {
    String(decoding: utf8, as: UTF8.self)
  }
}
