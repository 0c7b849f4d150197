// What every localization reader promises (contract §7, Protocol/
// localization.md), checked on arbitrary bytes by the l10n-* targets: no
// trap; every value's source range inside the document, values in document
// order and before the syntax error; each value's decoded text consistent
// (paragraphs tile it, placeholders and markup inside it and in order, each
// decoded character mapped to a place inside the value, in order, where the
// source holds that character or an escape); every values-mode edit and
// quick fix inside its value; and an incremental edit
// (`StructuredIndex.edit`) giving what a fresh read of the edited text gives.
import BidiMarks
import Localization
import StructuredText
import UnicodeBidi

/// Pieces an edit inserts: the syntax of every format, text, controls.
private let editPieces: [[UInt8]] = [
  "\"", "\\", "=", ";", ":", ",", "{", "}", "[", "]", "<", ">", "/", "</string>", "<string name=\"k\">",
  "<target>", "</target>", "msgid \"", "msgstr \"", "msgstr[0] \"", "#", "#, c-format", "/*", "*/", "//", "%@",
  "%1$s", "{name}", "{n, plural, one {#} other {# x}}", "&amp;", "&#x200F;", "\\u200F", "\\U202E", "<![CDATA[",
  "]]>", "'", "{ $x }", "{ -brand }", "-term = ", ".attr = ", "    ", "[one] ", "*[other] ", "{ $n ->",
  "key: ", "- ", "|", ">-", "%{name}", "%count%", "---", "<numerusform>", "</numerusform>", "%n", "$1", "$NAME$",
  "مرحبا", "שלום", "\u{202E}", "\u{2067}", "\u{2069}", "\u{200F}", " ", "\t", "x", "\u{0}", "\u{FF}",
].map { Array($0.utf8) }

/// Runs every check on `bytes` read as `format`; `input` chooses the edit.
func checkLocalization(_ bytes: [UInt8], format: LocalizationFormat, edit input: inout FuzzInput) {
  // The file as `check` decodes it (UTF-16 by its BOM): no trap.
  let decoded = DecodedFile(bytes)
  if decoded.encoding != .utf8 { _ = LocalizationReader.read(decoded.text, format: format) }
  let text = TextLines(bytes)
  let read = LocalizationReader.read(text, format: format)
  checkValues(read, text, format)
  checkIncrementalEdit(text, format: format, &input)
}

/// Where a position is in `text`: inside it (a column up to its line's end).
private func isInside(_ position: SourcePosition, _ text: TextLines) -> Bool {
  position.line >= 0 && position.line < text.lineCount && position.column >= 0
    && position.column <= text.byteRange(ofLine: position.line).count
}

private func checkValues(_ read: LocalizationReadResult, _ text: TextLines, _ format: LocalizationFormat) {
  if let error = read.error, !isInside(error.position, text) { fuzzFailure("syntax error outside: \(error)") }
  var previous: TextEntry?
  let spelling = format.spelling(SpellingVotes(read.values))
  for value in read.values {
    let range = value.range
    guard isInside(range.start, text), isInside(range.end, text), range.start <= range.end else {
      fuzzFailure("\(value.key): range \(range) outside the document")
    }
    if let previous, range.start < previous.range.start {
      fuzzFailure("\(value.key) at \(range) before \(previous.key) at \(previous.range)")
    }
    if let previous, !value.isBranch, !previous.isBranch, range.start < previous.range.end {
      fuzzFailure("\(value.key) at \(range) overlaps \(previous.key) at \(previous.range)")
    }
    if let error = read.error, error.position < range.end {
      fuzzFailure("\(value.key) at \(range) reaches past the syntax error \(error)")
    }
    checkDecodedText(value, text)
    checkEdits(value, spelling: spelling)
    previous = value
  }
}

private func checkDecodedText(_ value: TextEntry, _ text: TextLines) {
  let utf8 = Array(value.text.utf8)
  var end = 0
  for paragraph in value.paragraphs {
    if paragraph.lowerBound != end { fuzzFailure("\(value.key): paragraphs \(value.paragraphs) leave a gap") }
    end = paragraph.upperBound
  }
  if end != utf8.count { fuzzFailure("\(value.key): paragraphs \(value.paragraphs) end before \(utf8.count)") }
  for (name, ranges) in [("atoms", value.atoms.map(\.range)), ("markup", value.markup)] {
    var last = 0
    for range in ranges {
      if range.lowerBound < last || range.upperBound > utf8.count || range.isEmpty {
        fuzzFailure("\(value.key): \(name) \(ranges) not in order inside \(utf8.count) bytes")
      }
      last = range.upperBound
    }
  }
  var before = value.range.start
  var offset = 0
  while offset < utf8.count {
    let scalar = utf8.withUnsafeBufferPointer { UTF8Decoder.decode($0, at: offset) }
    let position = value.sourcePosition(ofDecoded: offset)
    if position < before || value.range.end < position {
      fuzzFailure("\(value.key): decoded byte \(offset) at \(position), outside \(value.range) or before \(before)")
    }
    let character = utf8[offset..<offset + scalar.length]
    let fits = text.withUTF8(ofLine: position.line) { line -> Bool in
      let source = line[position.column...]
      // The character itself, an escape, or collapsed white space (Android)
      // or a line break of the file (which is `\n` in the text).
      if source.starts(with: character) { return true }
      guard let first = source.first else { return scalar.value <= 0x20 }
      return [0x5C, 0x26, 0x3C, 0x25, 0x22, 0x27].contains(first) || (scalar.value <= 0x20 && first <= 0x20)
    }
    if !fits { fuzzFailure("\(value.key): decoded \(Array(character)) at \(position): no such source there") }
    before = position
    offset += scalar.length
  }
}

