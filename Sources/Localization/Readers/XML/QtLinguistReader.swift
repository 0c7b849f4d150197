import StructuredText
import UnicodeBidi

/// Qt Linguist `.ts` (XML): `<TS language>` … `<context><name>` …
/// `<message>` with its `<source>` and `<translation>`. A value is a
/// `<translation>`'s content, or, in a `numerus="yes"` message, each of its
/// `<numerusform>`s (variant `plural:0`, `plural:1`…; `<lengthvariant>`s
/// are `length:0`…). Its key is the message's `id` when it has one, else its
/// source text; its context the context's name; `source` the source text.
/// Translations of `type="obsolete"` or `"vanished"` are not values (lrelease
/// leaves them out). `<byte value="x1b"/>` is the character it names.
/// Placeholders: `%1`…`%99` (text), `%L1` (a localized number: numeric),
/// `%n` and `%Ln` (the plural count: numeric). The locale is `language`.
enum QtLinguistReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    var handler = Handler()
    XMLScanner.read(&cursor, &state, &sink, &handler)
  }

  /// Frame kinds.
  static let contextFrame: UInt8 = 1
  static let messageFrame: UInt8 = 2
  static let translationFrame: UInt8 = 3

  /// What a capture reads.
  enum Role { case contextName, source, value }

  struct Handler: XMLHandler {
    var capture: ValueCapture?
    var role = Role.value
    var depth = 0
    var isCapturing: Bool { capture != nil }

    mutating func start(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      if capture != nil {
        if tag.name == "byte", let text = tag.attribute("value") {
          let number = text.hasPrefix("x") ? UInt32(text.dropFirst(), radix: 16) : UInt32(text)
          capture?.builder.append(number ?? 0xFFFD, from: tag.start, to: tag.end, spelling: nil)
          return
        }
        capture?.markupTag(tag)
        return
      }
      let count = state.frames.count
      let parent = count >= 2 ? state.frames[count - 2] : nil
      switch tag.name {
      case "TS":
        if let language = tag.attribute("language"), !language.isEmpty {
          sink.items.append(.locale(language, line: tag.start.line))
        }
      case "context":
        state.frames[count - 1].kind = QtLinguistReader.contextFrame
      case "name" where parent?.kind == QtLinguistReader.contextFrame:
        begin(.contextName, tag, key: "", count)
      case "message":
        state.frames[count - 1].kind = QtLinguistReader.messageFrame
        state.frames[count - 1].note = tag.attribute("id") ?? ""
        // A numerus message's forms are its values.
        state.frames[count - 1].index = tag.attribute("numerus") == "yes" ? 1 : 0
        state.notes = []
        state.sourceTokens = nil
      case "source" where parent?.kind == QtLinguistReader.messageFrame:
        begin(.source, tag, key: "", count)
      case "translation" where parent?.kind == QtLinguistReader.messageFrame:
        let type = tag.attribute("type")
        guard type != "obsolete" && type != "vanished", let parent else { return }
        state.frames[count - 1].kind = QtLinguistReader.translationFrame
        if parent.index == 1 || tag.attribute("variants") == "yes" { return }
        begin(.value, tag, key: Self.key(parent, state), count)
      case "numerusform", "lengthvariant":
        guard parent?.kind == QtLinguistReader.translationFrame, count >= 3 else { return }
        let message = state.frames[count - 3]
        begin(.value, tag, key: Self.key(message, state), count)
        capture?.variant = (tag.name == "numerusform" ? "plural:" : "length:") + String(state.frames[count - 2].index)
        state.frames[count - 2].index += 1
      default:
        break
      }
    }

    /// A message's key: its `id`, else its source text.
    private static func key(_ message: ReaderState.Frame, _ state: ReaderState) -> String {
      message.note.isEmpty ? state.notes.first ?? "" : message.note
    }

    private mutating func begin(_ role: Role, _ tag: XMLTag, key: String, _ count: Int) {
      self.role = role
      capture = ValueCapture(key: key, after: tag, at: tag.end)
      depth = count
    }

    mutating func end(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      guard let current = capture else { return }
      guard state.frames.count == depth else {
        if !tag.isSelfClosing && tag.name != "byte" { capture?.markupTag(tag) }
        return
      }
      capture = nil
      var value = current.value(endingAt: tag)
      switch role {
      case .contextName:
        if let index = state.frames.lastIndex(where: { $0.kind == QtLinguistReader.contextFrame }) {
          state.frames[index].note = value.text
        }
      case .source:
        state.notes = [value.text]
        state.sourceTokens = SourceNormalization.tokens(ofSourceValue: value, rules: .of(.qtLinguist))
      case .value:
        value.source = state.notes.first
        if !value.text.isEmpty { value.sourceTokens = state.sourceTokens }
        let context = state.frames.last(where: { $0.kind == QtLinguistReader.contextFrame })?.note
        value.context = context.flatMap { $0.isEmpty ? nil : $0 }
        sink.add(value, rules: .of(.qtLinguist))
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
