import BidiCorpus
import UnicodeBidi

/// bidi-lsp's UnicodeBidi, used through its public API as a performance-minded
/// caller would, straight from the UTF-8 bytes (no conversion): first
/// `BidiParagraph.uniform(utf8:)`, which answers without allocating for a
/// paragraph that needs no analysis (every level one value, every line in
/// logical or reversed order, and the paragraph's UTF-16 length from the same
/// scan); otherwise `BidiParagraph(utf8:)`, the paragraph
/// as one display line, and, unless that line reports a `uniformLevel`,
/// `withLevels(in:_:)` (the stored levels, not copied when nothing was
/// removed and units are characters) and `visualToLogical(in:into:)` into one
/// map buffer reused across every line of the corpus. Wrapped paragraphs are
/// cut with `lines(breaks:in:)`, which reorders each display line without
/// resolving the paragraph again. Offsets in UTF-16 units, the LSP default
/// position encoding (and ICU's unit).
final class OursEngine: BidiEngine {
  static let name = oursName
  static let needsConversion = false

  private let corpus: Corpus
  private(set) var failures = 0
  private let breaks: LineBreaks?
  /// The visual-to-logical map of the current line, its storage reused.
  private var map: [Int] = []

  init(corpus: Corpus, breaks: LineBreaks?) {
    self.corpus = corpus
    self.breaks = breaks
  }

  func convert() {}

  func run() -> Checksum {
    var checksum = Checksum()
    failures = 0
    // A local while the loop runs (no exclusivity check per access), kept
    // for the next run.
    var map = self.map
    self.map = []
    defer { self.map = map }
    corpus.text.withUnsafeBufferPointer { text in
      for (index, range) in corpus.paragraphs.enumerated() {
        if range.isEmpty {
          checksum.addEmpty()
          continue
        }
        let bytes = UnsafeBufferPointer(rebasing: text[range])
        let lineBreaks = breaks?.utf16[index] ?? []
        if let uniform = BidiParagraph.uniform(utf8: bytes) {
          // Every character is at one level: each display line is in
          // logical order (even) or reversed (odd); only its length is
          // needed, which the same scan counted.
          var start = 0
          let length = uniform.utf16Length
          for k in 0...lineBreaks.count {
            let end = k < lineBreaks.count ? lineBreaks[k] : length
            foldUniform(level: uniform.level, count: end - start, into: &checksum)
            start = end
          }
          continue
        }
        let paragraph = BidiParagraph(utf8: bytes)
        // The caller knows where its display lines start and end, as the
        // other sides do: the break offsets and the paragraph length.
        let length = paragraph.length(in: .utf16)
        guard !lineBreaks.isEmpty else {
          fold(paragraph.line(), start: 0, end: length, into: &checksum, map: &map)
          continue
        }
        do {
          var start = 0
          for (k, line) in try paragraph.lines(breaks: lineBreaks, in: .utf16).enumerated() {
            let end = k < lineBreaks.count ? lineBreaks[k] : length
            fold(line, start: start, end: end, into: &checksum, map: &map)
            start = end
          }
        } catch {
          failures += 1
        }
      }
    }
    return checksum
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

  /// Folds display line `line`, which spans UTF-16 offsets `start..<end`
  /// of its paragraph.
  @inline(__always)
  private func fold(_ line: BidiLine, start: Int, end: Int, into checksum: inout Checksum, map: inout [Int]) {
    if let level = line.uniformLevel {
      foldUniform(level: level, count: end - start, into: &checksum)
      return
    }
    line.withLevels(in: .utf16) { levels in
      levels.withMemoryRebound(to: UInt8.self) { checksum.add(levels: $0.baseAddress!, count: $0.count) }
    }
    line.visualToLogical(in: .utf16, into: &map)
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
