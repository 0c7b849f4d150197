import StructuredText
import UnicodeBidi

/// .NET `.resx`: `<data name="key"><value>text</value></data>`; data with
/// a `mimetype`, or a `type` other than `System.String`, is not text.
enum ResXReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    var handler = Handler()
    XMLScanner.read(&cursor, &state, &sink, &handler)
  }

  static let dataFrame: UInt8 = 2

  struct Handler: XMLHandler {
    var capture: ValueCapture?
    var depth = 0
    var isCapturing: Bool { capture != nil }

    mutating func start(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      if capture != nil {
        capture?.markupTag(tag)
        return
      }
      let count = state.frames.count
      if tag.name == "data", let name = tag.attribute("name"), tag.attribute("mimetype") == nil,
        tag.attribute("type").map({ $0.hasPrefix("System.String") }) ?? true
      {
        state.frames[count - 1].kind = ResXReader.dataFrame
        state.frames[count - 1].note = name
      } else if tag.name == "value", count >= 2, state.frames[count - 2].kind == ResXReader.dataFrame,
        !tag.isSelfClosing
      {
        capture = ValueCapture(key: state.frames[count - 2].note, after: tag, at: tag.end)
        depth = count
      }
    }

    mutating func end(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      guard let current = capture else { return }
      if state.frames.count == depth {
        capture = nil
        sink.add(current.value(endingAt: tag), rules: .of(.resx))
      } else if !tag.isSelfClosing {
        capture?.markupTag(tag)
      }
    }

    mutating func literal(_ cursor: inout Cursor, inCDATA: Bool) {
      capture?.builder.appendLiteral(from: &cursor)
    }

    mutating func decoded(_ value: UInt32, from start: SourcePosition, to end: SourcePosition, spelling: MarkSpelling?)
    {
      capture?.builder.append(value, from: start, to: end, spelling: spelling)
    }
  }
}
