import StructuredText
import UnicodeBidi

/// A JSON reader for the JSON formats (ARB, i18next, String Catalogs): an
/// explicit stack of containers (no recursion, whatever the depth), each
/// string leaf handed to the format with its path, the first error reported
/// with its position. The whole parse state lives in `ReaderState` (phase
/// and frames: a container's kind, its current member key or array index),
/// so reading can resume at any line start between tokens where no member
/// key is waiting for its value.
enum JSONScanner {
  enum Phase: UInt8 {
    case start = 0
    case keyOrClose, key, colon, memberValue, elementOrClose, element, afterValue, done
  }

  static let object: UInt8 = 0
  static let array: UInt8 = 1

  /// A string leaf: its decoded text and where its content is; the frames
  /// of `state` are its path (each frame's `name` or `index` leads to it).
  typealias Leaf = (
    _ text: TextBuilder, _ key: TextBuilder?, _ start: SourcePosition, _ end: SourcePosition,
    _ state: inout ReaderState, _ sink: inout ReadSink
  ) -> Void

  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink, leaf: Leaf) {
    var key: TextBuilder?
    while true {
      // White space; boundaries where no key waits.
      while true {
        var phase = Phase(rawValue: state.phase) ?? .start
        if phase != .colon && phase != .memberValue {
          if !sink.boundary(cursor, state) { return }
        }
        guard let byte = cursor.byte else { break }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          cursor.advance()
        } else if byte == 0xEF, cursor.position == SourcePosition(line: 0, column: 0), cursor.matches("\u{FEFF}") {
          cursor.advance(by: 3)
        } else {
          break
        }
        _ = phase
        phase = .start
      }
      let phase = Phase(rawValue: state.phase) ?? .start
      guard let byte = cursor.byte else {
        if phase != .done {
          sink.fail(
            state.frames.isEmpty
              ? "the file is empty: expected a JSON object"
              : "unexpected end of the file: \(state.frames.count) JSON "
                + (state.frames.count == 1 ? "container is" : "containers are") + " still open",
            at: cursor.position)
        }
        return
      }
      switch phase {
      case .start, .memberValue, .element, .elementOrClose:
        if phase == .elementOrClose && byte == UInt8(ascii: "]") {
          close(&cursor, &state)
          continue
        }
        switch byte {
        case UInt8(ascii: "{"):
          cursor.advance()
          state.frames.append(.init(kind: object, name: ""))
          state.phase = Phase.keyOrClose.rawValue
        case UInt8(ascii: "["):
          cursor.advance()
          state.frames.append(.init(kind: array, name: ""))
          state.phase = Phase.elementOrClose.rawValue
        case UInt8(ascii: "\""):
          guard let (text, start, end) = string(&cursor, &sink) else { return }
          if state.frames.isEmpty {
            sink.fail("expected a JSON object, found a string", at: start)
            return
          }
          leaf(text, key, start, end, &state, &sink)
          key = nil
          state.phase = Phase.afterValue.rawValue
        default:
          guard scalarToken(&cursor) else {
            sink.fail(
              "expected a JSON value (a string, number, object, array, true, false or null), found \(describe(byte))",
              at: cursor.position)
            return
          }
          key = nil
          state.phase = (state.frames.isEmpty ? Phase.done : Phase.afterValue).rawValue
        }
      case .keyOrClose, .key:
        if phase == .keyOrClose && byte == UInt8(ascii: "}") {
          close(&cursor, &state)
          continue
        }
        guard byte == UInt8(ascii: "\"") else {
          sink.fail("expected a member name in double quotes, found \(describe(byte))", at: cursor.position)
          return
        }
        guard let (text, _, _) = string(&cursor, &sink) else { return }
        state.frames[state.frames.count - 1].name = text.string
        key = text
        state.phase = Phase.colon.rawValue
      case .colon:
        guard byte == UInt8(ascii: ":") else {
          sink.fail("expected : after the member name, found \(describe(byte))", at: cursor.position)
          return
        }
        cursor.advance()
        state.phase = Phase.memberValue.rawValue
      case .afterValue:
        guard let top = state.frames.last else { return }
        if byte == UInt8(ascii: ",") {
          cursor.advance()
          if top.kind == object {
            state.phase = Phase.key.rawValue
          } else {
            state.frames[state.frames.count - 1].index += 1
            state.phase = Phase.element.rawValue
          }
        } else if byte == (top.kind == object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          close(&cursor, &state)
        } else {
          sink.fail(
            "expected , or \(top.kind == object ? "}" : "]") after a value, found \(describe(byte))",
            at: cursor.position)
          return
        }
      case .done:
        sink.fail("unexpected \(describe(byte)) after the end of the JSON document", at: cursor.position)
        return
      }
    }
  }

  private static func close(_ cursor: inout Cursor, _ state: inout ReaderState) {
    cursor.advance()
    state.frames.removeLast()
    state.phase = (state.frames.isEmpty ? Phase.done : Phase.afterValue).rawValue
  }

  /// A number, `true`, `false` or `null`.
  private static func scalarToken(_ cursor: inout Cursor) -> Bool {
    for word in ["true", "false", "null"] where cursor.matches(word) {
      cursor.advance(by: word.utf8.count)
      return true
    }
    var length = 0
    while let byte = cursor.byte, isDigit(byte) || "+-.eE".utf8.contains(byte) {
      cursor.advance()
      length += 1
    }
    return length > 0
  }

  /// A string at the cursor (a `"`): its decoded text and content bounds.
  static func string(_ cursor: inout Cursor, _ sink: inout ReadSink) -> (TextBuilder, SourcePosition, SourcePosition)? {
    let quote = cursor.position
    cursor.advance()
    let start = cursor.position
    var builder = TextBuilder(baseLine: start.line)
    while let byte = cursor.byte {
      switch byte {
      case UInt8(ascii: "\""):
        let end = cursor.position
        cursor.advance()
        return (builder, start, end)
      case UInt8(ascii: "\\"):
        let escapeStart = cursor.position
        cursor.advance()
        guard let letter = cursor.byte else { break }
        var value: UInt32
        var spelling: MarkSpelling?
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): value = UInt32(letter)
        case UInt8(ascii: "b"): value = 0x08
        case UInt8(ascii: "f"): value = 0x0C
        case UInt8(ascii: "n"): value = 0x0A
        case UInt8(ascii: "r"): value = 0x0D
        case UInt8(ascii: "t"): value = 0x09
        case UInt8(ascii: "u"):
          cursor.advance()
          guard let (unit, upper) = StringsReader.hex4(&cursor) else {
            sink.fail("malformed \\u escape: four hex digits must follow \\u", at: escapeStart)
            return nil
          }
          value = StringsReader.scalar(ofEscapedUnit: unit, &cursor)
          spelling = .backslashLowerU(uppercaseHex: upper)
          builder.append(value, from: escapeStart, to: cursor.position, spelling: spelling)
          continue
        default:
          sink.fail("invalid escape \\\(String(UnicodeScalar(letter))) in a JSON string", at: escapeStart)
          return nil
        }
        cursor.advance()
        builder.append(value, from: escapeStart, to: cursor.position, spelling: spelling)
      case 0x0A:
        sink.fail("unterminated string: the \" is not closed on its line", at: quote)
        return nil
      case 0x00..<0x20:
        sink.fail("a control character (\(describe(byte))) must be escaped in a JSON string", at: cursor.position)
        return nil
      default:
        builder.appendLiteral(from: &cursor)
      }
    }
    sink.fail("unterminated string: the \" is never closed", at: quote)
    return nil
  }
}
