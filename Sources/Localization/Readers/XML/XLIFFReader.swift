import StructuredText
import UnicodeBidi

/// XLIFF 1.2 (`<file target-language>` … `<trans-unit id>` … `<target>`)
/// and 2.0 (`<xliff trgLang>` … `<unit id>` … `<segment>` … `<target>`).
/// A value is a `<target>`'s content, its key the unit's resource name
/// (1.2's `resname`, 2.0's `name`: what Symfony and other loaders look a
/// translation up by) or else its `id`, its locale the target language.
/// Inline codes: `<x/>` and `<ph>` are placeholders (whole), or markup
/// (whole) when they stand for formatting (`isFormattingCode`); `<bx/> <ex/> <bpt> <ept> <it> <sc/>
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

  /// Whether an `<x/>` or `<ph>` stands for formatting (markup) rather
  /// than for text the program fills in (a placeholder): a formatting
  /// `ctype` (1.2's `lb`, `pb`, `image`, `bold`, `italic`, `underlined`,
  /// `link`, or `x-` and an HTML element's name, as Angular writes
  /// `ctype="x-b"`), an Angular tag id (`START_TAG_SPAN`, `CLOSE_BOLD_TEXT`,
  /// `TAG_IMG`, `LINE_BREAK`), or an `equiv-text` that is a tag. Any other
  /// code, `ctype="x-service"` among them, is a placeholder.
  static func isFormattingCode(_ tag: XMLTag) -> Bool {
    if let equivalent = tag.attribute("equiv-text") ?? tag.attribute("equiv"), equivalent.hasPrefix("<") {
      return true
    }
    if let id = tag.attribute("id"),
      id.hasPrefix("START_") || id.hasPrefix("CLOSE_") || id.hasPrefix("TAG_") || id == "LINE_BREAK"
    {
      return true
    }
    guard let type = tag.attribute("ctype")?.lowercased() else { return false }
    if formattingTypes.contains(type) { return true }
    guard type.hasPrefix("x-") else { return false }
    var element = type.dropFirst(2)
    if element.hasPrefix("html-") { element = element.dropFirst(5) }
    return htmlElements.contains(String(element))
  }

  /// XLIFF 1.2's `ctype` values for formatting codes.
  static let formattingTypes: Set<String> = ["lb", "pb", "image", "bold", "italic", "underlined", "link"]

  /// HTML elements an `x-` ctype names (Angular's `x-b`, `x-span`, Okapi's `x-html-a`).
  static let htmlElements: Set<String> = Set(
    ("a abbr b big blockquote br button cite code del dfn div em font h1 h2 h3 h4 h5 h6 hr i img input ins kbd "
      + "label li mark ol p pre q s samp small span strike strong sub sup table tbody td th thead tr tt u ul var wbr")
      .split(separator: " ").map(String.init))

  /// Frame kinds.
  static let languageFrame: UInt8 = 1
  static let unitFrame: UInt8 = 2

  struct Handler: XMLHandler {
    var capture: ValueCapture?
    /// Whether `capture` reads a `<source>` (kept in `state.notes` for the
    /// unit's targets) rather than a `<target>`.
    var readsSource = false
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
          capture?.openWhole(tag, isMarkup: XLIFFReader.isFormattingCode(tag))
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
        state.notes = []
        state.sourceTokens = nil
      case "source", "target":
        // An <alt-trans>'s target is a suggestion, not what the application receives.
        guard let unit = state.frames.last(where: { $0.kind == XLIFFReader.unitFrame }),
          !state.frames.contains(where: { $0.name == "alt-trans" || $0.name.hasSuffix(":alt-trans") })
        else { return }
        var value = ValueCapture(key: unit.note, after: tag, at: tag.end)
        value.locale = state.frames.last(where: { $0.kind == XLIFFReader.languageFrame })?.note
        value.variant = XLIFFReader.stringsDictVariant(unit.note)
        capture = value
        readsSource = tag.localName == "source"
        depth = count
      default:
        break
      }
    }

    mutating func end(_ tag: XMLTag, _ state: inout ReaderState, _ sink: inout ReadSink) {
      guard let current = capture else { return }
      if state.frames.count == depth {
        capture = nil
        var value = current.value(endingAt: tag)
        if readsSource {
          // 2.0 has a source per segment: the one before the target is its.
          state.notes = [value.text]
          state.sourceTokens = SourceNormalization.tokens(ofSourceValue: value, rules: .of(.xliff))
          return
        }
        value.source = state.notes.first
        if !value.text.isEmpty { value.sourceTokens = state.sourceTokens }
        sink.add(value, rules: .of(.xliff))
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
