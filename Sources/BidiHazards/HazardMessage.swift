import UnicodeBidi

/// The sentences of the hazard rules, one per rule and situation, written
/// once for each control: a file with many findings would otherwise format
/// the same few sentences again for every one (`bidi-lsp check` and the
/// daemon's publish both report them). Each situation's twelve are
/// composed at its first use, in bytes (`Sentence`): all 180 interpolated
/// into `String`s at once cost every `check` process 850,000 instructions,
/// one that reports a single kind of hazard now some 75,000. A diagnostic
/// holds its sentence as this situation and its control
/// (`HazardDiagnostic.sentence`); `check` writes the bytes (`utf8`).
package enum HazardMessage: Sendable, CaseIterable {
  case unclosedOnLine
  case unclosedInCode
  case commentCrossed
  case unclosedInComment
  case interpolationCrossed
  case stringCrossed
  case unclosedInString
  case overrideUntilPDF
  case overrideUntilIsolateEnd
  case overrideToLineEnd
  case overrideInIdentifier
  case pdfInsideIsolate
  case pdfUnmatched
  case pdiUnmatched
  case inIdentifier

  /// The sentence for `control`.
  package func text(_ control: BidiControl) -> String { String(decoding: utf8(control), as: UTF8.self) }

  /// The UTF-8 of the sentence for `control` (`text(control)`'s), in
  /// memory kept for the life of the process: no `String` to retain and
  /// release for each finding written as bytes.
  package func utf8(_ control: BidiControl) -> UnsafeBufferPointer<UInt8> {
    let table: SentenceBytes =
      switch self {
      case .unclosedOnLine: SentenceBytes.unclosedOnLine
      case .unclosedInCode: SentenceBytes.unclosedInCode
      case .commentCrossed: SentenceBytes.commentCrossed
      case .unclosedInComment: SentenceBytes.unclosedInComment
      case .interpolationCrossed: SentenceBytes.interpolationCrossed
      case .stringCrossed: SentenceBytes.stringCrossed
      case .unclosedInString: SentenceBytes.unclosedInString
      case .overrideUntilPDF: SentenceBytes.overrideUntilPDF
      case .overrideUntilIsolateEnd: SentenceBytes.overrideUntilIsolateEnd
      case .overrideToLineEnd: SentenceBytes.overrideToLineEnd
      case .overrideInIdentifier: SentenceBytes.overrideInIdentifier
      case .pdfInsideIsolate: SentenceBytes.pdfInsideIsolate
      case .pdfUnmatched: SentenceBytes.pdfUnmatched
      case .pdiUnmatched: SentenceBytes.pdiUnmatched
      case .inIdentifier: SentenceBytes.inIdentifier
      }
    return table[Self.index(control)]
  }

  /// A situation's twelve sentences as UTF-8, one after the other in one
  /// allocation that is never freed (a few kilobytes for all fifteen), by
  /// `index`: only pointers, so that reading one retains nothing.
  private struct SentenceBytes: @unchecked Sendable {  // (read-only once made)
    /// The bytes of sentence `k` are `bytes[starts[k]..<starts[k + 1]]`.
    let bytes: UnsafePointer<UInt8>
    let starts: UnsafePointer<Int>

    /// The sentences of `situation`, composed.
    init(_ situation: HazardMessage) {
      let sentences = Self.words.map { situation.compose($0.control, name: $0.name, effect: $0.effect).bytes }
      let total = sentences.reduce(0) { $0 + $1.count }
      let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, total))
      let starts = UnsafeMutablePointer<Int>.allocate(capacity: sentences.count + 1)
      var at = 0
      for (k, sentence) in sentences.enumerated() {
        starts[k] = at
        sentence.withUnsafeBufferPointer { (bytes + at).update(from: $0.baseAddress!, count: $0.count) }
        at += sentence.count
      }
      starts[sentences.count] = at
      self.bytes = UnsafePointer(bytes)
      self.starts = UnsafePointer(starts)
    }

    subscript(k: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(start: bytes + starts[k], count: starts[k + 1] - starts[k])
    }

    // Each composed at its first use.
    static let unclosedOnLine = SentenceBytes(.unclosedOnLine)
    static let unclosedInCode = SentenceBytes(.unclosedInCode)
    static let commentCrossed = SentenceBytes(.commentCrossed)
    static let unclosedInComment = SentenceBytes(.unclosedInComment)
    static let interpolationCrossed = SentenceBytes(.interpolationCrossed)
    static let stringCrossed = SentenceBytes(.stringCrossed)
    static let unclosedInString = SentenceBytes(.unclosedInString)
    static let overrideUntilPDF = SentenceBytes(.overrideUntilPDF)
    static let overrideUntilIsolateEnd = SentenceBytes(.overrideUntilIsolateEnd)
    static let overrideToLineEnd = SentenceBytes(.overrideToLineEnd)
    static let overrideInIdentifier = SentenceBytes(.overrideInIdentifier)
    static let pdfInsideIsolate = SentenceBytes(.pdfInsideIsolate)
    static let pdfUnmatched = SentenceBytes(.pdfUnmatched)
    static let pdiUnmatched = SentenceBytes(.pdiUnmatched)
    static let inIdentifier = SentenceBytes(.inIdentifier)

    /// Each control with its display name and effect (by `index`).
    static let words = BidiControl.allCases.map(Words.init)
  }

  /// A control with its display name and effect in UTF-8. (A struct: an
  /// array of tuples had its type's metadata made at run time, 44,000
  /// instructions.)
  private struct Words {
    let control: BidiControl
    let name: [UInt8]
    let effect: [UInt8]

    init(_ control: BidiControl) {
      self.control = control
      name = Array(control.displayName.utf8)
      effect = Array(control.effect.utf8)
    }
  }

  /// The position of `control` in `BidiControl.allCases`.
  private static func index(_ control: BidiControl) -> Int {
    switch control {
    case .alm: 0
    case .lrm: 1
    case .rlm: 2
    case .lre: 3
    case .rle: 4
    case .pdf: 5
    case .lro: 6
    case .rlo: 7
    case .lri: 8
    case .rli: 9
    case .fsi: 10
    case .pdi: 11
    }
  }

  /// The sentence for `control`, whose display name and effect are `name`
  /// and `effect`.
  private func compose(_ control: BidiControl, name: [UInt8], effect: [UInt8]) -> Sentence {
    let reordered: StaticString = "the text displays in a different order from the one it is read in"
    switch self {
    case .unclosedOnLine:
      return "\(name) is not closed before the end of the line: it \(effect), up to the end of the line"
    case .unclosedInCode:
      return
        "\(name) is not closed on its line: it \(effect), up to the end of the line, comments and literals included"
    case .commentCrossed:
      return
        "\(name) opened in a comment is not closed before the comment ends: it \(effect), across the end of the comment, so the code after it displays out of order"
    case .unclosedInComment:
      return
        "\(name) opened in a comment is not closed before the end of the line: it \(effect), up to the end of the line"
    case .interpolationCrossed:
      return
        "\(name) opened in the interpolation of a string literal is not closed before the interpolation ends: it \(effect), across the rest of the literal and the code after it"
    case .stringCrossed:
      return
        "\(name) opened in a string literal is not closed before the literal ends: it \(effect), across the closing quote, so the code after it displays out of order"
    case .unclosedInString:
      return
        "\(name) opened in a string literal is not closed before the end of the line: it \(effect), up to the end of the line"
    case .overrideUntilPDF: return "\(name) \(effect), until its PDF: \(reordered)"
    case .overrideUntilIsolateEnd: return "\(name) \(effect), until the isolate around it ends: \(reordered)"
    case .overrideToLineEnd: return "\(name) \(effect), up to the end of its line: \(reordered)"
    case .overrideInIdentifier: return "\(name) \(effect): \(reordered)"
    case .pdfInsideIsolate:
      return
        "\(name) closes nothing: an isolate is open inside the innermost embedding, and a PDF cannot close it"
    case .pdfUnmatched: return "\(name) has no embedding or override to close"
    case .pdiUnmatched: return "\(name) has no isolate to close"
    case .inIdentifier:
      let also: Sentence = control.isMark ? "" : ", and it \(effect)"
      return "\(name) inside an identifier: the name looks like one without it but is a different name\(also)"
    }
  }
}

/// ASCII text composed by string interpolation straight into bytes: its
/// literals are static bytes and its values byte arrays, each piece one
/// copy (`String`'s interpolation appends each piece as a string, some 500
/// instructions each).
struct Sentence: ExpressibleByStringInterpolation {
  var bytes: [UInt8]

  init(stringLiteral value: StaticString) {
    bytes = value.withUTF8Buffer { Array($0) }
  }

  init(stringInterpolation: Interpolation) {
    bytes = stringInterpolation.bytes
  }

  /// The text as a `String`.
  var string: String { String(decoding: bytes, as: UTF8.self) }

  struct Interpolation: StringInterpolationProtocol {
    var bytes: [UInt8] = []

    init(literalCapacity: Int, interpolationCount: Int) {
      // Room for the values too: a name or an effect is under 80 bytes.
      bytes.reserveCapacity(literalCapacity + 80 * interpolationCount)
    }

    mutating func appendLiteral(_ literal: StaticString) {
      literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendInterpolation(_ text: [UInt8]) {
      bytes.append(contentsOf: text)
    }

    mutating func appendInterpolation(_ text: StaticString) {
      text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendInterpolation(_ text: Sentence) {
      bytes.append(contentsOf: text.bytes)
    }
  }
}