/// Every mode and every quick fix edits inside its value only.
private func checkEdits(_ value: TextEntry, spelling: MarkSpelling) {
  let planner = EntryPlanner(value, spelling: spelling)
  var edits = planner.directionEdits(.rightToLeft) + planner.directionEdits(.leftToRight)
  edits += planner.placeholderEdits(style: .isolate) + planner.placeholderEdits(style: .marks)
  edits += planner.runEdits(directions: [.rightToLeft]) + planner.stripEdits(.all) + planner.stripEdits(.unpaired)
  for finding in FindingsEngine(format: LocalizationFormat.strings, spelling: spelling).findings(
    in: value, locale: LocaleTag("ar"))
  {
    if finding.range.start < value.range.start || value.range.end < finding.range.end, finding.code != .inIdentifier {
      fuzzFailure("\(value.key): \(finding.code) at \(finding.range) outside \(value.range)")
    }
    for fix in finding.fixes { edits += fix.edits }
  }
  for edit in edits where edit.range.start < value.range.start || value.range.end < edit.range.end {
    fuzzFailure("\(value.key): edit \(edit) outside \(value.range)")
  }
}

/// Replaces a few lines at a time (edits of the input's choosing),
/// re-reads incrementally, and compares with a fresh read of the edited text.
private func checkIncrementalEdit(_ text: TextLines, format: LocalizationFormat, _ input: inout FuzzInput) {
  var index = StructuredIndex(text, format: format)
  var lines = (0..<text.lineCount).map { line in text.withUTF8(ofLine: line) { Array($0) } }
  for _ in 0...input.number(below: 3) {
    // Lines start..<end (at least one) become `replacement` (at least one).
    let start = input.number(below: lines.count)
    let end = min(lines.count, start + 1 + input.number(below: 3))
    var replacement = Array(lines[start..<end])
    switch input.number(below: 8) {
    case 0: replacement.append([])
    case 1: replacement.insert([], at: 0)
    case 2 where replacement.count > 1: replacement.removeLast()
    default: break
    }
    for _ in 0...input.number(below: 3) {
      let line = input.number(below: replacement.count)
      let column = input.number(below: replacement[line].count + 1)
      if input.number(below: 3) == 0 {
        replacement[line].removeSubrange(column..<min(replacement[line].count, column + input.number(below: 8)))
      } else {
        replacement[line].insert(contentsOf: input.choice(editPieces), at: column)
      }
    }
    lines.replaceSubrange(start..<end, with: replacement)
    let edited = TextLines(Array(lines.joined(separator: [0x0A])))
    if edited.lineCount != lines.count { fuzzFailure("\(lines.count) lines read as \(edited.lineCount)") }
    index.edit(edited, replacing: start..<end, newLineCount: replacement.count)
    let fresh = StructuredIndex(edited, format: format)
    if index.entries != fresh.entries || index.error != fresh.error || index.contentLocale != fresh.contentLocale {
      fuzzFailure(
        "incremental edit of lines \(start)..<\(end) differs from a fresh read:\n"
          + "\(index.entries.map(\.key)) \(String(describing: index.error))\n"
          + "\(fresh.entries.map(\.key)) \(String(describing: fresh.error))")
    }
  }
}

/// The entry of every l10n-* target: the first byte chooses one of
/// `formats`, the next 16 the edits, the rest is the file.
func fuzzLocalization(_ data: UnsafePointer<UInt8>?, _ size: Int, formats: [LocalizationFormat]) {
  var input = FuzzInput(data, size)
  let format = formats[Int(input.byte()) % formats.count]
  let choices = input.bytes(16)
  let file = input.rest()
  choices.withUnsafeBufferPointer { raw in
    var edits = FuzzInput(raw.baseAddress, raw.count)
    checkLocalization(file, format: format, edit: &edits)
  }
}
