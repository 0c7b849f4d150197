import BidiHazards
import JSONRPC
import UnicodeBidi

// The output of `bidi-lsp check`: findings appended to `pending` as text
// lines or JSON items, written out in blocks.
extension CheckRun {
  mutating func stdout(_ text: String) {
    pending.append(contentsOf: text.utf8)
    if pending.count >= flushThreshold { flush() }
  }

  /// Appends `text`'s UTF-8 to what is pending, in one copy.
  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { pending.append(contentsOf: $0) }
  }

  /// Appends `line:column: severity: ` (line and column not negative), in
  /// one copy.
  mutating func append(line: Int, column: Int, severity: DiagnosticSeverity) {
    Self.withPosition(line: line, column: column, severity: severity) { pending.append(contentsOf: $0) }
  }

  /// Calls `body` with `line:column: severity: ` (line and column not
  /// negative), written in a buffer on the stack.
  static func withPosition<R>(
    line: Int, column: Int, severity: DiagnosticSeverity, _ body: (UnsafeRawBufferPointer) -> R
  ) -> R {
    var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &bytes) { buffer in
      // Written from the end: `: severity: ` (at most 15 bytes), the column
      // (at most 19 digits), `:`, the line.
      var k = buffer.count
      func put(_ byte: UInt8) {
        k &-= 1
        buffer[k] = byte
      }
      func put(decimal value: Int) {
        // Unsigned: one multiplication a digit, for quotient and remainder.
        var rest = UInt(bitPattern: value)
        repeat {
          let quotient = rest / 10
          put(UInt8(truncatingIfNeeded: 0x30 &+ rest &- quotient &* 10))
          rest = quotient
        } while rest > 0
      }
      put(0x20)
      put(0x3A)
      // The name in one copy (a byte at a time, each checked, cost a
      // tenth of the finding).
      Self.severityNames[severity.lspValue &- 1].withUnsafeBytes { name in
        k &-= name.count
        (buffer.baseAddress! + k).copyMemory(from: name.baseAddress!, byteCount: name.count)
      }
      put(0x20)
      put(0x3A)
      put(decimal: column)
      put(0x3A)
      put(decimal: line)
      return body(UnsafeRawBufferPointer(rebasing: buffer[k...]))
    }
  }

  mutating func flush() {
    guard !pending.isEmpty else { return }
    write(pending)
    pending.removeAll(keepingCapacity: true)
  }

  /// Writes one finding. A localization finding's message can quote a key
  /// or a value: in text output its bidi and other controls are written as
  /// `\u{…}`; its JSON item also has `key` and `variant` when known.
  /// `text`: the text the finding is in (for SARIF's columns).
  mutating func report(_ finding: CheckFinding, path: String, text: FindingText? = nil) {
    findings += 1
    let line = finding.line + 1
    let column = finding.column + 1
    if shownPath.path != path { shownPath = (path, Array((displayPath(path) + ":").utf8)) }
    switch format {
    case .text:
      let message = finding.key == nil ? finding.message : displayPath(finding.message)
      writeText(
        line: line, column: column, severity: finding.severity, code: finding.code, message: message, withNote: false)
    case .json:
      if findings > 1 { append(",\n") }
      jsonItem.beginObject()
      jsonItem.member("path", path)
      jsonItem.member("line", line)
      jsonItem.member("column", column)
      jsonItem.member("length", finding.length)
      jsonItem.member("severity", finding.severity.rawValue)
      jsonItem.member("code", finding.code.rawValue)
      jsonItem.member("message", finding.message)
      if let key = finding.key { jsonItem.member("key", key) }
      if let variant = finding.variant { jsonItem.member("variant", variant) }
      jsonItem.endObject()
      jsonItem.moveText(appendingTo: &pending)
      if pending.count >= flushThreshold { flush() }
    case .sarif:
      guard let text else { preconditionFailure("a SARIF result needs the text of its finding") }
      reportSARIF(finding, path: path, text: text)
    }
  }

  /// Writes one finding of the text output, `path:line:column: severity:
  /// message [code]` (the path: `shownPath`'s), copied piece by piece into
  /// the room after what is pending (appending each piece costs a
  /// uniqueness and capacity check, a String's about 150 instructions);
  /// `withNote`: the message ends with the line's note (`noteBuffer`'s
  /// first `noteCount` bytes).
  mutating func writeText(
    line: Int, column: Int, severity: DiagnosticSeverity, code: RuleCode, message: String, withNote: Bool
  ) {
    Self.withUTF8(message) { text in
      writeText(line: line, column: column, severity: severity, code: code, message: text, withNote: withNote)
    }
  }

  /// `writeText` of a message given as UTF-8.
  mutating func writeText(
    line: Int, column: Int, severity: DiagnosticSeverity, code: RuleCode, message text: UnsafeBufferPointer<UInt8>,
    withNote: Bool
  ) {
    // (The code's name as static bytes: a `String` each, copied to call
    // `withUTF8`, cost a retain and a release.)
    let code = code.staticName
    Self.withPosition(line: line, column: column, severity: severity) { position in
      code.withUTF8Buffer { name in
        // As `HazardScanner.visualOrderNote`, after a full stop (the
        // messages are ASCII sentences: a final "." is the last byte).
        let stop = withNote && text.last != 0x2E
        let count =
          shownPath.display.count + position.count + text.count + (stop ? 1 : 0)
          + (withNote ? noteCount : 0) + name.count + 4
        // (The closure touches nothing of `self`: each access would be
        // checked for exclusivity at run time. The path and the note are
        // read in place: copies of the arrays cost a retain and a release
        // for each finding.)
        let noteCount = withNote ? noteCount : 0
        shownPath.display.withUnsafeBytes { display in
          noteBuffer.withUnsafeBytes { noteBytes in
            let note = UnsafeRawBufferPointer(rebasing: noteBytes[..<noteCount])
            Self.appendRoom(count, to: &pending) { out in
              // (No nested function capturing `at`: it would be boxed.)
              var at = Self.copy(display, to: out)
              at = Self.copy(position, to: at)
              at = Self.copy(UnsafeRawBufferPointer(text), to: at)
              if withNote {
                if stop { at = Self.copy(0x2E, to: at) }
                at = Self.copy(note, to: at)
              }
              at = Self.copy(0x20, to: at)
              at = Self.copy(0x5B, to: at)  // [
              at = Self.copy(UnsafeRawBufferPointer(name), to: at)
              at = Self.copy(0x5D, to: at)  // ]
              at = Self.copy(0x0A, to: at)
              assert(at - out == count)
            }
          }
        }
      }
    }
    if pending.count >= flushThreshold { flush() }
  }
}

