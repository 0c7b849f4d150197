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

extension CombiningMarksChoice {
  /// The line option of UnicodeBidi.
  var markOrder: CombiningMarkOrder { self == .afterBase ? .afterBase : .resolved }
}

extension VisualControls {
  /// How UnicodeBidi writes the controls in a visual text.
  var display: ControlDisplay {
    switch self {
    case .keep: .keep
    case .strip: .strip
    case .names: .names
    }
  }
}
