import BidiHazards
import UnicodeBidi

/// How a value paragraph's natural direction is found (the specification’s “The four bidi requests”
/// strategies, applied to the value as written or filled).
package enum ValueStrategy: Hashable, Sendable {
  /// UAX #9 P2–P3: the first L, R or AL outside isolates.
  case firstStrong
  /// The word-count estimate: RTL when more than `rtlThreshold` of the
  /// words that have a strong character start with R or AL.
  case estimate(rtlThreshold: Double)
  /// RTL when any R or AL occurs, LTR when only L does.
  case anyRTL
}

/// A value paragraph's direction under a strategy.
package struct ValueDirection: Hashable, Sendable {
  /// Nil when the paragraph has no strong character: the caller applies
  /// its fallback (`basis: "fallback"`).
  package var direction: BidiDirection?
  /// With firstStrong, the document position of the deciding character (of
  /// its escape when escaped; of the placeholder when filled text decided).
  package var strongCharacter: SourcePosition?
}

/// One paragraph of a value, analysed: its directions as written and
/// filled, and its hover preview.
package struct ValueParagraphAnalysis: Sendable {
  package let value: LocalizedValue
  package let paragraph: Int
  let written: ValueProjection
  let filled: ValueProjection

  package init(_ value: LocalizedValue, paragraph: Int) {
    self.value = value
    self.paragraph = paragraph
    written = ValueProjection(value, paragraph: paragraph, filled: false)
    filled = ValueProjection(value, paragraph: paragraph, filled: true)
  }

  /// The paragraph's source range.
  package var range: SourceRange { value.sourceRange(ofParagraph: paragraph) }

  /// The decoded text of the paragraph (its separator included), as
  /// `bidi/visualOrder` entries carry it in `text`.
  package var text: String {
    var text = value.text
    let bounds = value.paragraphs[paragraph]
    return text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[bounds]), as: UTF8.self) }
  }

  /// Whether the paragraph holds right-to-left letters (R or AL) outside
  /// placeholders and markup.
  package var hasRightToLeftLetters: Bool {
    written.scalars.contains {
      let c = BidiClass($0)
      return (c == .R || c == .AL) && BidiControl(scalar: $0) == nil
    }
  }

  /// The direction as written (each placeholder one neutral character,
  /// markup nothing) or filled.
  package func direction(_ strategy: ValueStrategy = .firstStrong, filled isFilled: Bool = false) -> ValueDirection {
    let projection = isFilled ? filled : written
    switch strategy {
    case .firstStrong:
      let found = BidiParagraph.firstStrong(scalars: projection.scalars)
      guard let direction = found.direction, let index = found.offset else { return ValueDirection() }
      let position = value.sourcePosition(ofDecoded: projection.ranges[index].lowerBound)
      return ValueDirection(direction: direction, strongCharacter: position)
    case .estimate(let threshold):
      var rtl = 0
      var ltr = 0
      var inWord = false
      var decided = false
      for scalar in projection.scalars {
        if isWhiteSpace(scalar) {
          inWord = false
          continue
        }
        if !inWord {
          inWord = true
          decided = false
        }
        guard !decided else { continue }
        switch BidiClass(scalar) {
        case .L:
          ltr += 1
          decided = true
        case .R, .AL:
          rtl += 1
          decided = true
        default: break
        }
      }
      guard rtl + ltr > 0 else { return ValueDirection() }
      return ValueDirection(
        direction: Double(rtl) > threshold * Double(rtl + ltr) ? .rightToLeft : .leftToRight, strongCharacter: nil)
    case .anyRTL:
      var sawLTR = false
      for scalar in projection.scalars {
        switch BidiClass(scalar) {
        case .R, .AL: return ValueDirection(direction: .rightToLeft, strongCharacter: nil)
        case .L: sawLTR = true
        default: break
        }
      }
      return ValueDirection(direction: sawLTR ? .leftToRight : nil, strongCharacter: nil)
    }
  }

  /// The paragraph filled (text placeholders "Apple Pay", numeric ones "42",
  /// markup left out) in visual order, displayed in `direction` (nil: its
  /// own, UAX #9 P2–P3), bidi controls dropped: what a user sees at run time.
  package func filledVisualText(direction: BidiDirection? = nil) -> String {
    visualText(filled.scalars, direction: direction)
  }

  private func visualText(_ scalars: [UInt32], direction: BidiDirection?) -> String {
    let paragraphDirection: DirectionChoice =
      switch direction {
      case nil: .auto
      case .leftToRight: .leftToRight
      case .rightToLeft: .rightToLeft
      }
    // As a terminal shows it: marks after their base (UAX #9 L3), no control.
    return BidiParagraph(scalars: scalars, direction: paragraphDirection).line(combiningMarks: .afterBase)
      .visualText(controls: .strip)
  }
}

/// The White_Space property (PropList.txt): what separates words for the estimate.
func isWhiteSpace(_ scalar: UInt32) -> Bool {
  if scalar < 0x80 { return scalar == 0x20 || (scalar >= 0x09 && scalar <= 0x0D) }
  switch scalar {
  case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
  default: return false
  }
}
