import StructuredText
import UnicodeBidi

/// Android `res/values*/strings.xml`: `<string name>`, the `<item
/// quantity>` of `<plurals name>` (variant `plural:one`) and the `<item>`s
/// of `<string-array name>` (variant `item:0`…). Character data is
/// processed as aapt2 does after XML decoding: `"…"` quotes (the quotes are
/// delimiters, white space inside them is kept), outside quotes each run of
/// white space is one space and white space at either end is dropped;
/// escapes `\n` `\t` `\'` `\"` `\@` `\?` `\\` and `\uXXXX`. Elements inside a
/// value (`<b>`, `<xliff:g>`, `<annotation>`…) are markup; CDATA is text. A
/// `<string formatted="false">` is not a format string: its `%` forms are text.
enum AndroidReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    var handler = Handler()
    XMLScanner.read(&cursor, &state, &sink, &handler)
  }

  static let pluralsFrame: UInt8 = 4
  static let arrayFrame: UInt8 = 5
  /// Added to a container's kind when it says `formatted="false"`.
  static let unformatted: UInt8 = 0x10

  struct Handler: XMLHandler {
    var capture: ValueCapture?
    var depth = 0
    /// Whether the value is a format string (not `formatted="false"`).
    var formatted = true
    var quoted = false
    var started = false
    var space: (start: SourcePosition, end: SourcePosition)?
    /// A backslash escape being read: where it started, and for `\u` the
    /// hex digits so far.
    var escape: (start: SourcePosition, unicode: Bool, digits: Int, value: UInt32, upper: Bool)?
    /// Where the value's text starts and ends in the source: its first and
    /// last character or tag, or just inside its `"…"` quotes (delimiters,
    /// as the white space aapt2 drops is no text).
    var textBounds: (start: SourcePosition, end: SourcePosition)?
    var isCapturing: Bool { capture != nil }

    /// Records source that belongs to the text (`start` where it begins, `end` where it ends).
    private mutating func touch(_ start: SourcePosition, _ end: SourcePosition) {
      textBounds = (textBounds?.start ?? start, max(textBounds?.start ?? start, end))
    }

    mutating func start(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      if capture != nil {
        // An escape does not reach past a tag: a backslash just before
        // markup escapes nothing (and is dropped, as at the end of a value).
        finishEscape(at: tag.start)
        flushSpace()
        capture?.markupTag(tag)
        touch(tag.start, tag.end)
        return
      }
      let count = state.frames.count
      let parent = count >= 2 ? state.frames[count - 2] : nil
      var key: String?
      var variant: String?
      switch tag.name {
      case "string":
        key = tag.attribute("name")
      case "plurals", "string-array":
        let unformatted = tag.attribute("formatted") == "false" ? AndroidReader.unformatted : 0
        state.frames[count - 1].kind =
          (tag.name == "plurals" ? AndroidReader.pluralsFrame : AndroidReader.arrayFrame) | unformatted
        state.frames[count - 1].note = tag.attribute("name") ?? ""
      case "item" where parent.map({ $0.kind & ~AndroidReader.unformatted }) == AndroidReader.pluralsFrame:
        key = parent?.note
        variant = "plural:" + (tag.attribute("quantity") ?? "")
      case "item" where parent.map({ $0.kind & ~AndroidReader.unformatted }) == AndroidReader.arrayFrame:
        key = parent?.note
        variant = "item:\(parent?.index ?? 0)"
        state.frames[count - 2].index += 1
      default:
        break
      }
      guard let key else { return }
      var value = ValueCapture(key: key, after: tag, at: tag.end)
      value.variant = variant
      capture = value
      depth = count
      formatted =
        tag.attribute("formatted") != "false"
        && (tag.name == "string" || (parent.map { $0.kind & AndroidReader.unformatted } ?? 0) == 0)
      quoted = false
      started = false
      space = nil
      escape = nil
      textBounds = nil
    }

    mutating func end(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      guard let current = capture else { return }
      if state.frames.count == depth {
        finishEscape(at: tag.start)
        capture = nil
        var rules = PlaceholderRules.of(.android)
        rules.printf = formatted
        var value = current.value(endingAt: tag)
        if let (start, end) = textBounds {
          value.content = SourceRange(
            start: SourcePosition(line: start.line - value.firstLine, column: start.column),
            end: SourcePosition(line: end.line - value.firstLine, column: end.column))
        }
        sink.add(value, rules: rules)
        return
      }
      if !tag.isSelfClosing {
        finishEscape(at: tag.start)
        flushSpace()
        capture?.markupTag(tag)
        touch(tag.start, tag.end)
      }
    }

    private mutating func flushSpace() {
      guard let pending = space else { return }
      space = nil
      if started { capture?.builder.append(0x20, from: pending.start, to: pending.end, spelling: nil) }
    }

    private mutating func emit(
      _ value: UInt32, from start: SourcePosition, to end: SourcePosition, spelling: MarkSpelling?
    ) {
      flushSpace()
      capture?.builder.append(value, from: start, to: end, spelling: spelling)
      started = true
      touch(start, end)
    }

    /// Ends a `\u` escape cut short (fewer than four digits).
    private mutating func finishEscape(at position: SourcePosition) {
      guard let pending = escape else { return }
      escape = nil
      if pending.unicode {
        emit(pending.digits > 0 ? pending.value : 0x75, from: pending.start, to: position, spelling: nil)
      }
    }

    /// One character of character data (literal or decoded); true when the
    /// escape or quote rules consumed it.
    private mutating func special(_ value: UInt32, from start: SourcePosition, to end: SourcePosition) -> Bool {
      if var pending = escape {
        if pending.unicode {
          if let byte = value < 0x80 ? UInt8(value) : nil, let digit = hexValue(byte) {
            pending.value = pending.value << 4 | digit
            pending.digits += 1
            if byte >= UInt8(ascii: "a") { pending.upper = false }
            escape = pending
            if pending.digits == 4 {
              escape = nil
              emit(pending.value, from: pending.start, to: end, spelling: .backslashLowerU(uppercaseHex: pending.upper))
            }
            return true
          }
          finishEscape(at: start)
          return false
        }
        escape = nil
        switch value {
        case 0x75:  // u
          escape = (pending.start, true, 0, 0, true)
        case 0x6E: emit(0x0A, from: pending.start, to: end, spelling: nil)
        case 0x74: emit(0x09, from: pending.start, to: end, spelling: nil)
        default: emit(value, from: pending.start, to: end, spelling: nil)
        }
        return true
      }
      switch value {
      case 0x5C:
        escape = (start, false, 0, 0, true)
        return true
      case 0x22:
        // The text starts after an opening quote and ends before a closing one.
        quoted.toggle()
        touch(end, start)
        return true
      case 0x20, 0x09, 0x0A, 0x0D:
        guard !quoted else { return false }
        if space == nil { space = (start, end) } else { space?.end = end }
        return true
      default:
        return false
      }
    }

    mutating func literal(_ cursor: inout Cursor, inCDATA: Bool) {
      guard let byte = cursor.byte else { return }
      if byte < 0x80 {
        let start = cursor.position
        var after = cursor
        after.advance()
        if special(UInt32(byte), from: start, to: after.position) {
          cursor = after
          return
        }
      } else if escape != nil, let (value, length, _) = cursor.scalar() {
        let start = cursor.position
        cursor.advance(by: length)
        if !special(value, from: start, to: cursor.position) {
          emit(value, from: start, to: cursor.position, spelling: nil)
        }
        return
      }
      flushSpace()
      started = true
      let start = cursor.position
      capture?.builder.appendLiteral(from: &cursor)
      touch(start, cursor.position)
    }

    mutating func decoded(_ value: UInt32, from start: SourcePosition, to end: SourcePosition, spelling: MarkSpelling?)
    {
      if special(value, from: start, to: end) { return }
      emit(value, from: start, to: end, spelling: spelling)
    }
  }
}
