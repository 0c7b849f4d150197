/// GFM's extended autolinks as cmark-gfm 0.29.0.gfm.6's autolink extension
/// finds them: `www.` and `http://`, `https://`, `ftp://` links while
/// parsing (not inside brackets), and email addresses afterwards in the
/// rendered text runs outside links. Byte for byte as the extension reads.
extension InlineParser {
  /// At `:`: a URL autolink whose scheme is the letters just before.
  mutating func matchURLAutolink() -> Bool {
    let colon = position
    guard end - colon >= 4, at(colon + 1) == UInt8(ascii: "/"), at(colon + 2) == UInt8(ascii: "/") else {
      return false
    }
    var rewind = 0
    while rewind < colon && CharacterClasses.isAlpha(bytes[colon - rewind - 1]) { rewind += 1 }
    let start = colon - rewind
    guard isSafeURLStart(start) else { return false }
    let domain = Self.checkDomain(bytes, from: colon + 3, end: end, allowShort: true)
    guard domain > 0 else { return false }
    var linkEnd = 3 + domain
    while colon + linkEnd < end && !LinkSyntax.isSpace(bytes[colon + linkEnd]) { linkEnd += 1 }
    linkEnd = Self.trimmedLinkEnd(bytes, from: colon, length: linkEnd)
    guard linkEnd > 0 else { return false }
    guard unput(rewind) else { return false }
    items.append(InlineItem(.extendedAutolink, start, colon + linkEnd))
    destinations.append(start..<(colon + linkEnd))
    position = colon + linkEnd
    return true
  }

  /// At `w`: a `www.` autolink, after white space, `*`, `_`, `~` or `(`.
  mutating func matchWWWAutolink() -> Bool {
    let start = position
    if start > 0 {
      let before = bytes[start - 1]
      guard "*_~(".utf8.contains(before) || LinkSyntax.isSpace(before) else { return false }
    }
    guard end - start >= 4, at(start + 1) == UInt8(ascii: "w"), at(start + 2) == UInt8(ascii: "w"),
      at(start + 3) == UInt8(ascii: ".")
    else { return false }
    var linkEnd = Self.checkDomain(bytes, from: start, end: end, allowShort: false)
    guard linkEnd > 0 else { return false }
    while start + linkEnd < end && !LinkSyntax.isSpace(bytes[start + linkEnd]) { linkEnd += 1 }
    linkEnd = Self.trimmedLinkEnd(bytes, from: start, length: linkEnd)
    guard linkEnd > 0 else { return false }
    items.append(InlineItem(.extendedAutolink, start, start + linkEnd))
    destinations.append(start..<(start + linkEnd))
    position = start + linkEnd
    return true
  }

  /// `http://`, `https://` or `ftp://` (any case) at `start`, followed by a
  /// valid domain character.
  private func isSafeURLStart(_ start: Int) -> Bool {
    for scheme in ["http://", "https://", "ftp://"] {
      let count = scheme.utf8.count
      guard end - start > count else { continue }
      var same = true
      for (k, byte) in scheme.utf8.enumerated() where bytes[start + k] | 0x20 != byte | 0x20 {
        same = false
        break
      }
      if same && CharacterClasses.isHostCharacter(bytes, at: start + count, end: end) { return true }
    }
    return false
  }

  /// Takes `count` bytes off the end of the text just read (the scheme),
  /// as cmark_node_unput does; false when they are not plain text.
  private mutating func unput(_ count: Int) -> Bool {
    guard count > 0 else { return true }
    guard let last = items.last, last.kind == .text, last.end - last.start >= count, last.end == position
    else { return false }
    items[items.count - 1].end -= count
    if items[items.count - 1].start == items[items.count - 1].end { items.removeLast() }
    return true
  }

  /// cmark-gfm's check_domain from `start`: the length of the domain (the
  /// first byte is not examined, nor the input's last), or 0 when an
  /// underscore is in its last two labels or, unless `allowShort`, it has
  /// no dot.
  static func checkDomain(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, allowShort: Bool) -> Int {
    let size = end - start
    var index = 1
    var dots = 0
    var underscoresBefore = 0
    var underscores = 0
    while index < size - 1 {
      let byte = bytes[start + index]
      if byte == UInt8(ascii: "_") {
        underscores += 1
      } else if byte == UInt8(ascii: ".") {
        underscoresBefore = underscores
        underscores = 0
        dots += 1
      } else if !CharacterClasses.isHostCharacter(bytes, at: start + index, end: end) && byte != UInt8(ascii: "-") {
        break
      }
      index += 1
    }
    if underscoresBefore > 0 || underscores > 0 { return 0 }
    return allowShort || dots > 0 ? index : 0
  }

