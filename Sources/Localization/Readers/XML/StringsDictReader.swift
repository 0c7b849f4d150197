import StructuredText
import UnicodeBidi

/// Apple `.stringsdict`: an XML property list whose top dictionary maps
/// each key to a dictionary with `NSStringLocalizedFormatKey` (a value,
/// its format) and, per variable, a dictionary of rules whose strings are
/// values: plural categories (`plural:one`), device rules (`device:iphone`);
/// `NSStringFormatSpecTypeKey` and `NSStringFormatValueTypeKey` are
/// metadata. Each dictionary's frame notes the last `<key>` read.
enum StringsDictReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    var handler = Handler()
    XMLScanner.read(&cursor, &state, &sink, &handler)
  }

  static let pluralCategories: Set<String> = ["zero", "one", "two", "few", "many", "other"]
  static let devices: Set<String> = ["iphone", "ipad", "ipod", "mac", "appletv", "applewatch", "watch", "vision"]

  struct Handler: XMLHandler {
    var capture: ValueCapture?
    var isKey = false
    var isCapturing: Bool { capture != nil }

    mutating func start(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      if capture != nil {
        sink.fail("unexpected <\(tag.name)> inside a <\(isKey ? "key" : "string")>", at: tag.start)
        return
      }
      guard tag.name == "key" || tag.name == "string" else { return }
      let path = state.frames.dropLast().filter { $0.name == "dict" }.map(\.note)
      if tag.name == "key" {
        isKey = true
        capture = ValueCapture(key: "", after: tag, at: tag.end)
        return
      }
      guard let key = path.first else { return }
      var variant: String?
      if path.count >= 2, let last = path.last {
        if last == "NSStringFormatSpecTypeKey" || last == "NSStringFormatValueTypeKey" { return }
        if last != "NSStringLocalizedFormatKey" {
          let kind = pluralCategories.contains(last) ? "plural" : devices.contains(last) ? "device" : "rule"
          variant = kind + ":" + last
        }
      }
      isKey = false
      var value = ValueCapture(key: key, after: tag, at: tag.end)
      value.variant = variant
      capture = value
    }

    mutating func end(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      guard let capture, tag.name == "key" || tag.name == "string" else { return }
      self.capture = nil
      if isKey {
        let count = state.frames.count
        if count >= 2 { state.frames[count - 2].note = capture.builder.string }
        return
      }
      sink.add(capture.value(endingAt: tag), rules: .of(.stringsdict))
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
