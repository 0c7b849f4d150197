// The subtitle readers (SubRip and WebVTT) on arbitrary bytes. Checks: no trap; every cue line
// inside the input (its line, its columns), in order, one cue index per cue; each line's map
// monotonic, inside the line, never into markup, each decoded character its source byte or at the
// start of a reference; markup and references inside the line, in order, not overlapping; reading
// from checkpoints (up to four, chosen by the input) equal to the full read from there on; U+200F
// inserted at every line's text start re-read as the same cues and lines, each text the old one
// after the mark. Input: a byte choosing the format, 4 bytes choosing checkpoints, then the file.
// Seeds: the files of Tests/SubtitlesTests/Corpus. Then the file through its `SubtitleFormat`, as
// the daemon and `check` read it (Fuzz/Formats/StructuredFormatChecks.swift).
//
// fuzz-sources: Fuzz/Formats/StructuredFormatChecks.swift
// fuzz-options: -max_len=4096
import StructuredText
import Subtitles

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let format: SubtitleFormat = input.byte() & 1 == 0 ? .subRip : .webVTT
  let choices = input.bytes(4)
  let bytes = input.rest()
  let text = TextLines(bytes)
  let document = SubtitleReader.read(text, format: format)
  checkLines(document, text)
  checkCheckpoints(document, text, choices)
  checkMarks(document, text)
  checkStructuredFormat(bytes, format: format)
  return 0
}

private func checkLines(_ document: SubtitleDocument, _ text: TextLines) {
  var previousLine = -1
  for line in document.lines {
    guard line.line > previousLine, line.line < text.lineCount else { fuzzFailure("line \(line.line) out of order") }
    previousLine = line.line
    guard line.cue >= 1, line.cue <= document.cues.count, document.cues[line.cue - 1].textLines.contains(line.line)
    else { fuzzFailure("line \(line.line): cue \(line.cue) does not hold it") }
    let source = Array(text.bytes[text.byteRange(ofLine: line.line)])
    guard line.columns.upperBound == source.count, line.columns.lowerBound >= 0,
      line.columns.lowerBound <= source.count
    else { fuzzFailure("line \(line.line): columns \(line.columns) for \(source.count) bytes") }
    var end = line.columns.lowerBound
    for item in line.markup {
      guard item.columns.lowerBound >= end, item.columns.upperBound <= source.count, !item.columns.isEmpty else {
        fuzzFailure("line \(line.line): markup \(item.columns) out of place")
      }
      end = item.columns.upperBound
    }
    end = line.columns.lowerBound
    for escape in line.escapes {
      guard escape.lowerBound >= end, escape.upperBound <= source.count, !escape.isEmpty,
        !line.markup.contains(where: { $0.columns.overlaps(escape) })
      else { fuzzFailure("line \(line.line): reference \(escape) out of place") }
      end = escape.upperBound
    }
    let utf8 = Array(line.text.utf8)
    var previous = line.columns.lowerBound
    for offset in 0...utf8.count {
      let column = line.sourceColumn(ofDecoded: offset)
      guard column >= previous, column <= source.count else {
        fuzzFailure("line \(line.line): offset \(offset) maps to \(column), after \(previous)")
      }
      previous = column
      guard offset < utf8.count else { break }
      guard !line.markup.contains(where: { $0.columns.contains(column) }) else {
        fuzzFailure("line \(line.line): offset \(offset) maps into markup")
      }
      if let escape = line.escapes.first(where: { $0.contains(column) }) {
        guard escape.lowerBound == column else { fuzzFailure("line \(line.line): offset \(offset) inside a reference") }
      } else if source[column] != utf8[offset] {
        fuzzFailure("line \(line.line): offset \(offset) is not its source byte")
      }
    }
    guard line.textStartColumn >= line.columns.lowerBound, line.textStartColumn <= source.count,
      !line.markup.contains(where: {
        $0.columns.lowerBound < line.textStartColumn && ($0.isOpen || line.textStartColumn < $0.columns.upperBound)
      }),
      !line.escapes.contains(where: { $0.lowerBound < line.textStartColumn && line.textStartColumn < $0.upperBound })
    else { fuzzFailure("line \(line.line): text start \(line.textStartColumn) inside markup") }
  }
  for (index, cue) in document.cues.enumerated() where cue.index != index + 1 {
    fuzzFailure("cue \(index + 1) numbered \(cue.index)")
  }
  for diagnostic in document.diagnostics where diagnostic.position.line >= text.lineCount {
    fuzzFailure("diagnostic past the end: \(diagnostic)")
  }
}

private func checkCheckpoints(_ document: SubtitleDocument, _ text: TextLines, _ choices: [UInt8]) {
  guard !document.checkpoints.isEmpty else { return }
  for choice in choices {
    let checkpoint = document.checkpoints[Int(choice) % document.checkpoints.count]
    let partial = SubtitleReader.read(text, format: document.format, from: checkpoint)
    let from = checkpoint.line
    guard partial.cues == document.cues.filter({ $0.firstLine >= from }),
      partial.lines == document.lines.filter({ $0.line >= from }),
      partial.diagnostics == document.diagnostics.filter({ $0.position.line >= from }),
      partial.checkpoints == document.checkpoints.filter({ $0.line >= from })
    else { fuzzFailure("reading from line \(from) differs from the full read") }
  }
}

private func checkMarks(_ document: SubtitleDocument, _ text: TextLines) {
  guard !document.lines.isEmpty else { return }
  var edited: [UInt8] = []
  var copied = 0
  for line in document.lines {
    let insertion = document.insertion(of: .rightToLeft, atStartOf: line)
    let offset = text.byteRange(ofLine: line.line).lowerBound + insertion.position.column
    edited += text.bytes[copied..<offset]
    edited += Array(insertion.text.utf8)
    copied = offset
  }
  edited += text.bytes[copied...]
  let reread = SubtitleReader.read(TextLines(edited), format: document.format)
  guard reread.cues.count == document.cues.count, reread.lines.map(\.line) == document.lines.map(\.line),
    reread.lines.map(\.cue) == document.lines.map(\.cue),
    reread.lines.map(\.text) == document.lines.map({ "\u{200F}" + $0.text })
  else { fuzzFailure("the marked copy reads differently") }
}
