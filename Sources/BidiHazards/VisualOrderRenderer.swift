import UnicodeBidi

extension HazardScanner {
  /// Renders a line in visual order (UAX #9, the paragraph's own direction)
  /// for diagnostic messages. The bidi controls the line keeps in its visual
  /// order are written by name (`<RLI>`), so that the message itself cannot
  /// be reordered by them. Only well-formed lines are rendered (a line with
  /// an ill-formed sequence gets no visual order in its messages).
  package static let visualOrderRenderer: VisualOrderRenderer = { bytes in
    let line = BidiParagraph(utf8: bytes).line()
    // The visual text as UTF-8, written straight from the line's runs.
    let visual = [UInt8](unsafeUninitializedCapacity: BidiLine.visualUTF8Bound(utf8Length: bytes.count) + 16) {
      buffer, count in
      count = line.writeVisualUTF8(controls: .keep, to: buffer.baseAddress!)
    }
    // Then the controls it kept (isolates, marks) by name.
    var text: [UInt8] = []
    text.reserveCapacity(visual.count + 16)
    visual.withUnsafeBufferPointer { p in
      var i = 0
      while i < p.count {
        let next = BidiControl.nextControlOrInvalid(p, from: i)
        text.append(contentsOf: p[i..<next])
        guard next < p.count else { break }
        if let control = BidiControl.decode(p, at: next) {
          text.append(0x3C)  // <
          text += control.shortName.utf8
          text.append(0x3E)  // >
          i = next + control.utf8Count
        } else {
          text.append(p[next])
          i = next + 1
        }
      }
    }
    return String(decoding: text, as: UTF8.self)
  }
}
