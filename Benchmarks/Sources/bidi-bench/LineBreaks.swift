import BidiCorpus

/// Where each paragraph is wrapped into display lines: after the first space
/// at or past `width` code points since the line start, as a simple editor
/// wraps. Offsets are starts of the second, third… display lines.
struct LineBreaks {
  let width: Int
  /// Per paragraph, break offsets in UTF-16 units.
  private(set) var utf16: [[Int]] = []
  /// Per paragraph, break offsets in code points.
  private(set) var utf32: [[Int]] = []

  init(corpus: Corpus, width: Int) {
    self.width = width
    for range in corpus.paragraphs {
      var breaks16: [Int] = []
      var breaks32: [Int] = []
      var column = 0
      var offset16 = 0
      var offset32 = 0
      let scalars = String(decoding: corpus.text[range], as: UTF8.self).unicodeScalars
      let total = scalars.count
      for scalar in scalars {
        offset16 += scalar.utf16.count
        offset32 += 1
        column += 1
        if scalar == " " && column >= width && offset32 < total {
          breaks16.append(offset16)
          breaks32.append(offset32)
          column = 0
        }
      }
      utf16.append(breaks16)
      utf32.append(breaks32)
    }
  }

  /// Display lines in all.
  var lineCount: Int {
    utf32.reduce(0) { $0 + $1.count + 1 }
  }
}
