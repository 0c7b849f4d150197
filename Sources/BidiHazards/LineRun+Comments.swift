// The lexer of `Lexer.swift`, continued. Comments and regexes.
extension LineRun {
  // MARK: Comments and regexes

  /// Scans a block comment body from `from`, at nesting `depth`.
  mutating func blockComment(from: Int, start: Int, depth: Int, state: inout LexerState) -> Int {
    var j = from
    var depth = depth
    while j + 1 < n {
      if p[j] == ASCII.star, p[j + 1] == ASCII.slash {
        depth -= 1
        if depth == 0 {
          add(.comment, start, j + 2, contentEnd: j, endsOnLine: true)
          state.mode = .code
          return j + 2
        }
        j += 2
        continue
      }
      if syntax.nestedBlockComments, p[j] == ASCII.slash, p[j + 1] == ASCII.star {
        depth += 1
        j += 2
        continue
      }
      j += 1
    }
    add(.comment, start, n, contentEnd: n, endsOnLine: false)
    state.mode = .blockComment(depth: depth)
    return n
  }

  /// A JavaScript regular expression literal (one line); its body counts as
  /// a string literal.
  mutating func regex(from start: Int) -> Int {
    var j = start + 1
    var inClass = false
    while j < n {
      let b = p[j]
      if b == ASCII.backslash {
        j += 2
        continue
      }
      if b == ASCII.openBracket {
        inClass = true
      } else if b == ASCII.closeBracket {
        inClass = false
      } else if b == ASCII.slash, !inClass {
        add(.string, start, j + 1, contentEnd: j, endsOnLine: true)
        lastSignificant = ASCII.quote
        lastWordAllowsRegex = false
        return j + 1
      }
      j += 1
    }
    add(.string, start, n, contentEnd: n, endsOnLine: true)
    return n
  }
}
