import BidiTestSupport

/// The test's own model of a document, independent of the server's code:
/// the text as Unicode scalars, its LSP lines, and conversions between LSP
/// positions (in any of the three encodings) and scalar indices.
struct ShadowText {
  private(set) var scalars: [Unicode.Scalar]
  /// The scalar index where each line starts.
  private(set) var lineStarts: [Int] = []
  /// The scalar index where each line's content ends (its terminator starts).
  private(set) var lineEnds: [Int] = []

  init(_ text: String) {
    scalars = Array(text.unicodeScalars)
    reindex()
  }

  var text: String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }

  /// Line terminators plus one.
  var lineCount: Int { lineStarts.count }

  var utf8Length: Int { scalars.reduce(0) { $0 + UTF8.width($1) } }

  private mutating func reindex() {
    lineStarts = [0]
    lineEnds = []
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\r" || scalar == "\n" {
        lineEnds.append(index)
        index += (scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n") ? 2 : 1
        lineStarts.append(index)
      } else {
        index += 1
      }
    }
    lineEnds.append(scalars.count)
  }

  /// The scalar index an LSP position designates, with the specification's
  /// rules: a character past the line's end is clamped to it; one inside a
  /// character's encoding moves back to that character's start. Nil for a
  /// line past the end.
  func index(line: Int, character: Int, in encoding: OffsetEncoding) -> Int? {
    guard line >= 0, line < lineCount else { return nil }
    var index = lineStarts[line]
    var units = 0
    while index < lineEnds[line] {
      let width = encoding.width(scalars[index])
      if units + width > character { break }
      units += width
      index += 1
    }
    return index
  }

  /// The LSP position of a scalar index; nil between the `\r` and `\n` of
  /// a CRLF (no position designates that point).
  func position(of index: Int, in encoding: OffsetEncoding) -> (line: Int, character: Int)? {
    // The last line starting at or before index.
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= index { low = middle } else { high = middle - 1 }
    }
    guard index <= lineEnds[low] else { return nil }  // inside the terminator
    var units = 0
    for scalar in scalars[lineStarts[low]..<index] { units += encoding.width(scalar) }
    return (low, units)
  }

  /// The width of line `line`'s content in `encoding`.
  func lineWidth(_ line: Int, in encoding: OffsetEncoding) -> Int {
    scalars[lineStarts[line]..<lineEnds[line]].reduce(0) { $0 + encoding.width($1) }
  }

  mutating func replace(_ range: Range<Int>, with text: String) {
    scalars.replaceSubrange(range, with: Array(text.unicodeScalars))
    reindex()
  }

  mutating func replaceAll(with text: String) {
    scalars = Array(text.unicodeScalars)
    reindex()
  }
}

/// A negotiated position encoding, as the test computes it.
enum OffsetEncoding: String, CaseIterable {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
  case utf32 = "utf-32"

  func width(_ scalar: Unicode.Scalar) -> Int {
    switch self {
    case .utf8: return UTF8.width(scalar)
    case .utf16: return UTF16.width(scalar)
    case .utf32: return 1
    }
  }
}
