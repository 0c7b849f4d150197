import BidiCorpus
import UnicodeBidi

/// bidi-lsp's UnicodeBidi, used through its public API as the daemon would:
/// `BidiParagraph(utf8:)` straight from the UTF-8 bytes (no conversion), then
/// the paragraph as one display line; a line that reports a `uniformLevel`
/// is complete (every level that one, order logical or reversed), otherwise
/// `levels(in:)` and `visualToLogical(in:)`. Offsets in UTF-16 units, the
/// LSP default position encoding (and ICU's unit).
final class OursEngine: BidiEngine {
  static let name = oursName
  static let needsConversion = false

  private let corpus: Corpus
  private(set) var failures = 0

  init(corpus: Corpus) {
    self.corpus = corpus
  }

  func convert() {}

  func run() -> Checksum {
    var checksum = Checksum()
    corpus.text.withUnsafeBufferPointer { text in
      for range in corpus.paragraphs {
        if range.isEmpty {
          checksum.addEmpty()
          continue
        }
        let paragraph = BidiParagraph(utf8: UnsafeBufferPointer(rebasing: text[range]))
        let line = paragraph.line()
        if let level = line.uniformLevel {
          let count = paragraph.length(in: .utf16)
          checksum.add(uniformLevel: level, count: count)
          if level & 1 == 0 {
            checksum.addIdentityMap(count: count)
          } else {
            checksum.addReversedMap(count: count)
          }
          continue
        }
        let levels = line.levels(in: .utf16)
        levels.withUnsafeBufferPointer {
          $0.withMemoryRebound(to: UInt8.self) { checksum.add(levels: $0.baseAddress!, count: $0.count) }
        }
        let map = line.visualToLogical(in: .utf16)
        map.withUnsafeBufferPointer { checksum.add(visualMap: $0.baseAddress!, count: $0.count) }
      }
    }
    return checksum
  }

  func analyse(paragraph index: Int) -> Analysis {
    let range = corpus.paragraphs[index]
    guard !range.isEmpty else { return Analysis(levels: [], order: []) }
    let paragraph = corpus.text.withUnsafeBufferPointer {
      BidiParagraph(utf8: UnsafeBufferPointer(rebasing: $0[range]))
    }
    let line = paragraph.line()
    return Analysis(
      levels: line.levels(in: .utf32).map(\.rawValue),
      order: line.visualToLogical(in: .utf32))
  }
}
