import BidiCorpus
import UnicodeBidi

/// bidi-lsp's UnicodeBidi, used through its public API as the daemon would,
/// straight from the UTF-8 bytes (no conversion): first
/// `BidiParagraph.uniformLevel(utf8:)`, which answers for a paragraph that
/// needs no analysis (every level one value, every line in logical or reversed
/// order); otherwise `BidiParagraph(utf8:)`, the paragraph as one display line,
/// and, unless that line reports a `uniformLevel`, `levels(in:)` and
/// `visualToLogical(in:)`. Wrapped paragraphs are cut with
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
        let bytes = UnsafeBufferPointer(rebasing: text[range])
        let lineBreaks = breaks?.utf16[index] ?? []
        if let level = BidiParagraph.uniformLevel(utf8: bytes) {
          // Every character is at `level`: each display line is in logical
          // order (even) or reversed (odd); only its length is needed.
          var start = 0
          let length = utf16Length(bytes)
          for k in 0...lineBreaks.count {
            let end = k < lineBreaks.count ? lineBreaks[k] : length
            foldUniform(level: level, count: end - start, into: &checksum)
            start = end
          }
          continue
        }
        let paragraph = BidiParagraph(utf8: bytes)
        guard !lineBreaks.isEmpty else {
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

  /// The length in UTF-16 units of well-formed UTF-8: one unit per byte that
  /// is not a continuation byte, two for a four-byte sequence.
  @inline(__always)
  private func utf16Length(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for byte in bytes {
      count &+= (byte & 0xC0 != 0x80 ? 1 : 0) &+ (byte >= 0xF0 ? 1 : 0)
    }
    return count
  }

  @inline(__always)
  private func foldUniform(level: UInt8, count: Int, into checksum: inout Checksum) {
    checksum.add(uniformLevel: level, count: count)
    if level & 1 == 0 {
      checksum.addIdentityMap(count: count)
    } else {
      checksum.addReversedMap(count: count)
    }
  }

  @inline(__always)
  private func fold(_ line: BidiLine, into checksum: inout Checksum) {
    if let level = line.uniformLevel {
      foldUniform(level: level, count: line.range(in: .utf16).count, into: &checksum)
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
