// The lexer of `Lexer.swift`, continued. Interpolations: the code inside a string literal.
extension LineRun {
  // MARK: Interpolations

  /// An interpolation opened at `j` in a literal (other than Swift's, found
  /// with the escapes): returns the offset of its code, or nil.
  mutating func interpolationStart(
    _ segment: Int, _ d: StringDelimiter, at j: Int, state: inout LexerState
  ) -> Int? {
    let b = p[j]
    let next = at(j + 1)
    switch d.interpolation {
    case .none, .backslashParen:
      return nil
    case .dollarBrace:
      guard b == ASCII.dollar, next == ASCII.openBrace else { return nil }
      return openInterpolation(segment, d, at: j, codeFrom: j + 2, closer: ASCII.closeBrace, state: &state)
    case .hashBrace:
      guard b == ASCII.hash, next == ASCII.openBrace else { return nil }
      return openInterpolation(segment, d, at: j, codeFrom: j + 2, closer: ASCII.closeBrace, state: &state)
    case .brace:
      guard b == ASCII.openBrace else { return nil }
      return openInterpolation(segment, d, at: j, codeFrom: j + 1, closer: ASCII.closeBrace, state: &state)
    case .shell:
      guard b == ASCII.dollar, next == ASCII.openParen || next == ASCII.openBrace else { return nil }
      let closer = next == ASCII.openParen ? ASCII.closeParen : ASCII.closeBrace
      return openInterpolation(segment, d, at: j, codeFrom: j + 2, closer: closer, state: &state)
    }
  }

  /// Enters the code of an interpolation that opens at `j` in the literal
  /// `segment`; its code starts at `codeFrom`. Nil when too deeply nested.
  mutating func openInterpolation(
    _ segment: Int, _ d: StringDelimiter, at j: Int, codeFrom: Int, closer: UInt8, state: inout LexerState
  ) -> Int? {
    if let frame {
      guard state.frames.count + 1 < Self.maximumFrames else { return nil }
      state.frames.append(frame)
    }
    frame = InterpolationFrame(
      delimiter: d, closer: closer, stringSegment: Int32(segment), interpolationSegment: Int32(open(.interpolation, j)))
    state.mode = .code
    lastSignificant = ASCII.openParen
    lastWordAllowsRegex = false
    return codeFrom
  }

  /// A bracket in the code of the interpolation `frame`: counts nesting,
  /// and closes the interpolation at its closer (returning to the literal).
  /// Nil for other bytes.
  mutating func interpolationBracket(_ b: UInt8, at i: Int, state: inout LexerState) -> Int? {
    guard let current = frame else { return nil }
    switch b {
    case ASCII.openParen, ASCII.openBracket, ASCII.openBrace:
      if current.depth < Int32.max { frame?.depth += 1 }
    case ASCII.closeParen, ASCII.closeBracket, ASCII.closeBrace:
      if current.depth > 0 {
        frame?.depth -= 1
      } else if b == current.closer {
        return closeInterpolation(at: i, state: &state)
      } else {
        return nil
      }
    case ASCII.colon:
      // A top-level `:` in a Python f-string field starts its format spec.
      guard current.delimiter.interpolation == .brace, current.depth == 0 else { return nil }
      frame?.inFormatSpec = true
      return i + 1
    default:
      return nil
    }
    lastSignificant = b
    lastWordAllowsRegex = false
    return i + 1
  }

  /// The format spec of a Python f-string field: text (with nested fields
  /// in braces) up to the field's closing brace.
  mutating func formatSpec(from start: Int, state: inout LexerState) -> Int {
    var j = start
    while j < n {
      if p[j] == ASCII.openBrace {
        if let depth = frame?.depth, depth < Int32.max { frame?.depth = depth + 1 }
      } else if p[j] == ASCII.closeBrace {
        if frame?.depth == 0 {
          frame?.inFormatSpec = false
          return closeInterpolation(at: j, state: &state)
        }
        frame?.depth -= 1
      }
      j += 1
    }
    return n
  }

  /// Leaves the interpolation `frame`, whose closer is at `i`, and goes on
  /// with its literal.
  mutating func closeInterpolation(at i: Int, state: inout LexerState) -> Int {
    guard let current = frame else { return i + 1 }
    frame = state.frames.popLast()
    close(Int(current.interpolationSegment), end: i + 1, contentEnd: i, endsOnLine: true)
    state.mode = .string(current.delimiter)
    return string(from: i + 1, segment: Int(current.stringSegment), current.delimiter, state: &state)
  }
}
