import UnicodeBidi

extension HazardScanner {
  /// Renders a line in visual order (UAX #9, the paragraph's own direction)
  /// for diagnostic messages. The bidi controls the line keeps in its visual
  /// order are written by name (`<RLI>`), so that the message itself cannot
  /// be reordered by them. Only well-formed lines are rendered (a line with
  /// an ill-formed sequence gets no visual order in its messages).
  package static let visualOrderRenderer: VisualOrderRenderer = { bytes in
    let line = BidiParagraph(utf8: bytes).line()
    // Written straight from the line's runs into the string's storage.
    return String(unsafeUninitializedCapacity: max(1, BidiLine.visualUTF8Bound(utf8Length: bytes.count))) { buffer in
      line.writeVisualUTF8NamingKeptControls(to: buffer.baseAddress!)
    }
  }
}
