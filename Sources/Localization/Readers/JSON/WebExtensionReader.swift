import StructuredText
import UnicodeBidi

/// WebExtension `_locales/LOCALE/messages.json` (Chrome, Firefox): a JSON
/// object of messages `"name": {"message": "…", "description": "…",
/// "placeholders": {…}}`. A value is each message's `message` string, its
/// key the message's name; descriptions and the `placeholders` block are
/// metadata. Placeholders: `$NAME$` (named in the block) and `$1`…`$9`
/// (substitutions), all text; `$$` is a dollar sign.
enum WebExtensionReader: FormatReader {
  static func read(_ cursor: inout Cursor, _ state: inout ReaderState, _ sink: inout ReadSink) {
    let rules = PlaceholderRules.of(.webExtension)
    JSONScanner.read(&cursor, &state, &sink) { text, _, start, end, state, sink in
      let frames = state.frames
      guard frames.count == 2, frames[0].kind == JSONScanner.object, frames[1].kind == JSONScanner.object,
        frames[1].name == "message"
      else { return }
      sink.add(text.value(key: frames[0].name, start: start, end: end), rules: rules)
    }
  }
}
