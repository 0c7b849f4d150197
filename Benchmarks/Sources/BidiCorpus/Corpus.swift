/// A benchmark corpus: UTF-8 text made of paragraphs (one per line), generated
/// deterministically from a seed so that every run measures the same bytes.
public struct Corpus: Sendable {
  /// The kinds of text the benchmarks measure.
  public enum Kind: String, CaseIterable, Sendable {
    /// Mixed Arabic/Hebrew/English prose with numbers, URLs and punctuation.
    case prose
    /// Source code with Arabic/Hebrew string literals and comments.
    case rtlCode = "rtl-code"
    /// Pure ASCII source code.
    case asciiCode = "ascii-code"
    /// RTL-heavy text with isolates (LRI/RLI/FSI/PDI) and embeddings (LRE/RLE/PDF).
    case isolates
  }

  public let kind: Kind
  /// The whole text, paragraphs separated by U+000A.
  public let text: [UInt8]
  /// The byte range of each paragraph in `text`, without its line feed.
  public let paragraphs: [Range<Int>]

  public init(kind: Kind, text: [UInt8]) {
    self.kind = kind
    self.text = text
    var ranges: [Range<Int>] = []
    var start = 0
    for (i, byte) in text.enumerated() where byte == 0x0A {
      ranges.append(start..<i)
      start = i + 1
    }
    if start < text.count { ranges.append(start..<text.count) }
    paragraphs = ranges
  }

  /// Generates about `bytes` bytes (never cutting a paragraph) of `kind` text.
  public static func generate(_ kind: Kind, bytes: Int, seed: UInt64 = 0x5EED_B1D1) -> Corpus {
    var writer = TextWriter(seed: seed ^ UInt64(kind.hashSeed))
    while writer.bytes.count < bytes {
      switch kind {
      case .prose: writer.proseParagraph()
      case .rtlCode: writer.codeLine(rtl: true)
      case .asciiCode: writer.codeLine(rtl: false)
      case .isolates: writer.isolatesParagraph()
      }
      writer.newline()
    }
    return Corpus(kind: kind, text: writer.bytes)
  }

  /// A document mixing every kind line by line — prose, source code with and
  /// without RTL, isolates (well-formed ones only, so that the daemon's hazard
  /// checks have nothing to report) — for the editor-side (large file) benchmarks.
  /// Lines are separated by line feeds; there is none after the last line.
  public static func mixedDocument(bytes: Int, seed: UInt64 = 0xD0C_5EED) -> Corpus {
    var writer = TextWriter(seed: seed)
    while writer.bytes.count < bytes {
      if !writer.bytes.isEmpty { writer.newline() }
      let roll = writer.rng.int(0...9)
      if roll < 4 {
        writer.codeLine(rtl: roll < 2)
      } else if roll < 8 {
        writer.proseParagraph(maxSentences: 2)
      } else {
        writer.isolatesParagraph(maxSentences: 2, wellFormed: true)
      }
    }
    return Corpus(kind: .prose, text: writer.bytes)
  }

  /// One paragraph of about `bytes` bytes: prose sentences and isolates
  /// joined by spaces, with no line break (for the long-line benchmark).
  public static func singleLine(bytes: Int, seed: UInt64 = 0x10_4E) -> Corpus {
    var writer = TextWriter(seed: seed)
    while writer.bytes.count < bytes {
      if !writer.bytes.isEmpty { writer.add(" ") }
      if writer.rng.chance(0.8) {
        writer.proseParagraph(maxSentences: 3)
      } else {
        writer.isolatesParagraph(maxSentences: 1, wellFormed: true)
      }
    }
    return Corpus(kind: .prose, text: writer.bytes)
  }

  /// A document of exactly `lines` lines drawn from the mixed generator.
  public static func mixedDocument(lines: Int, seed: UInt64 = 0xD0C_5EED) -> Corpus {
    var writer = TextWriter(seed: seed)
    for line in 0..<lines {
      let roll = writer.rng.int(0...9)
      if roll < 4 {
        writer.codeLine(rtl: roll < 2)
      } else if roll < 8 {
        writer.proseParagraph(maxSentences: 1)
      } else {
        writer.isolatesParagraph(maxSentences: 1, wellFormed: true)
      }
      if line + 1 < lines { writer.newline() }
    }
    return Corpus(kind: .prose, text: writer.bytes)
  }
}

extension Corpus.Kind {
  fileprivate var hashSeed: Int {
    switch self {
    case .prose: 1
    case .rtlCode: 2
    case .asciiCode: 3
    case .isolates: 4
    }
  }
}
