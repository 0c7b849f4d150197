import UnicodeBidi

/// The sentences of the hazard rules, one per rule and situation, written
/// once for each control: a file with many findings would otherwise format
/// the same few sentences again for every one (`bidi-lsp check` and the
/// daemon's publish both report them). Each situation's twelve are
/// composed at its first use, in bytes (`Sentence`): all 180 interpolated
/// into `String`s at once cost every `check` process 850,000 instructions,
/// one that reports a single kind of hazard now some 75,000.
enum HazardMessage {
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
  func text(_ control: BidiControl) -> String {
    let k = Self.index(control)
    return switch self {
    case .unclosedOnLine: Sentences.unclosedOnLine[k]
    case .unclosedInCode: Sentences.unclosedInCode[k]
    case .commentCrossed: Sentences.commentCrossed[k]
    case .unclosedInComment: Sentences.unclosedInComment[k]
    case .interpolationCrossed: Sentences.interpolationCrossed[k]
    case .stringCrossed: Sentences.stringCrossed[k]
    case .unclosedInString: Sentences.unclosedInString[k]
    case .overrideUntilPDF: Sentences.overrideUntilPDF[k]
    case .overrideUntilIsolateEnd: Sentences.overrideUntilIsolateEnd[k]
    case .overrideToLineEnd: Sentences.overrideToLineEnd[k]
    case .overrideInIdentifier: Sentences.overrideInIdentifier[k]
    case .pdfInsideIsolate: Sentences.pdfInsideIsolate[k]
    case .pdfUnmatched: Sentences.pdfUnmatched[k]
    case .pdiUnmatched: Sentences.pdiUnmatched[k]
    case .inIdentifier: Sentences.inIdentifier[k]
    }
  }

  /// Each situation's sentences (by `index`), composed at first use.
  private enum Sentences {
    static let unclosedOnLine = HazardMessage.unclosedOnLine.sentences()
    static let unclosedInCode = HazardMessage.unclosedInCode.sentences()
    static let commentCrossed = HazardMessage.commentCrossed.sentences()
    static let unclosedInComment = HazardMessage.unclosedInComment.sentences()
    static let interpolationCrossed = HazardMessage.interpolationCrossed.sentences()
    static let stringCrossed = HazardMessage.stringCrossed.sentences()
    static let unclosedInString = HazardMessage.unclosedInString.sentences()
    static let overrideUntilPDF = HazardMessage.overrideUntilPDF.sentences()
    static let overrideUntilIsolateEnd = HazardMessage.overrideUntilIsolateEnd.sentences()
    static let overrideToLineEnd = HazardMessage.overrideToLineEnd.sentences()
    static let overrideInIdentifier = HazardMessage.overrideInIdentifier.sentences()
    static let pdfInsideIsolate = HazardMessage.pdfInsideIsolate.sentences()
    static let pdfUnmatched = HazardMessage.pdfUnmatched.sentences()
    static let pdiUnmatched = HazardMessage.pdiUnmatched.sentences()
    static let inIdentifier = HazardMessage.inIdentifier.sentences()

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

  /// The sentences of this situation, by `index` of their control.
  private func sentences() -> [String] {
    Sentences.words.map { word in compose(word.control, name: word.name, effect: word.effect).string }
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
