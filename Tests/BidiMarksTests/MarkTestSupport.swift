import BidiHazards
import BidiMarks
import BidiTestSupport
import UnicodeBidi
import XCTest

// Helpers that check plans by their effect: apply the edits, analyse the new
// text with UnicodeBidi, and check what the mode promises.

let lrm = "\u{200E}"
let rlm = "\u{200F}"
let alm = "\u{061C}"
let lre = "\u{202A}"
let rle = "\u{202B}"
let pdf = "\u{202C}"
let lro = "\u{202D}"
let rlo = "\u{202E}"
let lri = "\u{2066}"
let rli = "\u{2067}"
let fsi = "\u{2068}"
let pdi = "\u{2069}"
let paragraphSeparator = "\u{2029}"

/// The scalar values of a string.
func scalarValues(_ text: some StringProtocol) -> [UInt32] {
  text.unicodeScalars.map(\.value)
}

/// A string from scalar values.
func string(_ values: some Sequence<UInt32>) -> String {
  var text = ""
  for value in values { text.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
  return text
}

/// Text with its controls spelled out, for failure messages.
func visible(_ text: some StringProtocol) -> String {
  var result = ""
  for scalar in text.unicodeScalars {
    if let control = BidiControl(scalar: scalar.value) {
      result += "<" + control.shortName + ">"
    } else if scalar == "\u{2029}" {
      result += "<PS>"
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// Fails unless the edits are sorted, non-overlapping, never two at one
/// offset, inside the text and on scalar boundaries.
func assertWellFormed(
  _ edits: [MarkEdit], in text: String, file: StaticString = #filePath, line: UInt = #line
) {
  var boundaries: Set<Int> = [0]
  var offset = 0
  for scalar in text.unicodeScalars {
    offset += UTF8.width(scalar)
    boundaries.insert(offset)
  }
  var previous: MarkEdit?
  for edit in edits {
    XCTAssertLessThanOrEqual(edit.start, edit.end, "\(edit) is reversed", file: file, line: line)
    XCTAssertTrue(boundaries.contains(edit.start), "\(edit) starts inside a character", file: file, line: line)
    XCTAssertTrue(boundaries.contains(edit.end), "\(edit) ends inside a character or the line", file: file, line: line)
    if let previous {
      XCTAssertGreaterThan(edit.start, previous.start, "\(previous), \(edit) unsorted", file: file, line: line)
      XCTAssertGreaterThanOrEqual(edit.start, previous.end, "\(previous), \(edit) overlap", file: file, line: line)
    }
    previous = edit
  }
}

/// The text after applying the edits simultaneously (they are checked first).
func applying(
  _ edits: [MarkEdit], to text: String, file: StaticString = #filePath, line: UInt = #line
) -> String {
  assertWellFormed(edits, in: text, file: file, line: line)
  let bytes = Array(text.utf8)
  var result: [UInt8] = []
  var position = 0
  for edit in edits where edit.start >= position && edit.end <= bytes.count && edit.start <= edit.end {
    result += bytes[position..<edit.start]
    result += Array(edit.newText.utf8)
    position = edit.end
  }
  result += bytes[position...]
  return String(decoding: result, as: UTF8.self)
}

/// A range grown by what edits inserted inside it or at its ends.
func grown(_ range: Range<Int>, by edits: [MarkEdit]) -> Range<Int> {
  var lower = range.lowerBound
  var upper = range.upperBound
  for edit in edits {
    let delta = edit.newText.utf8.count - (edit.end - edit.start)
    if edit.end <= range.lowerBound && edit.start < range.lowerBound {
      lower += delta
      upper += delta
    } else if edit.start <= range.upperBound {
      upper += delta
    }
  }
  return lower..<upper
}

// MARK: Display

/// The logical indices of a paragraph's scalars, left to right (characters
/// removed by X9 left out).
func visualOrder(_ values: [UInt32], _ direction: DirectionChoice) -> [Int] {
  BidiParagraph(scalars: values, direction: direction).line().visualOrder(in: .utf32)
}

/// How a one-paragraph line displays, left to right, mirrored, without the
/// characters X9 removes.
func displayed(_ text: String, _ direction: DirectionChoice) -> String {
  string(BidiParagraph(scalars: scalarValues(text), direction: direction).line().visualScalars())
}

/// The paragraph direction as UnicodeBidi's paragraph option.
func paragraphOption(_ direction: BidiDirection) -> DirectionChoice {
  direction == .leftToRight ? .leftToRight : .rightToLeft
}

/// The characters whose level rule L1 resets in a one-line paragraph:
/// segment and paragraph separators, and whitespace or isolate controls
/// (with removed characters among them) before one or at the end.
func resetByL1(_ values: [UInt32]) -> Set<Int> {
  var reset: Set<Int> = []
  var trailing = true
  for index in values.indices.reversed() {
    let bidiClass = BidiClass(values[index])
    switch bidiClass {
    case .S, .B:
      reset.insert(index)
      trailing = true
    case .WS, .LRI, .RLI, .FSI, .PDI:
      if trailing { reset.insert(index) }
    case .LRE, .RLE, .LRO, .RLO, .PDF, .BN:
      if trailing { reset.insert(index) }
    default:
      trailing = false
    }
  }
  return reset
}

/// The isolates of a paragraph: each initiator with its matching PDI (BD9).
func isolates(in values: [UInt32]) -> [(initiator: Int, pdi: Int)] {
  var open: [Int] = []
  var found: [(initiator: Int, pdi: Int)] = []
  for (index, value) in values.enumerated() {
    switch BidiClass(value) {
    case .LRI, .RLI, .FSI: open.append(index)
    case .PDI: if let initiator = open.popLast() { found.append((initiator, index)) }
    default: break
    }
  }
  return found.sorted { $0.initiator < $1.initiator }
}

/// Why `span` of a paragraph displayed at `direction` is not one
/// contiguous block in the order it has when displayed alone at `own`, or
/// nil when it is. Characters whose level L1 resets (trailing whitespace) are
/// left out of the comparison: no isolate can hold them.
func blockProblem(
  _ values: [UInt32], span: Range<Int>, own: DirectionChoice, direction: DirectionChoice
) -> String? {
  let whole = visualOrder(values, direction)
  let alone = visualOrder(Array(values[span]), own).map { $0 + span.lowerBound }
  let excluded = resetByL1(values).union(resetByL1(Array(values[span])).map { $0 + span.lowerBound })
  let positions = whole.indices.filter { span.contains(whole[$0]) && !excluded.contains(whole[$0]) }
  guard let first = positions.first, let last = positions.last else { return nil }
  let text = visible(string(values))
  if !whole[first...last].allSatisfy({ span.contains($0) }) {
    return "\(span) of \(text) is not contiguous: \(whole)"
  }
  if positions.map({ whole[$0] }) != alone.filter({ !excluded.contains($0) }) {
    return "\(span) of \(text) is not in its own order: \(whole) against \(alone)"
  }
  return nil
}

/// Fails unless the content of the isolate from `initiator` to `pdi` shows,
/// inside the whole paragraph displayed at `direction`, as one contiguous
/// block in the order it has when displayed alone at the isolate's own
/// direction (see `blockProblem`). An isolate holding a segment separator
/// (TAB) is not checked: L1 resets the separator to the paragraph level,
/// which splits any isolate.
func assertDisplaysAsBlock(
  _ values: [UInt32], initiator: Int, pdi: Int, direction: DirectionChoice,
  file: StaticString = #filePath, line: UInt = #line
) {
  let span = (initiator + 1)..<pdi
  guard !span.isEmpty, !span.contains(where: { BidiClass(values[$0]) == .S }) else { return }
  let own: DirectionChoice =
    switch BidiClass(values[initiator]) {
    case .LRI: .leftToRight
    case .RLI: .rightToLeft
    default: .auto
    }
  if let problem = blockProblem(values, span: span, own: own, direction: direction) {
    XCTFail("isolate " + problem, file: file, line: line)
  }
}

/// Checks every isolate of every paragraph of a line with
/// `assertDisplaysAsBlock`, each paragraph displayed at its direction.
func assertIsolatesDisplayAsBlocks(
  _ text: String, directions: [BidiDirection], file: StaticString = #filePath, line: UInt = #line
) {
  let values = scalarValues(text)
  for (number, paragraph) in BidiParagraph.paragraphRanges(scalars: values).enumerated() {
    let part = Array(values[paragraph])
    let direction = paragraphOption(number < directions.count ? directions[number] : directions.last ?? .leftToRight)
    for found in isolates(in: part) {
      assertDisplaysAsBlock(
        part, initiator: found.initiator, pdi: found.pdi, direction: direction, file: file, line: line)
    }
  }
}

/// The bidi controls a hazard scanner finds unpaired or unmatched on a line.
func unpairedControls(_ text: String) -> [HazardDiagnostic] {
  var settings = RuleSettings()
  for code in RuleCode.allCases where code != .unpaired && code != .unmatched {
    settings[code] = .off
  }
  return HazardScanner(language: nil, settings: settings).scanLine(Array(text.utf8), lineNumber: 0).diagnostics
}

// MARK: Random text

/// Pieces mixed into random lines: words of both directions, numbers,
/// separators, placeholders, brackets and every bidi control.
let randomPieces: [String] = [
  "Apple", "Pay", "iOS", "v2.0", "COVID-19", "user@example.com", "@handle", "#tag",
  "مدفوعات", "بدون", "فوائد", "من", "שלום", "עולם", "٣٤٥", "۱۲",
  "1,234.56", "+1 (555) 123-4567", "2024/01/15", "10:30", "10–20", "-5", "50%", "$5", "42",
  " ", " ", " ", "  ", "\t", ",", ".", "-", "/", ":", "(", ")", "[", "]", "\"", "'", "!", "?", "«", "»",
  "%@", "%d", "%1$@", "%.2f", "%lld", "%%", "% d", "\\(count)", "\\(a(b))", "{0}", "{name}",
  "${name}", "{{name}}", "{0:N2}", "{", "}", "\\",
  lrm, rlm, alm, lre, rle, pdf, lro, rlo, lri, rli, fsi, pdi, "\u{0301}", "\u{200D}",
  paragraphSeparator, "é", "日本",
]

/// A random line of a few pieces.
func randomLine(_ generator: inout SeededGenerator, pieces: Int = 12) -> String {
  var line = ""
  for _ in 0..<Int.random(in: 0...pieces, using: &generator) {
    line += randomPieces.randomElement(using: &generator) ?? ""
  }
  return line
}

/// A random direction.
func randomDirection(_ generator: inout SeededGenerator) -> BidiDirection {
  Bool.random(using: &generator) ? .leftToRight : .rightToLeft
}
