import BidiCorpus
import UnicodeBidi

/// bidi-lsp's UnicodeBidi, used through its public API as the daemon would:
/// `BidiParagraph(utf8:)` straight from the UTF-8 bytes (no conversion), then
/// the paragraph as one display line; a line that reports a `uniformLevel`
/// is complete (every level that one, order logical or reversed), otherwise
/// `levels(in:)` and `visualToLogical(in:)`. Wrapped paragraphs are cut with
/// `lines(breaks:in:)`, which reorders each display line without resolving
/// the paragraph again. Offsets in UTF-16 units, the LSP default position
/// encoding (and ICU's unit).
final class OursEngine: BidiEngine {
  static let name = oursName
  static let needsConversion = false

  private let corpus: Corpus
  private(set) var failures = 0
  private let breaks: LineBreaks?

  init(corpus: Corpus, breaks: LineBreaks?) {
    self.corpus = corpus
    self.breaks = breaks
  }

  func convert() {}

  func run() -> Checksum {
    var checksum = Checksum()
    failures = 0
    corpus.text.withUnsafeBufferPointer { text in
      for (index, range) in corpus.paragraphs.enumerated() {
        if range.isEmpty {
          checksum.addEmpty()
          continue
        }
        let paragraph = BidiParagraph(utf8: UnsafeBufferPointer(rebasing: text[range]))
        guard let lineBreaks = breaks?.utf16[index], !lineBreaks.isEmpty else {
          fold(paragraph.line(), into: &checksum)
          continue
        }
        do {
          for line in try paragraph.lines(breaks: lineBreaks, in: .utf16) {
            fold(line, into: &checksum)
          }
        } catch {
          failures += 1
        }
      }
    }
    return checksum
  }

  @inline(__always)
  private func fold(_ line: BidiLine, into checksum: inout Checksum) {
    if let level = line.uniformLevel {
      let count = line.range(in: .utf16).count
      checksum.add(uniformLevel: level, count: count)
      if level & 1 == 0 {
        checksum.addIdentityMap(count: count)
      } else {
        checksum.addReversedMap(count: count)
      }
      return
    }
    let levels = line.levels(in: .utf16)
    levels.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: UInt8.self) { checksum.add(levels: $0.baseAddress!, count: $0.count) }
    }
    let map = line.visualToLogical(in: .utf16)
    let start = line.range(in: .utf16).lowerBound
    map.withUnsafeBufferPointer { checksum.add(visualMap: $0.baseAddress!, count: $0.count, base: start) }
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
