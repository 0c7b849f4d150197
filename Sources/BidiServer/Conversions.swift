import BidiMarks
import BidiProtocol
import DocumentStore
import UnicodeBidi

// The protocol's option values in the terms of the modules that act on
// them: each mapping written once.

extension TextDirection {
  /// The direction of a paragraph given to UnicodeBidi.
  var paragraphDirection: BidiParagraph.Direction { self == .rtl ? .rightToLeft : .leftToRight }

  /// The direction the mark planner works with.
  var markDirection: BidiDirection { self == .rtl ? .rightToLeft : .leftToRight }
}

extension DirectionChoice {
  /// The isolate initiator the mark planner writes.
  var isolateKind: IsolateKind {
    switch self {
    case .auto: .auto
    case .ltr: .ltr
    case .rtl: .rtl
    }
  }
}

extension PositionEncoding {
  /// The same unit in UnicodeBidi's terms.
  var bidiEncoding: BidiEncoding {
    switch self {
    case .utf8: .utf8
    case .utf16: .utf16
    case .utf32: .utf32
    }
  }
}

extension BidiLanguageServer {
  /// The negotiated encoding in UnicodeBidi's terms.
  var bidiEncoding: BidiEncoding { encoding.bidiEncoding }
}
