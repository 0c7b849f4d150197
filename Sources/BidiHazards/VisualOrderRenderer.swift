import UnicodeBidi

extension HazardScanner {
  /// Renders a line in visual order (UAX #9, the paragraph's own direction)
  /// for diagnostic messages. The bidi controls the line keeps in its visual
  /// order are written by name (`<RLI>`), so that the message itself cannot
  /// be reordered by them.
  public static let visualOrderRenderer: VisualOrderRenderer = { bytes in
    let line = BidiParagraph(utf8: bytes).line()
    var text = String()
    for scalar in line.visualScalars() {
      if let control = BidiControl(scalar: scalar) {
        text += "<\(control.shortName)>"
      } else {
        text.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}")
      }
    }
    return text
  }
}
