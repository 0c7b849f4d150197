// The lexer of `Lexer.swift`, continued. Here-documents.
extension LineRun {
  // MARK: Here-documents

  /// A here-document opener (`<<EOF`, `<<-'EOF'`, `<<~EOS`) at `i`: records
  /// it (its body starts on the next line) and returns the offset after
  /// it, or nil if `<<` is an operator here.
  mutating func hereDocument(at i: Int, state: inout LexerState) -> Int? {
    var k = i + 2
    var word: [UInt8] = []
    let document: HereDocument
    switch syntax.hereDocuments {
    case .none:
      return nil
    case .shell:
      if at(k) == ASCII.less { return k + 1 }  // `<<<` is a here-string.
      let indented = at(k) == ASCII.minus
      if indented { k += 1 }
      while at(k) == ASCII.space || at(k) == ASCII.tab { k += 1 }
      let first = at(k)
      guard
        isASCIILetterOrUnderscore(first) || first == ASCII.quote || first == ASCII.apostrophe
          || first == ASCII.backslash
      else { return nil }
      // The word, its quotes removed.
      wordLoop: while k < n, word.count <= Self.maximumHereDocumentWord {
        let c = p[k]
        switch c {
        case ASCII.space, ASCII.tab, 0x3B, 0x26, ASCII.bar, ASCII.less, ASCII.greater, ASCII.openParen,
          ASCII.closeParen:
          break wordLoop
        case ASCII.quote, ASCII.apostrophe:
          guard let end = (k + 1..<n).first(where: { p[$0] == c }) else { return nil }
          word += p[(k + 1)..<end]
          k = end + 1
        case ASCII.backslash:
          if k + 1 < n { word.append(p[k + 1]) }
          k += 2
        default:
          word.append(c)
          k += 1
        }
      }
      document = HereDocument(word: word, indented: indented, tabsOnly: true)
    case .ruby:
      let indented = at(k) == ASCII.tilde || at(k) == ASCII.minus
      if indented { k += 1 }
      let first = at(k)
      if first == ASCII.quote || first == ASCII.apostrophe || first == ASCII.backtick {
        guard let end = (k + 1..<n).first(where: { p[$0] == first }) else { return nil }
        word = Array(p[(k + 1)..<end])
        k = end + 1
      } else {
        // `<<EOS` wants a capital; `a<<B` and `x << y` are shifts.
        let capital = (first >= 0x41 && first <= 0x5A) || first == ASCII.underscore
        guard indented ? isASCIILetterOrUnderscore(first) : capital else { return nil }
        if !indented, i > 0,
          isASCIIIdentifierByte(p[i - 1]) || p[i - 1] == ASCII.closeParen
            || p[i - 1] == ASCII.closeBracket
        {
          return nil
        }
        let start = k
        while k < n, isASCIIIdentifierByte(p[k]), p[k] != ASCII.dollar { k += 1 }
        word = Array(p[start..<k])
      }
      document = HereDocument(word: word, indented: indented, tabsOnly: false)
    }
    guard !word.isEmpty, word.count <= Self.maximumHereDocumentWord else { return nil }
    hereDocuments.append(document)
    lastSignificant = 0x61
    return k
  }
}
