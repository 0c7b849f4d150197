// Sequences of LSP content changes (ranged or whole, valid or not, in the
// three position encodings) applied to a document, each checked against a
// shadow copy kept as plain bytes (ShadowText, the unit tests' naive model):
// the same changes are accepted, the text, line count and lines are equal,
// the line changes `apply` reports cover every line that changed, the line
// tree's invariants hold, and every line's bidi analysis answers.
//
// fuzz-sources: Tests/DocumentStoreTests/ShadowText.swift Sources/BidiTestSupport/SeededGenerator.swift
import DocumentStore
import UnicodeBidi

private let pieces = [
  "a", "word", " ", "\t", "مرحبا", "שלום", "😀", "👍🏽", "e\u{301}", "\u{200F}", "\u{202E}", "\u{2067}", "\u{2069}",
  "٣", "\n", "\r", "\r\n", "\r\r", "\n\r", "\u{0}", "\u{2029}", "\u{85}", "(", "]",
]

private func text(_ input: inout FuzzInput) -> String {
  var result = ""
  for _ in 0..<input.number(below: 12) { result += input.choice(pieces) }
  return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocumentEdits(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let initial = text(&input)
  guard let tree = try? Document.Text(initial) else { fuzzFailure("cannot open \(initial.debugDescription)") }
  var document = Document(uri: "file:///fuzz", languageId: "plaintext", version: 1, text: tree)
  var shadow = ShadowText(initial)
  var version = 1
  while !input.isEmpty {
    let encoding = input.choice(PositionEncoding.allCases)
    var changes: [ContentChange] = []
    var expected = shadow
    var valid = true
    for _ in 0...input.number(below: 3) {
      let replacement = text(&input)
      if input.number(below: 16) == 0 {
        changes.append(.full(replacement))
        expected = ShadowText(replacement)
        continue
      }
      let lines = expected.lines.count
      func position() -> LSPPosition {
        LSPPosition(
          line: input.number(below: lines + 1), character: input.number(below: 24) - (input.byte() == 0 ? 1 : 0))
      }
      let range = LSPRange(start: position(), end: position())
      changes.append(ContentChange(range: range, text: replacement))
      if valid && !expected.replace(range, with: replacement, encoding) { valid = false }
    }
    version += 1
    do {
      let lineChanges = try document.apply(changes, version: version, encoding: encoding)
      if !valid { fuzzFailure("accepted invalid changes \(changes)") }
      // The lines outside the reported changes are the old ones, moved.
      var kept: [ShadowText.ShadowLine?] = shadow.lines
      for change in lineChanges {
        guard change.oldLines.upperBound <= kept.count else { fuzzFailure("\(change) past \(kept.count) lines") }
        kept.replaceSubrange(change.oldLines, with: repeatElement(nil, count: change.newLineCount))
      }
      let now = expected.lines
      guard kept.count == now.count else { fuzzFailure("line changes \(lineChanges) give \(kept.count) lines") }
      for (index, line) in kept.enumerated() {
        if let line, line.content != now[index].content || line.terminator != now[index].terminator {
          fuzzFailure("line \(index) changed outside \(lineChanges) after \(changes)")
        }
      }
      shadow = expected
    } catch {
      if valid { fuzzFailure("refused valid changes \(changes): \(error)") }
    }
    var text = document.text
    if text.utf8Bytes != shadow.bytes { fuzzFailure("text differs after \(changes)") }
    let lines = shadow.lines
    if text.lineCount != lines.count { fuzzFailure("\(text.lineCount) lines, the shadow has \(lines.count)") }
    if !text.invariantViolations().isEmpty { fuzzFailure("\(text.invariantViolations())") }
    for index in 0..<lines.count {
      guard let line = try? text.line(index), line.withUTF8({ Array($0) }) == lines[index].content else {
        fuzzFailure("line \(index) differs")
      }
      guard (try? text.analysis(ofLine: index)) != nil else { fuzzFailure("no analysis of line \(index)") }
    }
  }
  return 0
}
