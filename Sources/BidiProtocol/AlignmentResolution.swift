import UnicodeBidi

/// Resolves a requested text alignment for a paragraph (Protocol/specification.md,
/// “`bidi/alignment`”).
///
/// `natural` follows the paragraph's own direction, so text whose direction
/// differs from the layout's is `trailing`; `leading`/`trailing` are relative
/// to the layout direction; `left`/`right` are absolute.
package struct ResolvedAlignment: Sendable, Hashable {
  /// Relative to the layout: leading, trailing, center or justified.
  package var alignment: String
  /// Physical: left, right, center or justified.
  package var physical: String
  /// For `justified`: the physical side of the last line (its natural side).
  package var lastLinePhysical: String?

  package init(
    _ requested: TextAlignment, paragraph: BidiDirection, layout: BidiDirection
  ) {
    func side(_ d: BidiDirection) -> String { d == .leftToRight ? "left" : "right" }
    func relative(physicalLeft: Bool) -> String {
      (physicalLeft == (layout == .leftToRight)) ? "leading" : "trailing"
    }
    lastLinePhysical = nil
    switch requested {
    case .natural:
      physical = side(paragraph)
      alignment = paragraph == layout ? "leading" : "trailing"
    case .leading:
      alignment = "leading"
      physical = side(layout)
    case .trailing:
      alignment = "trailing"
      physical = side(layout.opposite)
    case .left:
      physical = "left"
      alignment = relative(physicalLeft: true)
    case .right:
      physical = "right"
      alignment = relative(physicalLeft: false)
    case .center:
      alignment = "center"
      physical = "center"
    case .justified:
      alignment = "justified"
      physical = "justified"
      lastLinePhysical = side(paragraph)
    }
  }
}