  /// cmark-gfm's autolink_delim: the link's length once cut at a `<` and
  /// without trailing punctuation, a trailing entity-like `&name;`, or an
  /// unbalanced `)`.
  static func trimmedLinkEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, length: Int) -> Int {
    var linkEnd = length
    for k in 0..<linkEnd where bytes[start + k] == UInt8(ascii: "<") {
      linkEnd = k
      break
    }
    while linkEnd > 0 {
      let last = bytes[start + linkEnd - 1]
      if "?!.,:*_~'\"".utf8.contains(last) {
        linkEnd -= 1
      } else if last == UInt8(ascii: ";") {
        var newEnd = linkEnd - 2
        while newEnd > 0 && CharacterClasses.isAlpha(bytes[start + newEnd]) { newEnd -= 1 }
        if newEnd < linkEnd - 2 && newEnd >= 0 && bytes[start + newEnd] == UInt8(ascii: "&") {
          linkEnd = newEnd
        } else {
          linkEnd -= 1
        }
      } else if last == UInt8(ascii: ")") {
        var opening = 0
        var closing = 0
        for k in 0..<linkEnd {
          if bytes[start + k] == UInt8(ascii: "(") {
            opening += 1
          } else if bytes[start + k] == UInt8(ascii: ")") {
            closing += 1
          }
        }
        if closing <= opening { break }
        linkEnd -= 1
      } else {
        break
      }
    }
    return linkEnd
  }
}

/// The email autolinks cmark-gfm finds after parsing, in one run of
/// rendered text (consecutive text nodes outside links): the ranges of the
/// addresses (with a `mailto:` or `xmpp:` before them when written).
enum EmailAutolinks {
  static func find(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var found: [Range<Int>] = []
    var offset = 0
    let size = text.count
    while offset < size {
      guard let at = text[offset...].firstIndex(of: UInt8(ascii: "@")) else { break }
      var rewind = 0
      var xmpp = false
      while rewind < at - offset {
        let byte = text[at - rewind - 1]
        if CharacterClasses.isAlphanumeric(byte) || ".+-_".utf8.contains(byte) {
          rewind += 1
          continue
        }
        if byte == UInt8(ascii: ":") {
          if protocolBefore("mailto:", text, at - rewind) {
            rewind += 1
            continue
          }
          if protocolBefore("xmpp:", text, at - rewind) {
            xmpp = true
            rewind += 1
            continue
          }
        }
        break
      }
      guard rewind > 0 else {
        offset = at + 1
        continue
      }
      var linkEnd = 0
      var ats = 0
      var dots = 0
      while at + linkEnd < size {
        let byte = text[at + linkEnd]
        if CharacterClasses.isAlphanumeric(byte) {
        } else if byte == UInt8(ascii: "@") {
          ats += 1
          if ats > 1 { break }  // cannot be an address; cmark-gfm reads on, to the same answer
        } else if byte == UInt8(ascii: ".") && at + linkEnd < size - 1
          && CharacterClasses.isAlphanumeric(text[at + linkEnd + 1])
        {
          dots += 1
        } else if byte == UInt8(ascii: "/") && xmpp {
        } else if byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") {
          break
        }
        linkEnd += 1
      }
      let lastByte = linkEnd > 0 ? text[at + linkEnd - 1] : 0
      guard linkEnd >= 2, ats == 1, dots > 0, CharacterClasses.isAlpha(lastByte) || lastByte == UInt8(ascii: ".")
      else {
        offset = at + 1
        continue
      }
      linkEnd = InlineParser.trimmedLinkEnd(text, from: at, length: linkEnd)
      guard linkEnd > 0 else {
        offset = at + 1
        continue
      }
      found.append((at - rewind)..<(at + linkEnd))
      offset = at + linkEnd
    }
    return found
  }

  /// True when `scheme` ends just before `index` (its `:` at `index - 1`)
  /// and no letter or digit comes before it.
  private static func protocolBefore(_ scheme: String, _ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
    let letters = Array(scheme.utf8)
    guard index - letters.count >= 0 else { return false }
    for k in 0..<letters.count where text[index - letters.count + k] != letters[k] { return false }
    let before = index - letters.count - 1
    return before < 0 || !CharacterClasses.isAlphanumeric(text[before])
  }
}
