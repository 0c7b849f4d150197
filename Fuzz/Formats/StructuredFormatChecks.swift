// What the daemon and `check` build on a format's reader, checked on arbitrary bytes by the
// markdown and subtitles targets (contract §8: "one implementation of a structured document's
// findings, used by both"): reading the document through its `StructuredFormat` does not trap,
// including on an empty or blank document; the daemon's index (`StructuredIndex`) holds the
// entries, regions and syntax error of a whole read; and the findings of the index, of the whole
// read and of `check`'s findings-only read are the same.
import StructuredText

/// Reads `bytes` through `format` the three ways and compares them.
func checkStructuredFormat(_ bytes: [UInt8], format: any StructuredFormat) {
  let text = TextLines(bytes)
  let whole = WholeRead(text, format: format)
  let index = StructuredIndex(text, format: format)
  guard index.entries == whole.entries else {
    fuzzFailure("index: \(index.entries.count) entries, whole read: \(whole.entries.count)")
  }
  guard index.regions(touching: 0..<index.lineCount) == whole.regions else { fuzzFailure("regions differ") }
  guard index.error == whole.error else { fuzzFailure("syntax errors differ") }
  let engine = FindingsEngine(format: format, spelling: whole.spelling)
  let indexed = engine.findings(in: text, index: index) { _ in nil }
  let read = engine.findings(in: text, read: whole) { _ in nil }
  guard indexed == read else { fuzzFailure("findings: index \(indexed.count), whole read \(read.count)") }
  let forCheck = WholeRead(text, format: format, findingsOnly: true)
  let checked = engine.findings(in: text, read: forCheck) { _ in nil }
  guard checked == read else { fuzzFailure("findings: findings-only read \(checked.count), whole read \(read.count)") }
}
