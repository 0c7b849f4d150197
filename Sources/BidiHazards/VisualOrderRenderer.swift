import UnicodeBidi

extension HazardScanner {
  /// Renders a line in visual order (UAX #9, the paragraph's own direction)
  /// for diagnostic messages. The bidi controls the line keeps in its visual
  /// order are written by name (`<RLI>`), so that the message itself cannot
  /// be reordered by them.
  package static let visualOrderRenderer: VisualOrderRenderer = { bytes in
    let line = BidiParagraph(utf8: bytes).line()
    // Built as UTF-8 bytes: appending scalars to a String one by one costs
    // more than the reordering.
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count + 16)
    for scalar in line.visualScalars() {
      if let control = BidiControl(scalar: scalar) {
        text.append(0x3C)  // <
        text += control.shortName.utf8
        text.append(0x3E)  // >
      } else {
        UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { text.append($0) }
      }
    }
    return String(decoding: text, as: UTF8.self)
  }
}
