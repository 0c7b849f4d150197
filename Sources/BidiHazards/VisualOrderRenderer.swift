import UnicodeBidi

/// `VisualOrderRenderer` as UTF-8 bytes: writes the visual order of `line`
/// into `buffer` from offset `at` on (the buffer grown as needed, never
/// shrunk, so that one buffer serves every line; the bytes before `at`
/// kept) and returns its length, or nil if it cannot. For `bidi-lsp
/// check`, which writes bytes: no `String` to build and validate for each
/// line, and the visual order written where its note wants it.
package typealias VisualOrderWriter =
  @Sendable (_ line: UnsafeBufferPointer<UInt8>, _ buffer: inout [UInt8], _ at: Int) -> Int?

extension HazardScanner {
  /// Renders a line in visual order (UAX #9, the paragraph's own direction)
  /// for diagnostic messages. The bidi controls the line keeps in its visual
  /// order are written by name (`<RLI>`), so that the message itself cannot
  /// be reordered by them. Only well-formed lines are rendered (a line with
  /// an ill-formed sequence gets no visual order in its messages). The line
  /// is written without being made (`writeLineVisualUTF8NamingKeptControls`:
  /// its runs on the stack), the paragraph analysed in storage the thread
  /// keeps from line to line (`BidiParagraph.withReusedStorage`).
  package static let visualOrderRenderer: VisualOrderRenderer = { bytes in
    BidiParagraph.withReusedStorage(utf8: bytes) { paragraph in
      // Written straight from the line's runs into the string's storage.
      String(unsafeUninitializedCapacity: max(1, BidiLine.visualUTF8Bound(utf8Length: bytes.count))) { buffer in
        paragraph.writeLineVisualUTF8NamingKeptControls(to: buffer.baseAddress!)
      }
    }
  }

  /// `visualOrderRenderer` as a `VisualOrderWriter`: the same bytes (the
  /// line is well-formed, so the `String` repairs nothing).
  package static let visualOrderWriter: VisualOrderWriter = { bytes, buffer, at in
    let bound = at + max(1, BidiLine.visualUTF8Bound(utf8Length: bytes.count))
    if buffer.count < bound { buffer.append(contentsOf: repeatElement(0, count: bound - buffer.count)) }
    return BidiParagraph.withReusedStorage(utf8: bytes) { paragraph in
      buffer.withUnsafeMutableBufferPointer {
        paragraph.writeLineVisualUTF8NamingKeptControls(to: $0.baseAddress! + at)
      }
    }
  }

  /// A `VisualOrderWriter` that writes what `renderer` gives.
  package static func visualOrderWriter(_ renderer: @escaping VisualOrderRenderer) -> VisualOrderWriter {
    { bytes, buffer, at in
      guard let visual = renderer(bytes) else { return nil }
      let utf8 = Array(visual.utf8)
      let end = at + utf8.count
      if buffer.count < end { buffer.append(contentsOf: repeatElement(0, count: end - buffer.count)) }
      buffer.replaceSubrange(at..<end, with: utf8)
      return utf8.count
    }
  }
}
