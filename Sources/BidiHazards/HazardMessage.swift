import UnicodeBidi

/// The sentences of the hazard rules, one per rule and situation, written
/// once for each control: a file with many findings would otherwise format
/// the same few sentences again for every one (`bidi-lsp check` and the
/// daemon's publish both report them).
enum HazardMessage: Int, CaseIterable {
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
    Self.table[rawValue &* Self.controlCount &+ Self.index(control)]
  }

  private static let controlCount = BidiControl.allCases.count
  private static let table: [String] = allCases.flatMap { kind in BidiControl.allCases.map { kind.compose($0) } }

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

  private func compose(_ control: BidiControl) -> String {
    let name = control.displayName
    let effect = control.effect
    let reordered = "the text displays in a different order from the one it is read in"
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
      let also = control.isMark ? "" : ", and it \(effect)"
      return "\(name) inside an identifier: the name looks like one without it but is a different name\(also)"
    }
  }
}