extension CheckRun {
  /// Calls `body` with `text`'s UTF-8, in place when it is contiguous.
  @inline(__always)
  static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var text = text
    return text.withUTF8(body)
  }

  /// Appends `count` bytes to `bytes`, all written by `body` (given where
  /// the first goes): straight into the array's spare capacity where the
  /// standard library can (Swift 6.2's `OutputSpan`), else into zeros
  /// appended first.
  @inline(__always)
  static func appendRoom(_ count: Int, to bytes: inout [UInt8], _ body: (UnsafeMutableRawPointer) -> Void) {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      bytes.append(addingCapacity: count) { span in
        span.withUnsafeMutableBufferPointer { room, initialized in
          body(UnsafeMutableRawPointer(room.baseAddress!))
          initialized = count
        }
      }
    } else {
      let start = bytes.count
      bytes.append(contentsOf: repeatElement(0, count: count))
      bytes.withUnsafeMutableBytes { body($0.baseAddress! + start) }
    }
  }

  /// Copies `bytes` to `out`, returning where they end: up to 32 bytes with
  /// two overlapping pairs of 8-byte loads and stores (no call; most of a
  /// finding's pieces are that short), longer ones by `memcpy`.
  @inline(__always)
  static func copy(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    guard let from = bytes.baseAddress else { return out }
    let n = bytes.count
    func move(_ offset: Int) {
      (out + offset).storeBytes(of: (from + offset).loadUnaligned(as: UInt64.self), as: UInt64.self)
    }
    if n >= 16 && n <= 32 {
      move(0)
      move(8)
      move(n &- 16)
      move(n &- 8)
    } else if n >= 8 && n < 16 {
      move(0)
      move(n &- 8)
    } else if n < 8 {
      for k in 0..<n { (out + k).storeBytes(of: from.load(fromByteOffset: k, as: UInt8.self), as: UInt8.self) }
    } else {
      out.copyMemory(from: from, byteCount: n)
    }
    return out + n
  }

  /// Writes `byte` at `out`, returning the place after it.
  @inline(__always)
  static func copy(_ byte: UInt8, to out: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    out.storeBytes(of: byte, as: UInt8.self)
    return out + 1
  }
}

/// A path for text output: bidi and other control characters in it are
/// written as `\u{202E}` so that they cannot reorder the report itself.
func displayPath(_ path: String) -> String {
  var out = ""
  for scalar in path.unicodeScalars {
    if scalar.value < 0x20 || scalar.value == 0x7F || BidiControl(scalar: scalar.value) != nil {
      out += "\\u{" + hex4(scalar.value) + "}"
    } else {
      out.unicodeScalars.append(scalar)
    }
  }
  return out
}

extension RuleCode {
  /// `rawValue` as static bytes, for the text output (no `String` a
  /// finding). A test checks that the two agree.
  @inline(__always)
  package var staticName: StaticString {
    switch self {
    case .unpaired: "bidi.unpaired"
    case .unmatched: "bidi.unmatched"
    case .override: "bidi.override"
    case .inIdentifier: "bidi.inIdentifier"
    case .inComment: "bidi.inComment"
    case .inString: "bidi.inString"
    case .invalidUtf8: "bidi.invalidUtf8"
    case .truncated: "bidi.truncated"
    case .placeholderDirection: "bidi.placeholderDirection"
    case .valueDirection: "bidi.valueDirection"
    case .placeholderMismatch: "bidi.placeholderMismatch"
    case .localizationSyntax: "bidi.localizationSyntax"
    case .blockDirection: "bidi.blockDirection"
    case .cueDirection: "bidi.cueDirection"
    case .subtitleSyntax: "bidi.subtitleSyntax"
    }
  }
}
