import StructuredText
import UnicodeBidi

/// XLIFF 1.2 (`<file target-language>` … `<trans-unit id>` … `<target>`)
/// and 2.0 (`<xliff trgLang>` … `<unit id>` … `<segment>` … `<target>`).
/// A value is a `<target>`'s content, its key the unit's resource name
/// (1.2's `resname`, 2.0's `name`: what Symfony and other loaders look a
/// translation up by) or else its `id`, its locale the target language.
/// Inline codes: `<x/>` and `<ph>` are placeholders (whole), or markup
/// (whole) when they carry a `ctype`; `<bx/> <ex/> <bpt> <ept> <it> <sc/>
/// <ec/>` are markup (whole), and the tags of `<g> <pc> <mrk> <sm/> <em/>`
/// (and any other element) markup around text; 2.0's `<cp hex="…"/>` is the
/// character it names. printf forms in the text are placeholders too. The
/// targets of 1.2's `<alt-trans>` (suggestions) are not values. Units that
/// Xcode exports from a `.stringsdict` get the variant their id's path names.
enum XLIFFReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    var handler = Handler()
    XMLScanner.read(&cursor, &state, &sink, &handler)
  }

  /// The variant of a unit Xcode exports from a `.stringsdict`: its id is
  /// the path `/KEY:dict/VARIABLE:dict/one:dict/:string`, whose last rule
  /// names a plural category or a device (`plural:one`, `device:iphone`).
  static func stringsDictVariant(_ id: String) -> String? {
    guard id.hasSuffix(":dict/:string") else { return nil }
    let parts = id.dropLast(13).split(separator: "/")
    guard parts.count >= 3, let last = parts.last else { return nil }
    let rule = String(last)
    if StringsDictReader.pluralCategories.contains(rule) { return "plural:" + rule }
    if StringsDictReader.devices.contains(rule) { return "device:" + rule }
    return nil
  }

  /// Frame kinds.
  static let languageFrame: UInt8 = 1
  static let unitFrame: UInt8 = 2

  struct Handler: XMLHandler {
    var capture: ValueCapture?
    var depth = 0
    var isCapturing: Bool { capture != nil }

    mutating func start(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      if capture != nil {
        switch tag.localName {
        case "cp":
          if let hex = tag.attribute("hex"), let value = UInt32(hex, radix: 16) {
            capture?.builder.append(value, from: tag.start, to: tag.end, spelling: .xmlHex(uppercaseHex: true))
          }
          if !tag.isSelfClosing { capture?.openWhole(tag, isMarkup: true) }
        case "x", "ph":
          // With a ctype (1.2) the code stands for formatting, not for text
          // the program fills in: Angular writes the start and end tags of an
          // element as <x id="START_TAG_…" ctype="x-…"/>, <br/> as ctype="lb".
          capture?.openWhole(tag, isMarkup: tag.attribute("ctype") != nil)
        case "bx", "ex", "bpt", "ept", "it", "sc", "ec":
          capture?.openWhole(tag, isMarkup: true)
        default:
          if capture?.isInsideWhole == true {
            capture?.builder.appendRaw(tag.raw, from: tag.start)
          } else {
            capture?.markupTag(tag)
          }
        }
        return
      }
      let count = state.frames.count
      switch tag.localName {
      case "xliff", "file":
        if let language = tag.attribute("trgLang") ?? tag.attribute("target-language") {
          state.frames[count - 1].kind = XLIFFReader.languageFrame
          state.frames[count - 1].note = language
          sink.items.append(.locale(language, line: tag.start.line))
        }
      case "trans-unit", "unit":
        state.frames[count - 1].kind = XLIFFReader.unitFrame
        let resourceName = tag.attribute(tag.localName == "unit" ? "name" : "resname")
        state.frames[count - 1].note = resourceName.flatMap { $0.isEmpty ? nil : $0 } ?? tag.attribute("id") ?? ""
      case "target":
        // An <alt-trans>'s target is a suggestion, not what the application receives.
        guard let unit = state.frames.last(where: { $0.kind == XLIFFReader.unitFrame }),
          !state.frames.contains(where: { $0.name == "alt-trans" || $0.name.hasSuffix(":alt-trans") })
        else { return }
        var value = ValueCapture(key: unit.note, after: tag, at: tag.end)
        value.locale = state.frames.last(where: { $0.kind == XLIFFReader.languageFrame })?.note
        value.variant = XLIFFReader.stringsDictVariant(unit.note)
        capture = value
        depth = count
      default:
        break
      }
    }

    mutating func end(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      guard let current = capture else { return }
      if state.frames.count == depth {
        capture = nil
        sink.add(current.value(endingAt: tag), rules: .of(.xliff))
        return
      }
      if tag.isSelfClosing { return }
      switch tag.localName {
      case "x", "ph", "bx", "ex", "bpt", "ept", "it", "sc", "ec", "cp":
        capture?.closeWhole(tag)
      default:
        if current.isInsideWhole {
          capture?.builder.appendRaw(tag.raw, from: tag.start)
        } else {
          capture?.markupTag(tag)
        }
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
